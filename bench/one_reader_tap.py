"""Benchmark: how soon a block tapped on the one-reader build's reader is asked on its owner's phone.

The whole path as `rubicon run` assembles it from `[devices] one_reader = "spi"`: the real mfrc522
library and our driver on the register-level emulated reader (the real clock: the driver really
waits its 5.1 ms field settle and 5.1 ms field reset), the scanner's 2 stable passes, the table
session's owner thread, the snapshot with the phone's question. Measured from the tag set on the
reader to the snapshot carrying the question, over --taps taps (a one-step move each time, the
question answered so the next tap asks again). It runs on this machine's Python and emulator,
slower than a Pi's SPI but with the same RF waits; the model line gives the Pi's figure from the
per-pass RF time (settle + reset + frames) for comparison.

Usage: .venv/bin/python bench/one_reader_tap.py [--taps N] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from engine import (  # noqa: E402
    BOARD,  # noqa: E402
    Move,
    parse_action,
)
from firmware_bridge.board.reader_map import ReaderMap, one_reader_layout  # noqa: E402
from firmware_bridge.board.tag_registry import TagRegistry  # noqa: E402
from firmware_bridge.emulation.rig import EmulatedRig  # noqa: E402
from firmware_bridge.rfid.reader_array import FIELD_RESET_S, FIELD_SETTLE_S  # noqa: E402
from rubicon.config import parse_config  # noqa: E402
from rubicon.journal import Journal  # noqa: E402
from rubicon.table.assembly import assemble  # noqa: E402
from rubicon.table.chance import SeededChance  # noqa: E402

GUARD_S = 20.0      # a tap never asked within this long is a failure, not a figure


def uid_of(block: int) -> str:
    return f"04C0DE{block:08X}"


def wait_for(session, predicate):
    deadline = time.monotonic() + GUARD_S
    snap = session.snapshot()
    while not predicate(snap):
        left = deadline - time.monotonic()
        if left <= 0:
            raise SystemExit(f"no question within {GUARD_S} s")
        snap = session.wait_for_change(snap.version, min(left, 0.5))
    return snap


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    latencies: list[float] = []
    with tempfile.TemporaryDirectory(prefix="rubicon-bench-") as scratch:
        registry = TagRegistry(Path(scratch) / "tags.json", tags={uid_of(b.id): b.key for b in BOARD.blocks})
        registry.save()
        os.environ["RUBICON_TAGS"] = str(registry.path)
        pins = MockFactory()
        Device.pin_factory = pins
        layout = ReaderMap.load(one_reader_layout())
        rig = EmulatedRig(layout.indices, layout.bus.address_pins, pin_factory=pins)
        journal = Journal(Path(scratch) / "journal.sqlite3")
        with rig.installed():
            table = assemble(parse_config('[devices]\none_reader = "spi"\n'), journal, chance=SeededChance(1),
                             pin_factory=pins)
            table.start()
            session = table.session
            try:
                wait_for(session, lambda s: s.public.table["devices"].get("readers") == "up")
                for _ in range(2):
                    for side in ("Caesar", "Pompeius"):
                        assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
                while len(latencies) < args.taps:
                    snap = session.snapshot()
                    if snap.result is not None:
                        break
                    side = next(s for s in snap.waiting_for if s in ("Caesar", "Pompeius"))
                    legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
                    moves = [m for m in map(parse_action, legal) if isinstance(m, Move)]
                    if not moves:       # the rest of the game, on the phones
                        assert session.act(side, legal[len(latencies) % len(legal)]).ok
                        continue
                    move = moves[len(latencies) % len(moves)]
                    started = time.perf_counter()
                    rig.place(uid_of(move.block), 0)
                    asked = wait_for(session, lambda s, side=side: s.side(side).table["ask"] is not None)
                    latencies.append(time.perf_counter() - started)
                    rig.lift(uid_of(move.block))
                    options = asked.side(side).table["ask"]["options"]
                    option = next((o for o in options if o["lines"][0] == str(move)), options[0])
                    assert session.answer(side, option["value"]).ok
                    wait_for(session, lambda s, side=side: not s.side(side).table.get("on_reader"))
            finally:
                table.stop()
                journal.close()
    latencies.sort()
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    frames_s = 0.0025        # a 7-byte tag: REQA/WUPA, two cascade levels, SELECTs, HLTA, the final REQA
    pass_model = FIELD_SETTLE_S + FIELD_RESET_S + frames_s
    result = {"taps": len(latencies), "p50_s": statistics.median(latencies), "p95_s": p95, "max_s": latencies[-1],
              "model_pass_s": pass_model, "model_asked_s": (1.5 + 1) * pass_model}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"One-reader build, tap -> question on the owner's phone, {len(latencies)} taps on this machine:")
    print(f"  p50 {result['p50_s'] * 1e3:.0f} ms, p95 {p95 * 1e3:.0f} ms, max {latencies[-1] * 1e3:.0f} ms")
    print(f"  model on a Pi: a pass = settle {FIELD_SETTLE_S * 1e3:.1f} + reset {FIELD_RESET_S * 1e3:.1f} + frames "
          f"~{frames_s * 1e3:.1f} ms = {pass_model * 1e3:.1f} ms; seen after 2 stable passes (and on average half a "
          f"pass before the first): ~{result['model_asked_s'] * 1e3:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Model: how long one pass over the sensing board takes, and how soon a block set down is known.

A model, not a measurement: every figure is built from datasheet and standard timings and a cited
per-transfer overhead, over the real layout (`rubicon board-layout`'s zones) and real boards: the 705
set-up, and the most crowded position of seeded random games (the engine's self-play). It prints
the pass time of each scanner and the set-down latency (median and p95) for several builds, so the
scale-out decision in hardware/WIRING-rfid.md can be checked and re-run.

Timings (sources):
- ISO/IEC 14443-2/-3, type A at 106 kbit/s: one bit = 128/fc = 9.44 us; a standard frame of n bytes is
  1 + 9n + 1 bits (start, 8 data + parity per byte, end), a short frame (REQA/WUPA) 9 bits; a tag
  answers 1172/fc = 86 us after the end of the request (frame delay time).
- ISO/IEC 14443-3: a tag must accept a request within 5 ms of entering the unmodulated field; the NFC
  Forum's guard time before the first request is 5.1 ms. So each field is left on 5.1 ms (--settle-ms)
  before its first request: the field-settle time of one-field-at-a-time scanning.
- 7-byte UIDs (every NTAG213 / Ultralight: cascade level 2): per tag WUPA, anticollision and SELECT at
  level 1, anticollision and SELECT at level 2, HLTA; tags in one field collide at level 1 (their first
  UID byte is NXP's 0x04 for all, the next two differ), and the walk needs one more anticollision frame
  per collision: 2k - 1 level-1 anticollision frames for k tags. One final WUPA after the walk finds any
  tag left unread (no answer: the timeout). An empty field: one WUPA and its timeout.
- No-answer timeout: the firmware's 2 ms (hardware/firmware/mfrc522_pico.py: TReload 80 x 25 us);
  --timeout-ms 0.5 models the shorter timer a tag's 86 us answer time allows.
- MFRC522 register traffic per frame, as hardware/firmware/mfrc522_pico.py does it (one 2-byte SPI
  transfer per register access): 5 set-up writes, one per FIFO byte, 2 to start, interrupt polls until
  the answer or the timer, then error, FIFO level, one per byte read, control (and CollReg after a
  collision). Field on/off: a read and a write of TxControlReg each.
- Per-transfer overhead (a 2-byte transfer at 1 MHz is 16 us on the wire):
  MicroPython on the RP2040 ~50 us (a MicroPython hardware-SPI write of a few bytes with its chip
  select costs ~50 us of dead time: github.com/polpo/rp2040-psram issue 12);
  Pico C SDK ~1 us (github.com/raspberrypi/pico-sdk issue 292);
  Python on a Raspberry Pi 219 us for one 7-byte transfer (python-periphery on a CM4:
  github.com/vsergeev/python-periphery issue 56).
- Arrival: a block counts as placed after 2 consecutive reads see it (the Pi-wired scanner's
  appear_scans = 2); the USB link and the bridge add 2 ms. The last column: the same if arrivals waited
  for the 400 ms presence window (firmware_bridge/shared/debounce.py), as the firmware did before.
- The firmware as shipped: the row "firmware as shipped" is built from hardware/firmware/firmware_config.py
  as it is in the tree (PIPELINE, FIELD_MS as the settle time, ARRIVE_READS, CONFIRM_AT_ONCE: the second
  read at once after a field reset of 2 x FIELD_MS, DEBOUNCE_MS for departures only), MicroPython's
  per-transfer overhead, bursts and the 0.5 ms timer of mfrc522_pico.py, three Picos (the layout's regions).

Usage: .venv/bin/python bench/rfid_pass_model.py [--games 6] [--json | --markdown]
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import (  # noqa: E402
    BOARD,  # noqa: E402
    game_rng,
    play_game,
)
from firmware_bridge.board.field_check import design_layout  # noqa: E402
from firmware_bridge.board.layout import Layout, LayoutRules, MapFrame, compute_layout, spots_in_mm  # noqa: E402
from firmware_bridge.board.loop_field import Tag  # noqa: E402

BIT_US = 128 / 13.56                # one bit at 106 kbit/s
FDT_US = 1172 / 13.56               # request end -> answer start
USB_MS = 2.0
FLICKER_WINDOW_MS = 400.0           # firmware_bridge/shared/debounce.py DEFAULT_WINDOW_MS


FIRMWARE_CONFIG = Path(__file__).resolve().parents[1] / "hardware" / "firmware" / "firmware_config.py"


@dataclass(frozen=True)
class Build:
    name: str
    xfer_us: float                  # per-transfer overhead
    scanners: int                   # independent scanners (Picos, or cores, or the Pi), each its own bus
    pipelined: bool                 # next field switched on while this one is read (2 fields per scanner)
    timeout_ms: float = 2.0         # no answer to a request; HLTA waits max(this, 1 ms)
    burst: bool = False             # FIFO and status in bursts (see frame_us), not one register per transfer
    spi_hz: float = 1_000_000
    settle_ms: float | None = None  # the field's settle time (None: --settle-ms)
    arrival: str = "2 reads"        # "2 reads" (two passes), "at once" (second read after a field reset), "window"


def shipped_build(path: Path = FIRMWARE_CONFIG) -> Build:
    """The board scanner as hardware/firmware/firmware_config.py configures it (module docstring)."""
    import runpy

    cfg = runpy.run_path(str(path))
    if cfg.get("CONFIRM_AT_ONCE"):
        arrival = "at once"
    elif cfg.get("ARRIVE_READS"):
        arrival = "2 reads" if cfg["ARRIVE_READS"] == 2 else "window"
    else:
        arrival = "window"
    return Build(f"firmware as shipped ({'pipelined' if cfg.get('PIPELINE') else 'in turn'}, "
                 f"{'confirm at once' if arrival == 'at once' else arrival})", 50, 3, bool(cfg.get("PIPELINE")),
                 0.5, True, settle_ms=float(cfg["FIELD_MS"]), arrival=arrival)


def frame_us(sent_bytes: int | None, answer_bytes: int | None, build: Build, collision: bool = False,
             timeout_ms: float | None = None) -> float:
    """One request/answer exchange: register traffic plus air time; sent_bytes None = a short frame.

    Register traffic, one register per transfer (the firmware today): 5 set-up writes (TxMode, RxMode,
    Command=Idle, ComIrq clear, FIFO flush), one write per FIFO byte, Command=Transceive, BitFraming
    start, polls of ComIrq, then BitFraming, Error, FIFOLevel, one read per FIFO byte, Control (and Coll).
    In bursts (the MFRC522's SPI writes any number of bytes to one address, the FIFO, and reads a list of
    addresses in one frame: datasheet 8.1.2): ComIrq clear, FIFO flush, the FIFO bytes in one write,
    Transceive, BitFraming start, polls, then one read of Error/FIFOLevel/Control/Coll and one of the FIFO."""
    def xfer(nbytes: int) -> float:
        return build.xfer_us + nbytes * 8e6 / build.spi_hz

    poll = xfer(2)
    out_bits = 9 if sent_bytes is None else 2 + 9 * sent_bytes
    nsent = 1 if sent_bytes is None else sent_bytes
    if build.burst:
        fixed = 2 * xfer(2) + xfer(1 + nsent) + 2 * xfer(2)
    else:
        fixed = (5 + nsent + 2) * xfer(2)
    if answer_bytes is None:
        limit = build.timeout_ms if timeout_ms is None else timeout_ms
        return fixed + max(out_bits * BIT_US + limit * 1000, poll)
    wait = out_bits * BIT_US + FDT_US + (2 + 9 * answer_bytes) * BIT_US
    polled = (int(wait // poll) + 1) * poll          # the poll that sees the interrupt ends the wait
    if build.burst:
        after = xfer(1 + 4) + xfer(1 + answer_bytes)
    else:
        after = (3 + answer_bytes + 1 + (1 if collision else 0)) * xfer(2)
    return fixed + polled + after


def read_us(tags: int, build: Build) -> float:
    """Inventory of one field holding `tags` 7-byte-UID tags, field already settled."""
    if tags == 0:
        return frame_us(None, None, build)
    t = tags * frame_us(None, 2, build)                           # WUPA -> ATQA per branch
    t += (2 * tags - 1) * frame_us(2, 5, build, collision=tags > 1)   # level-1 anticollision
    t += tags * (frame_us(9, 3, build) + frame_us(2, 5, build) + frame_us(9, 3, build))  # SELECT, AC2, SELECT
    t += tags * frame_us(4, None, build, timeout_ms=max(1.0, build.timeout_ms))   # HLTA: silence is the answer
    t += frame_us(None, None, build)                              # the final request finds nothing more
    return t


def field_switch_us(build: Build) -> float:
    return 2 * (build.xfer_us + 16e6 / build.spi_hz)


def schedule(loads: list[int], build: Build, settle_ms: float) -> tuple[float, list[tuple[float, float]]]:
    """One scanner's pass: (period, [(sample time, read duration)] per antenna), in its scan order."""
    settle = settle_ms * 1000
    t, out = 0.0, []
    ready = settle + field_switch_us(build)          # first field on at 0
    for i, tags in enumerate(loads):
        start = max(t, ready)
        dur = read_us(tags, build)
        out.append((start, dur))
        t = start + dur + field_switch_us(build)      # this field off
        if build.pipelined and i + 1 < len(loads):
            ready = start + field_switch_us(build) + settle      # next field went on as this read began
        else:
            ready = t + field_switch_us(build) + settle
    if build.pipelined:
        t = max(t, settle)      # the first field of the next pass went on during the last read
    return t, out


def latency_samples(period: float, reads: list[tuple[float, float]], debounce: str,
                    field_ms: float = 6.0) -> list[float]:
    """Set-down latencies (ms) on a grid of set-down times across one period, for every antenna."""
    out = []
    grid = 200
    for sample, dur in reads:
        for k in range(grid):
            t = (k + 0.5) / grid * period
            first = sample if sample >= t else sample + period
            if debounce == "2 reads":
                known = first + period + dur
            elif debounce == "at once":     # read, field off and on again (2 x FIELD_MS), read again
                known = first + dur + 2 * field_ms * 1000 + dur
            else:   # the firmware's window: raw presence held 400 ms, checked after each pass
                held = first + FLICKER_WINDOW_MS * 1000
                passes = -(-(held - first) // period)
                known = first + passes * period + dur
            out.append((known - t) / 1000 + USB_MS)
    return out


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def board_layout(regions: int, field: bool = True) -> Layout:
    """The layout `rubicon board-layout` ships (designed with the field model, its defaults: 19 mm blocks,
    12 mm tags, a 1 mm map), or with `field` False the geometric layout alone (faster)."""
    rules = LayoutRules(regions=regions)
    frame = MapFrame.image_frame(rules.board_w, rules.board_h)
    places = [(BOARD.loc_names[i], "sea" if BOARD.is_sea[i] else "city", *BOARD.map_xy[i]) for i in range(BOARD.n_locs)]
    spots = spots_in_mm(places, frame)
    if not field:
        return compute_layout(spots, rules, frame=frame)
    return design_layout(spots, rules, Tag(12.0, 1.5), frame=frame).layout


def setup_705() -> dict[str, int]:
    data = json.loads((Path(__file__).resolve().parents[1] / "engine" / "data" / "setup_705.json").read_text())
    counts: dict[str, int] = {}
    for side in ("Caesar", "Pompeius"):
        for loc, blocks in data[side]["map"].items():
            counts[loc] = counts.get(loc, 0) + len(blocks)
    return counts


def crowded(games: int) -> tuple[dict[str, int], str]:
    """The position with the most blocks on the map over `games` seeded random games."""
    best: tuple[int, int, dict[str, int], str] = (-1, -1, {}, "")

    def look(game, _action, index) -> None:
        nonlocal best
        st = game.state
        counts = {BOARD.loc_names[loc]: len(st.at[loc]) for loc in range(BOARD.n_locs) if st.at[loc]}
        key = (sum(counts.values()), max(counts.values(), default=0))
        if key > best[:2]:
            best = (*key, counts, f"game {index}, year {st.year}, turn {st.turn}")

    for index in range(games):
        play_game(game_rng(705, index), after=lambda g, a, i=index: look(g, a, i), take_back=False)
    return best[2], best[3]


def scanner_loads(layout: Layout, counts: dict[str, int], scanners: int) -> list[list[int]]:
    """Tags per antenna for each scanner, in its scan order. Three scanners: the layout's regions (one
    Pico each); six: its regions' two SPI buses (one per core); otherwise equal west-to-east slices. A
    scanner reads its antennas alternating between the two halves of its list, so that the two fields
    on at once when pipelined are far apart."""
    regions = max(a.region for a in layout.antennas) + 1
    buses = max(a.bus for a in layout.antennas) + 1
    if scanners == regions:
        groups = [[a for a in layout.antennas if a.region == r] for r in range(regions)]
    elif scanners == regions * buses:
        groups = [[a for a in layout.antennas if (a.region, a.bus) == (r, b)] for r in range(regions)
                  for b in range(buses)]
    else:
        ants = sorted(layout.antennas, key=lambda a: (a.cx, a.cy))
        groups = [ants[s * len(ants) // scanners:(s + 1) * len(ants) // scanners] for s in range(scanners)]
    out = []
    for chunk in groups:
        half = (len(chunk) + 1) // 2
        order = [a for pair in zip(chunk[:half], chunk[half:] + [None] * (half - len(chunk[half:])), strict=True)
                 for a in pair if a is not None]
        out.append([sum(counts.get(n, 0) for n in a.locations) for a in order])
    return out


BUILDS = [
    Build("Pi, Python, one bus, fields in turn", 219, 1, False),
    Build("Pi, Python, both buses, bursts, pipelined", 219, 2, True, 0.5, True),
    Build("1 Pico, MicroPython per register, 2 ms, in turn", 50, 1, False),
    Build("3 Picos, MicroPython per register, 2 ms, in turn", 50, 3, False),
    Build("3 Picos, firmware now: bursts, 0.5 ms, in turn", 50, 3, False, 0.5, True),
    Build("3 Picos, MicroPython, pipelined, 0.5 ms timer", 50, 3, True, 0.5),
    Build("3 Picos, MicroPython, bursts, pipelined, 0.5 ms", 50, 3, True, 0.5, True),
    Build("4 Picos, MicroPython, bursts, pipelined, 0.5 ms", 50, 4, True, 0.5, True),
    Build("3 Picos, both cores (2 buses), bursts, pipe., 0.5", 50, 6, True, 0.5, True),
    Build("3 Picos, C SDK, bursts, pipelined, 0.5 ms", 1, 3, True, 0.5, True),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="random games searched for a crowded board")
    parser.add_argument("--settle-ms", type=float, default=5.1)
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true")
    out.add_argument("--markdown", action="store_true", help="the table of hardware/BOARD-BUILD.md")
    parser.add_argument("--no-field", action="store_true",
                        help="the geometric layout instead of the field-designed one `rubicon board-layout` ships")
    args = parser.parse_args(argv)
    layout = board_layout(3, field=not args.no_field)
    boards = {"705 set-up": (setup_705(), "the historical set-up")}
    boards["crowded mid-game"] = crowded(args.games)
    results = []
    for board, (counts, where) in boards.items():
        for build in [shipped_build(), *BUILDS]:
            loads = scanner_loads(layout, counts, build.scanners)
            passes, samples, samples_window = [], [], []
            settle = args.settle_ms if build.settle_ms is None else build.settle_ms
            for scanner in loads:
                period, reads = schedule(scanner, build, settle)
                passes.append(period / 1000)
                samples += latency_samples(period, reads, build.arrival if build.arrival != "window" else "2 reads",
                                           settle)
                samples_window += latency_samples(period, reads, "window")
            results.append({
                "board": board, "where": where, "blocks_on_map": sum(counts.values()),
                "largest_stack": max(counts.values()), "build": build.name, "antennas": len(layout.antennas),
                "pass_ms": [round(p, 1) for p in passes],
                "p50_ms": round(percentile(samples, 50), 1), "p95_ms": round(percentile(samples, 95), 1),
                "p95_window_ms": round(percentile(samples_window, 95), 1)})
    if args.json:
        print(json.dumps({"settle_ms": args.settle_ms, "results": results}, indent=1))
        return 0
    if args.markdown:
        print(markdown(results, boards))
        return 0
    print(f"Sensing board: {len(layout.antennas)} antennas ({len(layout.shared)} shared zones), 7-byte UIDs, "
          f"field settle {args.settle_ms:g} ms")
    for board, (counts, where) in boards.items():
        print(f"\n{board} ({where}): {sum(counts.values())} blocks on the map, largest stack {max(counts.values())}")
        print(f"  {'build':<48} {'pass per scanner (ms)':<24} {'set-down p50':>12} {'p95':>8} {'p95 400ms-window':>17}")
        for r in (r for r in results if r["board"] == board):
            passes = "/".join(f"{p:.0f}" for p in r["pass_ms"])
            ok = "ok" if r["p95_ms"] <= 500 else "too slow"
            print(f"  {r['build']:<48} {passes:<24} {r['p50_ms']:>10.0f} ms {r['p95_ms']:>5.0f} ms "
                  f"{r['p95_window_ms']:>13.0f} ms  {ok}")
    print("\nset-down: from the block touching the map to the table knowing it (2 consecutive reads + USB);")
    print("the last column: the same with the serial firmware's 400 ms presence window for arrivals.")
    return 0


def markdown(results: list[dict], boards: dict) -> str:
    """The latency table of hardware/BOARD-BUILD.md, as this model computes it."""
    names = list(boards)
    counts = {b: sum(boards[b][0].values()) for b in names}
    lines = [f"| build ({results[0]['antennas']} antennas) | " + " | ".join(
                 f"{b} ({counts[b]} blocks): pass / p95 set-down" for b in names) + " |",
             "| --- | " + " | ".join("---" for _ in names) + " |"]
    for build in dict.fromkeys(r["build"] for r in results):
        cells = []
        for b in names:
            r = next(r for r in results if r["build"] == build and r["board"] == b)
            cells.append(f"≤ {max(r['pass_ms']):.0f} ms / {r['p95_ms']:.0f} ms")
        bold = "**" if build.startswith("firmware as shipped") else ""
        lines.append(f"| {bold}{build}{bold} | " + " | ".join(f"{bold}{c}{bold}" for c in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())

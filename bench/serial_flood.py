"""A megabyte of garbage with no newline, then a roll, over a pty and over socket:// (the real
pyserial and bridge, the simulated tray): how long until the roll is delivered, how many reads
the bridge made, whether the link was declared silent (over socket:// the megabyte
took a million one-byte reads, 4.8 s, and the link was dropped as silent).

    PYTHONPATH=. .venv/bin/python bench/serial_flood.py [--megabytes 1] [--runs 5]

Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.events import EventQueue  # noqa: E402
from firmware_bridge.serial_bridge.bridge import SerialBridge  # noqa: E402
from firmware_bridge.serial_bridge.link import LinkConfig  # noqa: E402
from firmware_bridge.sim.device_sim import DeviceSim  # noqa: E402


def wait_for(events: EventQueue, kind: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while True:
        event = events.get(timeout=max(0.001, deadline - time.monotonic()))
        if event.kind == kind:
            return event


def flood(transport: str, size: int, seed: int) -> tuple[float, int, int]:
    """(seconds from the garbage's first byte written to the roll's DiceRolled, reads, link losses)."""
    sim = DeviceSim("dice", tcp_port=0 if transport == "socket" else None, settle_ms=0, motion_ms=1).start()
    events = EventQueue()
    bridge = SerialBridge(sim.path, events, "dice", LinkConfig()).start()
    try:
        wait_for(events, "device_up")
        reads = bridge.link.reads
        garbage = random.Random(seed).randbytes(size).replace(b"\n", b"x") + b"\n"
        started = time.perf_counter()
        sim.inject("", raw=garbage)
        sim.roll((6, 6), wait=False)
        wait_for(events, "dice_rolled")
        return time.perf_counter() - started, bridge.link.reads - reads, bridge.counters["link_lost"]
    finally:
        bridge.stop()
        sim.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    size = int(args.megabytes * (1 << 20))
    for transport in ("pty", "socket"):
        runs = [flood(transport, size, seed) for seed in range(args.runs)]
        seconds = [r[0] for r in runs]
        print(f"{transport}: {size} bytes of garbage then a roll, {args.runs} runs: delivered after "
              f"median {statistics.median(seconds) * 1000:.0f} ms (max {max(seconds) * 1000:.0f} ms), "
              f"{statistics.median(r[1] for r in runs):.0f} reads, link lost {sum(r[2] for r in runs)} times",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

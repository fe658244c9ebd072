"""Serial bridge figures: latency, sustained throughput, and the debounce window's false-event rate.

    .venv/bin/python bench/serial_latency.py [--rolls 2000] [--lines 100000] [--hours 100]

1. Latency: a simulated tray (device_core on a real pty) rolls `--rolls` times; for each ROLL line
   the time it was written on the device side is taken, and the time its DiceRolled is taken off
   the bridge's queue by a consumer thread. Reports p50 / p99 / max.
2. Throughput: `--lines` SEEN/GONE lines, pre-encoded, are written as fast as the pty takes them;
   events/s = events delivered / (last event out - first line written).
3. Debounce: a tag that never moves, polled at 20 Hz for `--hours` simulated hours with RF misses
   (each poll missed with probability --miss, default 0.05, plus bursts of 2-4 consecutive misses
   starting at --burst, default 0.5%, of polls), through Debouncer windows 0..500 ms: false GONE
   events per hour. And 1000 real lifts of 0.5 s (a block moved): the share reported on time.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.events import EventQueue  # noqa: E402
from firmware_bridge.serial_bridge.bridge import SerialBridge  # noqa: E402
from firmware_bridge.serial_bridge.link import LinkConfig  # noqa: E402
from firmware_bridge.shared.debounce import Debouncer  # noqa: E402
from firmware_bridge.sim.device_sim import DeviceSim  # noqa: E402

CONFIG = LinkConfig(read_timeout=0.05, backoff_min=0.01)


def wait_for(events: EventQueue, kind: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = events.get(timeout=deadline - time.monotonic())
        if event.kind == kind:
            return event
    raise TimeoutError(kind)


def latency(rolls: int) -> dict:
    sim = DeviceSim("dice", settle_ms=0, motion_ms=1, seed=1).start()
    written: dict[int, float] = {}

    def tap(line: bytes) -> None:
        if b",ROLL," in line:
            written[int(line.split(b",")[2])] = time.monotonic()
    sim.tap = tap
    events = EventQueue()
    bridge = SerialBridge(sim.path, events, "dice", CONFIG).start()
    wait_for(events, "device_up")
    out: list[float] = []

    def consume() -> None:
        while len(out) < rolls:
            event = events.get()
            if event.kind == "dice_rolled":
                out.append(time.monotonic())
    consumer = threading.Thread(target=consume, daemon=True)
    consumer.start()
    rng = random.Random(2)
    for _ in range(rolls):
        sim.roll([rng.randint(1, 6) for _ in range(rng.randint(1, 4))])
        time.sleep(0.002)          # rolls arrive one at a time, as at a table
    consumer.join(60)
    bridge.stop()
    sim.close()
    lat = sorted((out[i] - written[i + 1]) * 1000 for i in range(len(out)))
    return {"rolls": len(lat), "p50_ms": lat[len(lat) // 2], "p99_ms": lat[int(len(lat) * 0.99)],
            "max_ms": lat[-1], "mean_ms": statistics.fmean(lat)}


def throughput(lines: int) -> dict:
    sim = DeviceSim("board", window_ms=0).start()     # the reader map's 81 readers
    events = EventQueue(maxsize=lines + 100)   # measures throughput, not the drop policy
    bridge = SerialBridge(sim.path, events, "board", CONFIG).start()
    wait_for(events, "device_up")
    sim.do(lambda: None).wait()
    # Numbered in the device's own sequence so the bridge sees no gap.
    payload = [("SEEN" if i % 2 == 0 else "GONE", (i // 2) % sim.sensors.count, "04%06X" % (i // 2))
               for i in range(lines)]
    done = threading.Event()
    count = [0, 0.0]

    def consume() -> None:
        while count[0] < lines:
            if events.get().kind in ("tag_seen", "tag_gone"):
                count[0] += 1
        count[1] = time.monotonic()
        done.set()
    threading.Thread(target=consume, daemon=True).start()

    def blast() -> None:
        data = b"".join(sim._numbered(verb, (reader, uid)) for verb, reader, uid in payload)
        start.append(time.monotonic())
        sim._raw(data)
    start: list[float] = []
    sim.do(blast)
    done.wait(120)
    bridge.stop()
    sim.close()
    elapsed = count[1] - start[0]
    return {"events": count[0], "seconds": elapsed, "events_per_s": count[0] / elapsed,
            "dropped": dict(bridge.counters)}


def false_events(hours: float, miss: float, burst_rate: float, windows=(0, 100, 200, 300, 400, 500),
                 poll_ms: int = 50, seed: int = 3) -> dict:
    rng = random.Random(seed)
    burst = 0

    def read() -> bool:
        """One poll of a tag that is there: missed alone with probability `miss`, or inside a burst
        of 2-4 consecutive misses (100-200 ms) that starts at a fraction `burst_rate` of polls."""
        nonlocal burst
        if burst == 0 and rng.random() < burst_rate:
            burst = rng.randint(2, 4)
        missed = burst > 0 or rng.random() < miss
        burst = max(0, burst - 1)
        return not missed

    raw = [read() for _ in range(int(hours * 3600 * 1000 / poll_ms))]
    key = (0, "04A1B2C3")
    result = {}
    for window in windows:
        deb = Debouncer(window)
        gone = 0
        for i, present in enumerate(raw):
            gone += sum(1 for _, p in deb.update(i * poll_ms, {key} if present else set()) if not p)
        # Real lifts of 500 ms (a block picked up and moved), 1000 times, flicker before and after.
        detected = 0
        for _ in range(1000):
            deb = Debouncer(window)
            t, gones = 0, []
            for phase, n in ((True, 60), (False, 500 // poll_ms), (True, 20)):
                for _ in range(n):
                    present = phase and read()
                    gones += [t for _, p in deb.update(t, {key} if present else set()) if not p]
                    t += poll_ms
            detected += any(3000 <= g < 3000 + 500 + window for g in gones)
        result[window] = {"false_gone_per_hour": gone / hours, "real_lifts_detected": detected / 1000}
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rolls", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--hours", type=float, default=100.0)
    parser.add_argument("--miss", type=float, default=0.05, help="chance a poll misses a tag that is there")
    parser.add_argument("--burst", type=float, default=0.005, help="chance a poll starts a 2-4 poll miss burst")
    args = parser.parse_args()
    lat = latency(args.rolls)
    print(f"latency, ROLL line written -> DiceRolled taken off the queue ({lat['rolls']} rolls over a pty): "
          f"p50 {lat['p50_ms']:.2f} ms, p99 {lat['p99_ms']:.2f} ms, max {lat['max_ms']:.2f} ms")
    thr = throughput(args.lines)
    print(f"throughput: {thr['events']} tag events in {thr['seconds']:.2f} s = {thr['events_per_s']:.0f} events/s "
          f"(bridge counters: {thr['dropped']})")
    print(f"debounce, a tag that never moves, 20 Hz polls, {args.hours:g} simulated hours of RF flicker "
          f"(miss {args.miss:g} per poll, bursts of 2-4 misses at {args.burst:g} of polls):")
    for window, figures in false_events(args.hours, args.miss, args.burst).items():
        print(f"  window {window:3d} ms: {figures['false_gone_per_hour']:10.2f} false GONE/hour, "
              f"{figures['real_lifts_detected']:.1%} of real 0.5 s lifts detected")
    return 0


if __name__ == "__main__":
    sys.exit(main())

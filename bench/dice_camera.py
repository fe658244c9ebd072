"""Camera dice tray figures: recognition accuracy on rendered scenes, recognition time per frame,
and the time from dice at rest to the DiceRolled event at the bridge.

    .venv/bin/python bench/dice_camera.py [--scenes 1000] [--rolls 20]

1. Accuracy: `--scenes` scenes (firmware_bridge/camera/render.py, seeds 2000...), scored as the
   tests do (accuracy.py): dice right, flat dice reported crooked, wrong values reported as sure.
2. Recognition time: DiceFinder.find on each scene's frame (p50 / p99 ms, this machine, one thread).
3. Rest -> table: the demo source hands out the first still frame after a roll (its time is taken),
   the real CameraTray (motion, 150 ms settle, recognition, device_core) writes ROLL on a pty, the
   real pyserial + SerialBridge put DiceRolled on the queue (its `t`). p50 / max over `--rolls`.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from firmware_bridge.camera.accuracy import Score, score_scene  # noqa: E402
from firmware_bridge.camera.recognise import DiceFinder  # noqa: E402
from firmware_bridge.camera.render import random_scene, render  # noqa: E402
from firmware_bridge.camera.sources import DemoSource  # noqa: E402
from firmware_bridge.camera.tray import CameraTray  # noqa: E402
from firmware_bridge.events import DiceRolled, EventQueue  # noqa: E402
from firmware_bridge.serial_bridge.bridge import SerialBridge  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenes", type=int, default=1000)
    parser.add_argument("--rolls", type=int, default=20)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    finder = DiceFinder()
    result, times = Score(), []
    for seed in range(2000, 2000 + args.scenes):
        scene = random_scene(seed)
        frame = render(scene)
        t0 = time.perf_counter()
        reading = finder.find(frame)
        times.append(time.perf_counter() - t0)
        score_scene(result, scene, reading)
    print(result.summary())
    for line in result.failures[:10]:
        print("  ", line)
    times.sort()
    p99 = times[int(0.99 * len(times))]
    print(f"recognition: p50 {1000 * statistics.median(times):.1f} ms, p99 {1000 * p99:.1f} ms per 640x480 frame")

    source = DemoSource()
    rested: list[float] = []
    source.rested = rested.append
    tray = CameraTray(source).start()
    events = EventQueue()
    bridge = SerialBridge(tray.path, events, "dice").start()
    delays = []
    try:
        for k in range(args.rolls):
            scene = random_scene(3000 + k, tilted=0)
            source.roll(scene)
            while True:
                event = events.get(timeout=30)
                if isinstance(event, DiceRolled):
                    delays.append(event.t - rested[-1])
                    break
    finally:
        bridge.stop()
        tray.close()
    print(f"dice at rest (first still frame) -> DiceRolled at the bridge, {len(delays)} rolls: "
          f"p50 {1000 * statistics.median(delays):.0f} ms, max {1000 * max(delays):.0f} ms")


if __name__ == "__main__":
    main()

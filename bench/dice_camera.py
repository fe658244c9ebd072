"""Camera dice tray figures: how the recogniser reads dice seen through the reference tray's lens
(3-D scenes, mast level and tilted up to 4 degrees), photographs of real dice, and the 2-D demo
pictures, each kind reported apart; recognition time per frame; and dice at rest -> DiceRolled.

    .venv/bin/python bench/dice_camera.py [--scenes 40] [--rolls 40] [--cache DIR]

1. Accuracy, one table row per scene kind (tests/camera/world_score.py): dice, right, wrong as
   sure, crooked (unsure), missed, rolls read first time, 4-dice rolls read first time.
   - "3-D, mast level" / "3-D, mast tilted 1-4 deg": tests/camera/world3d.py, seeds 20000... /
     30000..., every other scene four dice, 30 % touching, half with a lamp's glints, one die in
     twenty leaning on another (must be crooked); DiceFinder with the reference tray's settings
     (die_px 56, lens 199.5 mm), no calibration.
   - "photos, tune" / "photos, held-out": tests/camera/photos (real dice, BSD-3), read with the
     floor colour and die size learned from the tune third.
   - "2-D demo pictures": firmware_bridge/camera/render.py, seeds 2000... (the old figure).
   Rendered 3-D frames are kept in --cache (default build/dice-bench) for the next run.
2. Recognition time: DiceFinder.find per 640 x 480 frame, one OpenCV thread (p50 / p95).
3. Rest -> table: the demo source hands out the first still frame after a roll (its time is taken),
   the real CameraTray (motion, 150 ms settle, two still frames read and compared, device_core)
   writes ROLL on a pty, the real pyserial + SerialBridge put DiceRolled on the queue (its `t`).
"""
from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from firmware_bridge.camera.recognise import DiceFinder, Settings  # noqa: E402
from firmware_bridge.camera.render import random_scene, render  # noqa: E402
from firmware_bridge.camera.sources import DemoSource  # noqa: E402
from firmware_bridge.camera.tray import CameraTray  # noqa: E402
from firmware_bridge.events import DiceRolled, DiceState, EventQueue  # noqa: E402
from firmware_bridge.serial_bridge.bridge import SerialBridge  # noqa: E402
from tests.camera import world3d  # noqa: E402
from tests.camera.real_set import learned, photos  # noqa: E402
from tests.camera.world_score import HEADER, Tally  # noqa: E402


def world_frames(first: int, count: int, tilted: bool, cache: Path):
    """(world, frame) for `count` 3-D scenes from seed `first`, rendered once and cached."""
    cache.mkdir(parents=True, exist_ok=True)
    for seed in range(first, first + count):
        path = cache / f"{seed}.pkl"
        if path.exists():
            world, png = pickle.loads(path.read_bytes())
            yield world, cv2.imdecode(png, cv2.IMREAD_COLOR)
            continue
        tilt = 1 + 3 * ((seed * 0.618) % 1) if tilted else 0.0
        world = world3d.random_world(seed, n=4 if seed % 2 == 0 else None, tilt=tilt, leaning=0.05)
        frame = world3d.render(world)
        path.write_bytes(pickle.dumps((world, cv2.imencode(".png", frame)[1])))
        yield world, frame


def timed(finder: DiceFinder, frame, times: list[float]):
    t0 = time.perf_counter()
    reading = finder.find(frame)
    times.append(time.perf_counter() - t0)
    return reading


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenes", type=int, default=40, help="3-D scenes per kind (default 40)")
    parser.add_argument("--demo-scenes", type=int, default=300, help="2-D demo pictures (default 300)")
    parser.add_argument("--rolls", type=int, default=40)
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "dice-bench")
    parser.add_argument("--failures", type=int, default=8, help="failures listed per kind")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rows, times = [], []
    finder = DiceFinder()
    for kind, first, tilted in (("3-D, mast level", 20000, False), ("3-D, mast tilted 1-4 deg", 30000, True)):
        tally = Tally()
        for world, frame in world_frames(first, args.scenes, tilted, args.cache):
            places = [world3d.top_centre(world, d) for d in world.dice]
            tally.add(world.truth(), places, 28, timed(finder, frame, times), f"seed {world.seed} {world.tags}")
        rows.append((kind, tally))
    got = learned(photos("tune"))
    real = DiceFinder(Settings(die_px=got["die_px"], floor_lab=got["floor_lab"], floor_scale=0.96))
    for split in ("tune", "held-out"):
        tally = Tally()
        for photo in photos(split):
            tally.add(list(photo.values), photo.centres(), 0.5 * got["die_px"] / 0.88, real.find(photo.image()),
                      photo.name)
        rows.append((f"photos, {split}", tally))
    flat = DiceFinder(Settings(floor_scale=1.0))
    tally = Tally()
    for seed in range(2000, 2000 + args.demo_scenes):
        scene = random_scene(seed)
        places = [(d.x, d.y) for d in scene.dice]
        tally.add(scene.truth(), places, 28, flat.find(render(scene)), f"seed {seed} {scene.tags}")
    rows.append(("2-D demo pictures", tally))
    print(HEADER)
    for kind, tally in rows:
        print(tally.row(kind))
    for kind, tally in rows:
        print(f"\n{kind}: why unsure: {dict(tally.why.most_common())}")
        for line in tally.failures[:args.failures]:
            print("  ", line)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"\nrecognition (3-D frames, one thread): p50 {1000 * statistics.median(times):.1f} ms, "
          f"p95 {1000 * p95:.1f} ms per 640x480 frame ({len(times)} frames)")

    source = DemoSource()
    rested: list[float] = []
    source.rested = rested.append
    tray = CameraTray(source).start()
    events = EventQueue()
    bridge = SerialBridge(tray.path, events, "dice").start()
    delays, crooked = [], 0
    try:
        for k in range(args.rolls):
            source.roll(random_scene(3000 + k, tilted=0))
            while True:
                event = events.get(timeout=30)
                if isinstance(event, DiceRolled):
                    delays.append(event.t - rested[-1])
                    break
                if isinstance(event, DiceState) and event.state == "crooked":
                    crooked += 1
                    break
    finally:
        bridge.stop()
        tray.close()
    delays.sort()
    print(f"dice at rest (first still frame) -> DiceRolled at the bridge, {len(delays)} rolls: "
          f"p50 {1000 * statistics.median(delays):.0f} ms, p95 {1000 * delays[int(0.95 * (len(delays) - 1))]:.0f} ms, "
          f"max {1000 * max(delays):.0f} ms ({crooked} rolls crooked, not timed)")


if __name__ == "__main__":
    main()

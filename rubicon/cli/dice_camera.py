"""`rubicon dice-camera serve` and `rubicon dice-camera check`: the camera dice tray's process and
its self-test (hardware/DICE.md).

`serve` runs the tray (firmware_bridge/camera/tray.py) on 127.0.0.1:PORT, where the table's
`devices.tray = "socket://127.0.0.1:PORT"` and `rubicon devices monitor` reach it as any tray.
`check` takes a few frames, says what it sees (the floor, each die with its value and confidence
or why it is unsure, the die size measured against `die_px`) and saves an annotated picture.
Settings come from the configuration's [camera_tray] section; options override them.
"""
from __future__ import annotations

import argparse
import sys


def register(commands) -> None:
    """Add `rubicon dice-camera serve|check` to the command."""
    top = commands.top.add_parser("dice-camera", help="the camera dice tray: serve it, or check what it sees")
    sub = top.add_subparsers(dest="dice_camera_command", metavar="COMMAND")
    top.set_defaults(func=lambda args: (top.print_help(sys.stderr), 2)[1])
    for name, helptext in (("serve", "run the camera tray, speaking protocol v1 on 127.0.0.1:PORT"),
                           ("check", "self-test: what the camera sees, with an annotated picture")):
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.add_argument("--config", help="configuration file (default: $RUBICON_CONFIG, else ./rubicon.toml)")
        p.add_argument("--camera", help='"rpicam", "/dev/video0", "demo" (default: [camera_tray] camera)')
        p.add_argument("--die-px", type=float, help="a die's side in pixels (default: [camera_tray] die_px)")
        if name == "serve":
            p.add_argument("--tcp", type=int, metavar="PORT", help="port on 127.0.0.1 (default: [camera_tray] port)")
            p.set_defaults(func=serve)
        else:
            p.add_argument("--frames", type=int, default=10, help="frames taken first (exposure settles), default 10")
            p.add_argument("--save", default="dice-check.png", help="annotated picture (default dice-check.png)")
            p.add_argument("--seed", type=int, default=7, help="with --camera demo: which rendered scene")
            p.set_defaults(func=check)


def _settings(args: argparse.Namespace):
    from firmware_bridge.camera.recognise import Settings
    from rubicon.config import config_or_report
    config = config_or_report(args.config, "fix the file (rubicon check-config FILE)")
    if config is None:
        return None, None
    camera = args.camera or config.camera
    if not camera:
        print("rubicon dice-camera: no camera: give --camera or set [camera_tray] camera", file=sys.stderr)
        return None, None
    die_px = args.die_px if args.die_px is not None else config.camera_die_px
    return config, (camera, Settings(die_px=die_px))


def serve(args: argparse.Namespace) -> int:
    """`rubicon dice-camera serve`: run the camera tray on a port the table's dice device opens, until Ctrl-C."""
    import logging

    from firmware_bridge.camera.recognise import DiceFinder
    from firmware_bridge.camera.sources import open_source
    from firmware_bridge.camera.tray import CameraTray

    config, chosen = _settings(args)
    if config is None or chosen is None:
        return 2
    camera, settings = chosen
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(message)s")
    try:
        source = open_source(camera)
    except OSError as exc:
        print(f"rubicon dice-camera: {exc}", file=sys.stderr)
        return 1
    port = args.tcp if args.tcp is not None else config.camera_port
    try:
        tray = CameraTray(source, DiceFinder(settings), tcp_port=port, settle_ms=config.camera_settle_ms).start()
    except OSError as exc:
        source.close()
        print(f"rubicon dice-camera: cannot listen on port {port}: {exc}", file=sys.stderr)
        return 1
    print(f"camera dice tray ({camera}) on {tray.path}", flush=True)
    try:
        while not tray.camera_lost.wait(3600):
            pass
        print("rubicon dice-camera: the camera stopped delivering frames", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        tray.close()


def check(args: argparse.Namespace) -> int:
    """`rubicon dice-camera check`: the self-test; what the camera sees, each die with its confidence or why it is
    unsure, and an annotated picture."""
    import statistics

    import cv2

    from firmware_bridge.camera.annotate import annotate
    from firmware_bridge.camera.motion import MotionDetector
    from firmware_bridge.camera.recognise import DiceFinder
    from firmware_bridge.camera.render import random_scene, render
    from firmware_bridge.camera.sources import open_source

    config, chosen = _settings(args)
    if config is None or chosen is None:
        return 2
    camera, settings = chosen
    finder = DiceFinder(settings)
    detector = MotionDetector()
    if camera == "demo":
        frame = render(random_scene(args.seed))
        frames = [frame] * 2
    else:
        try:
            source = open_source(camera)
        except OSError as exc:
            print(f"rubicon dice-camera: {exc}", file=sys.stderr)
            return 1
        try:
            frames = [source.read() for _ in range(max(2, args.frames))]
        finally:
            source.close()
        if any(f is None for f in frames):
            print(f"rubicon dice-camera: {camera} gave no picture", file=sys.stderr)
            return 1
    for f in frames:
        moving = detector.update(f)
    frame = frames[-1]
    floor = cv2.countNonZero(finder.floor_mask(frame)) / (frame.shape[0] * frame.shape[1])
    reading = finder.find(frame)
    print(f"camera {camera}: {frame.shape[1]} x {frame.shape[0]}; green floor {100 * floor:.0f} % of the picture"
          + ("" if floor > 0.3 else " (too little: is the felt in view and lit?)"))
    print(f"motion between the last two frames: {100 * detector.changed:.2f} % of the pixels"
          + (" (moving: hold the tray still)" if moving else " (still)"))
    for i, die in enumerate(sorted(reading.dice, key=lambda d: d.centre), start=1):
        where = f"at ({die.centre[0]:.0f}, {die.centre[1]:.0f}) px, side {die.side:.0f} px"
        if die.value is not None:
            print(f"  die {i}: {die.value}  confidence {die.confidence:.2f}  {where}")
        else:
            print(f"  die {i}: crooked (unsure: {die.why})  {where}")
    read = [d for d in reading.dice if d.value is not None]
    if read:
        side = statistics.median(d.side for d in read)
        advice = "" if abs(side / settings.die_px - 1) < 0.08 else f": set [camera_tray] die_px = {side:.0f}"
        print(f"die size measured {side:.1f} px, configured {settings.die_px:.1f} px{advice}")
    if not reading.dice:
        print("no dice found: put the four dice in the tray, flat, and run again")
    pockets = reading.pockets()
    print("the tray would send: " + ("crooked (roll again)" if -1 in pockets or not any(pockets)
                                     else "ROLL " + " ".join(str(p) for p in pockets if p)))
    if args.save:
        cv2.imwrite(args.save, annotate(frame, reading))
        print(f"annotated picture: {args.save}")
    return 0 if reading.dice and all(d.value is not None for d in reading.dice) else 1

"""`rubicon dice-camera serve` and `rubicon dice-camera check`: the camera dice tray's process and
its self-test (hardware/DICE.md).

`serve` runs the tray (firmware_bridge/camera/tray.py) on 127.0.0.1:PORT, where the table's
`devices.tray = "socket://127.0.0.1:PORT"` and `rubicon devices monitor` reach it as any tray.
`check` takes a few frames, says what it sees (the floor, each die with its value and confidence
or why it is unsure, the die size measured against `die_px`) and saves an annotated picture; with
the Pi's camera it first checks that the sensor mode set is a full-field one the camera has.
`check --calibrate` learns the owner's dice (their size in the picture, where their corner pips
sit and how big a pip is) from the faces it reads over a few rolls, and writes them into the
configuration's [camera_tray] section.
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
            p.add_argument("--calibrate", action="store_true",
                           help="learn your dice from a few rolls (every face from 2 to 6 seen once) and write "
                                "die_px, pip_corner and pip_radius into the configuration")
            p.add_argument("--rolls", type=int, default=12, help="with --calibrate: rolls to watch at most (12)")
            p.set_defaults(func=check)


def _settings(args: argparse.Namespace):
    from firmware_bridge.camera.recognise import DIE_MM, Settings
    from rubicon.config import config_or_report
    config = config_or_report(args.config, "fix the file (rubicon check-config FILE)")
    if config is None:
        return None, None
    camera = args.camera or config.camera
    if not camera:
        print("rubicon dice-camera: no camera: give --camera or set [camera_tray] camera", file=sys.stderr)
        return None, None
    die_px = args.die_px if args.die_px is not None else config.camera_die_px
    # The demo's rendered frames are drawn from straight above everywhere (no side faces to see).
    floor_scale = 1.0 if camera == "demo" else (config.camera_lens_mm - DIE_MM) / config.camera_lens_mm
    return config, (camera, Settings(die_px=die_px, floor_scale=floor_scale,
                                     pip_corner=config.camera_pip_corner or None,
                                     pip_radius=config.camera_pip_radius or None))


def _open(camera: str, config):
    from firmware_bridge.camera.sources import open_source
    return open_source(camera, config.camera_sensor_mode, config.camera_lens_position)


def serve(args: argparse.Namespace) -> int:
    """`rubicon dice-camera serve`: run the camera tray on a port the table's dice device opens, until Ctrl-C."""
    import logging

    from firmware_bridge.camera.recognise import DiceFinder
    from firmware_bridge.camera.tray import CameraTray

    config, chosen = _settings(args)
    if config is None or chosen is None:
        return 2
    camera, settings = chosen
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(message)s")
    try:
        source = _open(camera, config)
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

    config, chosen = _settings(args)
    if config is None or chosen is None:
        return 2
    camera, settings = chosen
    if camera == "rpicam" and not _mode_ok(config):
        return 1
    if args.calibrate:
        return calibrate(args, config, camera, settings)
    finder = DiceFinder(settings)
    detector = MotionDetector()
    if camera == "demo":
        frame = render(random_scene(args.seed))
        frames = [frame] * 2
    else:
        try:
            source = _open(camera, config)
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


def _mode_ok(config) -> bool:
    """Whether the Pi's camera offers the configured sensor mode as a full-field mode (printed either way)."""
    import shutil
    import subprocess

    from firmware_bridge.camera.sources import check_mode

    exe = shutil.which("rpicam-hello") or shutil.which("rpicam-vid")
    if exe is None:
        print("rubicon dice-camera: rpicam-apps is not installed (sudo apt install rpicam-apps)", file=sys.stderr)
        return False
    try:
        listed = subprocess.run([exe, "--list-cameras"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"rubicon dice-camera: {exe} --list-cameras: {exc}", file=sys.stderr)
        return False
    problem = check_mode(listed.stdout + listed.stderr, config.camera_sensor_mode)
    dioptres = config.camera_lens_position
    lens = f"lens fixed at {dioptres:g} dioptres ({1000 / max(dioptres, 0.1):.0f} mm)"
    if problem:
        print(f"sensor mode {config.camera_sensor_mode or '(none)'}: {problem}", file=sys.stderr)
        return False
    print(f"sensor mode {config.camera_sensor_mode}: full field, scaled to 640 x 480; {lens}")
    return True


def calibrate(args: argparse.Namespace, config, camera: str, settings) -> int:
    """`check --calibrate`: read the dice over a few rests (any maker's layout), collect each read
    face's size, corner pips' distance and pip size, and write their medians into the configuration."""
    import dataclasses
    import statistics

    from firmware_bridge.camera.calibration import Calibration
    from firmware_bridge.camera.motion import MotionDetector
    from firmware_bridge.camera.recognise import DiceFinder
    from firmware_bridge.camera.render import random_scene, render

    finder = DiceFinder(dataclasses.replace(settings, pip_corner=None, pip_radius=None))
    calibration = Calibration(settings.die_px)
    if camera == "demo":
        frames = iter([render(random_scene(args.seed + k, n=4, tilted=0)) for k in range(args.rolls)])
        rests = (frame for frame in frames)
    else:
        try:
            source = _open(camera, config)
        except OSError as exc:
            print(f"rubicon dice-camera: {exc}", file=sys.stderr)
            return 1
        print(f"throw your dice into the tray, up to {args.rolls} times; each rest is read "
              "(every face from 2 to 6 is wanted once)", flush=True)
        rests = _rests(source, MotionDetector(), args.rolls)
    try:
        for frame in rests:
            reading = finder.find(frame)
            added = calibration.add(reading)
            print(f"  read {added} dice; faces seen: {' '.join(str(v) for v in sorted(calibration.faces)) or '-'}",
                  flush=True)
            if calibration.complete:
                break
    finally:
        if camera != "demo":
            source.close()
    result = calibration.result()
    if result is None:
        print(f"rubicon dice-camera: not enough read: {calibration.missing()}", file=sys.stderr)
        return 1
    print(f"your dice: side {result.die_px:.1f} px, corner pips {result.pip_corner:.3f} die widths from the centre"
          f" (spread {result.spread:.3f}), pips {result.pip_radius:.3f} die widths across {len(calibration.corners)}"
          f" faces" + (f" from {statistics.median(calibration.sides):.1f} px dice" if calibration.sides else ""))
    values = {"die_px": round(result.die_px, 1), "pip_corner": round(result.pip_corner, 3),
              "pip_radius": round(result.pip_radius, 3)}
    if result.mixed:
        print("the corner pips differ between your dice (more than one maker?): kept 'any maker' (pip_corner = 0)")
        values["pip_corner"] = 0.0
    if config.source is None:
        print("no configuration file: add these to its [camera_tray] section:")
        for key, value in values.items():
            print(f"  {key} = {value}")
        return 0
    from rubicon.config_edit import set_values
    set_values(config.source, "camera_tray", values)
    print(f"written to {config.source} [camera_tray]: " + ", ".join(f"{k} = {v}" for k, v in values.items()))
    return 0


def _rests(source, detector, rolls: int):
    """A frame each time the tray comes to rest after moving (five still frames), `rolls` times at most."""
    still, moved, seen = 0, True, 0
    while seen < rolls:
        frame = source.read()
        if frame is None:
            return
        if detector.update(frame):
            still, moved = 0, True
            continue
        still += 1
        if moved and still >= 5:
            moved = False
            seen += 1
            yield frame

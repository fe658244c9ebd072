"""Command-line entry points of the serial side: `rubicon device-sim` and `rubicon devices monitor`.

`device-sim --kind dice|board [--tcp PORT]` runs a simulated device, prints where the Pi should
connect, then takes script commands (see `device_sim.COMMANDS_HELP`) from --script or stdin.
`devices monitor URL` opens a tty path or any pyserial URL through the serial bridge and prints
every sensor event as one JSON line; dropped lines are logged once per reason on stderr, and the
counters are printed there on exit.
"""
from __future__ import annotations

import argparse
import sys


def register(commands) -> None:
    """Add `rubicon device-sim` and `rubicon devices monitor` to the command."""
    sim = commands.top.add_parser(
        "device-sim", help="simulated dice tray or board scanner on a pty or TCP port",
        description="Run a simulated dice tray or board scanner speaking protocol v1. It prints where to "
                    "connect (a pty path, or socket://127.0.0.1:PORT with --tcp), then reads commands, one per "
                    "line, from stdin or --script: 'roll 3 5 6', 'place 3 04A1B2C3', faults such as "
                    "'garbage 3' or 'disconnect 2'; 'help' lists them, 'quit' stops (hardware/PROTOCOL.md, "
                    "'Trying it').")
    sim.add_argument("--kind", choices=("dice", "board"), required=True,
                     help="a dice tray (roll ...) or a board scanner (place/remove ...)")
    sim.add_argument("--tcp", type=int, metavar="PORT",
                     help="listen on 127.0.0.1:PORT (connect with socket://127.0.0.1:PORT; 0: any free port) "
                          "instead of a pty")
    sim.add_argument("--readers", type=int, help="readers of a simulated board (default: the reader map's 81, "
                     "76 map locations, 2 levy pools, 2 eliminated areas and the scan pad)")
    sim.add_argument("--script", metavar="FILE", help="run the commands in FILE instead of reading stdin")
    sim.set_defaults(func=device_sim)

    mon = commands.devices.add_parser(
        "monitor", help="print a serial device's sensor events as JSON lines",
        description="Connect to a dice tray or board scanner (or `rubicon device-sim`) and print each sensor "
                    "event as one JSON line; lines dropped on the wire are logged once per reason on stderr and "
                    "counted, the counters printed on exit. A missing device is retried with backoff until "
                    "--seconds/--count or Ctrl-C. Exit 0 once a device of the right kind answered, 1 if none "
                    "did (or the wrong kind did), 2 for arguments that can never work.")
    mon.add_argument("url", help="tty path (/dev/ttyACM0) or pyserial URL (socket://host:port, e.g. a "
                                 "`rubicon device-sim --tcp`)")
    mon.add_argument("--kind", choices=("dice", "board"), help="refuse any other kind of device")
    mon.add_argument("--count", type=int, help="exit after this many sensor events (1 or more; device up/down and "
                                               "diagnostics are printed but not counted)")
    mon.add_argument("--seconds", type=float, help="exit after this many seconds (more than 0)")
    mon.set_defaults(func=monitor)


def device_sim(args: argparse.Namespace) -> int:
    """`rubicon device-sim`: run a simulated device on a pty or TCP port and play commands from stdin or a script."""
    import time

    from firmware_bridge.sim.device_sim import DeviceSim, run_command
    from firmware_bridge.sim.ports import PtyPort

    if args.readers is not None and not 1 <= args.readers <= 256:
        print("rubicon device-sim: --readers must be 1..256", file=sys.stderr)
        return 2
    if args.tcp is not None and not 0 <= args.tcp <= 65535:
        print(f"rubicon device-sim: --tcp PORT must be 0..65535, not {args.tcp}", file=sys.stderr)
        return 2
    try:
        script = open(args.script) if args.script else sys.stdin
    except OSError as exc:
        print(f"rubicon device-sim: {exc}", file=sys.stderr)
        return 2
    try:
        sim = DeviceSim(args.kind, tcp_port=args.tcp, readers=args.readers).start()
    except OSError as exc:
        print(f"rubicon device-sim: cannot listen: {exc}", file=sys.stderr)
        return 1
    where = f"{sim.path} (now {sim.port.tty})" if isinstance(sim.port, PtyPort) else sim.path
    source = f"running {args.script}" if args.script else "type help for commands"
    print(f"{args.kind} simulator on {where}; {source}", flush=True)
    try:
        for n, line in enumerate(script, start=1):
            if line.strip() in ("quit", "exit"):
                return 0
            try:
                reply = run_command(sim, line)
            except ValueError as exc:
                at = f"{args.script}:{n}: " if args.script else ""
                print(f"{at}error: {exc}", file=sys.stderr, flush=True)
                continue
            if reply:
                print(reply, flush=True)
        done = "script done" if args.script else "input closed"
        print(f"({done}: the device stays up until Ctrl-C)", file=sys.stderr, flush=True)
        while True:              # keep the device up until interrupted
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        sim.close()
        if script is not sys.stdin:
            script.close()


def monitor(args: argparse.Namespace) -> int:
    """`rubicon devices monitor`: connect to a serial device and print every event it sends, with the link's
    counters at the end."""
    import json
    import logging
    import queue
    import time

    from firmware_bridge.events import DeviceDown, DeviceUp, Diagnostic, EventQueue
    from firmware_bridge.serial_bridge.bridge import SerialBridge

    problem = _monitor_argument_problem(args)
    if problem:
        print(f"rubicon devices monitor: {problem}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(message)s")
    events = EventQueue()
    bridge = SerialBridge(args.url, events, args.kind).start()
    deadline = time.monotonic() + args.seconds if args.seconds is not None else None
    printed = counted = 0
    came_up = False
    try:
        while args.count is None or counted < args.count:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            try:
                event = events.get(timeout=0.2 if left is None else min(0.2, left))
            except queue.Empty:
                continue
            print(json.dumps(event.to_dict()), flush=True)
            printed += 1
            came_up = came_up or isinstance(event, DeviceUp)
            if not isinstance(event, DeviceUp | DeviceDown | Diagnostic):
                counted += 1
    except KeyboardInterrupt:
        pass
    finally:
        bridge.stop()
        counters = {k: v for k, v in sorted(bridge.counters.items())}
        print(f"rubicon devices monitor: {printed} events; dropped/recovered: {json.dumps(counters)}",
              file=sys.stderr)
    if not came_up and bridge.counters.get("wrong_device"):
        print(f"rubicon devices monitor: {args.url}: the device that answered was refused "
              f"({bridge.session.rejected or 'the wrong kind or protocol, see above'})", file=sys.stderr)
        return 1
    if not came_up:
        print(f"rubicon devices monitor: no device answered on {args.url}", file=sys.stderr)
        return 1
    return 0


def _monitor_argument_problem(args: argparse.Namespace) -> str | None:
    """Why `devices monitor` cannot do what it was asked, or None. A tty path that does not exist
    yet is fine (the device may be plugged in later); a URL pyserial cannot handle never will be."""
    import math
    from urllib.parse import urlsplit

    import serial

    if args.count is not None and args.count < 1:
        return f"--count must be 1 or more, not {args.count}"
    if args.seconds is not None and not (args.seconds > 0 and math.isfinite(args.seconds)):
        return f"--seconds must be a number above 0, not {args.seconds}"
    if "://" not in args.url:
        return None
    try:
        serial.serial_for_url(args.url, do_not_open=True)
    except (ValueError, serial.SerialException) as exc:
        return f"{args.url}: {exc}"
    scheme = args.url.split("://", 1)[0].lower()
    if scheme == "loop":
        return (f"{args.url}: a loop only echoes what the Pi sends, no device can answer there; run "
                f"`rubicon device-sim --kind dice --tcp 0` and monitor the socket:// URL it prints")
    if scheme in ("socket", "rfc2217"):
        where = urlsplit(args.url)
        try:
            port = where.port
        except ValueError:
            port = None
        if not where.hostname or port is None or port == 0:
            return f"{args.url}: a {scheme} URL reads {scheme}://HOST:PORT (PORT 1..65535)"
    return None

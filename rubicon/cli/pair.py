"""`rubicon pair`: pairing codes and paired devices, from the Pi's own shell.

    rubicon pair Caesar              # a one-time code for Caesar (a lost phone): link and QR code
    rubicon pair screen              # a one-time link making a TV page the table's screen
    rubicon pair --list              # the devices paired with each side, and who invited whom
    rubicon pair Caesar --revoke     # unpair every device of Caesar (then pair his new one)
    rubicon pair --revoke-device 3   # unpair one device (by its number in --list), and what it invited

Whoever runs it has the state directory, so is at the table: the code is written to the
journal's database (rubicon/pairings_store.py), where the running `rubicon run` finds it when a
phone redeems it; no port or socket is opened for it. Revocations take effect at the device's next
request (every request checks the database); revoking a device revokes the devices it invited and
its unused codes, and revoking shows no code anywhere but on the table's screen.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

SIDES = ("Caesar", "Pompeius")
NAMES = (*SIDES, "Screen")


def register(commands) -> None:
    """Add `rubicon pair` to the command."""
    p = commands.top.add_parser(
        "pair", help="a pairing code for a side or the table's screen, or list and revoke paired devices",
        description="Print a one-time pairing code for SIDE (its link and QR code): the way to pair a new "
                    "device for a side that is already paired when none of its devices is at hand; `screen` "
                    "makes a TV page the table's screen (it shows the waiting sides' codes). The code works "
                    "once and expires. Also lists and revokes the paired devices.")
    p.add_argument("side", nargs="?", type=str.capitalize, choices=NAMES, help="Caesar, Pompeius or screen")
    p.add_argument("--list", action="store_true", help="list the paired devices and who invited each")
    p.add_argument("--revoke", action="store_true", help="unpair every device of SIDE")
    p.add_argument("--revoke-device", type=int, metavar="N",
                   help="unpair device N (see --list) and the devices it invited")
    p.add_argument("--config", metavar="FILE", default=None, help="configuration file (as for rubicon run)")
    p.add_argument("--state-dir", type=Path, default=None, help="the state directory of rubicon run")
    p.add_argument("--address", default=None,
                   help="the address or name the phones reach the Pi by, for the link (default: its LAN address)")
    p.add_argument("--port", type=int, default=None,
                   help="the port rubicon run serves on (default: the one it runs on now, else the configuration's)")
    p.set_defaults(func=pair_command)


def inviter(invited_by: str, labels: dict[int, str]) -> str:
    """Who invited a device, as --list says it."""
    if invited_by == "pi":
        return "the Pi (rubicon run / rubicon pair)"
    if invited_by == "table":
        return "the table (its screen, or the terminal of rubicon run)"
    if invited_by.startswith("device:"):
        n = int(invited_by.split(":")[1])
        return f"device {n} ({labels.get(n, 'revoked')})"
    return "unknown (paired before this was kept)"


def list_devices(store) -> None:
    """Each paired device: number, side, when, label and who invited it."""
    devices = store.devices()
    labels = {d.id: d.label for d in devices}
    for device in devices:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(device.created))
        print(f"{device.id:4d}  {device.side:9s} paired {when}  {device.label}")
        print(f"      invited by {inviter(device.invited_by, labels)}")
    if not devices:
        print("no device is paired")


def pair_command(args: argparse.Namespace) -> int:
    """`rubicon pair`: print a one-time pairing code, link and QR code for a side or the screen, or list or revoke
    the paired devices."""
    from rubicon.cli.run import default_state_dir, lan_address
    from rubicon.config import config_or_report
    from rubicon.journal import Journal, JournalError
    from rubicon.pairings_store import CODE_TTL_S, SCREEN, PairingStore, monotonic
    config = config_or_report(args.config, "rubicon pair: fix the configuration (rubicon check-config explains it)")
    if config is None:
        return 2
    if not (args.list or args.revoke_device is not None or args.side):
        print("rubicon pair: name a side (Caesar or Pompeius) or screen, or --list, or --revoke-device N",
              file=sys.stderr)
        return 2
    if args.revoke and not args.side:
        print("rubicon pair: --revoke names the side whose devices are unpaired", file=sys.stderr)
        return 2
    side = SCREEN if args.side == "Screen" else args.side
    state_dir = args.state_dir or config.state_dir or default_state_dir()
    path = state_dir / "journal.sqlite3"
    if not path.exists():
        print(f"rubicon pair: no journal in {state_dir}: start `rubicon run` first, or give its --state-dir",
              file=sys.stderr)
        return 2
    try:
        journal = Journal(path)
    except JournalError as exc:
        print(f"rubicon pair: {exc}", file=sys.stderr)
        return 2
    try:
        store = PairingStore(journal)
        if args.list:
            list_devices(store)
            return 0
        if args.revoke_device is not None:
            n = store.revoke(device=args.revoke_device, now=time.time())
            print(f"device {args.revoke_device}: " + (f"unpaired ({n} device(s) with those it invited)" if n
                                                      else "not paired (see --list)"))
            return 0 if n else 1
        if args.revoke:
            n = store.revoke(side=side, now=time.time())
            print(f"{args.side}: {n} device(s) unpaired")
            return 0
        bot = getattr(config, "bot_side", None)
        if bot and bot.capitalize() == side:
            print(f"rubicon pair: the Pi plays {side} (configuration [bot] side): no device pairs with it",
                  file=sys.stderr)
            return 2
        import secrets

        import segno
        code = secrets.token_urlsafe(9)
        now = monotonic()
        store.add_code(side, code, issued_by="pi", expires=now + CODE_TTL_S, now=now)
    finally:
        journal.close()
    from rubicon.cli.serving import served_port
    port = args.port if args.port is not None else (served_port(state_dir) or config.port)
    link = f"http://{args.address or lan_address()}:{port}/pair/{side}?code={code}"
    print(f"pair {args.side}: {link}")
    print(f"  works once, for {round(CODE_TTL_S / 60)} minutes; the side's other devices stay paired")
    if sys.stdout.isatty():
        segno.make(link, error="m").terminal(compact=True)
    return 0

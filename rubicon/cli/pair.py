"""`rubicon pair`: pairing codes and paired devices, from the Pi's own shell.

    rubicon pair Caesar              # a one-time code for Caesar (a lost phone): link and QR code
    rubicon pair --list              # the devices paired with each side
    rubicon pair Caesar --revoke     # unpair every device of Caesar (then pair his new one)
    rubicon pair --revoke-device 3   # unpair one device (by its number in --list)

Whoever runs it has the state directory, so is at the table: the code is written to the
journal's database (rubicon/pairings_store.py), where the running `rubicon run` finds it when a
phone redeems it; no port or socket is opened for it. Revocations take effect at the device's next
request (every request checks the database).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

SIDES = ("Caesar", "Pompeius")


def register(commands) -> None:
    """Add `rubicon pair` to the command."""
    p = commands.top.add_parser(
        "pair", help="a pairing code for a side, or list and revoke paired devices",
        description="Print a one-time pairing code for SIDE (its link and QR code): the way to pair a new "
                    "device for a side that is already paired when none of its devices is at hand. The code "
                    "works once and expires. Also lists and revokes the paired devices.")
    p.add_argument("side", nargs="?", type=str.capitalize, choices=SIDES, help="Caesar or Pompeius")
    p.add_argument("--list", action="store_true", help="list the devices paired with each side")
    p.add_argument("--revoke", action="store_true", help="unpair every device of SIDE")
    p.add_argument("--revoke-device", type=int, metavar="N", help="unpair device N (see --list)")
    p.add_argument("--config", metavar="FILE", default=None, help="configuration file (as for rubicon run)")
    p.add_argument("--state-dir", type=Path, default=None, help="the state directory of rubicon run")
    p.add_argument("--address", default=None,
                   help="the address or name the phones reach the Pi by, for the link (default: its LAN address)")
    p.add_argument("--port", type=int, default=None,
                   help="the port rubicon run serves on (default: the one it runs on now, else the configuration's)")
    p.set_defaults(func=pair_command)


def pair_command(args: argparse.Namespace) -> int:
    """`rubicon pair`: print a one-time pairing code, link and QR code for a side, or list or revoke the paired
    devices."""
    from rubicon.cli.run import default_state_dir, lan_address
    from rubicon.config import config_or_report
    from rubicon.journal import Journal, JournalError
    from rubicon.pairings_store import CODE_TTL_S, PairingStore
    config = config_or_report(args.config, "rubicon pair: fix the configuration (rubicon check-config explains it)")
    if config is None:
        return 2
    if not (args.list or args.revoke_device is not None or args.side):
        print("rubicon pair: name a side (Caesar or Pompeius), or --list, or --revoke-device N", file=sys.stderr)
        return 2
    if args.revoke and not args.side:
        print("rubicon pair: --revoke names the side whose devices are unpaired", file=sys.stderr)
        return 2
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
        now = time.time()
        if args.list:
            for device in store.devices():
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(device.created))
                print(f"{device.id:4d}  {device.side:9s} paired {when}  {device.label[:60]}")
            return 0
        if args.revoke_device is not None:
            n = store.revoke(device=args.revoke_device, now=now)
            print(f"device {args.revoke_device}: {'unpaired' if n else 'not paired (see --list)'}")
            return 0 if n else 1
        if args.revoke:
            n = store.revoke(side=args.side, now=now)
            print(f"{args.side}: {n} device(s) unpaired")
            return 0
        bot = getattr(config, "bot_side", None)
        if bot and bot.capitalize() == args.side:
            print(f"rubicon pair: the Pi plays {args.side} (configuration [bot] side): no device pairs with it",
                  file=sys.stderr)
            return 2
        import secrets

        import segno
        code = secrets.token_urlsafe(9)
        store.add_code(args.side, code, issued_by="pi", expires=now + CODE_TTL_S, now=now)
    finally:
        journal.close()
    from rubicon.cli.serving import served_port
    port = args.port if args.port is not None else (served_port(state_dir) or config.port)
    link = f"http://{args.address or lan_address()}:{port}/pair/{args.side}?code={code}"
    print(f"pair {args.side}: {link}")
    print(f"  works once, for {round(CODE_TTL_S / 60)} minutes; the side's other devices stay paired")
    if sys.stdout.isatty():
        segno.make(link, error="m").terminal(compact=True)
    return 0

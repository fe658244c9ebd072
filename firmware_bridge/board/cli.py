"""`rubicon enroll` and `rubicon devices scan`: the owner's commands for the on-Pi reader array.

`devices scan` prints what every reader senses now (location -> block names; unknown tags,
tags on two readers and silent readers flagged; exit status 1 if anything is flagged).
`enroll --bulk` / `enroll --one` run the enrollment flows of `enroll.py` at the console.
`--emulate` runs either on an emulated board set up as the 705 deployment (no hardware needed).
Hardware modules are imported inside the handlers only.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator

DEMO_PAD_UID = "04C0FFEE112233"   # the tag `enroll --one --emulate` puts on the scan pad


def register(commands) -> None:
    """Add `rubicon enroll` and the board's `rubicon devices` subcommands (scan, readers) to the command."""
    enroll = commands.top.add_parser(
        "enroll", help="teach the tag registry which tag is in which block",
        description="Enroll the blocks' tags: --bulk with the board set up as the 705 deployment (you are "
                    "asked to lift blocks that share a reader), or --one at a time on the scan pad. With "
                    "--emulate and no --registry the result goes to a scratch registry, discarded afterwards. "
                    "Exit 0: done; 1: problems found, or stopped with Ctrl-D; 2: no board or an unusable file; "
                    "130: Ctrl-C.")
    mode = enroll.add_mutually_exclusive_group(required=True)
    mode.add_argument("--bulk", action="store_true",
                      help="board set up as the 705 deployment, other blocks in the levy pools: scan and assign")
    mode.add_argument("--one", action="store_true", help="tap blocks on the scan pad one at a time and name them")
    _board_options(enroll)
    enroll.set_defaults(func=_enroll)
    scan = commands.devices.add_parser(
        "scan", help="print what every RFID reader senses now",
        description="Print, per reader, its location and the blocks it senses. Exit 0: all clear; 1: an "
                    "unenrolled tag, a tag on two readers or a silent reader; 2: no board or an unusable file.")
    _board_options(scan)
    scan.add_argument("--all", action="store_true", help="list empty readers too")
    scan.add_argument("--json", action="store_true", help="machine-readable output")
    scan.set_defaults(func=_scan)


def _board_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--readers", metavar="TOML", help="reader map and wiring (default: packaged readers.toml)")
    parser.add_argument("--registry", metavar="JSON",
                        help="tag registry (default: $RUBICON_TAGS or ~/.local/share/rubicon/tags.json)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--emulate", action="store_true",
                       help="use an emulated board set up as the 705 deployment (for scan, with three planted "
                            "faults: an unenrolled tag on Roma, P Legio 3 on two readers, a silent reader)")
    where.add_argument("--serial", metavar="URL",
                       help="the serial build: a board scanner on this tty or pyserial URL (its reader N is "
                            "reader N of the reader map, plus --first-reader)")
    parser.add_argument("--first-reader", type=int, default=0, metavar="N",
                        help="with --serial: the reader-map index of the scanner's reader 0 (default 0)")


class _Board:
    def __init__(self, array, reader_map, catalog, registry, rig=None, truth=None):
        self.array, self.reader_map, self.catalog, self.registry = array, reader_map, catalog, registry
        self.rig, self.truth = rig, truth or {}


@contextlib.contextmanager
def _open_board(args, pre_enrolled: bool) -> Iterator[_Board]:
    import tempfile
    from pathlib import Path

    from firmware_bridge.board.block_catalog import BlockCatalog
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.board.tag_registry import TagRegistry
    from firmware_bridge.rfid.reader_array import array_of

    reader_map, catalog = ReaderMap.load(args.readers), BlockCatalog.load()
    if getattr(args, "serial", None):
        from firmware_bridge.serial_bridge.board import SerialBoardScan

        registry = TagRegistry.load(args.registry)
        source = SerialBoardScan.open(args.serial, offset=args.first_reader)
        try:
            yield _Board(source, reader_map, catalog, registry)
        finally:
            source.close()
        return
    if not args.emulate:
        registry = TagRegistry.load(args.registry)
        array = array_of(reader_map)
        try:
            yield _Board(array, reader_map, catalog, registry)
        finally:
            array.close()
        return
    from gpiozero.pins.mock import MockFactory

    from firmware_bridge.emulation.demo_board import add_demo_anomalies, set_up_705
    from firmware_bridge.emulation.rig import EmulatedRig

    pins = MockFactory()
    rig = EmulatedRig(reader_map.indices, reader_map.bus.address_pins, pin_factory=pins)
    # A map without locations (the one-reader build's) has only the scan pad to tap blocks on.
    truth = set_up_705(rig, reader_map, catalog) if any(p.kind == "city" for p in reader_map.places) else {}
    with tempfile.TemporaryDirectory(prefix="rubicon-emulate-") as scratch, rig.installed():
        if args.registry:
            registry = TagRegistry.load(args.registry)
        else:
            registry = TagRegistry.load(Path(scratch) / "tags.json")
            print(f"(emulated board; registry {registry.path}, discarded afterwards)", file=sys.stderr)
        if pre_enrolled and truth:
            add_demo_anomalies(rig, reader_map, truth)
            if not args.registry:
                for block_id, uid in truth.items():
                    registry.assign(uid, block_id)
        array = array_of(reader_map, pin_factory=pins, clock=rig.clock)
        try:
            yield _Board(array, reader_map, catalog, registry, rig, truth)
        finally:
            array.close()
            pins.close()


def _guarded(handler):
    def run(args) -> int:
        from firmware_bridge.board.tag_registry import RegistryError
        from firmware_bridge.config_files import ConfigError
        from firmware_bridge.rfid.reader_array import HardwareUnavailable

        try:
            return handler(args)
        except (ConfigError, RegistryError) as exc:
            print(f"rubicon: error: {exc}", file=sys.stderr)
            return 2
        except HardwareUnavailable as exc:
            print(f"rubicon: error: {exc}\n(no reader board on this machine? --emulate runs the command on an "
                  "emulated one)", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            # enroll --one saves each block as it is named; bulk enrollment saves at the end only
            kept = "each block named before is saved" if getattr(args, "one", False) else "nothing saved from this run"
            print(f"\nstopped; {kept}", file=sys.stderr)
            return 130

    return run


@_guarded
def _scan(args) -> int:
    from firmware_bridge.board.enroll import steady_scan

    with _open_board(args, pre_enrolled=True) as board:
        scans = steady_scan(board.array.scan_all, board.reader_map.indices)
        rows = _scan_rows(board, scans)
    if args.json:
        import json
        print(json.dumps({"readers": rows}, indent=1))
    else:
        _print_rows(rows, args.all)
    return 1 if any(r["problems"] or any(t["block"] is None or t["also_on"] for t in r["tags"]) for r in rows) else 0


def _scan_rows(board: _Board, scans) -> list[dict]:
    readers_of: dict[str, list[int]] = {}
    for reader, scan in scans.items():
        for uid in scan.uids:
            readers_of.setdefault(uid, []).append(reader)
    rows = []
    for reader, scan in sorted(scans.items()):
        tags = [{"uid": uid, "block": board.registry.block_of(uid),
                 "also_on": [board.reader_map.name(r) for r in readers_of[uid] if r != reader]}
                for uid in sorted(scan.uids)]
        problems = list(scan.problems) if scan.answered else ["NO ANSWER"]
        where = " / ".join(board.reader_map.place(reader).locations)   # a shared zone names all its locations
        rows.append({"reader": reader, "location": where, "answered": scan.answered,
                     "complete": scan.complete, "tags": tags, "problems": problems})
    return rows


def _print_rows(rows: list[dict], show_empty: bool) -> None:
    width = max(len(r["location"]) for r in rows)
    for row in rows:
        if not (row["tags"] or row["problems"] or show_empty):
            continue
        names = []
        for tag in row["tags"]:
            name = tag["block"] or f"?{tag['uid']} (not enrolled)"
            if tag["also_on"]:
                name += f" (also on {', '.join(tag['also_on'])})"
            names.append(name)
        text = "; ".join(part for part in (", ".join(names), "; ".join(row["problems"])) if part) or "-"
        print(f"{row['location']:<{width}}  {row['reader']:>3}  {text}")
    tags = {t["uid"] for r in rows for t in r["tags"]}
    unknown = {t["uid"] for r in rows for t in r["tags"] if t["block"] is None}
    doubled = {t["uid"] for r in rows for t in r["tags"] if t["also_on"]}
    answering = sum(r["answered"] for r in rows)
    print(f"{len(rows)} readers, {answering} answering; {len(tags)} tags, "
          f"{len(unknown)} not enrolled, {len(doubled)} on two readers")


class _ConsoleOperator:
    """The person at the board, via stdin/stdout. EOF (Ctrl-D) stops the run."""

    def tell(self, message: str) -> None:
        print(message)

    def ask(self, message: str) -> str:
        return input(message)

    def wait(self, message: str) -> None:
        input(message + " ")

    def lift(self, block, location: str) -> None:
        self.wait(f"Lift {block.id} off {location} and keep it off, then press Enter.")

    def put_back(self, location: str) -> None:
        self.wait(f"Put the lifted blocks back on {location}, then press Enter.")


@_guarded
def _enroll(args) -> int:
    from firmware_bridge.board.enroll import Operator, enroll_bulk, enroll_one
    from firmware_bridge.emulation.demo_board import EmulatedOperator

    with _open_board(args, pre_enrolled=False) as board:
        if board.rig is not None:
            answers = []
            if args.one:   # a new tag for C Navis 3; when a registry given already knows it, keep it
                board.rig.place(DEMO_PAD_UID, board.reader_map.scan_pad)
                answers = ["", "n" if board.registry.block_of(DEMO_PAD_UID) else "C Navis 3"]
            operator: Operator = EmulatedOperator(board.rig, board.reader_map, board.truth, answers=answers)
        else:
            operator = _ConsoleOperator()
        flow = enroll_bulk if args.bulk else enroll_one
        board.registry.save()   # an unwritable registry fails now, not after every block was lifted
        try:
            report = flow(board.array.scan_all, board.reader_map, board.catalog, board.registry, operator)
        except EOFError:
            print("\nstopped; nothing saved from this run", file=sys.stderr)
            return 1
        for uid, block_id in sorted(report.assigned.items(), key=lambda item: item[1]):
            print(f"enrolled {block_id:<18} tag {uid}")
        for problem in report.problems:
            print(f"PROBLEM: {problem}")
        if report.not_enrolled:
            listed = ", ".join(report.not_enrolled[:8]) + (", ..." if len(report.not_enrolled) > 8 else "")
            print(f"{len(report.not_enrolled)} blocks have no tag yet: {listed} (use `rubicon enroll --one`)")
        enrolled = len(board.registry)
        print(f"registry {board.registry.path}: {enrolled} tag{'' if enrolled == 1 else 's'} enrolled")
    return 1 if report.problems else 0

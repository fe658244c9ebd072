"""`rubicon board-bringup`: walk one tagged block over every place of a freshly built board, and write the
reader map as measured (firmware_bridge/board/bringup.py says what is measured and concluded).

At the table: the Pi-wired array of the planned `readers.toml` (`rubicon board-layout` wrote it); the
console says which place is next and waits for Enter. `--emulate` runs the same walk on an emulated
board whose radio is the layout tool's field model (emulation/loop_air.py), with faults to plant
(`--fault dead:R`, `detuned:R`, `swap:R:S`, `over:R:PLACE`: loop R moved over that place's dot).
Exit 0: every place read by its own loop only (or fixed by gain); 1: problems to fix; 2: no board or
bad arguments.
"""
from __future__ import annotations

import sys

DETUNED_DRIVE = 0.45        # a loop whose matching is off: under half the drive (about -7 dB)
EMULATED_UID = "04B10C4ED00001"   # the emulated walk's tagged block


def register(commands) -> None:
    """Add `rubicon board-bringup` to the command."""
    p = commands.top.add_parser(
        "board-bringup", help="walk a tagged block over every place and write the reader map as measured",
        description="For each place in turn, set one tagged block on its dot and press Enter: every reader is "
                    "read at each receiver gain step (RFCfgReg RxGain 18-48 dB), and the bring-up names loops "
                    "that read short, read a neighbour's place or nothing, and writes the reader map from what "
                    "it measured. Exit 0: all clear; 1: problems to fix; 2: no board or bad arguments.")
    p.add_argument("--readers", metavar="TOML", help="the planned reader map (default: the packaged readers.toml)")
    p.add_argument("--out", metavar="TOML", default="measured-readers.toml",
                   help="where to write the measured reader map (default measured-readers.toml)")
    p.add_argument("--uid", metavar="HEX", help="the tagged block's UID (default: the one tag read at the first place)")
    p.add_argument("--places", type=int, metavar="N", help="walk only the first N places (e.g. to check a region)")
    p.add_argument("--emulate", action="store_true", help="an emulated board with the field model's radio")
    p.add_argument("--fault", action="append", default=[], metavar="KIND:R[:X]",
                   help="with --emulate: dead:R, detuned:R, swap:R:S or over:R:PLACE (repeatable)")
    p.set_defaults(func=_bringup)


def _bringup(args) -> int:
    from firmware_bridge.board.bringup import analyse, place_readers, reader_map_toml, walk
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.config_files import ConfigError
    from firmware_bridge.rfid.reader_array import HardwareUnavailable

    try:
        if args.emulate:
            board = _emulated(args)
        else:
            if args.fault:
                raise ValueError("--fault needs --emulate")
            board = _at_the_table(ReaderMap.load(args.readers))
    except (ConfigError, ValueError) as exc:
        print(f"rubicon: error: {exc}", file=sys.stderr)
        return 2
    except HardwareUnavailable as exc:
        print(f"rubicon: error: {exc}\n(no reader board here? --emulate walks an emulated one)", file=sys.stderr)
        return 2
    reader_map, probe, tell, close = board
    places = [name for p in reader_map.places if p.kind in ("city", "sea") for name in p.locations]
    places = places[:args.places] if args.places else places
    try:
        uid = args.uid.upper() if args.uid else (EMULATED_UID if args.emulate else None)
        if uid is None:
            tell(places[0], 1, len(places))
            found = {u for uids in probe(place_readers(reader_map), 48).values() for u in uids}
            if len(found) != 1:
                print(f"rubicon: error: {len(found)} tags read on {places[0]}: set exactly one tagged block there "
                      "(or give --uid)", file=sys.stderr)
                return 2
            uid = found.pop()
            print(f"walking tag {uid}")
        readings = walk(probe, reader_map, places, uid, tell)
    except (EOFError, KeyboardInterrupt):
        print("\nstopped; nothing written", file=sys.stderr)
        return 130
    finally:
        close()
    report = analyse(readings, place_readers(reader_map))
    for r in readings:
        seen = ", ".join(f"R{k} {g} dB" for k, g in sorted(r.seen.items(), key=lambda kv: kv[1])) or "nothing"
        print(f"{r.place:<20} planned R{r.planned}: {seen}")
    for f in report.findings:
        print(f"{'PROBLEM' if f.problem else 'note'}: {f.text}")
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(reader_map_toml(report, reader_map))
    print(f"wrote {args.out} ({len(report.zones)} readers, {sum(len(z) > 1 for z in report.zones.values())} shared "
          f"zones, {len(report.problems)} problems)")
    return 1 if report.problems else 0


def _probe_of(array):
    def probe(readers, gain):
        array.set_rx_gain(readers, gain)
        return {r: s.uids for r, s in array.scan_all(readers).items()}
    return probe


def _at_the_table(reader_map):
    from firmware_bridge.rfid.reader_array import array_of

    array = array_of(reader_map)

    def tell(place, k, n):
        input(f"[{k}/{n}] set the tagged block on {place}'s dot (alone), then press Enter ")

    return reader_map, _probe_of(array), tell, array.close


def _emulated(args):
    import tempfile
    from pathlib import Path

    from gpiozero.pins.mock import MockFactory

    from engine import BOARD
    from firmware_bridge.board.layout import LayoutRules, MapFrame, compute_layout, spots_in_mm
    from firmware_bridge.board.layout_files import readers_toml
    from firmware_bridge.board.loop_field import Loop, Tag, threshold_for_height
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.emulation.loop_air import LoopAir
    from firmware_bridge.emulation.rig import EmulatedRig
    from firmware_bridge.rfid.reader_array import array_of

    rules = LayoutRules()
    frame = MapFrame.image_frame(rules.board_w, rules.board_h)
    places = [(BOARD.loc_names[i], "sea" if BOARD.is_sea[i] else "city", *BOARD.map_xy[i]) for i in range(BOARD.n_locs)]
    layout = compute_layout(spots_in_mm(places, frame), rules, frame=frame)
    scratch = tempfile.TemporaryDirectory(prefix="rubicon-bringup-")
    planned = Path(scratch.name) / "readers.toml"
    planned.write_text(readers_toml(layout), encoding="utf-8")
    reader_map = ReaderMap.load(planned)
    loops = {a.number: Loop(a.loop.x0, a.loop.y0, a.loop.x1, a.loop.y1) for a in layout.antennas}
    tag = Tag(12.0, 1.5)
    air = LoopAir(dict(loops), tag, threshold_for_height(Loop(-18, -18, 18, 18), tag, 20.0))
    spots = {s.name: s for s in layout.spots}
    for fault in args.fault:
        kind, _, rest = fault.partition(":")
        try:
            if kind == "dead":
                air.drive[int(rest)] = 0.0
            elif kind == "detuned":
                air.drive[int(rest)] = DETUNED_DRIVE
            elif kind == "swap":
                a, b = (int(v) for v in rest.split(":"))
                air.loops[a], air.loops[b] = air.loops[b], air.loops[a]
            elif kind == "over":
                r, _, place = rest.partition(":")
                s, loop = spots[place], air.loops[int(r)]
                w, h = loop.x1 - loop.x0, loop.y1 - loop.y0
                air.loops[int(r)] = Loop(s.x - w / 2, s.y - h / 2, s.x + w / 2, s.y + h / 2)
            else:
                raise ValueError
        except (ValueError, KeyError):
            raise ValueError(f"--fault {fault!r}: expected dead:R, detuned:R, swap:R:S or over:R:PLACE") from None
    pins = MockFactory()
    rig = EmulatedRig(reader_map.indices, reader_map.bus.address_pins, pin_factory=pins, harsh=air)
    installed = rig.installed()
    installed.__enter__()
    array = array_of(reader_map, pin_factory=pins, clock=rig.clock)
    zone = {name: a for a in layout.antennas for name in a.locations}
    state = {"uid": EMULATED_UID}

    def tell(place, k, n):
        print(f"[{k}/{n}] (emulated) the tagged block goes on {place}")
        if state["uid"] in rig.tags:
            rig.lift(state["uid"])
        s = spots[place]
        x, y = (zone[place].cx, zone[place].cy) if s.kind == "sea" else (s.x, s.y)
        first = layout.antennas[0].number
        cx, cy = air.loops[first].centre
        rig.place(state["uid"], first, offset_mm=(x - cx, y - cy))

    def close():
        array.close()
        installed.__exit__(None, None, None)
        pins.close()
        scratch.cleanup()

    return reader_map, _probe_of(array), tell, close

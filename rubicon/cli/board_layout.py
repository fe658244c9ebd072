"""`rubicon board-layout`: the sensing zones of a board built for this map, and the files to build it.

Reads the game data's map positions (engine.board), turns them into millimetres on the board
(the map image's frame by default, or fitted to positions the owner measured on the map sheet),
computes the zones (firmware_bridge.board.layout) and writes the 1:1 placement template (SVG, and
PDF tiled for A4 and Letter) and the matching readers.toml. By default the layout is designed with
the field model (firmware_bridge.board.field_check: each place read by its own loop only, with a
margin; zones merged or loops moved apart where not), for the owner's blocks, tag and map thickness
(`--block`, `--tag-mm`, `--map-mm`); loops still short of the margin are listed as SHORT (the
bring-up measures them at the table). Exit 0: a layout that passes its own check; 1: none fits, or
the check found a problem; 2: bad arguments.
"""
from __future__ import annotations

import sys

DEFAULT_OUT = "build/board-layout"


def register(commands) -> None:
    """Add `rubicon board-layout` to the command."""
    p = commands.top.add_parser(
        "board-layout", help="compute the sensing board's antenna layout and write its template and readers.toml",
        description="Compute which antenna serves which map locations on a board of the given size, check that "
                    "no two antennas overlap and every location is served, and write template.svg, "
                    "template-A4.pdf, template-Letter.pdf (1:1, tiled) and readers.toml. Exit 0: done; 1: no "
                    "layout fits or the check failed; 2: bad arguments.")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"where to write (default {DEFAULT_OUT})")
    p.add_argument("--board-mm", default="864x432", metavar="WxH", help="board size in mm (default 864x432, 34x17 in)")
    p.add_argument("--measured", action="append", default=[], metavar="NAME=X,Y",
                   help="a location's dot as measured on your map sheet, mm from its top-left corner; two or more "
                        "(far apart) fit the scale to your sheet instead of the map image's frame")
    p.add_argument("--onboard", action="store_true",
                   help="try RC522 modules with their own antenna under the map (shows that they do not fit)")
    p.add_argument("--regions", type=int, default=3, help="scanner regions, one Pico each (default 3)")
    p.add_argument("--merge-below", type=float, default=None, metavar="MM",
                   help="cities nearer than this share a zone where one loop holds them (default 30)")
    p.add_argument("--seed", type=int, default=705, help="the search's seed (default 705)")
    p.add_argument("--block", default="small", metavar="FOOT",
                   help="your blocks' foot as they stand on the map, measured with a ruler: 'large' (1 x 1 x 0.5 in "
                        "standing on end, 25.4 x 12.7 mm), 'small' (3/4 in, 19 x 19 mm; the default) or WxD in mm, "
                        "optionally @COLSxROWS for how the blocks on one place stand (default 2x2)")
    p.add_argument("--tag-mm", type=float, default=None, metavar="MM",
                   help="the tag sticker's diameter (default: the largest sold that fits the block's foot, at most 12)")
    p.add_argument("--map-mm", type=float, default=1.0, metavar="MM",
                   help="how thick the map is over the loops: about 1 for the paper map, 2-3 for a mounted board "
                        "(measure it); the tags lie this much plus 0.5 mm (template, sticker) above the loops")
    p.add_argument("--need-db", type=float, default=None, metavar="DB",
                   help="the least margin each loop must keep at the common read threshold (default 3 dB)")
    p.add_argument("--no-field", action="store_true",
                   help="skip the field model (geometry only: faster, but nothing says a loop reads its place only)")
    p.add_argument("--no-files", action="store_true", help="print the zones only")
    p.add_argument("--readers-to", metavar="PATH", default=None,
                   help="write only readers.toml, to PATH (`make shipped-readers`: the packaged default, "
                        "firmware_bridge/data/readers.toml)")
    p.set_defaults(func=_layout)


def _layout(args) -> int:
    from dataclasses import replace

    from engine import BOARD
    from firmware_bridge.board.antenna_parts import RC522_ONBOARD
    from firmware_bridge.board.field_check import DEFAULT_NEED_DB, design_layout
    from firmware_bridge.board.layout import LayoutError, LayoutRules, compute_layout, spots_in_mm
    from firmware_bridge.board.loop_field import Tag
    from firmware_bridge.board.table_measure import MeasureError, parse_block

    try:
        w, h = (float(v) for v in args.board_mm.lower().split("x"))
    except ValueError:
        print(f"rubicon: error: --board-mm {args.board_mm!r}: expected WxH in mm, e.g. 864x432", file=sys.stderr)
        return 2
    try:
        block = parse_block(args.block)
        tag = Tag(args.tag_mm or min(12.0, block.largest_sticker_mm), args.map_mm + 0.5)
    except MeasureError as exc:
        print(f"rubicon: error: {exc}", file=sys.stderr)
        return 2
    if not (0 <= args.map_mm <= 10) or not (5 <= tag.coil_mm <= 30):
        print("rubicon: error: --map-mm takes 0-10 mm and --tag-mm 5-30 mm", file=sys.stderr)
        return 2
    rules = LayoutRules(board_w=w, board_h=h, regions=args.regions, block=block)
    if args.onboard:
        rules = replace(rules, part=RC522_ONBOARD)
    if args.merge_below is not None:
        rules = replace(rules, merge_below=args.merge_below)
    places = [(BOARD.loc_names[i], "sea" if BOARD.is_sea[i] else "city", *BOARD.map_xy[i])
              for i in range(BOARD.n_locs)]
    try:
        frame = _frame(args.measured, places, rules)
        spots = spots_in_mm(places, frame)
        design = None
        if args.no_field or args.onboard:
            layout = compute_layout(spots, rules, seed=args.seed, frame=frame)
        else:
            design = design_layout(spots, rules, tag, need_db=args.need_db or DEFAULT_NEED_DB, seed=args.seed,
                                   frame=frame)
            layout = design.layout
    except LayoutError as exc:
        print(f"rubicon: no layout: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"rubicon: error: {exc}", file=sys.stderr)
        return 2
    problems = layout.problems()
    _print(layout)
    from firmware_bridge.board.build_effort import count

    print(count(layout).summary())
    if design is not None:
        _print_field(design, block, tag)
        for short in design.report.problems():    # the bring-up measures these at the table
            print(f"SHORT: {short}")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    if problems:
        return 1
    if args.readers_to:
        from pathlib import Path

        from firmware_bridge.board.layout_files import readers_toml

        Path(args.readers_to).write_text(readers_toml(layout), encoding="utf-8")
        print(f"wrote {args.readers_to}")
    elif not args.no_files:
        from firmware_bridge.board.layout_files import write_all

        written = write_all(layout, args.out)
        for name, tiling in written.items():
            pages = f" ({tiling.pages} pages, {tiling.cols} x {tiling.rows}, " \
                    f"{'portrait' if tiling.orientation == 'P' else 'landscape'})" if tiling else ""
            print(f"wrote {args.out}/{name}{pages}")
    return 0


def _frame(measured: list[str], places, rules):
    from firmware_bridge.board.layout import MapFrame

    if not measured:
        return MapFrame.image_frame(rules.board_w, rules.board_h)
    units = {name: (u, v) for name, _, u, v in places}
    points = []
    for item in measured:
        name, _, xy = item.partition("=")
        if name not in units:
            raise ValueError(f"--measured {item!r}: {name!r} is not a map location")
        try:
            x, y = (float(v) for v in xy.split(","))
        except ValueError:
            raise ValueError(f"--measured {item!r}: expected NAME=X,Y in mm") from None
        points.append((*units[name], x, y))
    return MapFrame.fitted(points)


def _print_field(design, block, tag) -> None:
    r = design.report
    hx, hy = block.tag_half
    print(f"blocks: {block.name}, {block.cols} x {block.rows} on a place ({block.cluster_mm[0]:g} x "
          f"{block.cluster_mm[1]:g} mm, tags within {hx:g} x {hy:g} mm of the dot); tag {tag.coil_mm:g} mm "
          f"(largest that fits the foot: {block.largest_sticker_mm:g} mm)")
    for change in design.changes:
        print(f"field design: {change}")
    print("loop margins (dB at the common threshold; own: weakest own place, near: strongest other place):")
    for m in sorted(r.loops, key=lambda m: m.margin_db):
        near = f"{m.foreign_place} (R{m.foreign_loop})" if m.foreign_place else "-"
        print(f"  R{m.number:<3} {'/'.join(m.locations):<32} {m.margin_db:6.1f} dB  own {m.own_place}, near {near}")
    print(r.summary())
    from firmware_bridge.board.antenna_match import LOOP_TURNS, loop_inductance, loop_resistance, match, tolerance

    widest = max(design.layout.antennas, key=lambda a: a.loop.w * a.loop.h).loop
    for w, h in sorted({(36.0, 36.0), (round(widest.w), round(widest.h))}):
        m = match(loop_inductance(w, h, LOOP_TURNS), loop_resistance(w, h, LOOP_TURNS))
        print(f"matching, {w:g} x {h:g} mm loop of {LOOP_TURNS} turns (AN1445): {m.describe()}; reads within "
              f"±{100 * tolerance(m, max(r.min_db, 0.5)):.1f} % of its inductance at the least loop margin")


def _print(layout) -> None:
    r = layout.rules
    print(f"board {r.board_w:g} x {r.board_h:g} mm; {layout.frame.how if layout.frame else ''}")
    print(f"part: {r.part.name}")
    for a in layout.antennas:
        shared = "  (shared zone)" if len(a.locations) > 1 else ""
        print(f"R{a.number:<3} Pico {a.region + 1} SPI{a.bus}  loop {a.loop.w:.0f} x {a.loop.h:.0f} mm at "
              f"({a.loop.x0:.0f}, {a.loop.y0:.0f})  {' / '.join(a.locations)}{shared}")
    print(f"{len(layout.antennas)} antennas for {len(layout.spots)} locations; {len(layout.shared)} shared zones: "
          + "; ".join(" / ".join(a.locations) for a in layout.shared))

"""The map's live layer as one viewer may see it: the blocks standing at each location, drawn as
blocks (squares in the side's colour) in that location's stack box (web_ui/map_layout.py), and
the battles and contested places outlined.

Built from the viewer's view only (`Snapshot.for_viewer`): every other block is its back, a
plain square of its side's colour, as the rules show it across the table; only the viewer's own
blocks (`own_blocks`, in a side's private view) carry a label and a strength. The public view
has counts per side and nothing else, so the TV's layer cannot name or weigh any block. A stack
box holds six blocks; more, and the last square counts the rest ("+3")."""
from __future__ import annotations

import math
from html import escape
from typing import Any

from engine import BOARD, CLEOPATRA, SIDES

from .map_geometry import text_width
from .map_layout import BLOCK, CITY_R, COLS, MARK, PITCH, ROWS, SEA_R, layout

_LOC = {name: i for i, name in enumerate(BOARD.loc_names)}
_BLOCK = {b.key: b for b in BOARD.blocks}
_SHORT = {"Legio": "L", "Auxilia": "A", "Equitatus": "E", "Navis": "N"}


def short_label(key: str) -> str:
    """A block's label as it fits on its square: "L8" for Legio 8, "Cae" for Caesar."""
    info = _BLOCK[key]
    word, _, number = info.name.partition(" ")
    if number and word in _SHORT:
        return _SHORT[word] + number
    return info.name[:4] if info.type == CLEOPATRA else info.name[:3]


def _cells(upright: bool) -> tuple[int, int]:
    return (ROWS, COLS) if upright else (COLS, ROWS)


def _square(x: float, y: float, colour: str, *, back: bool, moved: bool, label: str = "", strength: int | None = None,
            more: int = 0) -> str:
    cls = f"block {colour}{' back' if back else ''}{' moved' if moved else ''}{' more' if more else ''}"
    out = [f'<g class="{cls}"><rect x="{x:g}" y="{y:g}" width="{BLOCK}" height="{BLOCK}" rx="3"/>']
    if more:
        out.append(f'<text class="more" x="{x + BLOCK / 2:g}" y="{y + BLOCK * 0.7:g}">+{more}</text>')
    elif label:
        fit = min(text_width(label, 9), BLOCK - 3)
        out.append(f'<text class="blabel" x="{x + 1.5:g}" y="{y + 9:g}" textLength="{fit:.1f}" '
                   f'lengthAdjust="spacingAndGlyphs">{escape(label)}</text>'
                   f'<text class="strength" x="{x + BLOCK - 2:g}" y="{y + BLOCK - 2.5:g}">{strength}</text>')
    if moved:
        out.append(f'<path class="moved-mark" d="M{x + BLOCK - 7:g} {y:g}h7v7z"/>')
    out.append("</g>")
    return "".join(out)


def _side_blocks(view: dict[str, Any], name: str, side: str) -> list[dict[str, Any]]:
    """The blocks of `side` at `name` as this viewer may see them: his own with label and
    strength, any other only as backs (and which of them moved: a public count)."""
    if view.get("side") == side:
        own = sorted((b for b in view.get("own_blocks", []) if b["location"] == name), key=lambda b: b["block"])
        return [{"colour": "cleopatra" if _BLOCK[b["block"]].type == CLEOPATRA else side.lower(), "back": False,
                 "moved": bool(b.get("moved")), "label": short_label(b["block"]), "strength": b["strength"]}
                for b in own]
    entry = view.get("locations", {}).get(name, {}).get(side)
    if not entry:
        return []
    return [{"colour": side.lower(), "back": True, "moved": i < entry.get("moved", 0)} for i in range(entry["blocks"])]


def stack_cells(loc: int, sides: int) -> list[list[tuple[int, int]]]:
    """The cells (column, row) of the location's stack box each side fills, in the order it fills
    them: one side, every cell; both, a row each (a column each when upright). The cells nearest
    the dot first, so a few blocks stand by their own place, never out at the far end of the box."""
    lay = layout()
    cols, rows = _cells(lay.upright[loc])
    box, (x, y) = lay.stacks[loc], BOARD.map_xy[loc]

    def far(cell: tuple[int, int]) -> float:
        c, r = cell
        return math.hypot(box.x0 + c * PITCH + BLOCK / 2 - x, box.y0 + r * PITCH + BLOCK / 2 - y)

    if sides == 1:
        groups = [[(c, r) for r in range(rows) for c in range(cols)]]
    elif lay.upright[loc]:
        groups = [[(c, r) for r in range(rows)] for c in range(2)]
    else:
        groups = [[(c, r) for c in range(cols)] for r in range(2)]
    return [sorted(g, key=far) for g in groups]


def _stack(view: dict[str, Any], name: str, loc: int) -> str:
    lay = layout()
    box = lay.stacks[loc]
    groups = [(s, g) for s, g in ((s, _side_blocks(view, name, s)) for s in SIDES) if g]
    if not groups:
        return ""
    out = []
    for (side, blocks), cells in zip(groups, stack_cells(loc, len(groups)), strict=False):
        shown = blocks if len(blocks) <= len(cells) else blocks[:len(cells) - 1]
        for b, (c, r) in zip(shown, cells, strict=False):
            out.append(_square(box.x0 + c * PITCH, box.y0 + r * PITCH, b["colour"], back=b["back"], moved=b["moved"],
                               label=b.get("label", ""), strength=b.get("strength")))
        if len(shown) < len(blocks):
            c, r = cells[-1]
            out.append(_square(box.x0 + c * PITCH, box.y0 + r * PITCH, side.lower(),
                               back=True, moved=False, more=len(blocks) - len(shown)))
    return "".join(out)


def _tie(loc: int) -> str:
    """A short line from the location's dot to its stack when the stack stands beside the dot:
    which location the blocks are at is never a guess."""
    x, y = BOARD.map_xy[loc]
    box = layout().stacks[loc]
    nx, ny = min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1)
    length = math.hypot(nx - x, ny - y)
    r = SEA_R if BOARD.is_sea[loc] else CITY_R
    if length <= r:
        return ""
    sx, sy = x + (nx - x) * r / length, y + (ny - y) * r / length      # from the dot's edge
    return f'<path class="tie" d="M{sx:.1f} {sy:.1f}L{nx:g} {ny:g}"/>'


def map_layer(view: dict[str, Any]) -> str:
    """The SVG content of the map's `g.map-layer` for the viewer whose view this is."""
    lay = layout()
    battles = {b["location"] for b in view.get("battles", [])}
    fight = (view.get("fight") or {}).get("location")
    out = []
    for name in sorted(view.get("locations", {})):
        loc = _LOC.get(name)
        if loc is None:
            continue
        stack = _stack(view, name, loc)
        if not stack:
            continue
        box = lay.stacks[loc].grown(MARK - 1.5)
        sides = [s for s in SIDES if view["locations"][name].get(s)]
        mark = ("battle current" if name == fight else "battle") if name in battles else \
            "contested" if len(sides) > 1 else ""
        outline = (f'<rect class="mark {mark}" x="{box.x0:g}" y="{box.y0:g}" width="{box.x1 - box.x0:g}" '
                   f'height="{box.y1 - box.y0:g}" rx="5"/>') if mark else ""
        out.append(f'<g class="stack" data-loc="{escape(name)}">{outline}{_tie(loc)}{stack}</g>')
    return "".join(out)

"""The map as SVG, drawn by the project from the game data (no game art), laid out by
web_ui/map_layout.py: sea, and land around the cities and their land roads (with a coast line);
roads by class (major solid, minor dashed, straits dotted over the water, sea lanes thin and
blue); each location a `<g class="loc" data-name="...">` with its dot (a victory-point city gold,
a major port ringed thick), its stack box in `data-stack` ("x y w h", where its blocks stand); the
names in two label sets, `labels normal` and `labels large` (the page shows one, by text size),
each name followed by a star per victory point. `g.map-layer` is left empty for the pages to fill
with the blocks as their viewer may see them (web_ui/map_blocks.py)."""
from __future__ import annotations

import math
from functools import lru_cache
from html import escape

from engine import BOARD, MAJOR, MINOR, SEA, STRAIT

from .map_layout import CITY_R, LAND_R, SEA_R, STAR_SIZE, Label, land_faces, land_roads, layout, sea_room


def _n(v: float) -> str:
    """A coordinate, short: the map is drawn in whole units, halves where it matters."""
    return f"{round(v * 2) / 2:g}"


def _land_path() -> str:
    xy = BOARD.map_xy
    parts = [f"M{_n(xy[a][0])} {_n(xy[a][1])}L{_n(xy[b][0])} {_n(xy[b][1])}" for a, b in land_roads()]
    parts += ["M" + "L".join(f"{_n(xy[c][0])} {_n(xy[c][1])}" for c in face) + "Z" for face in land_faces()]
    parts += [f"M{_n(xy[i][0])} {_n(xy[i][1])}h0" for i in range(BOARD.n_locs) if not BOARD.is_sea[i]]
    return "".join(parts)


def _roads(cls: str) -> str:
    xy = BOARD.map_xy
    return "".join(f"M{_n(xy[a][0])} {_n(xy[a][1])}L{_n(xy[b][0])} {_n(xy[b][1])}"
                   for e, (a, b) in enumerate(BOARD.edge_ends) if BOARD.edge_class[e] == cls)


def _star(cx: float, cy: float, r: float) -> str:
    """A five-pointed star's path, centred at (cx, cy), outer radius r."""
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.42
        pts.append(f"{_n(cx + rr * math.cos(a))} {_n(cy + rr * math.sin(a))}")
    return "M" + "L".join(pts) + "Z"


def _label(lab: Label) -> str:
    loc = lab.loc
    name = escape(BOARD.loc_names[loc])
    cls = "name sea" if BOARD.is_sea[loc] else "name"
    out = (f'<g class="label"><text class="{cls}" x="{_n(lab.x)}" y="{_n(lab.y)}" font-size="{lab.size}" '
           f'textLength="{_n(lab.width)}" lengthAdjust="spacingAndGlyphs">{name}</text>')
    vp = BOARD.vp[loc]
    if vp:
        r = STAR_SIZE * lab.size / 2
        x = lab.x + lab.width + 0.15 * lab.size + r
        cy = lab.y - 0.33 * lab.size
        stars = "".join(_star(x + i * 2 * r, cy, r * 0.95) for i in range(vp))
        out += f'<path class="vp-stars" d="{stars}"/>'
    return out + "</g>"


@lru_cache(maxsize=8)
def map_svg(label: str = "map") -> str:
    """The map; `label` is its accessible name, in the reader's language (one cached per language)."""
    lay = layout()
    v = lay.view
    xy = BOARD.map_xy
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(v.x0)} {_n(v.y0)} {_n(v.x1 - v.x0)} '
           f'{_n(v.y1 - v.y0)}" class="map" role="img" aria-label="{escape(label)}">',
           f'<defs><path id="land" d="{_land_path()}"/></defs>',
           f'<rect class="sea-bg" x="{_n(v.x0)}" y="{_n(v.y0)}" width="{_n(v.x1 - v.x0)}" height="{_n(v.y1 - v.y0)}"/>',
           f'<use href="#land" class="coast" stroke-width="{2 * LAND_R + 6}"/>',
           f'<use href="#land" class="land" stroke-width="{2 * LAND_R}"/>']
    for loc in range(BOARD.n_locs):
        if BOARD.is_sea[loc]:
            out.append(f'<circle class="open-sea" cx="{xy[loc][0]}" cy="{xy[loc][1]}" r="{_n(sea_room(loc))}"/>')
    for cls, name in ((SEA, "lane"), (STRAIT, "road strait"), (MINOR, "road minor"), (MAJOR, "road major")):
        out.append(f'<path class="{name}" d="{_roads(cls)}"/>')
    out.append('<g class="locs">')
    for loc in range(BOARD.n_locs):
        x, y = xy[loc]
        kind = "sea" if BOARD.is_sea[loc] else "major-port" if BOARD.is_major_port[loc] else \
            "port" if BOARD.is_port[loc] else "city"
        s = lay.stacks[loc]
        stack = f"{_n(s.x0)} {_n(s.y0)} {_n(s.x1 - s.x0)} {_n(s.y1 - s.y0)}"
        out.append(f'<g class="loc {kind}{" vp" if BOARD.vp[loc] else ""}" data-name="{escape(BOARD.loc_names[loc])}" '
                   f'data-stack="{stack}"{" data-upright" if lay.upright[loc] else ""}>'
                   f'<circle cx="{x}" cy="{y}" r="{SEA_R if BOARD.is_sea[loc] else CITY_R}"/></g>')
    out.append('</g><g class="map-layer" aria-hidden="true"></g>')
    for size, labels in lay.labels.items():
        out.append(f'<g class="labels {size}" aria-hidden="true">{"".join(_label(lab) for lab in labels)}</g>')
    out.append("</svg>")
    return "".join(out)

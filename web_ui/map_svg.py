"""The map as SVG, drawn by the project from the game data (no game art): locations at their
positions, roads by class (major solid, minor dashed, straits dotted), sea borders, seas as
regions. Each location is a `<g class="loc" data-name="...">` whose `.count` text the pages fill
with the blocks standing there, as the viewer may see them."""
from __future__ import annotations

from functools import lru_cache
from html import escape

from engine import BOARD, MAJOR, MINOR, SEA, STRAIT

MARGIN = 60
SEA_R, CITY_R = 46, 14
STROKE = {MAJOR: 'class="road major"', MINOR: 'class="road minor"', STRAIT: 'class="road strait"',
          SEA: 'class="border sea"'}


@lru_cache(maxsize=8)
def map_svg(label: str = "map") -> str:
    """The map; `label` is its accessible name, in the reader's language (one cached per language)."""
    xy = BOARD.map_xy
    xs = [p[0] for p in xy if p]
    ys = [p[1] for p in xy if p]
    x0, y0 = min(xs) - MARGIN, min(ys) - MARGIN
    w, h = max(xs) - x0 + MARGIN, max(ys) - y0 + MARGIN
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0} {y0} {w} {h}" class="map" role="img" '
           f'aria-label="{escape(label)}">']
    for loc in range(BOARD.n_locs):
        if BOARD.is_sea[loc] and xy[loc]:
            x, y = xy[loc]
            out.append(f'<ellipse class="sea-region" cx="{x}" cy="{y}" rx="{SEA_R * 2.2:.0f}" ry="{SEA_R * 1.4:.0f}"/>')
    for e in range(BOARD.n_edges):
        a, b = BOARD.edge_ends[e]
        if xy[a] and xy[b]:
            out.append(f'<line {STROKE[BOARD.edge_class[e]]} x1="{xy[a][0]}" y1="{xy[a][1]}" '
                       f'x2="{xy[b][0]}" y2="{xy[b][1]}"/>')
    for loc in range(BOARD.n_locs):
        if not xy[loc]:
            continue
        x, y = xy[loc]
        name = escape(BOARD.loc_names[loc])
        kind = "sea" if BOARD.is_sea[loc] else "major-port" if BOARD.is_major_port[loc] else \
            "port" if BOARD.is_port[loc] else "city"
        vp = BOARD.vp[loc]
        out.append(f'<g class="loc {kind}{" vp" if vp else ""}" data-name="{name}">'
                   f'<circle cx="{x}" cy="{y}" r="{SEA_R // 3 if BOARD.is_sea[loc] else CITY_R}"/>'
                   f'<text class="name" x="{x}" y="{y - CITY_R - 6}">{name}{" ★" * vp}</text>'
                   f'<text class="count" x="{x}" y="{y + CITY_R + 22}"></text></g>')
    out.append("</svg>")
    return "".join(out)

"""Where the antennas go under the map: sensing zones computed from the map's coordinates.

Input: each map location's position in millimetres on the board (`MapSpot`; `MapFrame` turns the
game data's map units into millimetres) and `LayoutRules` (board size, reader module, margins).
Output: a `Layout`, one `Antenna` per sensing zone: the locations it serves, where its loop lies
(and what must not overlap another's: the loop, or a module lying in the same plane), which scanner
region and SPI bus read it. `Layout.problems()` checks a layout on its own terms (every location
served once, each dot inside its loop by its margin, nothing overlapping, all on the board),
independently of how it was found.

How zones are found: cities nearer than `merge_below` share a zone from the start where one loop can
hold them; every other location starts as its own zone. A zone's loop must hold each of its dots at
least `margin` mm inside the loop's edge (a city alone: `margin_alone`, enough for four blocks
standing in a square around the dot; a shared zone: `margin_shared`, its loop growing to its dots up
to the part's largest loop; a sea's loop need only lie within `sea_play` of its marker, a sea being
a wide area). That leaves each loop a few millimetres of play (and an in-plane module four
directions for its tail); a min-conflicts search (seeded, so the result is the same every run) looks
for positions where nothing overlaps. Where none is found, the zone that conflicted most is merged
with the neighbouring city zone it conflicts with whose merge still fits one loop, and the search
goes on. Seas are never merged with cities.

A shared zone senses that a block is on one of its locations; the table tells which by the rules
(only one of them can be the block's legal destination) or asks the mover's phone when several are.
"""
from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from firmware_bridge.board.antenna_parts import RC522_LOOP, AntennaPart
from firmware_bridge.board.table_measure import SMALL_CUBE, BlockFootprint
from firmware_bridge.shared.errors import BridgeValueError

SCAN_APART_MM = 110.0            # two fields on at once (pipelined scanning) at least this far apart
TAILS = ("S", "N", "E", "W")       # where an in-plane module's tail points; "-": the module is not in the plane
MAP_IMAGE_UNITS = (2560, 1280)   # the game data's map_xy frame: a 2560 x 1280 image of the whole sheet


class LayoutError(BridgeValueError):
    """No layout fits (a message names the locations or the setting at fault)."""


@dataclass(frozen=True)
class MapSpot:
    """A map location on the board: its name, city or sea, and its marker's place in mm from the board's top-left
    corner."""
    name: str
    kind: str                # "city" or "sea"
    x: float                 # mm from the board's left edge
    y: float                 # mm from the board's top edge


@dataclass(frozen=True)
class MapFrame:
    """Map units -> board millimetres: x_mm = scale * u + ox (and the same scale for y)."""

    scale: float
    ox: float = 0.0
    oy: float = 0.0
    how: str = ""

    @classmethod
    def image_frame(cls, board_w: float, board_h: float) -> MapFrame:
        """The game data's map_xy are positions on a 2560 x 1280 image of the whole sheet: 2:1, as the
        17" x 34" board is. Scale = board width / 2560 (= board height / 1280 on a 2:1 board)."""
        sx, sy = board_w / MAP_IMAGE_UNITS[0], board_h / MAP_IMAGE_UNITS[1]
        if abs(sx - sy) > 0.02 * sx:
            raise LayoutError(f"a {board_w:g} x {board_h:g} mm board is not 2:1 like the map image "
                              f"({MAP_IMAGE_UNITS[0]} x {MAP_IMAGE_UNITS[1]}); measure two cities (--measured)")
        return cls(scale=min(sx, sy), how=f"map image {MAP_IMAGE_UNITS[0]} x {MAP_IMAGE_UNITS[1]} units = "
                                          f"{board_w:g} x {board_h:g} mm ({min(sx, sy):.4f} mm/unit)")

    @classmethod
    def fitted(cls, measured: Sequence[tuple[float, float, float, float]]) -> MapFrame:
        """Least-squares scale and offset from (u, v, x_mm, y_mm) of two or more locations measured on
        the owner's own map sheet (no rotation: the sheet lies square on the board)."""
        if len(measured) < 2:
            raise LayoutError("measure at least two locations, far apart (e.g. Olisipo and Antiochia)")
        n = len(measured)
        mu = sum(m[0] for m in measured) / n
        mv = sum(m[1] for m in measured) / n
        mx = sum(m[2] for m in measured) / n
        my = sum(m[3] for m in measured) / n
        den = sum((u - mu) ** 2 + (v - mv) ** 2 for u, v, _, _ in measured)
        if den == 0:
            raise LayoutError("the measured locations are all at one point")
        scale = sum((u - mu) * (x - mx) + (v - mv) * (y - my) for u, v, x, y in measured) / den
        if scale <= 0:
            raise LayoutError("the measured positions run the other way from the map's (x right, y down)")
        worst = max(math.hypot(scale * u + mx - scale * mu - x, scale * v + my - scale * mv - y)
                    for u, v, x, y in measured)
        return cls(scale=scale, ox=mx - scale * mu, oy=my - scale * mv,
                   how=f"fitted to {n} measured locations ({scale:.4f} mm/unit, worst residual {worst:.1f} mm)")

    def to_mm(self, u: float, v: float) -> tuple[float, float]:
        """The board position (mm) of the map image's point (u, v)."""
        return self.scale * u + self.ox, self.scale * v + self.oy


@dataclass(frozen=True)
class LayoutRules:
    """What a layout must respect: the board's size, the antenna part, the margins from a city's dot to its loop's
    edge, and how far a sea's loop may stray from its marker."""
    board_w: float = 432.0 * 2      # 34 in
    board_h: float = 432.0          # 17 in
    part: AntennaPart = RC522_LOOP
    block: BlockFootprint = SMALL_CUBE   # the owner's blocks (table_measure.py): a city alone's loop holds their tags
    inner: float = 4.0              # its blocks' tags at least this far inside the loop's wire (loop_field: nearer,
                                    # a 12 mm tag's coupling falls below the loop centre's, over the wire to ~0.4)
    margin_shared: float = 5.0      # dot to loop edge in a shared zone (its blocks stand together on the loop)
    sea_play: float = 30.0          # a sea's loop centre may lie this far from its marker (in x and in y)
    merge_below: float = 30.0       # cities nearer than this share a zone where one loop can hold them
    gap: float = 2.0                # between two modules
    edge: float = 2.0               # module to board edge
    step: float = 2.0               # placement grid
    regions: int = 3                # scanner regions (one Pico each), split west to east
    buses: int = 2                  # SPI buses per region

    def margin(self, kind: str, size: int) -> tuple[float, float]:
        """The least dot-to-loop-edge distance, across and down: a city alone keeps its blocks' tags (the
        cluster around the dot, `block.tag_half`) `inner` mm inside its wire (19 mm blocks: 13.5 mm); a sea's
        loop need only lie within `sea_play` of its marker (a sea is a wide area: its fleets stand on the
        loop, which the template shows)."""
        if kind == "sea":
            return (self.part.loop / 2 - self.sea_play,) * 2
        if size > 1:
            return (self.margin_shared, self.margin_shared)
        hx, hy = self.block.tag_half
        return hx + self.inner, hy + self.inner


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle on the board, in mm."""
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Rect, gap: float = 0.0) -> bool:
        """Whether the two rectangles come closer than `gap` mm (touching counts when gap > 0)."""
        return (self.x0 < other.x1 + gap and other.x0 < self.x1 + gap
                and self.y0 < other.y1 + gap and other.y0 < self.y1 + gap)

    def inside(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether the rectangle lies within (x0, y0)-(x1, y1)."""
        return self.x0 >= x0 and self.y0 >= y0 and self.x1 <= x1 and self.y1 <= y1

    def depth(self, x: float, y: float) -> float:
        """How far (x, y) lies inside this rectangle (negative: outside)."""
        return min(x - self.x0, self.x1 - x, y - self.y0, self.y1 - y)

    def holds(self, x: float, y: float, margin: tuple[float, float]) -> bool:
        """Whether (x, y) lies at least margin[0] mm inside the left and right sides and margin[1] inside the
        top and bottom."""
        mx, my = margin
        eps = 1e-6
        return (min(x - self.x0, self.x1 - x) >= mx - eps) and (min(y - self.y0, self.y1 - y) >= my - eps)

    @property
    def w(self) -> float:
        """Its width (mm)."""
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        """Its height (mm)."""
        return self.y1 - self.y0


def loop_rect(cx: float, cy: float, w: float, h: float) -> Rect:
    """The loop of size `w` x `h` centred on (cx, cy)."""
    return Rect(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def footprint(part: AntennaPart, loop: Rect, tail: str) -> Rect:
    """What must not overlap another antenna's: the loop, or for an in-plane module its whole board (the
    loop end centred on the loop, the tail pointing `tail`: N/E/S/W)."""
    if not part.in_plane:
        return loop
    cx, cy = (loop.x0 + loop.x1) / 2, (loop.y0 + loop.y1) / 2
    half, t = part.module_w / 2, part.tail
    x0, y0, x1, y1 = cx - half, cy - half, cx + half, cy + half
    if tail == "S":
        y1 += t
    elif tail == "N":
        y0 -= t
    elif tail == "E":
        x1 += t
    else:
        x0 -= t
    return Rect(x0, y0, x1, y1)


@dataclass(frozen=True)
class Antenna:
    """One antenna of the layout: its reader number, the locations it serves, its loop and what else must not
    overlap."""
    number: int                     # the reader index (readers.toml), printed on the template
    locations: tuple[str, ...]      # the locations it serves (more than one: a shared zone)
    kind: str                       # "city" or "sea"
    loop: Rect                      # the antenna loop, mm on the board
    footprint: Rect                 # what must not overlap: the loop, or an in-plane module's board
    tail: str                       # an in-plane module's tail: N, E, S or W; "-" otherwise
    margin: tuple[float, float]     # the least dot-to-loop-edge distance this zone is held to (across, down)
    region: int = 0
    bus: int = 0

    @property
    def cx(self) -> float:
        """The loop's centre, across (mm)."""
        return (self.loop.x0 + self.loop.x1) / 2

    @property
    def cy(self) -> float:
        """The loop's centre, down (mm)."""
        return (self.loop.y0 + self.loop.y1) / 2


@dataclass(frozen=True)
class Layout:
    """A computed layout: its rules, the map's spots on the board, the antennas, and how the map image maps onto
    the board."""
    rules: LayoutRules
    spots: tuple[MapSpot, ...]
    antennas: tuple[Antenna, ...]
    frame: MapFrame | None = None

    def zone_of(self, location: str) -> Antenna:
        """The antenna serving `location`; KeyError for a location no antenna serves."""
        for a in self.antennas:
            if location in a.locations:
                return a
        raise KeyError(location)

    def scan_order(self, region: int, apart: float = SCAN_APART_MM) -> list[int]:
        """An order in which the Pico of `region` can read its antennas with two fields on at once (each
        next field settling while this one is read) that are never nearer than `apart` mm: the Pico's
        own reader numbers (0 = the region's first). Greedy from each start, the nearest far-enough next
        antenna first (the far ones stay for later); the order whose nearest pair is farthest. [] if none."""
        ants = sorted((a for a in self.antennas if a.region == region), key=lambda a: a.number)
        if not ants:
            return []
        first = ants[0].number
        best: tuple[float, list[int]] | None = None
        for start in ants:
            order, left = [start], [a for a in ants if a is not start]
            while left:
                far = [a for a in left if math.dist((order[-1].cx, order[-1].cy), (a.cx, a.cy)) >= apart]
                if not far:
                    break
                step = min(far, key=lambda a: (math.dist((order[-1].cx, order[-1].cy), (a.cx, a.cy)), a.number))
                order.append(step)
                left.remove(step)
            if left:
                continue
            pairs = zip(order, order[1:], strict=False)
            nearest = min((math.dist((a.cx, a.cy), (b.cx, b.cy)) for a, b in pairs), default=math.inf)
            if best is None or nearest > best[0]:
                best = (nearest, [a.number - first for a in order])
        return [] if best is None else best[1]

    @property
    def shared(self) -> list[Antenna]:
        """The antennas that serve more than one location (the shared zones)."""
        return [a for a in self.antennas if len(a.locations) > 1]

    def problems(self) -> list[str]:
        """Everything wrong with this layout, checked from scratch (empty: a buildable layout)."""
        r, out = self.rules, []
        served: dict[str, list[int]] = {}
        for a in self.antennas:
            for name in a.locations:
                served.setdefault(name, []).append(a.number)
        by_name = {s.name: s for s in self.spots}
        for s in self.spots:
            numbers = served.get(s.name, [])
            if len(numbers) != 1:
                out.append(f"{s.name} is served by {len(numbers)} antennas {numbers}")
        for name in served:
            if name not in by_name:
                out.append(f"antenna {served[name]} serves {name!r}, not a map location")
        for a in self.antennas:
            for name in a.locations:
                if name in by_name and not a.loop.holds(by_name[name].x, by_name[name].y, a.margin):
                    depth = a.loop.depth(by_name[name].x, by_name[name].y)
                    out.append(f"{name}: its dot is {depth:.1f} mm inside antenna {a.number}'s loop, less than the "
                               f"{a.margin[0]:g} x {a.margin[1]:g} mm it needs")
            if not a.footprint.inside(r.edge, r.edge, r.board_w - r.edge, r.board_h - r.edge):
                out.append(f"antenna {a.number} ({'/'.join(a.locations)}) sticks out of the board")
        for i, a in enumerate(self.antennas):
            for b in self.antennas[i + 1:]:
                if a.footprint.overlaps(b.footprint, r.gap):
                    out.append(f"antennas {a.number} ({'/'.join(a.locations)}) and {b.number} "
                               f"({'/'.join(b.locations)}) overlap or are closer than {r.gap:g} mm")
        numbers = [a.number for a in self.antennas]
        if len(set(numbers)) != len(numbers):
            out.append("an antenna number is used twice")
        return out


# --- the search ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Adjustments:
    """What the field check asks of the search (field_check.design_layout): places that must share one loop,
    pairs of places whose loops must stand further apart than `gap`, and cities whose dots must lie deeper
    inside their loop."""
    together: tuple[frozenset[str], ...] = ()
    apart: tuple[tuple[frozenset[str], float], ...] = ()    # ({place, place}, least gap between their loops, mm)
    deeper: dict[str, float] = field(default_factory=dict)   # place -> extra mm inside its loop

    def gap(self, a: Sequence[str], b: Sequence[str], base: float) -> float:
        """The least gap between the loops of zones holding places `a` and `b`."""
        out = base
        for pair, gap in self.apart:
            if any(p in pair for p in a) and any(q in pair for q in b) and len(pair & (set(a) | set(b))) == 2:
                out = max(out, gap)
        return out


@dataclass
class _Zone:
    members: list[int]          # indices into spots
    kind: str
    margin: tuple[float, float]
    candidates: list[tuple[Rect, str, Rect]]      # (loop, tail, footprint), best first


def compute_layout(spots: Sequence[MapSpot], rules: LayoutRules = LayoutRules(), *, seed: int = 705,
                   frame: MapFrame | None = None, max_steps: int = 4000,
                   adjust: Adjustments | None = None) -> Layout:
    """The sensing zones for these locations (see the module docstring); LayoutError if none fits.
    `adjust`: what a field check asked for (places together, loops apart, dots deeper)."""
    adjust = adjust or Adjustments()
    spots = tuple(spots)
    for s in spots:
        if not (0 <= s.x <= rules.board_w and 0 <= s.y <= rules.board_h):
            raise LayoutError(f"{s.name} at ({s.x:.0f}, {s.y:.0f}) mm lies off the {rules.board_w:g} x "
                              f"{rules.board_h:g} mm board: check the scale")
    rng = random.Random(seed)
    groups = _premerge(spots, rules, adjust)
    zones = [_zone(spots, g, rules, adjust) for g in groups]
    for z, g in zip(zones, groups, strict=True):
        if not z.candidates:
            names = ", ".join(spots[i].name for i in g)
            raise LayoutError(f"no place for one {rules.part.loop:g} mm loop holding {names}")
    choice = [0] * len(zones)
    while True:
        solved, blame = _min_conflicts(spots, zones, choice, rules, rng, max_steps, adjust)
        if solved:
            break
        merged = _merge_worst(spots, zones, choice, blame, rules, adjust)
        if merged is None:
            worst = max(range(len(zones)), key=lambda i: blame[i])
            raise LayoutError("no layout without overlaps: " + ", ".join(spots[i].name for i in zones[worst].members)
                              + " cannot be separated from its neighbours nor share a loop with one")
        zones, choice = merged
    antennas = [Antenna(0, tuple(spots[i].name for i in z.members), z.kind, z.candidates[c][0], z.candidates[c][2],
                        z.candidates[c][1], z.margin) for z, c in zip(zones, choice, strict=True)]
    return Layout(rules, spots, _number(antennas, rules), frame)


def _premerge(spots: Sequence[MapSpot], rules: LayoutRules, adjust: Adjustments) -> list[list[int]]:
    """Cities closer than `merge_below` share a zone from the start, nearest pairs first, as long as the
    shared zone still fits one loop: two loops could hardly stand apart there, and settling them first
    spares the search most of its work."""
    groups = [[i] for i in range(len(spots))]
    where = list(range(len(spots)))
    index = {s.name: i for i, s in enumerate(spots)}
    for together in adjust.together:       # asked by a field check: these share a loop (when one holds them)
        members = [index[n] for n in sorted(together) if n in index]
        merged = sorted({k for m in members for k in groups[where[m]]})
        if len(members) > 1 and _zone(spots, merged, rules, adjust).candidates:
            first = where[members[0]]
            for k in {where[m] for m in members} - {first}:
                groups[k] = []
            groups[first] = merged
            for k in merged:
                where[k] = first
    pairs = sorted((math.dist((a.x, a.y), (b.x, b.y)), i, j)
                   for i, a in enumerate(spots) for j, b in enumerate(spots)
                   if i < j and a.kind == b.kind == "city")
    for d, i, j in pairs:
        if d >= rules.merge_below:
            break
        gi, gj = where[i], where[j]
        if gi == gj:
            continue
        merged = sorted(groups[gi] + groups[gj])
        if _zone(spots, merged, rules, adjust).candidates:
            groups[gi], groups[gj] = merged, []
            for k in merged:
                where[k] = gi
    return sorted((g for g in groups if g), key=min)


def _zone(spots: Sequence[MapSpot], members: list[int], rules: LayoutRules,
          adjust: Adjustments | None = None) -> _Zone:
    """A zone and its candidate placements: the loop holds every dot by the margin (a sea's loop: within
    sea_play of its marker); a shared zone's loop grows to its dots, up to the part's largest loop."""
    part = rules.part
    kind = spots[members[0]].kind
    mx, my = rules.margin(kind, len(members))
    if adjust is not None and kind == "city":
        deeper = max(adjust.deeper.get(spots[i].name, 0.0) for i in members)
        mx, my = mx + deeper, my + deeper
    xs = [spots[i].x for i in members]
    ys = [spots[i].y for i in members]
    w = max(part.loop, max(xs) - min(xs) + 2 * mx)
    h = max(part.loop, max(ys) - min(ys) + 2 * my)
    cands: list[tuple[Rect, str, Rect]] = []
    if w <= part.max_loop + 1e-9 and h <= part.max_loop + 1e-9:
        step = rules.step if kind == "city" else 2 * rules.step
        cx_mid, cy_mid = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        tails = TAILS if part.in_plane else ("-",)
        for cx in _grid(max(xs) - (w / 2 - mx), min(xs) + (w / 2 - mx), step):
            for cy in _grid(max(ys) - (h / 2 - my), min(ys) + (h / 2 - my), step):
                loop = loop_rect(cx, cy, w, h)
                for tail in tails:
                    rect = footprint(part, loop, tail)
                    if rect.inside(rules.edge, rules.edge, rules.board_w - rules.edge, rules.board_h - rules.edge):
                        cands.append((loop, tail, rect))
        cands.sort(key=lambda c: (round(math.hypot((c[0].x0 + c[0].x1) / 2 - cx_mid,
                                                   (c[0].y0 + c[0].y1) / 2 - cy_mid), 3),
                                  tails.index(c[1])))
    return _Zone(members, kind, (mx, my), cands)


def _grid(lo: float, hi: float, step: float) -> list[float]:
    if hi < lo - 1e-9:
        return []
    n = int((hi - lo) // step)
    points = [lo + k * step for k in range(n + 1)]
    if hi - points[-1] > 1e-9:
        points.append(hi)
    return points


def _neighbours(spots: Sequence[MapSpot], zones: list[_Zone], rules: LayoutRules,
                adjust: Adjustments) -> list[list[tuple[int, float]]]:
    """Each zone's possible neighbours, with the gap their loops must keep."""
    widest = max([rules.gap] + [g for _, g in adjust.apart])
    names = [[spots[k].name for k in z.members] for z in zones]
    boxes = []
    for z in zones:
        xs = [c[2].x0 for c in z.candidates] + [c[2].x1 for c in z.candidates]
        ys = [c[2].y0 for c in z.candidates] + [c[2].y1 for c in z.candidates]
        boxes.append(Rect(min(xs), min(ys), max(xs), max(ys)))
    return [[(j, adjust.gap(names[i], names[j], rules.gap)) for j in range(len(zones))
             if j != i and boxes[i].overlaps(boxes[j], widest)] for i in range(len(zones))]


def _min_conflicts(spots: Sequence[MapSpot], zones: list[_Zone], choice: list[int], rules: LayoutRules,
                   rng: random.Random, max_steps: int, adjust: Adjustments) -> tuple[bool, list[int]]:
    near = _neighbours(spots, zones, rules, adjust)
    blame = [0] * len(zones)

    def rect(i: int) -> Rect:
        return zones[i].candidates[choice[i]][2]

    def clashes(i: int, r: Rect) -> int:
        return sum(r.overlaps(rect(j), gap) for j, gap in near[i])

    for _ in range(max_steps):
        conflicted = [i for i in range(len(zones)) if clashes(i, rect(i))]
        if not conflicted:
            return True, blame
        i = rng.choice(conflicted)
        blame[i] += 1
        if rng.random() < 0.05:
            choice[i] = rng.randrange(len(zones[i].candidates))
            continue
        best, best_key = choice[i], None
        for k, cand in enumerate(zones[i].candidates):
            key = (clashes(i, cand[2]), rng.random())
            if best_key is None or key < best_key:
                best, best_key = k, key
                if key[0] == 0:
                    break   # candidates are sorted nearest-centred first: the first clash-free one is best
        choice[i] = best
    return False, blame


def _merge_worst(spots: Sequence[MapSpot], zones: list[_Zone], choice: list[int], blame: list[int],
                 rules: LayoutRules, adjust: Adjustments) -> tuple[list[_Zone], list[int]] | None:
    near = [[j for j, _ in row] for row in _neighbours(spots, zones, rules, adjust)]
    for i in sorted(range(len(zones)), key=lambda k: -blame[k]):
        if blame[i] == 0 or zones[i].kind != "city":
            continue
        options = []
        for j in near[i]:
            if zones[j].kind != "city":
                continue
            merged = _zone(spots, sorted(zones[i].members + zones[j].members), rules, adjust)
            if merged.candidates:
                xs = [spots[k].x for k in merged.members]
                ys = [spots[k].y for k in merged.members]
                options.append(((max(xs) - min(xs)) * (max(ys) - min(ys)) + max(xs) - min(xs) + max(ys) - min(ys),
                                j, merged))
        if options:
            _, j, merged = min(options, key=lambda o: (o[0], o[1]))
            keep = [k for k in range(len(zones)) if k not in (i, j)]
            return [zones[k] for k in keep] + [merged], [choice[k] for k in keep] + [0]
    return None


def _number(antennas: list[Antenna], rules: LayoutRules) -> tuple[Antenna, ...]:
    """Regions split west to east into equal counts; within a region a snake along rows (so one harness
    runs from antenna to antenna); buses split each region's antennas into halves by row order."""
    by_x = sorted(antennas, key=lambda a: (a.cx, a.cy))
    n, regions = len(by_x), max(1, rules.regions)
    out: list[Antenna] = []
    for region in range(regions):
        chunk = by_x[region * n // regions:(region + 1) * n // regions]
        row_h = rules.board_h / 4
        chunk.sort(key=lambda a: (int(a.cy // row_h), a.cx if int(a.cy // row_h) % 2 == 0 else -a.cx))
        for k, a in enumerate(chunk):
            bus = min(rules.buses - 1, k * rules.buses // max(1, len(chunk)))
            out.append(replace(a, number=len(out), region=region, bus=bus))
    return tuple(out)


def spots_in_mm(places: Iterable[tuple[str, str, float, float]], frame: MapFrame) -> tuple[MapSpot, ...]:
    """(name, kind, u, v) in map units -> MapSpots in board millimetres."""
    return tuple(MapSpot(name, kind, *frame.to_mm(u, v)) for name, kind, u, v in places)

"""Where everything on the drawn map goes, computed once from the game data (deterministic):
each location's dot, the box its blocks stack in (on the dot or beside it, never nearer another
location's dot than its own), its name label in normal and in large text, the land (around the
cities and the land roads, and the faces of the road graph with no sea inside) and the
stretches of road next to each dot (the road endings, kept free of names).

Placement: every stack box and label has candidate positions around its dot; a cost counts
overlaps (with labels, stack boxes and dots), road endings crossed and a mild preference order. A
name or a stack nearer another location's dot than its own (by less than a margin) names the
wrong place: such a candidate counts as an overlap, so it is never taken while any other is left
(`nearest_margin`; a name is measured from the largest box any font draws it in to its capitals
alone, `text_boxes`). A name crosses a road ending only where every other place is taken. No
name or stack reaches farther beyond the outermost dots than FRAME (`frame`): the view stays
narrow, so the names are drawn as large as the screen's width allows (the TV's, at 1280 px).
Greedy placement, hardest first; then, while overlaps are left, simulated
annealing around them with fixed seeds, so the result is the same every time. Label boxes are
those of `textLength`, which every browser honours, with room for any sans serif's ascent and
descent. The stack boxes are placed with the large labels (the harder case) and kept for the
normal ones, so the blocks stand in the same place in both text sizes."""
from __future__ import annotations

import functools
import itertools
import math
import random
import threading
from functools import lru_cache

from engine import BOARD, MAJOR, MINOR

from .map_geometry import Box, Label, Layout, Segment, bounds, text_width
from .map_layout_file import shipped

CITY_R = 13           # a city's dot
SEA_R = 11            # a sea's marker
BLOCK = 22            # a block's square
PITCH = 24            # a block and the gap after it
COLS, ROWS = 3, 2     # a stack's cells (or ROWS x COLS when it stands upright)
MARK = 5              # the battle or contested outline around a stack
GAP = 4               # between a dot and its stack
LAND_R = 30           # land around a city, and half the width of land along a road
END_LEN = 22          # the road ending kept free of labels, from the dot's edge
FONT = {"normal": 24, "large": 31}
CAPS = 0.7            # a capital's height per font size (any sans serif's is more)
LINE = 1.44           # a label's box height per font size: room for any sans serif's ascent and descent
CLEAR = 3             # room kept around a label's text (a pixel at a quarter scale: rounding of small text)
OVERLAP = 1000.0      # the cost of any overlap: placement takes every other cost first
NEARER = 0.3         # a label's margin: the next dot at least this many font sizes farther than its own
STACK_NEARER = 6.0   # a stack's margin: the next dot at least this much farther than its own
ROAD_END = 40.0       # a stack over a road ending (preferably not)
ROAD_CROSS = 200.0    # a label over a road ending: only where every other place is taken or names another place
FRAME = (250, 40, 150)  # how far a name or a stack may reach beyond the outermost dots: left (room for Oceanus
                        # Atlanticus' long name, which only left of its dot is nearest it), right, up and down

DIRECTIONS = ((1, 0), (0, -1), (-1, 0), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1))
STACK_DIRECTIONS = ((0, 1), (1, 0), (-1, 0), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


STAR_SIZE = 0.8      # a victory point's star, per font size (drawn as a shape, after the name)


def label_width(loc: int, size: int) -> tuple[float, float]:
    """A location's label: the width of its name as printed, and of the whole with a star per
    victory point after it."""
    name = text_width(BOARD.loc_names[loc], size)
    vp = BOARD.vp[loc]
    return name, name + (vp * STAR_SIZE * size + 0.15 * size if vp else 0)


def _dot(loc: int) -> Box:
    x, y = BOARD.map_xy[loc]
    r = SEA_R if BOARD.is_sea[loc] else CITY_R
    return Box(x - r, y - r, x + r, y + r)


def _road_ends() -> list[Segment]:
    xy = BOARD.map_xy
    out = []
    for a, b in BOARD.edge_ends:
        (xa, ya), (xb, yb) = xy[a], xy[b]
        length = math.hypot(xb - xa, yb - ya)
        ux, uy = (xb - xa) / length, (yb - ya) / length
        for (x, y), s in (((xa, ya), 1), ((xb, yb), -1)):
            reach = min(CITY_R + END_LEN, length / 2)
            out.append(Segment(x + s * ux * CITY_R, y + s * uy * CITY_R, x + s * ux * reach, y + s * uy * reach))
    return out


def _stack_size(upright: bool) -> tuple[float, float]:
    cols, rows = (ROWS, COLS) if upright else (COLS, ROWS)
    return cols * PITCH - (PITCH - BLOCK), rows * PITCH - (PITCH - BLOCK)


def _around(x: float, y: float, r: float, w: float, h: float, ux: int, uy: int, slide: float = 0.0) -> Box:
    """A w x h box beside the point, in direction (ux, uy), its near edge r from the point; `slide`
    shifts a box straight above, below or beside the point along that side (a fraction of its size)."""
    k = 0.72 if ux and uy else 1.0
    cx, cy = x + ux * (k * r + w / 2), y + uy * (k * r + h / 2)
    if not ux:
        cx += slide * w / 2
    elif not uy:
        cy += slide * h
    return Box.centred(cx, cy, w, h)


def _slides(ux: int, uy: int) -> tuple[float, ...]:
    if ux and uy:
        return (0.0,)
    return (0.0, -0.3, 0.3, -0.6, 0.6, -0.9, 0.9) if not ux else (0.0, -0.5, 0.5, -1.0, 1.0)


def _label_slides(ux: int, uy: int) -> tuple[float, ...]:
    if ux and uy:
        return (0.0,)
    steps = tuple(sorted((k / 10 for k in range(-10, 11)), key=abs))
    return steps if not ux else tuple(1.2 * s for s in steps)


@lru_cache(maxsize=1)
def frame() -> Box:
    """Where names and stacks may stand: the outermost dots and FRAME beyond them."""
    dots = bounds([_dot(i) for i in range(BOARD.n_locs)])
    left, right, up_down = FRAME
    return Box(dots.x0 - left, dots.y0 - up_down, dots.x1 + right, dots.y1 + up_down)


def _inside(box: Box) -> bool:
    f = frame()
    return f.x0 <= box.x0 and f.y0 <= box.y0 and box.x1 <= f.x1 and box.y1 <= f.y1


def _stack_candidates(loc: int) -> list[tuple[Box, bool]]:
    x, y = BOARD.map_xy[loc]
    r = (SEA_R if BOARD.is_sea[loc] else CITY_R) + GAP + MARK
    out = [(Box.centred(x, y, *_stack_size(upright)), upright) for upright in (False, True)]   # on the dot
    for ux, uy in STACK_DIRECTIONS:
        for slide in _slides(ux, uy):
            for upright in (False, True):
                w, h = _stack_size(upright)
                out.append((_around(x, y, r, w, h, ux, uy, slide), upright))
    return [c for c in out if _inside(c[0].grown(MARK))]


def _label_candidates(loc: int, size: int) -> list[Label]:
    x, y = BOARD.map_xy[loc]
    name_w, w = label_width(loc, size)
    w, h = w + 2 * CLEAR, size * LINE + 2 * CLEAR
    out = []
    for extra in (0.0, 0.2, 0.4, 0.65, 0.9, 1.2, 1.5, 1.9, 2.3, 2.7, 3.2):
        for ux, uy in DIRECTIONS:
            for slide in _label_slides(ux, uy):
                r = (SEA_R if BOARD.is_sea[loc] else CITY_R) + 4 + extra * size
                box = _around(x, y, r, w, h, ux, uy, slide)
                # The baseline sits 0.36 of the size above the box's bottom (room for any descent).
                baseline = box.y1 - CLEAR - 0.36 * size
                if _inside(box):
                    out.append(Label(loc, round(box.x0 + CLEAR, 1), round(baseline, 1), round(name_w, 1), size, box))
    return out


class _Problem:
    """Items (stacks and labels) with candidates; fixed costs per candidate; pairwise overlaps."""

    def __init__(self) -> None:
        self.cands: list[list[Box]] = []
        self.fixed: list[list[float]] = []

    def add(self, boxes: list[Box], costs: list[float]) -> int:
        self.cands.append(boxes)
        self.fixed.append(costs)
        return len(self.cands) - 1

    def _rank(self, i: int, k: int) -> tuple[float, int]:
        return self.fixed[i][k], k

    def solve(self, rounds: int = 30_000, tries: int = 10, hot_start: float = OVERLAP) -> tuple[list[int], int]:
        """Greedy, hardest first; then, while overlaps are left, simulated annealing with fixed
        seeds (the same map every time) around the items that overlap: one moves to another
        candidate if that costs less, or now and then more while the temperature is high, to get
        out of a corner."""
        n = len(self.cands)
        extent = [bounds(c) for c in self.cands]
        near = [[j for j in range(n) if j != i and extent[i].overlaps(extent[j])] for i in range(n)]
        choice = [0] * n
        current = [Box(0, 0, 0, 0)] * n        # each item's chosen box (none yet: an empty box)
        placed = [False] * n

        def choose(i: int, k: int) -> None:
            choice[i] = k
            current[i] = self.cands[i][k]

        def overlaps(i: int, k: int) -> int:
            x0, y0, x1, y1 = self.cands[i][k]
            return sum(1 for j in near[i] if placed[j] and x0 < current[j][2] and current[j][0] < x1
                       and y0 < current[j][3] and current[j][1] < y1)

        def cost(i: int, k: int) -> float:
            return self.fixed[i][k] + OVERLAP * overlaps(i, k)

        # Each item's candidates by fixed cost (ties: preference order); the usable ones overlap nothing fixed.
        order = [sorted(range(len(c)), key=functools.partial(self._rank, i)) for i, c in enumerate(self.cands)]
        usable = [[k for k in order[i] if self.fixed[i][k] < OVERLAP] or order[i] for i in range(n)]

        def cheapest(i: int) -> int:
            best_k, best_c = -1, math.inf
            for k in order[i]:
                if self.fixed[i][k] >= best_c:
                    break
                c = cost(i, k)
                if c < best_c:
                    best_k, best_c = k, c
            return best_k

        def settle(dirty: set[int]) -> None:
            """Each item to its cheapest candidate, again for the neighbours of any that moved."""
            while dirty:
                i = min(dirty)
                dirty.discard(i)
                k = cheapest(i)
                if cost(i, k) < cost(i, choice[i]):
                    choose(i, k)
                    dirty.update(near[i])

        def hot() -> list[int]:
            return [i for i in range(n) if cost(i, choice[i]) >= OVERLAP]

        for i in sorted(range(n), key=lambda i: (-len(near[i]), i)):
            choose(i, cheapest(i))
            placed[i] = True
        settle(set(range(n)))
        best, best_left = list(choice), len(hot())
        for seed in range(tries):
            if not best_left:
                break
            rng = random.Random(seed)
            temperature, cooling = hot_start, (0.05 / hot_start) ** (1 / rounds)
            region = sorted({j for i in hot() for j in (i, *near[i])})
            for step in range(rounds):
                if step % 2000 == 1999:
                    region = sorted({j for i in hot() for j in (i, *near[i])}) or region
                i = region[rng.randrange(len(region))]
                k = usable[i][rng.randrange(len(usable[i]))]
                delta = cost(i, k) - cost(i, choice[i])
                if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                    choose(i, k)
                temperature *= cooling
            settle(set(range(n)))
            if len(hot()) < best_left:
                best, best_left = list(choice), len(hot())
            for i in range(n):
                choose(i, best[i])
        return best, best_left


def _label_costs(loc: int, labels: list[Label], dots: list[Box], ends: list[Segment],
                 stacks: list[Box] | None) -> list[float]:
    near = bounds([lab.box for lab in labels])
    solid = [d.grown(3) for d in dots] + ([s.grown(MARK) for s in stacks] if stacks is not None else [])
    solid = [b for b in solid if b.overlaps(near)]
    lines = [s for s in ends if s.crosses(near)]
    others = [o for o in range(len(dots)) if o != loc and dots[o].grown(250).overlaps(near)]
    costs = []
    for rank, lab in enumerate(labels):
        box = lab.box
        c = rank * 0.5
        if min(nearest_margin(lab.loc, b, others) for b in text_boxes(lab)) < NEARER * lab.size:
            costs.append(c + 2 * OVERLAP)      # a name nearer another place than its own names the wrong place
            continue
        if any(box.overlaps(b) for b in solid):
            c += OVERLAP
        c += ROAD_CROSS * sum(1 for s in lines if s.crosses(box))
        costs.append(c)
    return costs


def text_boxes(lab: Label) -> tuple[Box, Box]:
    """The room a label's text may take, from the largest (any sans serif's ascent and descent) to
    the smallest (its capitals' height above the baseline): whatever the font, the text drawn
    lies between the two."""
    return lab.box.grown(-CLEAR), Box(lab.x, lab.y - CAPS * lab.size, lab.box.x1 - CLEAR, lab.y)


def nearest_margin(loc: int, box: Box, others: list[int] | None = None) -> float:
    """How much nearer the box is to the location's dot than to any other location's dot (the
    distances from each dot's centre to the box): negative, it stands nearer another place."""
    x, y = BOARD.map_xy[loc]
    own = box.distance_to(x, y)
    rest = range(BOARD.n_locs) if others is None else others
    return min((box.distance_to(*BOARD.map_xy[o]) for o in rest if o != loc), default=math.inf) - own


def _stack_costs(loc: int, cands: list[tuple[Box, bool]], dots: list[Box], ends: list[Segment]) -> list[float]:
    near = bounds([b.grown(MARK) for b, _ in cands])
    solid = [d.grown(2) for j, d in enumerate(dots) if j != loc and d.grown(2).overlaps(near)]
    lines = [s for s in ends if s.crosses(near)]
    x, y = BOARD.map_xy[loc]
    others = [o for o in range(len(dots)) if o != loc and dots[o].grown(400).overlaps(near)]
    costs = []
    for rank, (box, _) in enumerate(cands):
        outer = box.grown(MARK)
        c = rank * 0.5
        if any(outer.overlaps(d) for d in solid):
            c += OVERLAP
        c += ROAD_END * sum(1 for s in lines if s.crosses(outer))
        if nearest_margin(loc, box, others) < STACK_NEARER:
            c += OVERLAP          # blocks drawn nearer another place stand at the wrong place
        costs.append(c)
    return costs


_computing = threading.Lock()


def layout() -> Layout:
    """The layout, read once per process from the file computed at build time
    (web_ui/map_layout_file.py: `make map-layout` writes it, a test keeps it what this computes)."""
    with _computing:
        return _layout()


@lru_cache(maxsize=1)
def _layout() -> Layout:
    return shipped()


def compute_layout() -> Layout:
    """Place the stacks and the labels so that nothing overlaps, from the game data (deterministic)."""
    n = BOARD.n_locs
    dots = [_dot(i) for i in range(n)]
    ends = _road_ends()
    # 1. Stacks with the large labels.
    big = FONT["large"]
    problem = _Problem()
    stack_cands = [_stack_candidates(i) for i in range(n)]
    for i in range(n):
        problem.add([b.grown(MARK) for b, _ in stack_cands[i]], _stack_costs(i, stack_cands[i], dots, ends))
    large_cands = [_label_candidates(i, big) for i in range(n)]
    for i in range(n):
        problem.add([lab.box for lab in large_cands[i]], _label_costs(i, large_cands[i], dots, ends, None))
    choice, large_conflicts = problem.solve()
    stacks = [stack_cands[i][choice[i]][0] for i in range(n)]
    upright = [stack_cands[i][choice[i]][1] for i in range(n)]
    labels = {"large": tuple(large_cands[i][choice[n + i]] for i in range(n))}
    conflicts = {"large": large_conflicts}
    # 2. The normal labels, the stacks fixed.
    for name, size in FONT.items():
        if name == "large":
            continue
        problem = _Problem()
        cands = [_label_candidates(i, size) for i in range(n)]
        for i in range(n):
            problem.add([lab.box for lab in cands[i]], _label_costs(i, cands[i], dots, ends, stacks))
        choice, conflicts[name] = problem.solve()
        labels[name] = tuple(cands[i][choice[i]] for i in range(n))
    view = bounds([*dots, *(s.grown(MARK) for s in stacks),
                   *(lab.box for lab in itertools.chain(*labels.values()))]).grown(12)
    return Layout(dots=tuple(dots), stacks=tuple(stacks),
                  upright=tuple(upright), labels=labels, road_ends=tuple(ends), view=view, conflicts=conflicts)


def land_roads() -> list[tuple[int, int]]:
    """The roads that run over land (a strait crosses water; a sea border is not a road)."""
    return [BOARD.edge_ends[e] for e in range(BOARD.n_edges) if BOARD.edge_class[e] in (MAJOR, MINOR)]


def land_faces() -> list[list[int]]:
    """The land enclosed by land roads: each bounded face of the road graph (drawn with straight
    lines, it is planar) that holds no sea's marker, as its cities in order."""
    xy = BOARD.map_xy
    out: dict[int, list[int]] = {}
    for a, b in land_roads():
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    def bearing(a: int, b: int) -> float:
        return math.atan2(xy[b][1] - xy[a][1], xy[b][0] - xy[a][0])

    for a, ns in out.items():       # each city's neighbours by bearing
        ns.sort(key=functools.partial(bearing, a))
    seen: set[tuple[int, int]] = set()
    faces = []
    for start in sorted((a, b) for a in out for b in out[a]):
        if start in seen:
            continue
        face, (a, b) = [], start
        while (a, b) not in seen:
            seen.add((a, b))
            face.append(a)
            ns = out[b]
            a, b = b, ns[(ns.index(a) - 1) % len(ns)]    # the next edge turning most sharply
        area = sum(xy[p][0] * xy[q][1] - xy[q][0] * xy[p][1] for p, q in zip(face, face[1:] + face[:1], strict=True))
        if len(face) >= 3 and area > 0 and not any(
                BOARD.is_sea[s] and _inside_polygon(xy[s], face) for s in range(BOARD.n_locs)):
            faces.append(face)
    return faces


def _inside_polygon(p: tuple[float, float], face: list[int]) -> bool:
    xy = BOARD.map_xy
    inside = False
    for i, j in zip(face, face[1:] + face[:1], strict=True):
        (x1, y1), (x2, y2) = xy[i], xy[j]
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < (x2 - x1) * (p[1] - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def sea_room(loc: int) -> float:
    """The radius of open water drawn around a sea's marker: up to the land of the nearest city."""
    x, y = BOARD.map_xy[loc]
    nearest = min(math.hypot(x - BOARD.map_xy[c][0], y - BOARD.map_xy[c][1])
                  for c in range(BOARD.n_locs) if not BOARD.is_sea[c])
    return max(SEA_R + 4, min(70.0, nearest - LAND_R - 4))

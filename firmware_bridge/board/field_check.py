"""Is each place read by its own loop only? The field model (loop_field.py) run over a layout, and the
design loop that changes the layout until it is.

A place's blocks stand in a cluster around its dot (the owner's `BlockFootprint`), so their tags lie
anywhere in a rectangle around it (a sea's fleets: around its loop's centre, where the template puts
them); `tag_points()` samples that rectangle. For each loop:

- `own`: the weakest coupling of the loop to any tag point of its own places (it must read them all);
- `foreign`: the strongest coupling, either sign (the reversed lobe outside the wire reads as well as
  the main lobe), to any tag point of another loop's place (it must read none).

All loops are the same kind of module tuned the same way, so one read threshold serves them all:
the one that leaves the most room on both sides, T = sqrt(min own · max foreign). A loop's margin is
then min(own / T, T / foreign) in dB: how much a loop's tuning, a tag's sensitivity or the map's
thickness may differ before it misses its own place or reads a neighbour's. The threshold is also
given as what an owner measures: the height above a loop's centre at which a tag stops reading.

`design_layout()` runs the layout search, checks it, and where a loop falls short of the margin
asked for it changes the layout and searches again: a loop reading a neighbour's place merges the
two into a shared zone when one loop can hold them (both cities), and otherwise keeps their loops
further apart; a loop reading its own place too weakly holds that dot deeper inside.
"""
from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from firmware_bridge.board.layout import (
    Adjustments,
    Antenna,
    Layout,
    LayoutError,
    LayoutRules,
    MapFrame,
    MapSpot,
    compute_layout,
)
from firmware_bridge.board.loop_field import Loop, Tag, coupling, db, height_for_threshold

NEAR_MM = 50.0           # a loop's coupling to tags farther than this outside its wire is below 3 % of its centre's
DEFAULT_NEED_DB = 3.0    # a loop's least margin: AN1445's ~2 % parts and a hand-wound loop's spread, with room


def as_loop(a: Antenna) -> Loop:
    """The antenna's loop for the field model."""
    return Loop(a.loop.x0, a.loop.y0, a.loop.x1, a.loop.y1)


def tag_points(layout: Layout, antenna: Antenna, place: str) -> list[tuple[float, float]]:
    """Where the tags of `place`'s blocks can lie: a 3 x 3 grid over the cluster around its dot (a sea: around
    its loop's centre)."""
    spot = next(s for s in layout.spots if s.name == place)
    cx, cy = (antenna.cx, antenna.cy) if spot.kind == "sea" else (spot.x, spot.y)
    hx, hy = layout.rules.block.tag_half
    xs = sorted({cx - hx, cx, cx + hx})
    ys = sorted({cy - hy, cy, cy + hy})
    if len(antenna.locations) > 1:
        # a shared zone's blocks stand together on its loop (the template draws it): kept `inner` inside
        loop, inner = antenna.loop, layout.rules.inner
        xs = sorted({min(max(x, loop.x0 + inner), loop.x1 - inner) for x in xs})
        ys = sorted({min(max(y, loop.y0 + inner), loop.y1 - inner) for y in ys})
    return [(x, y) for x in xs for y in ys]


@dataclass(frozen=True)
class LoopMargin:
    """One loop's figures: its weakest own place and coupling, and the other place it couples to most."""
    number: int
    locations: tuple[str, ...]
    own_nh: float
    own_place: str
    foreign_nh: float
    foreign_place: str | None
    foreign_loop: int | None        # the antenna that serves `foreign_place`
    margin_db: float = 0.0          # at the common threshold


@dataclass(frozen=True)
class FieldReport:
    """The field check of a layout: every loop's margin at the common threshold, and that threshold."""
    tag: Tag
    threshold_nh: float
    read_height_mm: float           # a tag held above a 36 mm loop's centre stops reading here
    loops: tuple[LoopMargin, ...]
    need_db: float

    @property
    def min_db(self) -> float:
        """The smallest loop margin (dB)."""
        return min(m.margin_db for m in self.loops)

    @property
    def median_db(self) -> float:
        """The median loop margin (dB)."""
        return statistics.median(m.margin_db for m in self.loops)

    @property
    def failing(self) -> list[LoopMargin]:
        """The loops below the margin asked for."""
        return [m for m in self.loops if m.margin_db < self.need_db]

    def problems(self) -> list[str]:
        """Each loop short of its margin, and why (empty: every place read by its own loop only)."""
        out = []
        for m in self.failing:
            own = db(m.own_nh / self.threshold_nh)
            if m.foreign_place is not None and db(self.threshold_nh / m.foreign_nh) <= own:
                out.append(f"R{m.number} ({'/'.join(m.locations)}) couples to {m.foreign_place} (R{m.foreign_loop}'s "
                           f"place) {db(m.foreign_nh / self.threshold_nh):+.1f} dB from the threshold "
                           f"(needs {-self.need_db:+.1f} dB or less)")
            else:
                out.append(f"R{m.number} ({'/'.join(m.locations)}) reads {m.own_place} only {own:+.1f} dB above the "
                           f"threshold (needs {self.need_db:+.1f} dB)")
        return out

    def summary(self) -> str:
        """One line: the threshold as a read height and the loops' margins."""
        return (f"field check ({self.tag.coil_mm:g} mm tag {self.tag.height_mm:g} mm above the loops): threshold "
                f"{self.threshold_nh:.2f} nH = a tag stops reading {self.read_height_mm:.0f} mm above a 36 mm "
                f"loop's centre; loop margins min {self.min_db:.1f} dB, median {self.median_db:.1f} dB "
                f"(need {self.need_db:g} dB); {len(self.failing)} loops short")


def _near(loop: Loop, x: float, y: float) -> bool:
    return -loop.inside_depth(x, y) <= NEAR_MM


def check_field(layout: Layout, tag: Tag, need_db: float = DEFAULT_NEED_DB) -> FieldReport:
    """Every loop's own and foreign coupling, the common threshold, and the margins (see the module docstring)."""
    points = {(a.number, p): tag_points(layout, a, p) for a in layout.antennas for p in a.locations}
    raw = []
    for a in layout.antennas:
        loop = as_loop(a)
        own = min((abs(coupling(loop, tag, x, y)), p) for p in a.locations for x, y in points[(a.number, p)])
        foreign: tuple[float, str | None, int | None] = (0.0, None, None)
        for b in layout.antennas:
            if b is a:
                continue
            for p in b.locations:
                for x, y in points[(b.number, p)]:
                    if _near(loop, x, y):
                        c = abs(coupling(loop, tag, x, y))
                        if c > foreign[0]:
                            foreign = (c, p, b.number)
        raw.append(LoopMargin(a.number, a.locations, own[0], own[1], *foreign))
    weakest = min(m.own_nh for m in raw)
    loudest = max(m.foreign_nh for m in raw)
    threshold = math.sqrt(weakest * loudest) if loudest > 0 and weakest > 0 else max(weakest, 1e-9) / 2
    loops = tuple(replace(m, margin_db=min(db(m.own_nh / threshold),
                                           db(threshold / m.foreign_nh) if m.foreign_nh > 0 else math.inf))
                  for m in raw)
    reference = Loop(-18.0, -18.0, 18.0, 18.0)
    return FieldReport(tag, threshold, height_for_threshold(reference, tag, threshold), loops, need_db)


@dataclass(frozen=True)
class Design:
    """A layout the field check passed (or the best one found), its report, and what was changed for it."""
    layout: Layout
    report: FieldReport
    adjust: Adjustments
    rounds: int
    changes: tuple[str, ...]


def design_layout(spots: Sequence[MapSpot], rules: LayoutRules, tag: Tag, *, need_db: float = DEFAULT_NEED_DB,
                  seed: int = 705, frame: MapFrame | None = None, rounds: int = 12) -> Design:
    """See `_design` (the same design asked twice in one process is computed once: the tool, then a check)."""
    return _design(tuple(spots), rules, tag, need_db, seed, frame, rounds)


@functools.lru_cache(maxsize=8)
def _design(spots: tuple[MapSpot, ...], rules: LayoutRules, tag: Tag, need_db: float, seed: int,
            frame: MapFrame | None, rounds: int) -> Design:
    """Layout, field check, changes for the loops that keep the others short, again, until every loop has
    `need_db` or `rounds` are spent; the best layout found. LayoutError if no layout fits at all.

    One threshold serves all loops, so the loop that reads a neighbour's place most strongly sets every
    loop's margin: those loops are changed first (merged with, or kept apart from, that neighbour); a
    loop reading its own places much more weakly than the others holds its dots deeper."""
    adjust = Adjustments()
    changes: list[str] = []
    best: Design | None = None
    layout = compute_layout(spots, rules, seed=seed, frame=frame, adjust=adjust)
    for n in range(1, rounds + 1):
        report = check_field(layout, tag, need_db)
        design = Design(layout, report, adjust, n, tuple(changes))
        if best is None or report.min_db > best.report.min_db:
            best = design
        if not report.failing:
            return design
        made_any = False
        for m, side in _offenders(report):
            for candidate, said in _changes(layout, adjust, rules, m, side):
                if said in changes:
                    continue
                try:
                    trial = compute_layout(spots, rules, seed=seed, frame=frame, adjust=candidate)
                except LayoutError:
                    changes.append(said + " (leaves no layout: not made)")
                    continue
                layout, adjust = trial, candidate
                changes.append(said)
                made_any = True
                break
        if not made_any:
            break
    assert best is not None
    return best


def _offenders(report: FieldReport) -> list[tuple[LoopMargin, str]]:
    """The loops to change: those coupling to a foreign place within `need` of the weakest own coupling (they
    hold the common threshold up), worst first; else those reading their own places `need` below it."""
    need = 10 ** (report.need_db / 10)          # need dB on both sides of the threshold: need² in amplitude
    weakest = min(m.own_nh for m in report.loops)
    loud = sorted((m for m in report.loops if m.foreign_place is not None and m.foreign_nh * need > weakest),
                  key=lambda m: -m.foreign_nh)
    if loud:
        return [(m, "foreign") for m in loud]
    typical = statistics.median(m.own_nh for m in report.loops)
    return [(m, "own") for m in sorted((m for m in report.loops if m.own_nh * 10 ** (report.need_db / 20) < typical),
                                      key=lambda m: m.own_nh)]


def _changes(layout: Layout, adjust: Adjustments, rules: LayoutRules, m: LoopMargin,
             side: str) -> list[tuple[Adjustments, str]]:
    """What may answer loop `m`'s shortfall, to try in turn: share a loop with the neighbour it reads (two
    city zones), keep the two loops further apart; or, reading its own places weakly, hold them deeper."""
    kinds = {s.name: s.kind for s in layout.spots}
    out = []
    if side == "foreign" and m.foreign_place is not None:
        group = frozenset(m.locations) | frozenset(layout.zone_of(m.foreign_place).locations)
        if all(kinds[p] == "city" for p in group) and group not in adjust.together:
            out.append((replace(adjust, together=(*adjust.together, group)),
                        f"share one loop: {' / '.join(sorted(group))}"))
        pair = frozenset((m.locations[0], m.foreign_place))
        apart = dict(adjust.apart)
        apart[pair] = apart.get(pair, rules.gap) + 4.0
        out.append((replace(adjust, apart=tuple(apart.items())),
                    f"loops of {' and '.join(sorted(pair))} at least {apart[pair]:g} mm apart"))
    names = [p for p in m.locations if kinds[p] == "city"]
    if side == "own" and names:
        deeper = dict(adjust.deeper)
        for p in names:
            deeper[p] = deeper.get(p, 0.0) + 2.0
        out.append((replace(adjust, deeper=deeper), f"{' / '.join(names)}: dots {deeper[names[0]]:g} mm deeper "
                                                    "inside the loop"))
    return out

"""Plane geometry for drawing the map: axis-aligned boxes, segments, and the width a label will
take. Labels are drawn with SVG `textLength` set to `text_width(...)`, so every browser lays the
text out to exactly the box computed here, whatever font the device has."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# Advance widths (per 1000 em) of a common sans serif (the Helvetica/Arial metrics), for the
# characters of the place names; any other character counts as a full em (CJK, symbols).
_WIDTHS = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 +",
    (556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556,
     500, 722, 500, 500, 500,
     667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722,
     667, 944, 667, 667, 611,
     *(556,) * 10, 278, 584), strict=True))


def text_width(text: str, size: float) -> float:
    """The width `text` is drawn at (its `textLength`) with font size `size`."""
    return sum(_WIDTHS.get(c, 1000) for c in text) * size / 1000


class Box(NamedTuple):
    """An axis-aligned box: left, top, right, bottom."""
    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def centred(cls, cx: float, cy: float, w: float, h: float) -> Box:
        """The box of width `w` and height `h` centred on (cx, cy)."""
        return cls(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)

    def overlaps(self, other: Box) -> bool:
        """Whether the two boxes share some area (touching edges do not count)."""
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def grown(self, d: float) -> Box:
        """The box grown by `d` on every side."""
        return Box(self.x0 - d, self.y0 - d, self.x1 + d, self.y1 + d)

    def distance_to(self, x: float, y: float) -> float:
        """The distance from the point (x, y) to the box (0 inside it)."""
        dx = max(self.x0 - x, 0, x - self.x1)
        dy = max(self.y0 - y, 0, y - self.y1)
        return float((dx * dx + dy * dy) ** 0.5)

    @property
    def centre(self) -> tuple[float, float]:
        """The box's centre."""
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2


class Segment(NamedTuple):
    """A straight piece of a road or a sea lane, from (x0, y0) to (x1, y1)."""
    x0: float
    y0: float
    x1: float
    y1: float

    def crosses(self, box: Box) -> bool:
        """Whether any point of the segment lies inside `box` (Liang-Barsky clipping)."""
        if max(self.x0, self.x1) < box.x0 or min(self.x0, self.x1) > box.x1 or \
                max(self.y0, self.y1) < box.y0 or min(self.y0, self.y1) > box.y1:
            return False
        dx, dy = self.x1 - self.x0, self.y1 - self.y0
        t0, t1 = 0.0, 1.0
        for p, q in ((-dx, self.x0 - box.x0), (dx, box.x1 - self.x0), (-dy, self.y0 - box.y0), (dy, box.y1 - self.y0)):
            if p == 0:
                if q < 0:
                    return False
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
        return True


def bounds(boxes: list[Box]) -> Box:
    """The smallest box holding all of `boxes`."""
    return Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes), max(b.x1 for b in boxes), max(b.y1 for b in boxes))


@dataclass(frozen=True)
class Label:
    """A location's name as placed on the map: anchor, width, text size and the box it takes."""
    loc: int
    x: float          # the text's anchor: its start, on the baseline
    y: float
    width: float      # the name's textLength (the stars follow)
    size: int
    box: Box


@dataclass(frozen=True)
class Layout:
    """Where the map's parts go: each location's dot and block stack, the labels for each text size, the road
    endings and the view box."""
    dots: tuple[Box, ...]                             # per location
    stacks: tuple[Box, ...]                           # the cells' box (without the outline margin)
    upright: tuple[bool, ...]                         # ROWS x COLS cells instead of COLS x ROWS
    labels: dict[str, tuple[Label, ...]]              # per text size
    road_ends: tuple[Segment, ...]
    view: Box
    conflicts: dict[str, int]                         # overlaps left per text size (0 expected)

"""The magnetic field of a flat rectangular loop antenna, and how strongly it couples to a tag above it.

One model for the layout tool (`field_check.py`: is each place read by its own loop only?) and for
the emulator's radio (`emulation/radio.py`, `LoopAir`: which loop powers and hears which tag).

Physics: the Biot–Savart law for straight wire segments. A segment from A to B carrying current I
gives, at a point at perpendicular distance d from its line, B = μ0 I / (4π d) · (cos α1 − cos α2)
(α the angles to the two ends), directed around the wire. For a loop lying in the plane z = 0 only
Bz matters: a flat tag coil parallel to the loop catches the flux of Bz through its area, and the
mutual inductance M = Φ / I is what both powers the tag and carries its answer back (load
modulation is reciprocal: the same M). Summing the four sides gives the classic shape at a tag's
height: a main lobe inside the loop, strongest near the wire; a null a little outside the wire
(where the tag's area straddles the wire's field lines); a reversed lobe beyond it, falling off
with distance. `coupling()` averages Bz over the tag's round coil (a centre and two rings of points), so a tag
straddling the wire sees the partial cancellation it really does.

Checked against an outside truth (tests/rfid/test_loop_field.py): the closed-form on-axis field of
a square loop of side a, Bz(z) = μ0 I a² / (2π (z² + a²/4) √(z² + a²/2)), and the far field of a
small loop (a magnetic dipole, falling as 1/z³).

Units: millimetres in, mutual inductance in nanohenries per turn-pair out (`coupling`). A read
needs |M| at or above a threshold that stands for the reader's drive, the tag's sensitivity and
the receiver gain together; `threshold_for_height()` expresses it as what an owner can measure:
the height above the loop's centre at which the tag stops reading.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

MU0 = 4e-7 * math.pi        # vacuum permeability, H/m


@dataclass(frozen=True)
class Loop:
    """A rectangular loop lying flat under the map: its corners in mm on the board."""
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def centre(self) -> tuple[float, float]:
        """The loop's centre (mm)."""
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def inside_depth(self, x: float, y: float) -> float:
        """How far (x, y) lies inside the loop's wire (negative: outside)."""
        return min(x - self.x0, self.x1 - x, y - self.y0, self.y1 - y)


def _segment_bz(ax: float, ay: float, bx: float, by: float, x: float, y: float, z: float) -> float:
    """Bz (tesla per ampere) at (x, y, z) mm from the straight segment A->B in the plane z = 0."""
    lx, ly = bx - ax, by - ay
    length = math.hypot(lx, ly)
    ux, uy = lx / length, ly / length
    # the point relative to A: along the wire (s), and across it in the plane (n, to the wire's left)
    px, py = x - ax, y - ay
    s = px * ux + py * uy
    n = -px * uy + py * ux
    d2 = n * n + z * z
    if d2 < 1e-12:
        return 0.0                       # on the wire itself: the model says nothing useful there
    cos1 = s / math.sqrt(s * s + d2)
    cos2 = (s - length) / math.sqrt((s - length) ** 2 + d2)
    # |B| = mu0 I / (4 pi d) (cos1 - cos2), its z share is n / d (left of the wire: +z for a
    # counter-clockwise loop, whose inside is on every side's left)
    return MU0 / (4 * math.pi) * (cos1 - cos2) * n / d2 * 1e3      # mm -> m: 1/d in 1/mm


def bz(loop: Loop, x: float, y: float, z: float) -> float:
    """Bz (tesla per ampere, one turn) at (x, y) mm on the board, z mm above the loop's plane."""
    corners = ((loop.x0, loop.y0), (loop.x1, loop.y0), (loop.x1, loop.y1), (loop.x0, loop.y1))
    total = 0.0
    for k in range(4):
        (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 4]
        total += _segment_bz(ax, ay, bx, by, x, y, z)
    return total


def on_axis_square(side_mm: float, z_mm: float) -> float:
    """The closed form (T/A) on the axis of a square loop of side a: μ0 a² / (2π (z² + a²/4) √(z² + a²/2))."""
    a, z = side_mm / 1000, z_mm / 1000
    return MU0 * a * a / (2 * math.pi * (z * z + a * a / 4) * math.sqrt(z * z + a * a / 2))


# Quadrature over a disc: the centre and rings of points; weights proportional to the area each stands for.
_RINGS = 2
_POINTS_PER_RING = 8          # a multiple of 4: the same on every side of a square loop


@functools.lru_cache(maxsize=64)
def _disc_points(radius: float) -> tuple[tuple[float, float, float], ...]:
    out = [(0.0, 0.0, 1.0)]
    for k in range(1, _RINGS + 1):
        r = radius * k / _RINGS
        weight = 2 * math.pi * r * (radius / _RINGS) / _POINTS_PER_RING
        for j in range(_POINTS_PER_RING):
            t = 2 * math.pi * (j + 0.5 * (k % 2)) / _POINTS_PER_RING
            out.append((r * math.cos(t), r * math.sin(t), weight))
    # the centre stands for the innermost half ring
    out[0] = (0.0, 0.0, math.pi * (radius / _RINGS / 2) ** 2)
    total = sum(w for _, _, w in out)
    return tuple((dx, dy, w / total) for dx, dy, w in out)


@dataclass(frozen=True)
class Tag:
    """A tag sticker: the diameter of its coil (mm) and its height above the loops (the map's thickness, a
    mounted board's, the sticker's own)."""
    coil_mm: float = 12.0
    height_mm: float = 2.0

    @property
    def area_m2(self) -> float:
        """The coil's area (m²)."""
        return math.pi * (self.coil_mm / 2000) ** 2


@functools.lru_cache(maxsize=1 << 18)      # the layout's design loop asks again for every loop that did not move
def coupling(loop: Loop, tag: Tag, x: float, y: float, height_mm: float | None = None) -> float:
    """The mutual inductance (nH, one turn each) between the loop and a tag whose coil is centred at (x, y):
    the flux of Bz through the tag's coil per ampere. Negative: the reversed lobe outside the wire."""
    z = tag.height_mm if height_mm is None else height_mm
    mean = sum(w * bz(loop, x + dx, y + dy, z) for dx, dy, w in _disc_points(tag.coil_mm / 2))
    return mean * tag.area_m2 * 1e9


def centre_coupling(loop: Loop, tag: Tag, height_mm: float | None = None) -> float:
    """The coupling with the tag centred on the loop (nH)."""
    return coupling(loop, tag, *loop.centre, height_mm=height_mm)


def threshold_for_height(loop: Loop, tag: Tag, read_height_mm: float) -> float:
    """The coupling a read needs (nH) when the tag, held above this loop's centre, stops reading at
    `read_height_mm` (what an owner measures with a ruler, or the bring-up's gain steps stand for)."""
    return centre_coupling(loop, tag, height_mm=read_height_mm)


def height_for_threshold(loop: Loop, tag: Tag, threshold_nh: float) -> float:
    """The inverse: how high above this loop's centre a tag still reads at this threshold (mm); 0 when even a
    tag at its design height does not."""
    if centre_coupling(loop, tag) < threshold_nh:
        return 0.0
    lo, hi = tag.height_mm, 200.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if centre_coupling(loop, tag, height_mm=mid) >= threshold_nh:
            lo = mid
        else:
            hi = mid
    return lo


def db(ratio: float) -> float:
    """An amplitude ratio in decibels (−inf for 0)."""
    return 20 * math.log10(ratio) if ratio > 0 else -math.inf

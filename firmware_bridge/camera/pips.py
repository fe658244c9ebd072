"""Where the pips of each face of a d6 are, and how well a set of found pips matches a face.

Positions are in die-side units (the die's side is 1), centred on the face, in the die's own frame.
Every face's layout is point-symmetric about the centre, so the centroid of the pips found is the
face's centre; a layout is matched after turning it by the die's angle (modulo 90 degrees: the faces
2, 3 and 6 have two ways to lie, 90 degrees apart, and both are tried).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

PIP_OFFSET = 0.27           # a corner pip's centre from the face's centre, along each axis (common d6)
PIP_RADIUS = 0.085          # a pip's radius

_P = PIP_OFFSET
CORNERS = ((-_P, -_P), (_P, -_P), (_P, _P), (-_P, _P))
CENTRE = ((0.0, 0.0),)
SIDES = ((-_P, 0.0), (_P, 0.0), (0.0, -_P), (0.0, _P))

LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: CENTRE,
    2: (CORNERS[0], CORNERS[2]),
    3: (CORNERS[0], CENTRE[0], CORNERS[2]),
    4: CORNERS,
    5: CORNERS + CENTRE,
    6: CORNERS + SIDES[:2],
}
# Every place a pip can be on some face: where a face must show none but its own.
ALL_PLACES = CORNERS + CENTRE + SIDES


def turned(points, angle: float) -> np.ndarray:
    """Points (die units) turned by angle (radians), as an (n, 2) array."""
    c, s = math.cos(angle), math.sin(angle)
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    return pts @ np.array([[c, s], [-s, c]])


@dataclass(frozen=True)
class Match:
    """The face whose layout fits the pips best: `error` is the largest distance (die units) from a
    pip to its place, `angle` the turn that fitted (radians)."""
    value: int
    error: float
    angle: float


def match_face(offsets: np.ndarray, angles) -> Match | None:
    """The face matching pips at `offsets` (die units, from the face's centre) for any of the turns
    in `angles`; None for no pips or more than six."""
    n = len(offsets)
    if n not in LAYOUTS:
        return None
    best: Match | None = None
    for base in angles:
        for quarter in (0.0, math.pi / 2):
            angle = base + quarter
            places = turned(LAYOUTS[n], angle)
            # Places are 0.27 apart or more: each pip's nearest place is its own, or the fit is bad.
            dist = np.linalg.norm(offsets[:, None, :] - places[None, :, :], axis=2)
            nearest = dist.argmin(axis=1)
            error = float(dist[np.arange(n), nearest].max()) if len(set(nearest.tolist())) == n else math.inf
            if best is None or error < best.error:
                best = Match(n, error, angle)
    return best


# -- Pips of any maker ------------------------------------------------------------------------
# Real dice differ by maker: the corner pips of the 4, 5 and 6 sit 0.27-0.41 die widths from the
# face's centre (along the diagonal; ground-truth.md), so a face is matched with the corner
# distance free (within `corner_range`, or near what the owner's dice were calibrated to).
CORNER_RANGE = (0.24, 0.45)


def places(value: int, corner: float) -> np.ndarray:
    """Pip centres of face `value` (die widths, die frame) when the corner pips are `corner` from the centre."""
    c = corner / math.sqrt(2)
    unit = np.array(LAYOUTS[value], dtype=float) / PIP_OFFSET
    return unit * c


def all_places(corner: float) -> np.ndarray:
    """Every place a pip can have on some face, for corner pips `corner` from the centre."""
    return np.array(ALL_PLACES, dtype=float) / PIP_OFFSET * (corner / math.sqrt(2))


@dataclass(frozen=True)
class Fit:
    """The face whose layout fits the pips best at a free corner distance: `error` the largest
    distance (die widths) from a pip to its place, `angle` the turn (radians), `corner` the
    corner distance fitted (die widths; for a 1, the one given)."""
    value: int
    error: float
    angle: float
    corner: float


def fit_face(offsets: np.ndarray, angles, corner_range: tuple[float, float] = CORNER_RANGE,
             corner_for_one: float = 0.33) -> Fit | None:
    """The face matching pips at `offsets` (die widths, from the pips' centroid) turned by any of
    `angles`, its corner distance fitted within `corner_range`; None for 0 or more than 6 pips."""
    n = len(offsets)
    if n not in LAYOUTS:
        return None
    if n == 1:
        return Fit(1, float(np.linalg.norm(offsets[0])), float(angles[0]) if len(angles) else 0.0, corner_for_one)
    unit = np.array(LAYOUTS[n], dtype=float) / PIP_OFFSET / math.sqrt(2)      # corner distance 1
    best: Fit | None = None
    for base in angles:
        for quarter in (0.0, math.pi / 2):
            angle = base + quarter
            u = turned(unit, angle)
            corner = float(np.linalg.norm(offsets, axis=1).max())
            for _ in range(2):
                dist = np.linalg.norm(offsets[:, None, :] - corner * u[None, :, :], axis=2)
                nearest = dist.argmin(axis=1)
                if len(set(nearest.tolist())) != n:
                    break
                target = u[nearest]
                corner = float((offsets * target).sum() / max((target * target).sum(), 1e-9))
            else:
                corner = min(max(corner, corner_range[0]), corner_range[1])
                error = float(np.linalg.norm(offsets - corner * target, axis=1).max())
                if best is None or error < best.error:
                    best = Fit(n, error, angle, corner)
    return best

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

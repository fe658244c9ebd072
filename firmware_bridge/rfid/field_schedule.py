"""Which readers' fields may be on together: the scan order, and the fields warmed ahead.

One field at a time costs every reader its whole settle time (5.1 ms, see reader_array) on each
turn: 81 readers, 413 ms a pass. Knowing where the antennas are, a few fields far apart may be on at
once: while one reader is read, the fields of the next few readers of the scan order are already on
and settling, provided each is at least `apart_mm` from every reader read while it is on. Then no
warming field powers a tag the reader being read can hear, nor fills its modulation pauses (the
emulator's harsh model: powered within 40 mm, heard within 80 mm, pauses filled within 100 mm;
120 mm keeps a tag 40 mm from a warming antenna out of the reader's hearing).

`scan_order` puts readers far apart next to each other (greedily); `may_warm` says whether the
field of `order[j]` may go on while `order[i]` is read. A reader whose position is not known (a
pool's, the scan pad's) counts as near every other: its field is never on beside another.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

APART_MM = 120.0
Positions = Mapping[int, tuple[float, float]]


def distance(positions: Positions, a: int, b: int) -> float:
    """The distance in mm between readers `a` and `b`' antennas, 0 when either position is unknown."""
    if a not in positions or b not in positions:
        return 0.0
    (ax, ay), (bx, by) = positions[a], positions[b]
    return math.hypot(ax - bx, ay - by)


def scan_order(readers: Sequence[int], positions: Positions, ahead: int, apart_mm: float = APART_MM) -> list[int]:
    """`readers` reordered so that each is at least `apart_mm` from the `ahead` readers before it,
    where the layout allows (else the farthest one left comes next)."""
    left = list(readers)
    order: list[int] = []
    while left:
        recent = order[-ahead:] if ahead > 0 else []
        nearest = {r: min((distance(positions, r, q) for q in recent), default=math.inf) for r in left}
        pick = next((r for r in left if nearest[r] >= apart_mm), None)
        if pick is None:
            pick = max(left, key=lambda r: nearest[r])
        order.append(pick)
        left.remove(pick)
    return order


def may_warm(order: Sequence[int], i: int, j: int, positions: Positions, apart_mm: float = APART_MM) -> bool:
    """Whether `order[j]`'s field may be on from the read of `order[i]` until its own turn."""
    return all(distance(positions, order[j], order[m]) >= apart_mm for m in range(i, j))

"""Victory points and the victory decision (rules 1.2, 8.4).

VP of a side = the values of the cities it holds alone + 1 per enemy leader killed.
At each winter: 10 or more VP wins; if both reach 10 the higher wins, then the holder of
Rome, else a draw. After the last year (709) the higher VP wins, then Rome, else a draw.
"""
from __future__ import annotations

from .board import BOARD

WIN_VP = 10
DRAW = "draw"
ROME = BOARD.location("Roma")


def decide(vp: tuple[int, int], rome_holder: int | None, last_year: bool) -> int | str | None:
    """The winning side, DRAW, or None when the game goes on."""
    reached = [s for s in (0, 1) if vp[s] >= WIN_VP]
    if not reached and not last_year:
        return None
    if len(reached) == 1:
        return reached[0]
    if vp[0] != vp[1]:
        return 0 if vp[0] > vp[1] else 1
    return rome_holder if rome_holder is not None else DRAW

"""Victory points, the victory decision (rules 1.2, 8.4) and the typed end of a game.

VP of a side = the values of the cities it holds alone + 1 per enemy leader killed.
At each winter: 10 or more VP wins; if both reach 10 the higher wins, then the holder of
Rome, else a draw. After the last year (709) the higher VP wins, then Rome, else a draw.
Each way a game ends has a stable code (`TEN_VP`, `MORE_VP`, `ROME_DECIDES`, `DRAWN`);
`Outcome` is a finished game's result as the API gives it (`Game.outcome()`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import BOARD, Side

WIN_VP = 10
DRAW = "draw"
ROME = BOARD.location("Roma")


RULE = "1.2"
TEN_VP = "victory.ten-vp"          # one side alone has 10 VP or more at a winter
MORE_VP = "victory.more-vp"        # both reached 10, or the last winter: the higher VP wins
ROME_DECIDES = "victory.rome"      # as many VP: the holder of Rome wins
DRAWN = "victory.draw"             # as many VP and Rome held by nobody: a draw
CODES = (TEN_VP, MORE_VP, ROME_DECIDES, DRAWN)


def verdict(vp: tuple[int, int], rome_holder: int | None, last_year: bool) -> tuple[int | None, str] | None:
    """How the VP end the game, as (the winning side or None for a draw, its code), or None
    when the game goes on."""
    reached = [s for s in (0, 1) if vp[s] >= WIN_VP]
    if not reached and not last_year:
        return None
    if len(reached) == 1:
        return reached[0], TEN_VP
    if vp[0] != vp[1]:
        return (0 if vp[0] > vp[1] else 1), MORE_VP
    if rome_holder is not None:
        return rome_holder, ROME_DECIDES
    return None, DRAWN


def decide(vp: tuple[int, int], rome_holder: int | None, last_year: bool) -> int | str | None:
    """The winning side, DRAW, or None when the game goes on."""
    v = verdict(vp, rome_holder, last_year)
    if v is None:
        return None
    return DRAW if v[0] is None else v[0]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: `winner` (None: a draw), `code` (one of `CODES`, stable),
    `rule` (1.2), `year` of the deciding winter, `vp` per side, and `reason`, the English line
    ("winter 709: Caesar 8 VP, Pompeius 8 VP, Rome decides"); texts in other languages are made
    from the code and the figures."""
    winner: Side | None
    code: str
    year: int
    vp: dict[Side, int]
    reason: str
    rule: str = RULE

    @property
    def draw(self) -> bool:
        """Whether nobody won."""
        return self.winner is None

    def to_json(self) -> dict[str, Any]:
        """`Game.result()`: winner (a name or None), code, rule, year, vp {name: n}, reason."""
        return {"winner": self.winner, "code": self.code, "rule": self.rule, "year": self.year,
                "vp": {str(s): n for s, n in self.vp.items()}, "reason": self.reason}


def outcome(result: dict, year: int, rome_holder: int | None, last_year: bool) -> Outcome:
    """The `Outcome` of a state's `result` (`GameState.result`), decided at the winter of
    `year` with Rome held by `rome_holder` (the map does not change once the game is over)."""
    vp = (result["vp"][0], result["vp"][1])
    v = verdict(vp, rome_holder, last_year)
    code = v[1] if v is not None else (DRAWN if result["winner"] is None else MORE_VP)
    winner = result["winner"]
    return Outcome(None if winner is None else Side.of(winner), code, year,
                   {Side.CAESAR: vp[0], Side.POMPEIUS: vp[1]}, result["reason"])

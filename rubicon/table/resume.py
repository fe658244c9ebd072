"""Unfinished games of the journal, and whether one may be taken up again.

A new game never ends the one being played: it stays in the journal, whole. The phones list the
journal's unfinished games (`unfinished`), and the players may agree to take one up again (the
session's `VoteNewGame` with a `game`); `resumable` says why one cannot be (it is the game played
now, it is over, or there is no such game), as a refusal with its code.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine import EngineError, Game

from ..errors import TableRefusal
from ..journal import Journal, JournalError


@dataclass(frozen=True)
class GameSummary:
    """One game of the journal as the phones list it: its id, when it began (epoch seconds), the
    actions recorded and whether it is over."""
    game_id: int
    created: float
    lines: int
    over: bool


@lru_cache(maxsize=256)
def _over(options: tuple[tuple[str, str], ...], lines: tuple[str, ...]) -> bool:
    """Whether a game of these lines is over (replayed once per distinct record)."""
    game = Game(dict(options))
    for line in lines:
        game.apply(line)
    return game.result() is not None


def summary(journal: Journal, game_id: int) -> GameSummary | None:
    """`game_id`'s summary, or None when the journal has no such game (or cannot replay it)."""
    info = next((g for g in journal.games() if g.id == game_id), None)
    if info is None:
        return None
    try:
        options, lines = journal.lines(game_id)
        over = _over(tuple(sorted(options.items())), tuple(lines))
    except (JournalError, EngineError):
        return None
    return GameSummary(game_id, info.created, len(lines), over)


def unfinished(journal: Journal, current: int | None) -> list[GameSummary]:
    """The journal's games that are not over and not played now, newest first."""
    out = []
    for info in reversed(journal.games()):
        if info.id == current:
            continue
        found = summary(journal, info.id)
        if found is not None and not found.over:
            out.append(found)
    return out


def resumable(journal: Journal, game_id: int, current: int | None) -> TableRefusal | None:
    """None when `game_id` may be taken up again; else the refusal saying why not."""
    if game_id == current:
        return TableRefusal(f"game {game_id} is the game being played", code="table.resume-current",
                            params={"number": game_id})
    found = summary(journal, game_id)
    if found is None:
        return TableRefusal(f"the journal has no game {game_id} that can be replayed", code="table.resume-unknown",
                            params={"number": game_id})
    if found.over:
        return TableRefusal(f"game {game_id} is over: its record can be downloaded", code="table.resume-over",
                            params={"number": game_id})
    return None

"""Determinized Monte Carlo search (perfect-information Monte Carlo with UCB1 at the root).

Each iteration draws a determinization of the bot's `InfoState` (`determinize`), picks one of
the root candidates by UCB1, applies it to that copy, plays on with the heuristic policy for
both sides (chance from the search's own RNG) to the end of the current game turn (its
battles fought) or the game's end,
and scores the result with `heuristic.evaluate`. The most visited candidate is played.

Tractability: the command phase offers ~66 moves; only the heuristic's best `width` (plus
"ends command") are searched. Reproducible: everything random comes from the RNG passed in;
with an iteration budget nothing depends on the clock (a time budget only stops early).
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from engine import Action, EndCommand, Game, IllegalAction, TakeBack, sample_chance

from . import heuristic
from .determinize import determinize

UCB_C = 0.7
MAX_ROLLOUT = 600   # actions; far above one game turn


def segments_for(action) -> int:
    """How far a rollout looks, in game turns: to the end of this one (its battles included)."""
    return 1


def _boundary_key(s) -> tuple:
    return (s.year, s.turn, s.phase == "winter")


def candidates(s, side: int, legal: list, rng: random.Random, width: int,
               style: heuristic.Style = heuristic.BASE) -> list:
    """The root actions worth searching: the heuristic's best `width` (ends command kept)."""
    ranked = heuristic.ranked(s, side, legal, rng, style)
    out = ranked[:width]
    end = next((a for a in legal if isinstance(a, EndCommand)), None)
    if end is not None and end not in out:
        out.append(end)
    return out


def rollout(game: Game, rng: random.Random, segments: int,
            style: heuristic.Style | tuple[heuristic.Style, heuristic.Style] = heuristic.BASE) -> None:
    """Play on with the heuristic for both sides across `segments` game-turn boundaries (0: to
    the next winter, where the year's VP are counted)."""
    s = game.state
    styles = style if isinstance(style, tuple) else (style, style)   # Caesar's, Pompeius's
    key = _boundary_key(s)
    crossed = 0
    for _ in range(MAX_ROLLOUT):
        if game.is_over():
            return
        if game.is_chance_node():
            game.apply(sample_chance(game, rng))
        else:
            players = game.current_player_ids()
            side = players[0]
            legal = [a for a in game.legal_actions(side) if not isinstance(a, TakeBack)]
            if not legal and len(players) > 1:
                side = players[1]
                legal = [a for a in game.legal_actions(side) if not isinstance(a, TakeBack)]
            game.apply(heuristic.choose(s, side, legal, rng, styles[side]))
        new = _boundary_key(s)
        if new != key:
            key = new
            crossed += 1
            if (segments and crossed >= segments) or (not segments and new[2]):
                return


def search(info, rng: random.Random, iterations: int, width: int = 6,
           time_budget: float | None = None, style: heuristic.Style = heuristic.BASE,
           segments: int | None = None, rollout_styles: tuple | None = None,
           progress: Callable[[int, int], None] | None = None) -> tuple[Action, dict]:
    """The action to play and the root statistics {notation line: [visits, mean value]}.
    `progress(done, iterations)` is called as the search goes (every tenth of the budget and at
    the end): what the table shows while the bot thinks."""
    legal = list(info.legal)
    side = info.side
    root = determinize(info, rng)
    cands = candidates(root, side, legal, rng, width, style)
    if len(cands) == 1:
        return cands[0], {}
    if segments is None:
        segments = segments_for(cands[0])
    visits = [0] * len(cands)
    total = [0.0] * len(cands)
    failed = 0
    start = time.perf_counter()
    every = max(1, iterations // 10)
    for it in range(iterations):
        if time_budget is not None and it and time.perf_counter() - start > time_budget:
            break
        if progress is not None and it and it % every == 0:
            progress(it, iterations)
        if it < len(cands):
            i = it
        else:
            log_n = math.log(it)
            i = max(range(len(cands)),
                    key=lambda k: total[k] / visits[k] + UCB_C * math.sqrt(log_n / visits[k]))
        game = Game(state=determinize(info, rng))
        try:
            game.apply(cands[i])
            rollout(game, rng, segments, rollout_styles or style)
            value = heuristic.evaluate(game.state, side)
        except (IllegalAction, IndexError, KeyError, ValueError):
            # A sample the engine cannot play on (the view does not settle every detail of the
            # attack bookkeeping): neutral, and counted so tests can see how rare it is.
            value = 0.5
            failed += 1
        visits[i] += 1
        total[i] += value
    if progress is not None:
        progress(iterations, iterations)
    best = max(range(len(cands)), key=lambda k: (visits[k], total[k] / max(1, visits[k])))
    stats: dict[str, object] = {str(c): [visits[k], round(total[k] / max(1, visits[k]), 3)]
                                for k, c in enumerate(cands)}
    stats["failed samples"] = failed
    return cands[best], stats

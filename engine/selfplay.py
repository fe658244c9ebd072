"""Random self-play: full games with a uniform random choice among legal actions.

Owns the random-game driver used by `rubicon selfplay`, the benchmark (`bench/engine.py`) and
the fuzz tests. Chance actions (deals, dice, Jupiter's pick) come from the game's own
`sample_chance` with one seeded RNG per game, so every game is reproducible from
(seed, index). Take-backs are left out: undoing is not playing. Every game must end in a
result; a position where the side to act has no legal
action raises `DeadEnd`.

The driver is a trusted caller (engine.game): a game it makes without an `after` hook keeps
no take-back snapshot (`Game(take_back=False)`; a hook may take back, save or compare
listings, so its game keeps them unless told otherwise), it draws from the lazy listing
(`Game.legal_listing`: the same RNG calls and the same action as `rng.choice` of the full
list) and applies the drawn action unchecked (`apply(checked=False)`). Seeded games are
identical to the plain loop's.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable

from .board import CHANCE, SIDES
from .errors import EngineError
from .game import Game, sample_chance
from .listing import listing

_CHANCE_ONLY = (CHANCE,)
MAX_ACTIONS = 200_000   # far above any real game; only a loop in the rules could reach it


class DeadEnd(EngineError, RuntimeError):
    """A reachable position with nobody able to act, or a game that never ends."""


def game_rng(seed: int, index: int) -> random.Random:
    """The RNG of random game `index` of a run seeded `seed` (every game reproducible alone)."""
    return random.Random(f"rubicon-selfplay/{seed}/{index}")


def play_game(rng: random.Random, options: dict | None = None,
              after: Callable[[Game, object], None] | None = None,
              game: Game | None = None, effects: bool = False,
              take_back: bool | None = None) -> tuple[Game, list]:
    """Play one random game to its end (a new game, or on from `game`). `after(game, action)`
    runs after every action (for invariant checks). `effects`: name each action's effects
    (engine.effects; off by default: self-play needs no log, undo or table instructions).
    `take_back`: whether a new game keeps take-back (default: only when `after` is given).
    Returns the finished game and the actions played, in order."""
    if game is None:
        game = Game(options, take_back=after is not None if take_back is None else take_back)
    record: list = []
    while not game.is_over():
        players = game.current_player_ids()
        if players == _CHANCE_ONLY:
            action = sample_chance(game, rng)
        else:
            legal = listing(game.state, None, False, players)   # game.legal_listing(take_back=False)
            if not legal:
                raise DeadEnd(f"nobody can act: phase {game.state.phase}, year {game.state.year}, "
                              f"turn {game.state.turn}, waiting for {game.current_players()}, "
                              f"after {record[-1] if record else 'the start'}")
            action = rng.choice(legal)
        game.apply(action, effects=effects, checked=False)
        record.append(action)
        if after is not None:
            after(game, action)
        if len(record) > MAX_ACTIONS:
            raise DeadEnd(f"no result after {MAX_ACTIONS} actions")
    return game, record


def run(games: int, seed: int, options: dict | None = None, progress=None) -> dict:
    """Play `games` random games; the summary `rubicon selfplay --json` prints. `progress(i)` is
    called after game i."""
    results = {SIDES[0]: 0, SIDES[1]: 0, "draw": 0}
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        game, record = play_game(game_rng(seed, i), options)
        result = game.result()
        assert result is not None, "play_game plays to the end"
        winner = result["winner"]
        results[winner or "draw"] += 1
        actions += len(record)
        if progress:
            progress(i)
    elapsed = time.perf_counter() - start
    return {
        "games": games, "completed": sum(results.values()), "seed": seed,
        "options": dict(Game(options).state.options), "results": results, "actions": actions,
        "actions_per_game": round(actions / games, 1) if games else 0.0,
        "elapsed_s": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 2) if elapsed else 0.0,
        "actions_per_s": round(actions / elapsed) if elapsed else 0,
    }

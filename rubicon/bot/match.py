"""Bot-vs-bot games and match scores: the driver of `rubicon selfplay` and `bench/bot_match.py`.

The driver is the referee: it holds the `Game`, samples chance from one RNG per game (the same
as `engine.selfplay.game_rng`), and gives each bot only `information_state(game, side, memory)`.
During the battle phase each bot is shown its view after every action (so it remembers the
blocks revealed in battle).
"""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field

from engine import BATTLE, MAX_ACTIONS, SIDES, DeadEnd, Game, game_rng, sample_chance

from .info import InfoState, information_state
from .levels import Bot


@dataclass
class GameRecord:
    """One finished match game: the game, how many actions it took, the two levels and each level's decision times."""
    game: Game
    actions: int
    levels: tuple[str, str]
    decision_s: dict[str, list[float]] = field(default_factory=dict)   # level -> seconds per decision
    # level -> CPU seconds per decision (the process's: on a loaded machine, wall time is mostly waiting)
    decision_cpu_s: dict[str, list[float]] = field(default_factory=dict)


def play_game(levels: tuple[str, str], seed: int, index: int, options: dict | None = None,
              budgets: dict | None = None) -> GameRecord:
    """One game, Caesar at levels[0], Pompeius at levels[1]. `budgets`: {level: iterations}."""
    budgets = budgets or {}
    game = Game(options)
    rng = game_rng(seed, index)
    bots = [Bot(s, levels[s], seed=seed * 1_000_003 + index, iterations=budgets.get(levels[s])) for s in (0, 1)]
    times: dict[str, list[float]] = {levels[0]: [], levels[1]: []}
    cpu: dict[str, list[float]] = {levels[0]: [], levels[1]: []}
    n = 0
    while not game.is_over():
        if game.is_chance_node():
            game.apply(sample_chance(game, rng))
        else:
            side, info = None, None
            for s in game.current_player_ids():
                info = _info(game, s, bots[s])
                if info.legal:
                    side = s
                    break
            if side is None:
                raise DeadEnd(f"nobody can act: phase {game.state.phase}, year {game.state.year}")
            t0, c0 = time.perf_counter(), time.process_time()
            assert info is not None
            action = bots[side].decide(info)
            times[levels[side]].append(time.perf_counter() - t0)
            cpu[levels[side]].append(time.process_time() - c0)
            game.apply(action)
        n += 1
        if game.state.phase == BATTLE:
            for bot in bots:
                if bot.needs_view:
                    bot.observe(game.view(SIDES[bot.side]))
        if n > MAX_ACTIONS:
            raise DeadEnd(f"no result after {MAX_ACTIONS} actions")
    return GameRecord(game, n, levels, times, cpu)


def _info(game: Game, side: int, bot: Bot) -> InfoState:
    if bot.needs_view:
        return information_state(game, side, bot.memory)
    from engine import TakeBack  # random: the legal list is all it uses
    return InfoState(side, {}, tuple(a for a in game.legal_actions(SIDES[side]) if not isinstance(a, TakeBack)), {})


def score_of(record: GameRecord, level_side: int) -> float:
    """The score of the level that played `level_side` in a finished game: 1 a win, 0.5 a draw, 0 a loss."""
    result = record.game.result()
    assert result is not None, "a match game is played to its end"
    w = result["winner"]
    return 0.5 if w is None else float(w == SIDES[level_side])


def confidence(scores: list[float]) -> tuple[float, float, float]:
    """Mean score and its 95 % confidence interval (normal approximation, clamped to [0, 1])."""
    if not scores:
        return 0.0, 0.0, 1.0
    mean = sum(scores) / len(scores)
    if len(scores) < 2:
        return mean, 0.0, 1.0
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
    if half == 0:   # all games alike: the interval of a binomial with that many games (rule of three)
        half = 3.0 / len(scores)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def wilson(scores: list[float], z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of the mean score (a draw counts half a win): honest at the
    extremes and for small counts, where the normal approximation is not."""
    n = len(scores)
    if not n:
        return 0.0, 1.0
    p = sum(scores) / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The `q`th percentile of `values` by the nearest-rank method (0 for no values)."""
    if not values:
        return 0.0
    v = sorted(values)
    return v[min(len(v) - 1, max(0, math.ceil(q / 100 * len(v)) - 1))]

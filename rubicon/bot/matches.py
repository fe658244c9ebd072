"""A match between two levels, sides swapped game by game: the score of the first level with
its 95 % confidence interval, the results per side, and decision times per level."""
from __future__ import annotations

import time

from .match import confidence, percentile, play_game, score_of, wilson


def run_match(level_a: str, level_b: str, games: int, seed: int = 1, options: dict | None = None,
              budgets: dict | None = None, swap: bool = True, progress=None) -> dict:
    """`games` games; game i has `level_a` as Caesar when i is even or `swap` is off, else as
    Pompeius. `progress(i, record)` is called after each game."""
    scores: list[float] = []
    by_side: dict[str, list[float]] = {"Caesar": [], "Pompeius": []}
    results = {"Caesar": 0, "Pompeius": 0, "draw": 0}
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    actions = 0
    start = time.perf_counter()
    records = []
    for i in range(games):
        a_side = 1 if swap and i % 2 else 0
        levels = (level_a, level_b) if a_side == 0 else (level_b, level_a)
        rec = play_game(levels, seed, i, options, budgets)
        records.append(rec)
        sc = score_of(rec, a_side)
        scores.append(sc)
        by_side[("Caesar", "Pompeius")[a_side]].append(sc)
        result = rec.game.result()
        assert result is not None, "a match game is played to its end"
        results[result["winner"] or "draw"] += 1
        actions += rec.actions
        for lv, ts in rec.decision_s.items():
            times.setdefault(lv, []).extend(ts)
        for lv, ts in rec.decision_cpu_s.items():
            cpu.setdefault(lv, []).extend(ts)
        if progress:
            progress(i, rec)
    elapsed = time.perf_counter() - start
    mean, lo, hi = confidence(scores)
    w_lo, w_hi = wilson(scores)
    return {
        "levels": [level_a, level_b], "games": games, "completed": len(scores), "seed": seed, "swap": swap,
        "score": round(mean, 4), "ci95": [round(lo, 4), round(hi, 4)],
        "wilson95": [round(w_lo, 4), round(w_hi, 4)],
        "score_as": {s: round(sum(v) / len(v), 4) if v else None for s, v in by_side.items()},
        "games_as": {s: len(v) for s, v in by_side.items()},
        "results": results, "actions": actions, "elapsed_s": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 3) if elapsed else 0.0,
        "actions_per_s": round(actions / elapsed) if elapsed else 0,
        "decision_ms": {lv: {"n": len(ts), "p50": round(percentile(ts, 50) * 1000, 2),
                             "p99": round(percentile(ts, 99) * 1000, 2),
                             "max": round(max(ts) * 1000, 2) if ts else 0.0} for lv, ts in times.items()},
        "decision_cpu_ms": {lv: {"n": len(ts), "p50": round(percentile(ts, 50) * 1000, 2),
                                 "p99": round(percentile(ts, 99) * 1000, 2),
                                 "max": round(max(ts) * 1000, 2) if ts else 0.0} for lv, ts in cpu.items()},
        "_records": records,
    }

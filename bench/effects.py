"""Benchmark of what effects, history and undo cost in `Game.apply`.

    python bench/effects.py [--games 30] [--seed 1] [--json]

Replays the actions of seeded random games (engine.selfplay) four ways, pinned to one CPU
core: `Game.apply(a, checked=False)` (a trusted caller: no validation, no snapshot, no
checkpoint), `Game.apply(a)` (the default: effects named on demand; journal, snapshot and
checkpoints kept), `Game.apply(a)` then `effects_at(-1)` (what the table does: every action's
effects asked for at once) and `Game.apply(a, effects=True)`. Prints microseconds per action
for each and the differences; then the cost of `history_for` at the end of those games (the
first call names every effect by replay) and of one `undo` in their middle. Figures are
reported, never asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, play_game  # noqa: E402


def _records(games: int, seed: int) -> list[list]:
    return [play_game(random.Random(f"bench-effects/{seed}/{i}"))[1] for i in range(games)]


def _time(records: list[list], mode: str) -> float:
    total = 0.0
    for rec in records:
        g = Game()
        t = time.perf_counter()
        if mode == "unchecked":
            for a in rec:
                g.apply(a, checked=False)
        elif mode == "asked":
            for a in rec:
                g.apply(a)
                g.effects_at(-1)
        else:
            fx = mode == "effects"
            for a in rec:
                g.apply(a, effects=fx)
        total += time.perf_counter() - t
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    records = _records(args.games, args.seed)
    n = sum(len(r) for r in records)
    _time(records[:2], "effects")   # warm-up
    out = {"games": args.games, "actions": n}
    for mode in ("unchecked", "default", "asked", "effects"):
        out[f"{mode}_us_per_action"] = round(_time(records, mode) / n * 1e6, 2)
    out["asked_cost_us"] = round(out["asked_us_per_action"] - out["default_us_per_action"], 2)
    out["effects_cost_us"] = round(out["effects_us_per_action"] - out["default_us_per_action"], 2)
    games = []
    for rec in records:
        g = Game()
        for a in rec:
            g.apply(a)
        games.append(g)
    t = time.perf_counter()
    for g in games:
        for v in ("Caesar", "Pompeius", None):
            g.history_for(v)
    out["history_for_ms_per_game_and_viewer"] = round((time.perf_counter() - t) / (3 * len(games)) * 1e3, 3)
    undo_s, undone = 0.0, 0
    for rec in records:   # one undo in the middle of each game, where one is allowed
        g = Game()
        for a in rec[:len(rec) // 2]:
            g.apply(a)
        for a in rec[len(rec) // 2:]:
            if g.can_undo():
                break
            g.apply(a)
        if g.can_undo():
            t = time.perf_counter()
            g.undo()
            undo_s += time.perf_counter() - t
            undone += 1
    out["undo_ms"] = round(undo_s / undone * 1e3, 3) if undone else None
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for k, v in out.items():
            print(f"{k:40} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

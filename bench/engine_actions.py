"""Benchmark of the engine's two hot calls: listing legal actions and applying one.

    python bench/engine_actions.py [--games 20] [--seed 1] [--json]

Collects the positions of seeded random games (engine.selfplay), then, pinned to one CPU
core, times `Game.legal_actions()` on every player position and `Game.apply(action)` of the
action played there (on copies made beforehand, so copying is not timed). Prints calls/s per
phase and overall. Figures are reported, never asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import (
    Game,  # noqa: E402
    play_game,  # noqa: E402
)


def collect(games: int, seed: int) -> list[tuple[object, object]]:
    """(position before the action, action) for every action of `games` random games."""
    samples: list[tuple[object, object]] = []
    for i in range(games):
        samples += _game_samples(random.Random(f"bench-actions/{seed}/{i}"))
    return samples


def _game_samples(rng: random.Random) -> list[tuple[object, object]]:
    """(position before the action, action) for every action of one random game."""
    samples: list[tuple[object, object]] = []
    prev = {"game": Game()}

    def after(game, action):
        samples.append((prev["game"], action))
        prev["game"] = game.copy()

    play_game(rng, after=after)
    return samples


def time_listing(samples) -> dict:
    per = defaultdict(lambda: [0, 0.0, 0])
    for game, _ in samples:
        if game.is_chance_node():
            continue
        t = time.perf_counter()
        acts = game.legal_actions()
        dt = time.perf_counter() - t
        p = per[game.state.phase]
        p[0] += 1
        p[1] += dt
        p[2] += len(acts)
    return _rates(per)


def time_apply(samples) -> dict:
    copies = [(g.copy(), a, g.state.phase) for g, a in samples]
    per = defaultdict(lambda: [0, 0.0, 0])
    for game, action, phase in copies:
        t = time.perf_counter()
        game.apply(action)
        dt = time.perf_counter() - t
        p = per[phase]
        p[0] += 1
        p[1] += dt
    return _rates(per)


def _rates(per) -> dict:
    out = {}
    n_all = sum(p[0] for p in per.values())
    t_all = sum(p[1] for p in per.values())
    for phase, (n, t, listed) in sorted(per.items()):
        out[phase] = {"calls": n, "calls_per_s": round(n / t) if t else 0,
                      "mean_us": round(1e6 * t / n, 1) if n else 0.0}
        if listed:
            out[phase]["mean_actions_listed"] = round(listed / n, 1)
            out[phase]["actions_listed_per_s"] = round(listed / t) if t else 0
    out["all"] = {"calls": n_all, "calls_per_s": round(n_all / t_all) if t_all else 0,
                  "mean_us": round(1e6 * t_all / n_all, 1) if n_all else 0.0}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    samples = collect(args.games, args.seed)
    result = {"games": args.games, "seed": args.seed, "positions": len(samples),
              "legal_actions": time_listing(samples), "apply": time_apply(samples)}
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return 0
    print(f"engine actions: {len(samples)} positions from {args.games} random games (seed {args.seed}), one core")
    for what in ("legal_actions", "apply"):
        print(f"  {what}:")
        for phase, r in result[what].items():
            extra = (f", {r['mean_actions_listed']} actions listed ({r['actions_listed_per_s']} actions/s)"
                     if "mean_actions_listed" in r else "")
            print(f"    {phase:8} {r['calls']:7} calls  {r['calls_per_s']:8}/s  {r['mean_us']:8} us/call{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

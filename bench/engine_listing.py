"""Benchmark of `Game.legal_actions` per phase along seeded random games, command phases split
into the first listing of each player's command and the later ones.

    python bench/engine_listing.py [--games 30] [--seed 1] [--root DIR]

Plays random games the way `engine.selfplay` does (same seeds, same choices) and times each
player listing with the process's CPU time; prints, per kind of decision, how many there were,
the mean cost and the mean number of actions listed. `--root` times another tree's engine
(e.g. one extracted with `git archive <commit> engine | tar -x -C DIR`), for a side-by-side
look at where a change in `engine_compare.py`'s listing figure comes from. Figures are
printed, never asserted.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path


def measure(games: int, seed: int) -> dict[str, tuple[int, float, float]]:
    from engine.actions import TakeBack
    from engine.game import Game, sample_chance
    from engine.selfplay import game_rng

    clock = time.process_time
    spent: Counter = Counter()
    calls: Counter = Counter()
    listed: Counter = Counter()
    for i in range(games):
        rng, game = game_rng(seed, i), Game()
        while not game.is_over():
            if game.is_chance_node():
                game.apply(sample_chance(game, rng), effects=False)
                continue
            state = game.state
            kind = state.phase
            if kind == "command":
                kind += " (later)" if state.command.log else " (first)"
            t = clock()
            legal = game.legal_actions()
            spent[kind] += clock() - t
            calls[kind] += 1
            listed[kind] += len(legal)
            game.apply(rng.choice([a for a in legal if not isinstance(a, TakeBack)]), effects=False)
    return {k: (calls[k], 1e6 * spent[k] / calls[k], listed[k] / calls[k]) for k in sorted(calls)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent),
                        help="the tree whose engine/ is timed (default: this one)")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.root)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    measure(2, args.seed + 10_000)   # warm-up: imports and first-use caches
    rows = measure(args.games, args.seed)
    print(f"legal_actions along {args.games} random games (seed {args.seed}), engine of {args.root}")
    print(f"{'decision':20}{'calls':>8}{'us/call':>10}{'listed':>9}")
    for kind, (n, us, size) in rows.items():
        print(f"{kind:20}{n:>8}{us:>10.1f}{size:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

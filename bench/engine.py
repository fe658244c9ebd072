"""Benchmark of the rules engine: full random games per second and actions per second.

    python bench/engine.py [--games 200] [--seed 1] [--profile]

Plays random games (uniform choice among legal actions, chance from a seeded RNG, full
validation of every action) pinned to one CPU core, and prints games/s and actions/s.
`--profile` prints the top of a cProfile run instead of timing. Target: >= 6 games/s.
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import run  # noqa: E402

TARGET_GAMES_PER_S = 6.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile the run, print the top 25")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(run, args.games, args.seed)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        return 0
    run(2, args.seed + 10_000)   # warm-up: imports and first-use caches
    summary = run(args.games, args.seed)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print(f"engine: {summary['games']} random games (seed {args.seed}) on one core: "
              f"{summary['games_per_s']} games/s, {summary['actions_per_s']} actions/s "
              f"({summary['actions_per_game']} actions/game, {summary['elapsed_s']} s); "
              f"target >= {TARGET_GAMES_PER_S} games/s: "
              f"{'met' if summary['games_per_s'] >= TARGET_GAMES_PER_S else 'NOT met'}")
        r = summary["results"]
        print(f"results: Caesar {r['Caesar']}, Pompeius {r['Pompeius']}, draw {r['draw']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of loading a saved game: a save is replayed from its record, so how long does the
longest of a few random games take to load?

    python bench/save_load.py [--games 20] [--seed 1] [--repeat 10]

Plays `--games` random games, keeps the longest, and times (best of `--repeat`, one CPU core):
`Game.save()`, `Game.load()` of its JSON with the checkpoint (replay + cross-check) and without,
and `notation.replay` of its record text. Prints milliseconds per load.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, game_rng, play_game, replay


def best_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    game = max((play_game(game_rng(args.seed, i))[0] for i in range(args.games)), key=lambda g: len(g.history))
    with_checkpoint = json.dumps(game.save())
    bare = json.dumps(game.save(checkpoint=False))
    text = game.save_text()
    figures = {
        "lines": len(game.history),
        "save_bytes": len(with_checkpoint), "save_bytes_without_checkpoint": len(bare),
        "save_ms": round(best_ms(game.save, args.repeat), 2),
        "load_ms": round(best_ms(lambda: Game.load(json.loads(with_checkpoint)), args.repeat), 2),
        "load_without_checkpoint_ms": round(best_ms(lambda: Game.load(json.loads(bare)), args.repeat), 2),
        "replay_text_ms": round(best_ms(lambda: replay(text), args.repeat), 2),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:32} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

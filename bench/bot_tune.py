"""Tune the heuristic's weights (`rubicon.bot.heuristic.Style`) by side-swapped matches.

    nice python bench/bot_tune.py [--games 100] [--seed 7] [--base BASE] [--try attack_ratio=1.1,1.5 ...]

Each candidate style (the base with one weight changed) plays --games games against the base
(sides swapped every game, the easy level's driver) and its score is printed; `--set` changes
the base before the trials (to check a combination). How TUNED was chosen: docs/bot.md.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rubicon.bot import heuristic  # noqa: E402
from rubicon.bot.levels import LEVELS, Level  # noqa: E402
from rubicon.bot.matches import run_match  # noqa: E402


def _style(base: heuristic.Style, spec: list[str]) -> heuristic.Style:
    kinds = {f.name: f.type for f in fields(base)}
    changes = {}
    for item in spec:
        k, v = item.split("=")
        if k not in kinds:
            raise SystemExit(f"unknown weight {k!r} (weights: {', '.join(kinds)})")
        changes[k] = float(v)
    return replace(base, **changes)


def score(a: heuristic.Style, b: heuristic.Style, games: int, seed: int, swap: bool = True) -> dict:
    LEVELS["_a"] = Level("_a", style=a)
    LEVELS["_b"] = Level("_b", style=b)
    r = run_match("_a", "_b", games, seed, swap=swap)
    r.pop("_records")
    return r


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--base", default="BASE", help="BASE or TUNED")
    p.add_argument("--from", dest="start", default=None, help="the candidates start from this style (default --base)")
    p.add_argument("--caesar-only", action="store_true", help="the candidate plays Caesar in every game")
    p.add_argument("--set", action="append", default=[], metavar="WEIGHT=VALUE", help="change the candidate")
    p.add_argument("--try", dest="trials", action="append", default=[], metavar="WEIGHT=V1,V2")
    args = p.parse_args(argv)
    base = getattr(heuristic, args.base)
    cand = _style(getattr(heuristic, args.start or args.base), args.set)
    swap = not args.caesar_only
    if not args.trials:
        r = score(cand, base, args.games, args.seed, swap)
        print(f"{args.set} vs {args.base}: {r['score']:.3f} {r['ci95']} as C {r['score_as']['Caesar']} "
              f"as P {r['score_as']['Pompeius']}", flush=True)
    for trial in args.trials:
        k, vs = trial.split("=")
        for v in vs.split(","):
            r = score(_style(cand, [f"{k}={v}"]), base, args.games, args.seed, swap)
            print(f"{args.set} {k}={v} vs {args.base}: {r['score']:.3f} {r['ci95']} as C {r['score_as']['Caesar']} "
                  f"as P {r['score_as']['Pompeius']}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

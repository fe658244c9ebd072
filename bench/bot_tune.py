"""Tune the heuristic's weights (`rubicon.bot.heuristic.Style`) by side-swapped matches.

    nice python bench/bot_tune.py [--games 200] [--seed 7] [--against medium] [--from LEVEL]
                                  [--set W=V] [--set-caesar W=V] [--set-pompeius W=V]
                                  [--try W=V1,V2 ...] [--jobs 2]

The candidate starts from the styles of level --from (default: --against), for Caesar and for
Pompeius, changed by --set (both sides) and --set-caesar/--set-pompeius; each --try value
changes one more weight (of both sides, or of one with caesar.W / pompeius.W). Each candidate
plays --games games against level --against (sides swapped every game, or one side with
--only) and its score is printed with the score per side. Trials run in --jobs processes. How
the levels' weights were chosen: docs/bot.md.
"""
from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rubicon.bot import heuristic  # noqa: E402
from rubicon.bot.levels import LEVELS, Level  # noqa: E402
from rubicon.bot.matches import run_match  # noqa: E402

WEIGHTS = {f.name for f in fields(heuristic.Style)}


def _change(style: heuristic.Style, items: list[str]) -> heuristic.Style:
    changes = {}
    for item in items:
        k, v = item.split("=")
        if k not in WEIGHTS:
            raise SystemExit(f"unknown weight {k!r} (weights: {', '.join(sorted(WEIGHTS))})")
        changes[k] = float(v)
    return replace(style, **changes)


def _styles(level: str) -> tuple[heuristic.Style, heuristic.Style]:
    lv = LEVELS[level]
    return (lv.caesar_style or lv.style, lv.style)


def _apply(pair, both: list[str], caesar: list[str], pompeius: list[str]):
    c, p = pair
    return (_change(c, both + caesar), _change(p, both + pompeius))


def play(label: str, pair, against: str, games: int, seed: int, only: str | None = None) -> str:
    LEVELS["_cand"] = Level("_cand", style=pair[1], caesar_style=pair[0])
    if only is None:
        r = run_match("_cand", against, games, seed)
    else:   # the candidate plays one side in every game
        r = run_match("_cand", against, games, seed, swap=False) if only == "caesar" else \
            run_match(against, "_cand", games, seed, swap=False)
        if only == "pompeius":
            r["score"] = 1 - r["score"]
            r["wilson95"] = [1 - r["wilson95"][1], 1 - r["wilson95"][0]]
            r["score_as"] = {"Caesar": None, "Pompeius": r["score"]}
    return (f"{label:40s} {r['score']:.3f} (Wilson {r['wilson95'][0]:.3f}-{r['wilson95'][1]:.3f}) "
            f"as C {r['score_as']['Caesar']} as P {r['score_as']['Pompeius']}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--against", default="medium", help="the opponent level")
    p.add_argument("--from", dest="start", default=None, help="the candidate starts from this level's styles")
    p.add_argument("--set", action="append", default=[], metavar="WEIGHT=VALUE", help="change both sides")
    p.add_argument("--set-caesar", action="append", default=[], metavar="WEIGHT=VALUE")
    p.add_argument("--set-pompeius", action="append", default=[], metavar="WEIGHT=VALUE")
    p.add_argument("--try", dest="trials", action="append", default=[], metavar="[caesar.|pompeius.]WEIGHT=V1,V2")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--only", choices=("caesar", "pompeius"), help="the candidate plays this side in every game")
    args = p.parse_args(argv)
    for name in (args.against, args.start):
        if name is not None and name not in LEVELS:
            raise SystemExit(f"unknown level {name!r} (levels: {', '.join(LEVELS)})")
    cand = _apply(_styles(args.start or args.against), args.set, args.set_caesar, args.set_pompeius)
    jobs = [("candidate " + " ".join(args.set + [f"C.{x}" for x in args.set_caesar]
                                     + [f"P.{x}" for x in args.set_pompeius]), cand)]
    for trial in args.trials:
        k, vs = trial.split("=")
        who, _, weight = k.rpartition(".")
        for v in vs.split(","):
            item = [f"{weight}={v}"]
            pair = _apply(cand, item if not who else [], item if who == "caesar" else [],
                          item if who == "pompeius" else [])
            jobs.append((f"  {k}={v}", pair))
    print(f"{len(jobs)} candidates x {args.games} games against {args.against} (seed {args.seed})", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(play, label, pair, args.against, args.games, args.seed, args.only)
                   for label, pair in jobs]
        for f in futures:
            print(f.result(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

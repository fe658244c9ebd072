"""Benchmark of the bot: match scores between levels (sides swapped) and decision times.

    python bench/bot_match.py [--games 20] [--seed 1] [--pairs easy:random,medium:easy,hard:medium]
                              [--budget medium=40] [--json]

For each pair A:B plays --games games, A as Caesar in even games and as Pompeius in odd ones,
and prints A's score with its 95 % confidence interval, A's score as each side, and the p50/p99
decision time per level. Goals: the default level >= 95 % against random with either
side; each level >= 60 % against the one below; the default level's p99 <= 3 s.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rubicon.bot.levels import DEFAULT_LEVEL  # noqa: E402
from rubicon.bot.matches import run_match  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pairs", default=f"easy:random,{DEFAULT_LEVEL}:random,medium:easy,hard:random,hard:medium")
    p.add_argument("--budget", action="append", default=[], metavar="LEVEL=ITERATIONS")
    p.add_argument("--json", action="store_true")
    p.add_argument("--progress", action="store_true", help="one line per game on stderr")
    p.add_argument("--times", type=argparse.FileType("w"), default=None,
                   help="with --progress: one JSON line per game (score, decision times) to this file, "
                        "so an interrupted run still counts")
    args = p.parse_args(argv)
    budgets = {k: int(v) for k, v in (b.split("=") for b in args.budget)}
    out = []
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        def progress(i, rec, a=a):
            # One line per game with A's score in it, so an interrupted run still counts.
            a_side = 1 if i % 2 else 0
            w = rec.game.result()["winner"]
            sc = 0.5 if w is None else float(w == ("Caesar", "Pompeius")[a_side])
            print(f"  game {i}: Caesar {rec.levels[0]}, Pompeius {rec.levels[1]}: {rec.game.result()['reason']}"
                  f" | score of {a} {sc}", file=sys.stderr, flush=True)
            if args.times:
                print(json.dumps({"game": i, "score": sc, "decision_ms": {lv: [round(x * 1000, 2) for x in ts]
                                                                          for lv, ts in rec.decision_s.items()}}),
                      file=args.times, flush=True)
        r = run_match(a, b, args.games, args.seed, budgets=budgets, progress=progress if args.progress else None)
        r.pop("_records")
        out.append(r)
        if not args.json:
            t = r["decision_ms"]
            print(f"{a} vs {b}: {a} scores {r['score']:.3f} (95% CI {r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}, "
                  f"Wilson {r['wilson95'][0]:.3f}-{r['wilson95'][1]:.3f}) over "
                  f"{r['games']} games; as Caesar {r['score_as']['Caesar']}, as Pompeius {r['score_as']['Pompeius']}; "
                  f"{r['elapsed_s']} s", flush=True)
            for lv, d in t.items():
                print(f"    {lv}: {d['n']} decisions, p50 {d['p50']} ms, p99 {d['p99']} ms, max {d['max']} ms",
                      flush=True)
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

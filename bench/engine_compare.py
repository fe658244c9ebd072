"""Benchmark of the engine against a baseline commit: the same seeded random games, both engines.

    python bench/engine_compare.py [--baseline 8800145] [--games 60] [--rounds 6] [--seed 1] [--json]

Extracts the baseline's `engine/` (`git archive`) into a temporary directory (removed
afterwards), then runs worker subprocesses pinned to one CPU core, one at a time, alternating
baseline and current round by round (and which goes first) so load from other work falls on
both alike. Each round plays the same slice of games with both engines: once through the
engine's own `selfplay.play_game` (games/s, actions/s), once through an instrumented copy of
its loop (time in `legal_actions` + `apply` per player decision). Times are the worker's CPU
time (`time.process_time`), so load from other work changes them little; the per-round ratios
and their median are printed too. Every game's record is
hashed: the two engines must play identical games (same listing order, same actions), else
exit status 1. Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "8800145"   # the engine before the speed work
# CPU time of the worker process, not wall time: on a machine shared with other work, time
# spent waiting for the core is not the engine's.
CLOCK = time.process_time


# --- worker: runs inside a subprocess with the engine under test first on sys.path ----------
def _worker(root: str, first: int, count: int, seed: int, core: int) -> dict:
    sys.path.insert(0, root)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
    from engine.selfplay import game_rng, play_game

    play_game(game_rng(seed + 10_000, 0))   # warm-up: imports and first-use caches
    digest = hashlib.sha256()
    actions = 0
    t0 = CLOCK()
    for i in range(first, first + count):
        _, record = play_game(game_rng(seed, i))
        actions += len(record)
    selfplay_s = CLOCK() - t0
    for i in range(first, first + count):   # the records are hashed outside the timed run
        _, record = play_game(game_rng(seed, i))
        digest.update("\n".join(map(str, record)).encode() + b"\n\n")
    decisions, list_s, apply_s, again = _instrumented(first, count, seed)
    return {"games": count, "actions": actions, "selfplay_s": selfplay_s, "record_hash": digest.hexdigest(),
            "decisions": decisions, "list_s": list_s, "apply_s": apply_s, "instrumented_hash": again}


def _instrumented(first: int, count: int, seed: int) -> tuple[int, float, float, str]:
    """The self-play loop (engine.selfplay.play_game) with `legal_actions` and `apply` of each
    player decision timed apart."""
    from engine.game import Game, sample_chance
    from engine.selfplay import game_rng

    # `apply` as a caller calls it, with the defaults: checked, and whatever the engine does by
    # default about effects (named on every apply before 2026-11-26; since, named on demand).
    clock = CLOCK
    digest = hashlib.sha256()
    decisions, list_s, apply_s = 0, 0.0, 0.0
    for i in range(first, first + count):
        rng, game, lines = game_rng(seed, i), Game(), []
        while not game.is_over():
            if game.is_chance_node():
                action = sample_chance(game, rng)
                game.apply(action)
            else:
                t = clock()
                legal = game.legal_actions()
                t1 = clock()
                legal = [a for a in legal if type(a).__name__ != "TakeBack"]
                action = rng.choice(legal)
                t2 = clock()
                game.apply(action)
                t3 = clock()
                list_s += t1 - t
                apply_s += t3 - t2
                decisions += 1
            lines.append(str(action))
        digest.update("\n".join(lines).encode() + b"\n\n")
    return decisions, list_s, apply_s, digest.hexdigest()


# --- driver -----------------------------------------------------------------------------------
def _extract(commit: str, dest: Path) -> None:
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "engine"],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest, filter="data")


def _run_worker(root: Path, first: int, count: int, seed: int, core: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--worker", str(root), str(first), str(count), str(seed),
                          str(core)], check=True, capture_output=True, text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout)


def _summary(parts: list[dict]) -> dict:
    games = sum(p["games"] for p in parts)
    actions = sum(p["actions"] for p in parts)
    t = sum(p["selfplay_s"] for p in parts)
    decisions = sum(p["decisions"] for p in parts)
    list_s, apply_s = sum(p["list_s"] for p in parts), sum(p["apply_s"] for p in parts)
    return {"games": games, "actions": actions, "selfplay_s": round(t, 3),
            "games_per_s": round(games / t, 2), "actions_per_s": round(actions / t),
            "decisions": decisions, "list_us_per_decision": round(1e6 * list_s / decisions, 1),
            "apply_us_per_decision": round(1e6 * apply_s / decisions, 1),
            "list_apply_us_per_decision": round(1e6 * (list_s + apply_s) / decisions, 1)}


def compare(baseline: str, games: int, rounds: int, seed: int, core: int, progress=None) -> dict:
    per_round = [games // rounds + (1 if r < games % rounds else 0) for r in range(rounds)]
    tmp = Path(tempfile.mkdtemp(prefix="rubicon-baseline-"))
    old_parts: list[dict] = []
    new_parts: list[dict] = []
    try:
        _extract(baseline, tmp)
        first = 0
        for r, count in enumerate(per_round):
            if not count:
                continue
            order = [(tmp, old_parts), (ROOT, new_parts)]
            for root, parts in (order if r % 2 == 0 else order[::-1]):
                parts.append(_run_worker(root, first, count, seed, core))
            if progress:
                progress(f"round {r + 1}/{rounds}: games {first}..{first + count - 1} done")
            first += count
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    old, new = _summary(old_parts), _summary(new_parts)
    hashes = [(o["record_hash"], n["record_hash"], o["instrumented_hash"], n["instrumented_hash"])
              for o, n in zip(old_parts, new_parts, strict=True)]
    identical = all(len(set(h)) == 1 for h in hashes)
    per_round = sorted(round(o["selfplay_s"] / n["selfplay_s"], 2) for o, n in zip(old_parts, new_parts, strict=True))
    total = hashlib.sha256("".join(h[0] for h in hashes).encode()).hexdigest()[:16]
    return {"baseline": baseline, "seed": seed, "games": games, "rounds": rounds, "core": core,
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "old": old, "new": new, "identical_games": identical, "records_hash": total,
            "round_ratios": per_round, "median_round_ratio": statistics.median(per_round),
            "ratio": {"games_per_s": round(new["games_per_s"] / old["games_per_s"], 2),
                      "actions_per_s": round(new["actions_per_s"] / old["actions_per_s"], 2),
                      "list_apply_per_decision": round(old["list_apply_us_per_decision"]
                                                       / new["list_apply_us_per_decision"], 2),
                      "list_per_decision": round(old["list_us_per_decision"] / new["list_us_per_decision"], 2)}}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        root, first, count, seed, core = argv[1], *map(int, argv[2:6])
        print(json.dumps(_worker(root, first, count, seed, core)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"commit of the old engine (default {BASELINE})")
    parser.add_argument("--games", type=int, default=60, help="games per engine (default 60)")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds (default 4)")
    parser.add_argument("--core", type=int, default=None,
                        help="CPU core to pin the workers to (default: the highest-numbered one allowed; "
                             "other benchmarks pin to the lowest)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or not 1 <= args.rounds <= args.games:
        parser.error("--games must be 1 or more and --rounds 1..games")
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    core = allowed[-1] if args.core is None else args.core
    if core not in allowed:
        parser.error(f"--core must be one of {allowed}")
    result = compare(args.baseline, args.games, args.rounds, args.seed, core,
                     None if args.json else lambda m: print(m, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"engine {args.baseline} (old) vs this tree (new): {args.games} random games each, seed {args.seed}, "
              f"{args.rounds} alternating rounds on core {result['core']}, load average {result['load_average']}")
        print(f"{'':24}{'old':>12}{'new':>12}{'new/old':>10}")
        rows = [("games/s", "games_per_s", "games_per_s"), ("actions/s", "actions_per_s", "actions_per_s")]
        for label, key, rkey in rows:
            print(f"{label:24}{result['old'][key]:>12}{result['new'][key]:>12}{result['ratio'][rkey]:>9}x")
        for label, key in (("listing us/decision", "list_us_per_decision"),
                           ("apply us/decision", "apply_us_per_decision"),
                           ("list+apply us/decision", "list_apply_us_per_decision")):
            o, n = result["old"][key], result["new"][key]
            print(f"{label:24}{o:>12}{n:>12}{round(o / n, 2):>9}x faster")
        print(f"games/s new/old per round: {result['round_ratios']} (median {result['median_round_ratio']}x)")
        print(f"decisions: {result['old']['decisions']} old, {result['new']['decisions']} new; "
              f"actions: {result['old']['actions']} old, {result['new']['actions']} new")
        same = "yes" if result["identical_games"] else "NO"
        print(f"identical games: {same} (records hash {result['records_hash']})")
    return 0 if result["identical_games"] else 1


if __name__ == "__main__":
    sys.exit(main())

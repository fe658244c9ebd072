"""`rubicon selfplay`: play N games between two levels (random is a level) and report the results,
Caesar's score with a 95 % confidence interval, the speed, and optionally each game's record.

Random against random runs the engine's own random driver (`engine.selfplay.run`), so its games,
records and speed figures are what they have always been. Any other pairing is played by the bot
(`rubicon.bot`), each side deciding from its own information only.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

LEVEL_NAMES = ("random", "easy", "medium", "hard", "expert")   # rubicon.bot.levels.LEVELS, without importing it

# Every module a run uses, imported before "Ctrl-C stops" is printed. CPython (3.11 to 3.14) marks a
# KeyboardInterrupt that ends a string exec as unhandled even when it is caught (dataclasses and
# namedtuples build their methods by exec while their module is imported), and under `python -m`
# it then ends the process by SIGINT after our exit code 130. Game play itself runs no string exec.
RUN_MODULES = ("engine.selfplay", "engine.game", "engine.notation", "rubicon.bot.match", "rubicon.bot.matches")


def register(commands) -> None:
    """Add `rubicon selfplay` to the command."""
    p = commands.top.add_parser(
        "selfplay", help="play games between bot levels (random is one) and score them",
        description="Play full games, each side at a level: random (uniform among the legal actions), easy "
                    "(the heuristic with a novice's slips), medium (the heuristic), hard (its tuned weights) or "
                    "expert (hard, judging each command decision over eight guesses of the hidden blocks), each "
                    "deciding from that side's information only. Chance comes "
                    "from an RNG seeded per game from --seed: the same seed gives the same games. Prints the "
                    "results, Caesar's score with a 95% confidence interval and the speed. Exit 1 if a game "
                    "reaches a position where nobody can act.")
    p.add_argument("--caesar", choices=LEVEL_NAMES, default="random", help="Caesar's level (default random)")
    p.add_argument("--pompeius", choices=LEVEL_NAMES, default="random", help="Pompeius's level (default random)")
    p.add_argument("--swap", action="store_true",
                   help="swap the levels' sides every other game (the score is then --caesar's level's)")
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game's RNG (default 1)")
    p.add_argument("--winter-order", choices=("v1.01", "first-edition"), default=None,
                   help="rules option: order of the winter steps (default v1.01)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--records", metavar="DIR",
                   help="also write each game's record to DIR/selfplay_SEED_INDEX.txt (for rubicon replay)")
    p.set_defaults(func=_selfplay)


def _selfplay(args: argparse.Namespace) -> int:
    if args.games < 0:
        print("rubicon selfplay: --games must be 0 or more", file=sys.stderr)
        return 2
    for name in RUN_MODULES:
        importlib.import_module(name)
    from engine import DeadEnd
    options = {"winter_order": args.winter_order} if args.winter_order else None
    levels = (args.caesar, args.pompeius)
    progress = Progress(args.games)
    try:
        print(f"rubicon selfplay: {args.games} games, Caesar {args.caesar} against Pompeius {args.pompeius}"
              f"{' (sides swapped every other game)' if args.swap else ''}, seed {args.seed}; Ctrl-C stops",
              file=sys.stderr, flush=True)
        if levels == ("random", "random") and not args.swap:
            summary, games = _random_games(args, options, progress)
        else:
            summary, games = _bot_games(args, options, progress)
    except DeadEnd as exc:
        progress.done()
        print(f"rubicon selfplay: dead end: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        progress.done()
        print(f"rubicon selfplay: interrupted after {progress.finished} of {args.games} games", file=sys.stderr)
        return 130
    progress.done()
    if args.records is not None:
        try:
            _write_records(Path(args.records), games, args.seed, summary)
        except OSError as exc:
            print(f"rubicon selfplay: cannot write the records: {exc}", file=sys.stderr)
            return 2
        print(f"{len(games)} records in {args.records}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        r = summary["results"]
        print(f"{summary['completed']}/{summary['games']} games completed: Caesar {r['Caesar']}, "
              f"Pompeius {r['Pompeius']}, draw {r['draw']}")
        lo, hi = summary["ci95"]
        who = summary["scored"]
        print(f"{who} scores {summary['score']:.3f} (95% confidence interval {lo:.3f}-{hi:.3f})")
        print(f"{summary['actions']} actions in {summary['elapsed_s']} s: "
              f"{summary['games_per_s']} games/s, {summary['actions_per_s']} actions/s")
    return 0


class Progress:
    """Games finished so far, shown on stderr as one line rewritten in place when it is a terminal
    (a log or a pipe gets nothing but the summary)."""

    def __init__(self, games: int):
        self.games = games
        self.finished = 0
        self.live = sys.stderr.isatty()

    def __call__(self, i: int, *_record) -> None:
        self.finished = i + 1
        if self.live:
            print(f"\r  {self.finished}/{self.games} games", end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        """End the progress line on a terminal, so the summary starts on a line of its own."""
        if self.live and self.finished:
            print(file=sys.stderr, flush=True)


def _random_games(args, options, progress=None) -> tuple[dict, list]:
    """Today's random self-play, its figures untouched; the games are replayed for records only."""
    from engine import game_rng, play_game, run
    from rubicon.bot.match import confidence
    summary = run(args.games, args.seed, options, progress)
    r = summary["results"]
    scores = [1.0] * r["Caesar"] + [0.0] * r["Pompeius"] + [0.5] * r["draw"]
    mean, lo, hi = confidence(scores)
    summary.update(levels={"Caesar": "random", "Pompeius": "random"}, scored="Caesar (random)",
                   score=round(mean, 4), ci95=[round(lo, 4), round(hi, 4)])
    games = []
    if args.records is not None:
        games = [play_game(game_rng(args.seed, i), options)[0] for i in range(args.games)]
    return summary, games


def _bot_games(args, options, progress=None) -> tuple[dict, list]:
    from engine import Game
    from rubicon.bot.matches import run_match
    m = run_match(args.caesar, args.pompeius, args.games, args.seed, options, swap=args.swap, progress=progress)
    records = m.pop("_records")
    summary = {
        "games": m["games"], "completed": m["completed"], "seed": args.seed,
        "options": dict(Game(options).state.options), "results": m["results"], "actions": m["actions"],
        "actions_per_game": round(m["actions"] / m["games"], 1) if m["games"] else 0.0,
        "elapsed_s": m["elapsed_s"], "games_per_s": m["games_per_s"], "actions_per_s": m["actions_per_s"],
        "levels": {"Caesar": args.caesar, "Pompeius": args.pompeius}, "swap": args.swap,
        "scored": f"{args.caesar} (as Caesar and Pompeius in turn)" if args.swap else f"Caesar ({args.caesar})",
        "score": m["score"], "ci95": m["ci95"], "score_as": m["score_as"], "decision_ms": m["decision_ms"],
    }
    return summary, [rec.game for rec in records]


def _write_records(folder: Path, games: list, seed: int, summary: dict) -> None:
    from engine import write_record
    folder.mkdir(parents=True, exist_ok=True)
    levels = summary["levels"]
    for i, game in enumerate(games):
        result = game.result()
        comment = (f"rubicon selfplay --seed {seed}: game {i} of {len(games)}; "
                   f"{result['winner'] or 'nobody'} wins ({result['reason']})")
        if summary.get("swap") and i % 2:
            comment += f"; Caesar {levels['Pompeius']}, Pompeius {levels['Caesar']}"
        elif levels != {"Caesar": "random", "Pompeius": "random"}:
            comment += f"; Caesar {levels['Caesar']}, Pompeius {levels['Pompeius']}"
        (folder / f"selfplay_{seed}_{i}.txt").write_text(write_record(game, comment), encoding="utf-8")

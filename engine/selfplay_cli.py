"""`rubicon selfplay`: play N random games and report results and speed (text or --json), and
optionally write each game's record for `rubicon replay`."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(commands) -> None:
    p = commands.top.add_parser(
        "selfplay", help="play random games to check the rules engine and time it",
        description="Play full games choosing uniformly among the legal actions, chance from an RNG seeded "
                    "per game from --seed (the same seed gives the same games). Prints the results and the "
                    "speed. Exit 1 if a game reaches a position where nobody can act.")
    p.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game's RNG (default 1)")
    p.add_argument("--winter-order", choices=("v1.01", "first-edition"), default=None,
                   help="rules option: order of the winter steps (default v1.01)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--records", metavar="DIR",
                   help="also write each game's record to DIR/selfplay_SEED_INDEX.txt (for rubicon replay)")
    p.set_defaults(func=_selfplay)


def _selfplay(args: argparse.Namespace) -> int:
    import json

    from .selfplay import DeadEnd, run
    if args.games < 0:
        print("rubicon selfplay: --games must be 0 or more", file=sys.stderr)
        return 2
    options = {"winter_order": args.winter_order} if args.winter_order else None
    try:
        summary = run(args.games, args.seed, options)
    except DeadEnd as exc:
        print(f"rubicon selfplay: dead end: {exc}", file=sys.stderr)
        return 1
    if args.records is not None:
        try:
            written = _write_records(Path(args.records), args.games, args.seed, options)
        except OSError as exc:
            print(f"rubicon selfplay: cannot write the records: {exc}", file=sys.stderr)
            return 2
        print(f"{written} records in {args.records}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        r = summary["results"]
        print(f"{summary['completed']}/{summary['games']} games completed: Caesar {r['Caesar']}, "
              f"Pompeius {r['Pompeius']}, draw {r['draw']}")
        print(f"{summary['actions']} actions in {summary['elapsed_s']} s: "
              f"{summary['games_per_s']} games/s, {summary['actions_per_s']} actions/s")
    return 0


def _write_records(folder: Path, games: int, seed: int, options: dict | None) -> int:
    """Play the same games again (same seeds: same games) and write each one's record. Kept apart
    from `run` so that the speed it reports never includes writing files."""
    from .notation import write_record
    from .selfplay import game_rng, play_game
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        game, _ = play_game(game_rng(seed, i), options)
        result = game.result()
        comment = (f"rubicon selfplay --seed {seed}: game {i} of {games}; "
                   f"{result['winner'] or 'nobody'} wins ({result['reason']})")
        (folder / f"selfplay_{seed}_{i}.txt").write_text(write_record(game, comment), encoding="utf-8")
    return games

"""The engine's subcommands of the `rubicon` console script: `rubicon replay FILE [--json]`."""
from __future__ import annotations

import argparse
import json
import sys


def register(commands) -> None:
    p = commands.top.add_parser("replay", help="replay a game record and check every line")
    p.add_argument("file", help="a game record (docs/notation.md)")
    p.add_argument("--json", action="store_true", help="print the final state summary as JSON")
    p.set_defaults(func=replay_command)
    from .selfplay_cli import register as register_selfplay   # ENGINE-2: `rubicon selfplay`
    register_selfplay(commands)


def replay_command(args: argparse.Namespace) -> int:
    """Exit 0 when every line is legal; 1 and `FILE:LINE: reason` for the first bad line;
    2 when the file cannot be read."""
    from .notation import RecordError, replay
    from .summary import summary
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{args.file}: cannot read: {exc}", file=sys.stderr)
        return 2
    try:
        game = replay(text, args.file)
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    s = summary(game)
    if args.json:
        print(json.dumps(s, indent=1, ensure_ascii=False))
    else:
        vp = s["vp"]
        print(f"{args.file}: {len(game.history)} actions, all legal; {s['year']} turn {s['turn']}, "
              f"{s['phase']} phase; VP Caesar {vp['Caesar']}, Pompeius {vp['Pompeius']}")
    return 0

"""`rubicon replay FILE [--json]`: the command-line face of the engine's game records.

Owns the exit codes, the one-line summary and, when a line is refused, the hint naming the lines
that would be legal at that point of the record. It lived in engine/ (engine/cli.py) until the
engine got its front door: `import engine` loads the whole engine, which
`rubicon --help` must not, so the handlers import it when they run."""
from __future__ import annotations

import argparse
import sys

HINT_GROUP_MAX = 6   # the legal lines of one actor and verb are listed up to this many, else counted
HINT_NEAREST = 3     # of a longer group, the lines nearest to the refused one


def register(commands) -> None:
    """Add `rubicon replay` to the `rubicon` command (rubicon/cli.py's `Commands`)."""
    p = commands.top.add_parser(
        "replay", help="replay a game record and check every line",
        description="Replay a game record (docs/notation.md) from the 705 set-up and check every line. "
                    "Exit 0: every line is legal (a summary, or the final state with --json); 1: the first "
                    "bad line as FILE:LINE: reason, then the lines legal there; 2: the file cannot be read. "
                    "A finished game's summary names the winner, the reason and the VP.")
    p.add_argument("file", help="a game record (docs/notation.md); - reads standard input")
    p.add_argument("--json", action="store_true",
                   help="print the final state summary as JSON (Player 1, who acts now, the battle being "
                        "fought, result, VP, every block)")
    p.set_defaults(func=replay_command)


def replay_command(args: argparse.Namespace) -> int:
    """Exit 0 when every line is legal; 1 and `FILE:LINE: reason` for the first bad line
    (followed by what the record could say there); 2 when the file cannot be read."""
    import json

    from engine import RecordError, game_summary, replay, result_line
    try:
        if args.file == "-":
            args.file = "<stdin>"
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{args.file}: cannot read: {exc}", file=sys.stderr)
        return 2
    try:
        game = replay(text, args.file)
    except RecordError as exc:
        print(str(exc), file=sys.stderr)
        for line in legal_hint(text, args.file, exc.line):
            print(f"  {line}", file=sys.stderr)
        return 1
    s = game_summary(game)
    if args.json:
        print(json.dumps(s, indent=1, ensure_ascii=False))
        return 0
    vp = s["vp"]
    score = f"VP Caesar {vp['Caesar']}, Pompeius {vp['Pompeius']}"
    if game.is_over():
        print(f"{args.file}: {len(game.history)} actions, all legal; game over in {s['year']}: "
              f"{result_line(game)}; {score}")
        return 0
    waiting = ", ".join(game.current_players())
    nxt = f"; next: {waiting}" if waiting else ""
    print(f"{args.file}: {len(game.history)} actions, all legal; {s['year']} turn {s['turn']}, "
          f"{s['phase']} phase{nxt}; {score}")
    return 0


def legal_hint(text: str, filename: str, bad_line: int) -> list[str]:
    """What the record could say at `bad_line` instead: the legal lines (grouped by actor and
    verb when there are many), or an example of the chance line due. Empty when the record
    cannot be replayed up to that line (a header error, for instance)."""
    import difflib
    import random

    from engine import Game, IllegalAction, RecordError, read_record
    try:
        record = read_record(text, filename)
        game = Game(record.options)
        bad_text = ""
        for n, line in record.actions:
            if n >= bad_line:
                bad_text = line
                break
            game.apply(line)
    except (RecordError, IllegalAction):
        return []
    if game.is_over():
        return []
    if game.is_chance_node():
        example = game.sample_chance(random.Random(bad_line))
        return [f"the next line is Chance's, like: {example}"]
    lines = [str(a) for a in game.legal_actions()]
    if not lines:
        return []
    groups: dict[str, list[str]] = {}
    for line in lines:
        groups.setdefault(_verb(line), []).append(line)
    out = [f"legal here ({len(lines)} lines):" if len(lines) > 1 else "legal here:"]
    for verb, group in groups.items():
        if len(group) <= HINT_GROUP_MAX:
            out.extend(f"  {line}" for line in group)
            continue
        # A long group: the lines nearest to what was written when it is the same verb, else the first.
        shown = []
        if verb.lower() == _verb(bad_text).lower():
            shown = difflib.get_close_matches(bad_text, group, n=HINT_NEAREST, cutoff=0.5)
        shown = shown or group[:1]
        out.extend(f"  {line}" for line in shown)
        out.append(f"    (and {len(group) - len(shown)} more '{verb} ...')")
    return out


def _verb(line: str) -> str:
    """A line's actor and verb ("Caesar moves"): how the hint groups legal lines."""
    return " ".join(line.split()[:2])

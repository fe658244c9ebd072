"""`rubicon journal check|export|recover`: the owner's look at the table's journal.

- `check` reports what the check at every open finds (rubicon/journal_check.py), changing nothing:
  exit 0 when healthy, 1 when damaged but recoverable, 2 when nothing can be verified;
- `export` writes a game (default the current one) as a record of notation lines, from the longest
  verified source, to stdout or `--output` (it holds everything, hands and deck included: it is the
  owner's, like the journal);
- `recover` sets the damaged files aside and rebuilds the journal (what `rubicon run` does by itself
  at start); stop the table first.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(commands) -> None:
    """Add `rubicon journal check|export|recover` to the command."""
    p = commands.top.add_parser("journal", help="check, export or recover the table's journal",
                                description="The table's journal (the games played, in the state directory): "
                                            "check it, export a game as notation lines, or recover it.")
    sub = p.add_subparsers(dest="journal_command", metavar="JOURNAL_COMMAND")
    p.set_defaults(func=lambda args: _usage(p))
    for name, func, text in (
            ("check", check_command, "report what is damaged and what can be recovered (changes nothing)"),
            ("export", export_command, "a game's record as notation lines, from the longest verified source"),
            ("recover", recover_command, "set the damaged files aside and rebuild the journal (stop the table "
                                         "first)")):
        q = sub.add_parser(name, help=text, description=text)
        q.add_argument("--state-dir", type=Path, default=None,
                       help="where the journal lives (default: as `rubicon run`: the configuration's, else "
                            "$RUBICON_STATE_DIR, else systemd's $STATE_DIRECTORY, else the user state directory)")
        q.add_argument("--config", metavar="FILE", default=None, help="configuration file (as `rubicon run`)")
        if name == "export":
            q.add_argument("--game", type=int, default=None, help="the game's number (default: the current game)")
            q.add_argument("--output", "-o", type=Path, default=None, help="write to FILE instead of stdout")
        q.set_defaults(func=func)


def journal_path(args: argparse.Namespace) -> Path | None:
    """The journal the command works on: in --state-dir, else in the configured or default state directory; None
    (told) when the configuration is broken."""
    from rubicon.cli.run import default_state_dir
    from rubicon.config import config_or_report
    state_dir = args.state_dir
    if state_dir is None:
        config = config_or_report(args.config, "rubicon journal: fix the configuration or name the directory "
                                               "with --state-dir")
        if config is None:
            return None
        state_dir = config.state_dir or default_state_dir()
    return Path(state_dir) / "journal.sqlite3"


def _inspect(path: Path | None):
    from rubicon.journal_check import NewerSchema, inspect
    if path is None:
        return None
    try:
        return inspect(path)
    except NewerSchema as exc:
        print(f"rubicon journal: {path}: journal schema {exc.version} is newer than this Rubicon's: upgrade Rubicon",
              file=sys.stderr)
        return None


def check_command(args: argparse.Namespace) -> int:
    """`rubicon journal check`: say whether the journal is sound, which games it holds and what a recovery would
    keep; exit 1 if damaged."""
    path = journal_path(args)
    report = _inspect(path)
    if report is None:
        return 2
    if report.fresh:
        print(f"{report.path}: no journal yet")
        return 0
    print(f"{report.path}: {'DAMAGED' if report.damaged else 'healthy'}")
    for line in report.describe():
        print(f"  {line}")
    for line in unread_faults(report.best.faults):
        print(f"  {line}")
    if not report.damaged:
        return 0
    if report.recoverable:
        print("  `rubicon journal recover` (or the next `rubicon run`) keeps the damaged files aside and resumes "
              "the longest verified game")
        return 1
    print("  nothing can be verified: `rubicon run --new-game` keeps the damaged files aside and starts a new journal")
    return 2


def unread_faults(faults) -> list[str]:
    """What earlier recoveries found that no player has dismissed yet (the pages say it until then)."""
    import time
    out = []
    for number, fault in sorted(faults.items()):
        if fault.dismissed:
            continue
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(float(fault.report.get("time", 0))))
        out.append(f"fault report {number} of the recovery at {when}, not yet dismissed on the table:")
        out += [f"  {line}" for line in fault.report.get("said", [])]
    return out


def export_command(args: argparse.Namespace) -> int:
    """`rubicon journal export`: print a game (the current one, or --game) as notation lines."""
    path = journal_path(args)
    report = _inspect(path)
    if report is None:
        return 2
    game_id = args.game if args.game is not None else report.best.current
    game = report.best.games.get(game_id) if game_id is not None else None
    if game is None:
        known = ", ".join(str(g) for g in sorted(report.best.games)) or "none"
        print(f"rubicon journal export: no game {game_id} in {report.path} (games: {known})", file=sys.stderr)
        return 2
    head = [f"# Rubicon journal {report.path}, game {game_id}: {len(game.lines)} lines"
            + (" (the longest verified record: the journal is damaged)" if report.damaged else "")]
    text = "\n".join(head + [f"Option {k}: {v}" for k, v in sorted(game.options.items())] + game.lines) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
        print(f"game {game_id}: {len(game.lines)} lines written to {args.output}", file=sys.stderr)
    return 0


def recover_command(args: argparse.Namespace) -> int:
    """`rubicon journal recover`: rebuild a damaged journal from what can still be read, keeping the damaged file
    beside it."""
    from rubicon.journal_check import recover
    path = journal_path(args)
    report = _inspect(path)
    if report is None:
        return 2
    if not report.damaged:
        print(f"{report.path}: healthy, nothing to recover")
        return 0
    if not report.recoverable:
        print(f"{report.path}: nothing can be verified ({'; '.join(report.findings)}); `rubicon run --new-game` "
              f"keeps the damaged files aside and starts a new journal", file=sys.stderr)
        return 2
    recover(report.path, report)
    print(f"{report.path}: recovered")
    for line in report.describe():
        print(f"  {line}")
    return 0


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2

"""`rubicon check-config [FILE]`: read a configuration file as `rubicon run` would and explain
every problem with its file and line (exit 1), or print the configuration in force (exit 0)."""
from __future__ import annotations

import argparse
import sys


def register(commands) -> None:
    """Add `rubicon check-config` to the command."""
    p = commands.top.add_parser(
        "check-config", help="check a configuration file (every error with its file and line)",
        description="Check the configuration `rubicon run` would use: FILE, else $RUBICON_CONFIG, else "
                    "./rubicon.toml. Every error is printed as FILE:LINE: what was expected (exit 1); a good "
                    "file prints the settings in force (exit 0). config.example.toml documents every key.")
    p.add_argument("file", nargs="?", help="the configuration file (default: $RUBICON_CONFIG or ./rubicon.toml)")
    p.set_defaults(func=check_config_command)


def check_config_command(args: argparse.Namespace) -> int:
    """`rubicon check-config`: print the settings in force (exit 0), or every problem as FILE:LINE: what was
    expected (exit 1)."""
    from rubicon.config import ConfigProblems, check_files, find_config, load_config
    path = find_config(args.file)
    if path is None:
        print("rubicon check-config: no configuration file (no FILE, no $RUBICON_CONFIG, no ./rubicon.toml): "
              "every default applies")
        return 0
    try:
        config = load_config(path)
    except ConfigProblems as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"rubicon check-config: {len(exc.problems)} problem(s) in {path}", file=sys.stderr)
        return 1
    problems = check_files(config)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"rubicon check-config: {len(problems)} problem(s) in {path}", file=sys.stderr)
        return 1
    print(f"{path}: ok")
    devices = [f"tray {config.tray}" if config.tray else None, f"scanner {config.scanner}" if config.scanner else None,
               *(f"scanner {url} (from reader {first})" for url, first in config.scanners),
               "Pi-wired readers" if config.pi_readers else None,
               f"one reader beside the map ({config.one_reader})" if config.one_reader else None]
    print(f"  serve on {config.host}:{config.port}; state in {config.state_dir or 'the default state directory'}")
    print(f"  devices: {', '.join(d for d in devices if d) or 'none (no hardware)'}; dice from {config.dice}")
    print(f"  rules: {', '.join(f'{k} {v}' for k, v in config.rules.items())}; bot: "
          f"{f'{config.bot_side} at {config.bot_level}' if config.bot_side else 'none'}")
    return 0

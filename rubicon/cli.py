"""The `rubicon` console script.

It owns only the dispatch: each package contributes its own subcommands through a
module with `register(commands)` (see `Commands`). Handlers import their heavy
dependencies lazily, so `rubicon --help` works on any machine.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys

# Modules that contribute subcommands, in help order. A module listed here that
# does not exist yet is skipped, so packages can land independently.
COMMAND_MODULES = (
    "engine.cli",
    "rubicon.selfplay_cli",
    "firmware_bridge.serial_bridge.cli",
    "firmware_bridge.board.cli",
    "web_ui.cli",
    "rubicon.run_cli",
    "rubicon.pair_cli",
    "rubicon.journal_cli",
    "rubicon.config_cli",
    "rubicon.dice_camera_cli",
)


class Commands:
    """Where a package registers its subcommands.

    `top` adds `rubicon NAME`; `devices` adds `rubicon devices NAME`. Each parser
    must set `func=handler(args) -> int` via `set_defaults`. (A plain class, not a
    dataclass: importing dataclasses costs `rubicon --help` about 10 ms.)
    """

    def __init__(self, top: argparse._SubParsersAction, devices: argparse._SubParsersAction) -> None:
        self.top = top
        self.devices = devices


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rubicon", description="Rubicon: Julius Caesar table companion")
    parser.add_argument("--version", action="version", version=f"rubicon {_version()}")
    top = parser.add_subparsers(dest="command", metavar="COMMAND")
    devices_parser = top.add_parser("devices", help="inspect the board's devices")
    devices = devices_parser.add_subparsers(dest="devices_command", metavar="DEVICE_COMMAND")
    devices_parser.set_defaults(func=lambda args: _usage(devices_parser))
    commands = Commands(top=top, devices=devices)
    for name in COMMAND_MODULES:
        if not _present(name):
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(commands)
    return parser


def _present(name: str) -> bool:
    """Whether module `name` exists, found without importing the packages it is in: importing
    `web_ui` to learn that `web_ui.cli` has not landed would load Flask and the whole engine,
    and make `rubicon --help` several times slower."""
    top, *rest = name.split(".")
    spec = importlib.util.find_spec(top)
    if spec is None:
        return False
    places = spec.submodule_search_locations
    for i, part in enumerate(rest):
        if not places:
            return False
        last = i == len(rest) - 1
        for place in places:
            base = os.path.join(place, part)
            if os.path.isdir(base) or (last and os.path.isfile(base + ".py")):
                places = [base] if os.path.isdir(base) else None
                break
        else:
            return False
    return True


def _version() -> str:
    """The installed distribution's version (pyproject.toml), or "unknown" when run from a bare
    checkout that was never installed."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("rubicon")
    except PackageNotFoundError:
        return "unknown (not installed: make venv)"


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        return _usage(parser)
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        # Ctrl-C: commands that can be long (selfplay, monitor, device-sim) say what they did; the
        # others simply stop, without a traceback. 130 is the shell's code for death by SIGINT.
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`rubicon ... | head`): no traceback, and no second error when
        # Python flushes stdout at exit (the Python docs' recipe for SIGPIPE).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1

"""The `rubicon` command: the composition root, on top of every other package.

It owns the dispatch. Each subcommand module is imported here as an object and adds its parsers
through `register(commands)` (see `Commands`); the order of `SUBCOMMANDS` is the order of `--help`.
The subcommand modules import their heavy dependencies (Flask, the engine, the drivers) inside
their handlers, so that `rubicon --help` stays fast and works on a machine without the Pi's GPIO.
"""
from __future__ import annotations

import argparse
import os
import sys

from firmware_bridge.board import cli as board
from firmware_bridge.serial_bridge import cli as serial_bridge

from . import board_bringup, board_layout, config, dice_camera, journal, pair, replay, run, selfplay

SUBCOMMANDS = (replay, selfplay, serial_bridge, board, board_layout, board_bringup, dice_camera, run, pair, journal,
               config)


class Commands:
    """Where a subcommand module registers its parsers.

    `top` adds `rubicon NAME`; `devices` adds `rubicon devices NAME`. Each parser
    must set `func=handler(args) -> int` via `set_defaults`. (A plain class, not a
    dataclass: importing dataclasses costs `rubicon --help` about 10 ms.)
    """

    def __init__(self, top: argparse._SubParsersAction, devices: argparse._SubParsersAction) -> None:
        self.top = top
        self.devices = devices


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: every subcommand of `SUBCOMMANDS`, `rubicon devices ...` among them."""
    parser = argparse.ArgumentParser(prog="rubicon", description="Rubicon: Julius Caesar table companion")
    parser.add_argument("--version", action="version", version=f"rubicon {_version()}")
    top = parser.add_subparsers(dest="command", metavar="COMMAND")
    devices_parser = top.add_parser("devices", help="inspect the board's devices")
    devices = devices_parser.add_subparsers(dest="devices_command", metavar="DEVICE_COMMAND")
    devices_parser.set_defaults(func=lambda args: _usage(devices_parser))
    commands = Commands(top=top, devices=devices)
    for module in SUBCOMMANDS:
        module.register(commands)
    return parser


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
    """Run `rubicon ARGV...` and return its exit code (2 for a usage error, 130 for Ctrl-C)."""
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

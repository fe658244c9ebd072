"""Game records: plain UTF-8 text, one action per line (see docs/notation.md).

Owns reading a record (header options, `#` comments, blank lines; lines end at LF or CRLF
only), replaying it into a `Game` with every failure reported as `FILE:LINE: reason`, and
writing a record from a game's history. A saved game (`Game.save`) is the same record as data.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import EngineError, IllegalAction
from .game import Game
from .state import OPTION_CHOICES

OPTION_PREFIX = "option "


class RecordError(EngineError, ValueError):
    """A record line that cannot be read or is not legal; str() is `FILE:LINE: reason`.
    `error` is the `IllegalAction` (rule, code, params) when a rule or the parser refused it."""

    def __init__(self, filename: str, line: int, reason: str, error: IllegalAction | None = None):
        super().__init__(f"{filename}:{line}: {reason}")
        self.filename, self.line, self.reason, self.error = filename, line, reason, error


@dataclass
class Record:
    """A record read: its rules options and its action lines with their line numbers."""
    options: dict[str, str]
    actions: list[tuple[int, str]]   # (line number, action text)


def _strip(line: str) -> str:
    return line.split("#", 1)[0].strip()


def record_lines(text: str) -> list[str]:
    """The lines of a record, split at LF or CRLF only: `str.splitlines` would also split at a
    form feed, U+2028, ... that an editor shows inside a line (a comment would leak out of it)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def read_record(text: str, filename: str = "<record>") -> Record:
    """Read a record's header options and action lines (RecordError at the first bad header line)."""
    options: dict[str, str] = {}
    actions: list[tuple[int, str]] = []
    if text.startswith("\ufeff"):   # the UTF-8 signature some editors write first
        text = text[1:]
    for n, raw in enumerate(record_lines(text), start=1):
        line = _strip(raw)
        if not line:
            continue
        if line.split(None, 1)[0].lower().startswith("option"):
            if not line.lower().startswith(OPTION_PREFIX):
                raise RecordError(filename, n, "an option line reads 'Option NAME: VALUE'")
            if actions:
                raise RecordError(filename, n, "rules options belong in the header, before the first action")
            name, sep, value = line[len(OPTION_PREFIX):].partition(":")
            name, value = name.strip(), value.strip()
            if not sep or not name or not value:
                raise RecordError(filename, n, "an option line reads 'Option NAME: VALUE'")
            if name not in OPTION_CHOICES:
                raise RecordError(filename, n, f"unknown rules option {name!r} (known: {', '.join(OPTION_CHOICES)})")
            if name in options:
                raise RecordError(filename, n,
                                  f"rules option {name} is already set to {options[name]!r} in this header")
            if value not in OPTION_CHOICES[name]:
                raise RecordError(filename, n,
                                  f"option {name} is one of {', '.join(OPTION_CHOICES[name])}, not {value!r}")
            options[name] = value
            continue
        actions.append((n, line))
    return Record(options, actions)


def replay(text: str, filename: str = "<record>") -> Game:
    """The game a record describes. Raises RecordError at the first bad line."""
    record = read_record(text, filename)
    return replay_lines(record.options, record.actions, filename)


def replay_lines(options: dict[str, str], lines: Iterable[str] | Iterable[tuple[int, str]],
                 name: str = "<lines>") -> Game:
    """The game that `options` and action `lines` spell (a journal's, a record's numbered ones as
    (line number, line)); RecordError (NAME:LINE: reason) at the first that is not legal."""
    game = Game(options)
    for n, item in enumerate(lines, start=1):
        number, line = item if isinstance(item, tuple) else (n, item)
        try:
            game.apply(line)
        except IllegalAction as exc:
            raise RecordError(name, number, str(exc), exc) from None
    return game


def write_record(game: Game, comment: str | None = None) -> str:
    """A record of everything applied to `game` (its `history`), replayable with no RNG.
    ValueError for a position built by hand (its history is not the whole game)."""
    return game.save_text(comment)

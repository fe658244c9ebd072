"""The engine's exceptions, under one root `EngineError` (each also the builtin it is, so
`except ValueError` keeps working): one class for every refused action (a structured refusal),
a subclass for unreadable text, one for a saved game that cannot be loaded, one for a name the
game data does not know. The bottom of the engine's module order: it imports nothing.

A refusal carries what a phone needs to render it in any language without parsing English:

    IllegalAction("a block moves once per game turn: Legio 8 has already moved",
                  rule="6.1", code="move.already-moved", params={"block": "Legio 8"})

`rule` is the v1.01 section number (shared by every edition), `code` a stable dotted name
(never reworded; the catalogue of codes is docs/refusals.md), `params` JSON-safe values named
as the message names them (blocks by the label their viewer may see, locations and cards by
their printed names). `str(exc)` is the English line: "6.1 a block moves once ...".
"""
from __future__ import annotations

import re
from typing import Any

_RULE_PREFIX = re.compile(r"^\s*(\d+(?:\.\d+)*)\s*:?\s+(.*)$", re.S)


class EngineError(Exception):
    """The root of every exception the engine raises on purpose: `except engine.EngineError`."""


class UnknownName(EngineError, LookupError):
    """A location, block, card or side name that the game data does not know."""


class AmbiguousName(UnknownName):
    """A name that fits blocks of both sides."""


class IllegalAction(EngineError, ValueError):
    """An action the rules do not allow now. Names the rule; the state is unchanged."""

    def __init__(self, message: str, *, rule: str | None = None, code: str = "illegal",
                 params: dict[str, Any] | None = None):
        text = f"{rule} {message}" if rule else message
        if rule is None:   # a message written "6.1 a block ..." names its rule first
            m = _RULE_PREFIX.match(message)
            if m:
                rule, message = m.group(1), m.group(2)
        self.rule = rule
        self.code = code
        self.params = dict(params or {})
        self.message = message
        super().__init__(text)

    def to_json(self) -> dict[str, Any]:
        """The refusal as JSON-safe data: rule, code, params, message and the English text."""
        return {"rule": self.rule, "code": self.code, "params": dict(self.params), "message": self.message,
                "text": str(self)}


class ParseError(IllegalAction):
    """Text that is not an action of the notation (unknown verb, name, card or malformed line)."""

    def __init__(self, message: str, *, rule: str | None = None, code: str = "notation",
                 params: dict[str, Any] | None = None):
        super().__init__(message, rule=rule, code=code, params=params)


class CorruptSave(EngineError, ValueError):
    """A saved game that cannot be loaded; the message names what is wrong. Structured like a
    refusal: `code` (`save.format`, `save.line`, `save.checkpoint`), `line` (1-based index into
    the save's lines, for `save.line`), `error` (the `IllegalAction` that refused that line),
    `field` (the first differing path, for `save.checkpoint`)."""

    def __init__(self, message: str, *, code: str = "save.format", line: int | None = None,
                 error: IllegalAction | None = None, field: str | None = None):
        super().__init__(message)
        self.message, self.code, self.line, self.error, self.field = message, code, line, error, field
        self.rule = error.rule if error is not None else None

    def to_json(self) -> dict[str, Any]:
        """The failure as JSON-safe data (the refusing line's `IllegalAction` under "error")."""
        return {"code": self.code, "rule": self.rule, "line": self.line, "field": self.field,
                "message": self.message, "error": None if self.error is None else self.error.to_json()}

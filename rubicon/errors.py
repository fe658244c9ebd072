"""The root of every error the Rubicon application raises: `except RubiconError` catches any of them.

Each error is also the builtin a caller would expect (a bad configuration is a ValueError, a journal
that cannot be written a RuntimeError), so code written against the builtins keeps working. The
engine (engine/errors.py), the web app (`web_ui.errors`) and the drivers
(`firmware_bridge.shared.errors`) have roots of their own.
"""
from __future__ import annotations

from engine import IllegalAction


class RubiconError(Exception):
    """Something the table, its journal, its configuration or its devices cannot do; the message says
    what to do next."""


class TableRefusal(RubiconError, IllegalAction):
    """Something the table itself will not do now (its own rules, not the game's): a `table.*`,
    `dice.*` or `journal.*` refusal. An `IllegalAction` as well, with the same `code`, `params` and
    `to_json()`, so a caller that catches the engine's refusals, and every page reading the code,
    treats both alike; `except RubiconError` catches it with the application's other errors."""

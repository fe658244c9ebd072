"""The engine's exceptions: one class for every refused action, a subclass for unreadable text,
one for a saved game that cannot be loaded."""
from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now. The message names the rule; the state is unchanged."""


class ParseError(IllegalAction):
    """Text that is not an action of the notation (unknown verb, name, card or malformed line)."""


class CorruptSave(ValueError):
    """A saved game (`GameState.from_json`) that is not a consistent state; the message names what is wrong."""


class PhaseNotAvailable(NotImplementedError):
    """The game reached a phase whose module is not installed (e.g. battles before engine.battle lands)."""

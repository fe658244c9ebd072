"""The engine's exceptions: one class for every refused action, a subclass for unreadable text."""
from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now. The message names the rule; the state is unchanged."""


class ParseError(IllegalAction):
    """Text that is not an action of the notation (unknown verb, name, card or malformed line)."""


class PhaseNotAvailable(NotImplementedError):
    """The game reached a phase whose module is not installed (e.g. battles before engine.battle lands)."""

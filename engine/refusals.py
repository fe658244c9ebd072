"""Refusals shared by the card and command phases: which actions belong to which phase, and
the refusal of an action of another phase (codes in docs/refusals.md).

Below both phase modules (they may not import each other), above the actions.
"""
from __future__ import annotations

from .actions import (
    AddStep,
    Deal,
    DeclareMain,
    Discard,
    EndCommand,
    InvokeJupiter,
    InvokeVulcan,
    JupiterPick,
    JupiterSend,
    Levy,
    Move,
    Play,
    TakeBack,
)
from .errors import IllegalAction

CARD_ACTIONS = (Deal, Discard, Play)
COMMAND_ACTIONS = (Move, Levy, AddStep, DeclareMain, EndCommand, TakeBack, InvokeJupiter, JupiterPick,
                   JupiterSend, InvokeVulcan)


def wrong_phase(action, phase_name: str, now: str) -> IllegalAction:
    """An action of another phase (2.0: card, command and battle phases in turn; 2.1 for a
    card action). `now`: what the game waits for, in words."""
    card = isinstance(action, CARD_ACTIONS)
    why = "cards are dealt, discarded and played in the card phase; " if card else ""
    return IllegalAction(f"{action} is not a {phase_name}-phase action: {why}awaiting {now}",
                         rule="2.1" if card else "2.0", code="phase.wrong-action",
                         params={"action": str(action), "phase": phase_name, "awaited": now})

"""Which module runs each phase: the static phase table.

A phase module provides
    current_players(state) -> tuple[int, ...]   # sides (0 Caesar, 1 Pompeius) or (CHANCE,)
    legal_actions(state, side) -> list[Action]  # player actions only; never chance actions
    apply(state, action) -> None                # validate fully, raise IllegalAction, then mutate
and, if it has chance nodes,
    sample_chance(state, rng) -> Action         # the outcome the table would supply
and, if the phase has set-up work when it is entered (`engine.flow` calls it),
    begin(state) -> None
"""
from __future__ import annotations

import random
from typing import Protocol

from . import battle, card_phase, command_phase, winter
from .actions import Action
from .errors import IllegalAction
from .state import BATTLE, CARD, COMMAND, DEAL, DISCARD, WINTER, GameState


class PhaseModule(Protocol):
    """What a phase module provides (see the module docstring)."""

    def current_players(self, state: GameState) -> tuple[int, ...]:
        """Who acts now: sides, or (CHANCE,)."""

    def legal_actions(self, state: GameState, side: int) -> list:
        """The player actions of `side` now."""

    def apply(self, state: GameState, action: Action) -> None:
        """Validate `action` fully (IllegalAction, nothing changed), then perform it."""

    def sample_chance(self, state: GameState, rng: random.Random) -> Action:
        """The chance outcome due now, drawn from `rng`."""


PHASE_MODULES: dict[str, PhaseModule] = {
    DEAL: card_phase,
    DISCARD: card_phase,
    CARD: card_phase,
    COMMAND: command_phase,
    BATTLE: battle,
    WINTER: winter,
}


def phase_module(phase: str) -> PhaseModule:
    """The module that runs `phase`; IllegalAction (game.no-phase) when none does."""
    try:
        return PHASE_MODULES[phase]
    except KeyError:
        raise IllegalAction(f"no phase {phase!r} is played (the game is over or the state is not one of a game)",
                            code="game.no-phase", params={"phase": phase}) from None

"""The phase machine's last step after every action: a phase just entered begins.

`engine.turns` moves the state from phase to phase (it knows no phase module); when it enters
the battle or the winter phase it leaves that phase's data empty, and `settle` lets the phase's
module begin it (the battle phase's bookkeeping; the winter's automatic steps, which may run
through to the next year or the end of the game). `Game.apply` calls `settle` after every action.
"""
from __future__ import annotations

from collections.abc import Callable

from . import battle, winter
from .state import BATTLE, WINTER, GameState

BEGINS: dict[str, Callable[[GameState], None]] = {BATTLE: battle.begin, WINTER: winter.begin}


def settle(state: GameState) -> None:
    """Begin the phase the last action entered, if it has not begun (its data is still empty)."""
    begin = BEGINS.get(state.phase)
    if begin is not None and state.ext.get(state.phase) is None:
        begin(state)

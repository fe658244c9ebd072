"""The turn sequence as state changes: how the game moves from one phase to the next.

Year: deal -> discard -> five game turns -> winter. Game turn: card (both choose, reveal) ->
command of Player 1 -> command of Player 2 -> battle (only if a location is contested) -> next
turn. The phase modules call these when their phase ends (`end_command`, `end_battle_phase`,
`next_year`, `finish_game`); entering a phase only sets `state.phase`, and `engine.flow` (above
the phase modules) then lets the new phase begin. Knows no phase module.
"""
from __future__ import annotations

from .board import BOARD, CAESAR
from .state import (
    BATTLE,
    CARD,
    COMMAND,
    DEAL,
    ELIMINATED,
    LAST_YEAR,
    OVER,
    POOL,
    TURNS_PER_YEAR,
    WINTER,
    CommandState,
    GameState,
    other,
)

COMMAND_EVENTS = ("Mars", "Neptune", "Mercury", "Pluto")   # one group move, no levy


def start_year(state: GameState) -> None:
    """Year reset (face-up blocks stand up in the pools) and the deal's chance node."""
    for b in range(BOARD.n_blocks):
        if state.loc[b] == ELIMINATED:
            state.loc[b] = POOL
    state.hands = [[], []]
    state.discards = [None, None]
    state.revealed = []
    state.turn = 1
    _clear_turn(state)
    state.phase = DEAL


def start_game_turn(state: GameState) -> None:
    """A game turn begins: its card phase."""
    _clear_turn(state)
    state.phase = CARD


def _clear_turn(state: GameState) -> None:
    state.chosen = [None, None]
    state.player1 = None
    state.cmd = None
    state.battles = {}
    state.moved = [False] * BOARD.n_blocks
    state.road_use = [0] * BOARD.n_edges


def start_command(state: GameState, side: int) -> None:
    """Open `side`'s command phase with the card he played this turn (as it counts)."""
    card = state.revealed[-1][2 + side]
    kind = BOARD.cards[card]
    if kind.event:
        mp = 1 if kind.name in COMMAND_EVENTS else 0
        cmd = CommandState(side=side, card=card, mp=mp, lp=0, event=kind.name)
    else:
        cmd = CommandState(side=side, card=card, mp=kind.move, lp=kind.levy, event=None)
    state.road_use = [0] * BOARD.n_edges   # road limits count per player turn (6.11)
    state.phase = COMMAND
    state.cmd = cmd
    if state.take_back:   # its cmd.snapshot is still None: take-back restores to here
        cmd.snapshot = state.frozen_copy()


def end_command(state: GameState) -> None:
    """The player in command ends: Player 2's command begins, or the commands are over."""
    if state.command.side == state.p1:
        start_command(state, other(state.p1))
    else:
        after_commands(state)


def after_commands(state: GameState) -> None:
    """Both commands are over: the battle phase if any location is contested, else the end of the game turn."""
    state.cmd = None
    state.road_use = [0] * BOARD.n_edges
    if state.contested_locations():
        state.phase = BATTLE
        state.ext["battle"] = None   # engine.flow lets the battle phase begin
    else:
        end_game_turn(state)


def end_battle_phase(state: GameState) -> None:
    """Called by the battle phase when no battle is left."""
    end_game_turn(state)


def end_game_turn(state: GameState) -> None:
    """The game turn ends: the next one, or the winter after turn 5."""
    state.battles = {}
    state.cmd = None
    if state.turn >= TURNS_PER_YEAR:
        state.phase = WINTER
        _clear_turn(state)
        state.ext["winter"] = None   # engine.flow lets the winter begin
    else:
        state.turn += 1
        start_game_turn(state)


def next_year(state: GameState) -> None:
    """End of winter without a winner: the next year begins (or, after the last, ask winter
    to call `finish_game`)."""
    if state.year >= LAST_YEAR:
        raise ValueError(f"{LAST_YEAR} is the last year: the game ends after its winter")
    state.year += 1
    start_year(state)


def finish_game(state: GameState, winner: int | None, reason: str) -> None:
    """The game is over: `winner` (None: a draw) for `reason`, with both sides' VP."""
    state.phase = OVER
    state.result = {"winner": winner, "reason": reason,
                    "vp": [state.vp(CAESAR), state.vp(other(CAESAR))]}


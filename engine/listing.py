"""The legal actions as a lazy sequence: how many there are and the n-th, without the list.

Owns `Listing` and `listing(state, sides, take_back)`, behind `Game.legal_listing`,
`Game.legal_count` and `Game.legal_at`. A random player needs only the number of legal
actions and the one drawn (`random.choice(seq)` calls `len(seq)`, draws an index, then takes
`seq[i]`), so `rng.choice(listing)` draws exactly what `rng.choice(game.legal_actions())`
would: the same RNG calls, the same action. In the command phase the moves are counted per
block from one walk per location (`movement.moves_by_block`) and only the drawn one is made;
every other phase's listing is short and is listed in full. The order is
`Game.legal_actions`'s, always: tests/engine/test_listing_lazy.py checks count and every index
against the full list at every decision of random games.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import repeat

from . import command_phase, levy, movement
from .actions import Action, EndCommand, TakeBack
from .board import CHANCE
from .phases import phase_module
from .state import COMMAND, OVER, GameState


class Listing(Sequence):
    """`legal_actions` as a read-only sequence: `len`, `[i]` (i < 0 counts from the end) and
    iteration. Valid for the state it was made from: list again after any change."""

    __slots__ = ("_moves", "_n_moves", "_rest", "_side")

    def __init__(self, side: int, moves: list[tuple[int, int, list[int], list]], rest: list) -> None:
        self._side = side
        self._moves = moves    # movement.moves_by_block: (block, start, group indices, amphibious paths)
        self._n_moves = sum(len(g) + len(a) for _, _, g, a in moves) if moves else 0
        self._rest = rest      # what follows the moves, made: declarations, levies, end, take-back

    def __len__(self) -> int:
        return self._n_moves + len(self._rest)

    def __getitem__(self, i):   # type: ignore[override]  # ints only: no slices
        if not isinstance(i, int):
            raise TypeError(f"a Listing is indexed by int, not {type(i).__name__}")
        n = self._n_moves + len(self._rest)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"legal action {i} of {n}")
        if i >= self._n_moves:
            return self._rest[i - self._n_moves]
        side = self._side
        for b, start, group, amphibious in self._moves:
            if i < len(group):
                return movement.move_of(side, b, start, group[i])
            i -= len(group)
            if i < len(amphibious):
                return movement.amphibious_move(side, b, amphibious[i])
            i -= len(amphibious)
        raise AssertionError("the move counts add up to _n_moves")

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]


def listing(state: GameState, sides: tuple[int, ...] | None, take_back: bool = True) -> Listing:
    """The legal actions of `sides` (None: every current player) now, lazily; `take_back`
    False leaves TakeBack out (self-play: undoing is not playing)."""
    if state.phase == OVER:
        return Listing(0, [], [])
    mod = phase_module(state.phase)
    players = tuple(mod.current_players(state))
    if sides is None:
        sides = players
    if state.phase == COMMAND and len(sides) == 1 and sides[0] in players and sides[0] != CHANCE:
        side = sides[0]
        if state.command.event not in movement.NO_MOVE_EVENTS:
            return _command(state, side, take_back)
    out: list = []
    for s in sides:
        if s != CHANCE and s in players:
            out.extend(mod.legal_actions(state, s))
    if not take_back and any(map(isinstance, out, repeat(TakeBack))):
        out = [a for a in out if not isinstance(a, TakeBack)]
    return Listing(0, [], out)


def _command(state: GameState, side: int, take_back: bool) -> Listing:
    """command_phase.legal_actions (moves, declarations, levies, end, take-back), moves lazily."""
    rest: list = movement.legal_declarations(state, side)
    rest.extend(levy.legal_levies(state, side))
    rest.append(EndCommand(side))
    if take_back and command_phase.take_back_open(state):
        rest.append(TakeBack(side))
    return Listing(side, movement.moves_by_block(state, side), rest)

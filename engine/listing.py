"""The legal actions as a lazy sequence: how many there are and the n-th, without the list.

Owns `Listing` and `listing(state, sides, take_back)`, behind `Game.legal_listing`,
`Game.legal_count` and `Game.legal_at`. A random player needs only the number of legal
actions and the one drawn (`random.choice(seq)` calls `len(seq)`, draws an index, then takes
`seq[i]`), so `rng.choice(listing)` draws exactly what `rng.choice(game.legal_actions())`
would: the same RNG calls, the same action. In the command phase the moves are counted per
block from one walk per location (`movement.moves_by_block`), the levies per block
(`levy.levies_by_block`), and only the drawn action is made;
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
    iteration. Valid for the state it was made from: list again after any change. Made of
    four parts in listing order: moves (per block, lazy), declarations (made), levies (per
    block, lazy), the rest (made: end of command, take-back, or a whole other listing)."""

    __slots__ = ("_side", "_moves", "_n_moves", "_decl", "_levies", "_n_levies", "_rest", "_len")

    def __init__(self, side: int, rest: list, moves: list[tuple[int, int, list[int], list]] | None = None,
                 decl: list | None = None, levies: list[tuple[int, list[int] | None]] | None = None) -> None:
        self._side = side
        self._moves = moves or []   # movement.moves_by_block: (block, start, group indices, amphibious paths)
        self._n_moves = sum([len(g) + len(a) for _, _, g, a in moves]) if moves else 0
        self._decl = decl or []
        self._levies = levies or []   # levy.levies_by_block: (block, cities or None for its step)
        self._n_levies = sum([len(p) if p is not None else 1 for _, p in levies]) if levies else 0
        self._rest = rest
        self._len = self._n_moves + len(self._decl) + self._n_levies + len(rest)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i):   # ints only: no slices
        if not isinstance(i, int):
            raise TypeError(f"a Listing is indexed by int, not {type(i).__name__}")
        n = self._len
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"legal action {i} of {n}")
        side = self._side
        if i < self._n_moves:
            for b, start, group, amphibious in self._moves:
                if i < len(group):
                    return movement.move_of(side, b, start, group[i])
                i -= len(group)
                if i < len(amphibious):
                    return movement.amphibious_move(side, b, amphibious[i])
                i -= len(amphibious)
        i -= self._n_moves
        if i < len(self._decl):
            return self._decl[i]
        i -= len(self._decl)
        if i < self._n_levies:
            for b, places in self._levies:
                if places is None:
                    if i == 0:
                        return levy.levy_of(side, b, None)
                    i -= 1
                elif i < len(places):
                    return levy.levy_of(side, b, places[i])
                else:
                    i -= len(places)
        return self._rest[i - self._n_levies]

    def __iter__(self) -> Iterator[Action]:
        for i in range(self._len):
            yield self[i]


def listing(state: GameState, sides: tuple[int, ...] | None, take_back: bool = True,
            players: tuple[int, ...] | None = None) -> Listing:
    """The legal actions of `sides` (None: every current player) now, lazily; `take_back`
    False leaves TakeBack out (self-play: undoing is not playing); `players`: the current
    players (`Game.current_player_ids()`), if the caller has just asked."""
    if state.phase == OVER:
        return Listing(0, [])
    mod = phase_module(state.phase)
    if players is None:
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
    return Listing(0, out)


def _command(state: GameState, side: int, take_back: bool) -> Listing:
    """command_phase.legal_actions (moves, declarations, levies, end, take-back), moves and
    levies lazily."""
    rest: list = [_END_COMMAND[side]]
    if take_back and command_phase.take_back_open(state):
        rest.append(TakeBack(side))
    return Listing(side, rest, movement.moves_by_block(state, side), movement.legal_declarations(state, side),
                   levy.levies_by_block(state, side))


_END_COMMAND = (EndCommand(0), EndCommand(1))   # actions are immutable: made once

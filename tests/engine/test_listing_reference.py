"""The fast listings (precomputed paths, cached action values) equal slow references built from
the one definitions of legality (`move_error`, `levy_error`, `add_step_error`), in the same
order, at every player decision of seeded random games; and the winter listing equals its
definition. Seeded games replay identically only if the order never changes."""
from __future__ import annotations

import pytest

from engine import movement, winter
from engine.actions import AddStep, Disband, EndCommand, EndDisband, Levy, Move, NavisToPort, TakeBack
from engine.board import BOARD
from engine.levy import add_step_error, legal_levies, levy_error
from engine.selfplay import game_rng, play_game
from engine.state import COMMAND, POOL, WINTER, CommandState, GameState

GAMES = 20
PER_TEST = 4


def reference_moves(state: GameState, side: int) -> list[Move]:
    out = []
    for b in range(BOARD.n_blocks):
        if state.owner[b] != side or state.loc[b] < 0:
            continue
        start = state.loc[b]
        adj = BOARD.sea_adj if BOARD.blocks[b].is_navis else BOARD.land_adj
        # Every path (one may pass a location twice: the Mercury ruling), depth first, the last
        # found explored first. A path extends a legal move that does not end in an enemy or
        # contested location, or it would not be legal (6.1: blocks stop on contact), so only
        # those are extended.
        stack = [(start,)]
        while stack:
            path = stack.pop()
            for nxt, _ in adj[path[-1]]:
                longer = path + (nxt,)
                if movement.move_error(state, side, b, longer) is None:
                    out.append(Move(side, b, longer))
                    if not state.count[nxt][1 - side]:
                        stack.append(longer)
        out.extend(reference_amphibious(state, side, b, start))
    return out


def reference_amphibious(state: GameState, side: int, b: int, start: int) -> list[Move]:
    """Port, seas, port (6.3), each crossed sea friendly; per destination port, one route per
    set of crossed seas (the shortest, then the first in id order), kept when legal and when no
    kept legal route to that port crosses a strict subset of its seas."""
    if BOARD.blocks[b].is_navis or not BOARD.is_port[start]:
        return []
    routes: dict[tuple[int, frozenset], tuple[int, ...]] = {}
    stack = [(start, s) for s in BOARD.port_seas[start] if state.friendly(s, side)]
    while stack:
        route = stack.pop()
        for nxt, _ in BOARD.sea_adj[route[-1]]:
            if nxt in route:
                continue
            if not BOARD.is_sea[nxt]:
                key = (nxt, frozenset(route[1:]))
                path = route + (nxt,)
                if key not in routes or (len(path), path) < (len(routes[key]), routes[key]):
                    routes[key] = path
            elif state.friendly(nxt, side):
                stack.append(route + (nxt,))
    out = []
    for port in sorted({p for p, _ in routes}):
        legal = sorted((p for (q, _), p in routes.items()
                        if q == port and movement.move_error(state, side, b, p) is None),
                       key=lambda p: (len(p), p))
        kept: list[frozenset] = []
        for p in legal:
            seas = frozenset(p[1:-1])
            if not any(k < seas for k in kept):
                kept.append(seas)
                out.append(Move(side, b, p))
    return out


CITIES = [l for l in range(BOARD.n_locs) if BOARD.is_city[l]]   # never at sea (6.4)


def reference_levies(state: GameState, side: int) -> list:
    out = []
    for b in range(BOARD.n_blocks):
        if BOARD.blocks[b].side == side and state.loc[b] == POOL:
            out.extend(Levy(side, b, l) for l in CITIES if levy_error(state, side, b, l) is None)
        elif state.owner[b] == side and state.loc[b] >= 0 and add_step_error(state, side, b) is None:
            out.append(AddStep(side, b))
    return out


def reference_winter(state: GameState, side: int) -> list:
    step = winter.current_step(state)
    if step == "navis":
        return [NavisToPort(side, b, p) for b in range(BOARD.n_blocks)
                if BOARD.blocks[b].is_navis and state.owner[b] == side and state.loc[b] >= 0
                and BOARD.is_sea[state.loc[b]]
                for p in BOARD.sea_ports[state.loc[b]] if state.friendly(p, side)]
    if step == "supply":
        return [Disband(side, b) for l in range(BOARD.n_locs)
                if not BOARD.is_sea[l] and state.count[l][side] > winter.supply_limit(l)
                for b in sorted(state.at[l]) if state.owner[b] == side and b != BOARD.cleopatra]
    return [EndDisband(side)] + [Disband(side, b) for b in range(BOARD.n_blocks)
                                 if state.owner[b] == side and state.loc[b] >= 0 and b != BOARD.cleopatra]


def check_position(game, action, seen: dict) -> None:
    """Compare every listing of the position reached with its reference; count what was seen."""
    st = game.state
    for side in (p for p in game.current_player_ids() if p in (0, 1)):
        listed = game.legal_actions(side, take_back=True)
        if st.phase == COMMAND and st.cmd.event not in movement.NO_MOVE_EVENTS:
            moves, levies = reference_moves(st, side), reference_levies(st, side)
            assert movement.legal_moves(st, side) == moves, str(action)
            assert legal_levies(st, side) == levies, str(action)
            assert listed == (moves + movement.legal_declarations(st, side) + levies + [EndCommand(side)]
                              + ([TakeBack(side)] if st.cmd.log else [])), str(action)
            seen["moves"] += len(moves)
            seen["levies"] += len(levies)
        elif st.phase == WINTER:
            assert listed == reference_winter(st, side), str(action)
            seen["winter"] += 1
        seen["compared"] += 1


@pytest.mark.parametrize("first", range(0, GAMES, PER_TEST))
def test_listing_equals_reference_at_every_decision(first):
    seen = {"compared": 0, "moves": 0, "levies": 0, "winter": 0}
    for i in range(first, first + PER_TEST):
        play_game(game_rng(8, i), after=lambda game, action: check_position(game, action, seen))
    assert seen["compared"] > 100 and seen["moves"] > 100 and seen["levies"] > 10 and seen["winter"] > 4


def test_cached_actions_are_equal_values_and_immutable():
    """The listing hands out cached action values: the same objects on a second listing, equal
    to freshly made ones, and frozen (a caller cannot alter what the next listing returns)."""
    st = GameState()
    st.phase = COMMAND
    st.cmd = CommandState(side=0, card=0, mp=4, lp=4, event=None)
    first, second = movement.legal_moves(st, 0), movement.legal_moves(st, 0)
    assert first and all(a is b for a, b in zip(first, second, strict=True))
    assert first[0] == Move(first[0].actor, first[0].block, first[0].path)
    with pytest.raises(AttributeError):
        first[0].block = 5
    st.cmd.mp_used = 4   # every MP spent, nothing activated: no move is open
    assert movement.legal_moves(st, 0) == []

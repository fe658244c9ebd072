"""The command phase (6.0): Player 1 moves and levies (or executes his event), then Player 2.

Owns the dispatch of command actions to movement, levy and event rules, the end of a player's
command, and take-back: a player may undo his last move, levy or step of the current command
phase; the state is rebuilt from the snapshot taken when the phase began plus a replay.
"""
from __future__ import annotations

import random

from . import events_cards, levy, movement, turns
from .actions import (AddStep, DeclareMain, EndCommand, InvokeJupiter, InvokeVulcan, JupiterPick,
                      JupiterSend, Levy, Move, TakeBack, parse_action)
from .board import BOARD, CHANCE, SIDES, actor_name
from .errors import IllegalAction
from .state import GameState

UNDOABLE = (Move, Levy, AddStep, DeclareMain)


def current_players(state: GameState) -> tuple[int, ...]:
    cmd = state.cmd
    if cmd.jupiter_loc is not None and cmd.jupiter_block is None and not cmd.event_done:
        return (CHANCE,)
    return (cmd.side,)


def legal_actions(state: GameState, side: int) -> list:
    cmd = state.cmd
    if side == CHANCE or side not in current_players(state):
        return []
    if cmd.event in movement.NO_MOVE_EVENTS:
        acts = events_cards.legal_event_actions(state, side)
        if cmd.jupiter_block is None:
            acts.append(EndCommand(side))
        return acts
    acts: list = movement.legal_moves(state, side)
    acts.extend(movement.legal_declarations(state, side))
    acts.extend(levy.legal_levies(state, side))
    acts.append(EndCommand(side))
    if cmd.log:
        acts.append(TakeBack(side))
    return acts


def apply(state: GameState, a) -> None:
    cmd = state.cmd
    actor = getattr(a, "actor", None)
    if actor not in current_players(state):
        if actor == CHANCE:
            raise IllegalAction(f"6.0 it is {SIDES[cmd.side]}'s command phase; no chance action is due")
        who = actor_name(current_players(state)[0])
        raise IllegalAction(f"6.0 it is {who}'s turn to act in the command phase, not "
                            f"{SIDES[actor] if actor in (0, 1) else actor}'s")
    if actor == CHANCE and not isinstance(a, JupiterPick):
        raise IllegalAction(f"6.0 Chance only makes Jupiter's blind pick; {a} is a player's action")
    side = cmd.side
    loc = getattr(a, "loc", 0)
    if not 0 <= loc < BOARD.n_locs:
        raise IllegalAction(f"no location number {loc}")
    if isinstance(a, JupiterPick):
        _check(events_cards.pick_error(state, a.block))
        if events_cards.apply_pick(state, a.block):
            _event_done(state)
        return
    if cmd.jupiter_block is not None and not isinstance(a, JupiterSend):
        raise IllegalAction("Jupiter: first send the defecting block to an adjacent friendly city")
    if isinstance(a, Move):
        _check(movement.move_error(state, side, a.block, a.path))
        movement.apply_move(state, side, a.block, a.path)
    elif isinstance(a, Levy):
        _check(levy.levy_error(state, side, a.block, a.loc))
        levy.apply_levy(state, side, a.block, a.loc)
    elif isinstance(a, AddStep):
        _check(levy.add_step_error(state, side, a.block))
        levy.apply_add_step(state, side, a.block)
    elif isinstance(a, DeclareMain):
        _check(movement.declare_main_error(state, side, a.loc, a.origin))
        state.battles[a.loc].main_edge = BOARD.edge(a.origin, a.loc)
    elif isinstance(a, EndCommand):
        turns.end_command(state)
        return
    elif isinstance(a, TakeBack):
        _take_back(state)
        return
    elif isinstance(a, InvokeJupiter):
        _check_event(state, "Jupiter")
        _check(events_cards.jupiter_error(state, side, a.loc))
        events_cards.apply_jupiter(state, a.loc)
        return
    elif isinstance(a, JupiterSend):
        if cmd.jupiter_block is None:
            raise IllegalAction("Jupiter: no defecting block is waiting for its destination")
        _check(events_cards.send_error(state, a.block, a.loc))
        events_cards.apply_send(state, a.block, a.loc)
        _event_done(state)
        return
    elif isinstance(a, InvokeVulcan):
        _check_event(state, "Vulcan")
        _check(events_cards.vulcan_error(state, side, a.loc))
        events_cards.apply_vulcan(state, side, a.loc)
        _event_done(state)
        return
    else:
        raise IllegalAction(f"6.0 {a} is not a command-phase action")
    cmd.log.append(str(a))


def _check(err: str | None) -> None:
    if err:
        raise IllegalAction(err)


def _check_event(state: GameState, name: str) -> None:
    cmd = state.cmd
    if cmd.event != name:
        played = BOARD.cards[cmd.card].name
        raise IllegalAction(f"{name} is an event card; {SIDES[cmd.side]} played {played}")
    if cmd.event_done or cmd.jupiter_loc is not None:
        raise IllegalAction(f"{name} has already been invoked this turn")


def _event_done(state: GameState) -> None:
    state.cmd.event_done = True
    turns.end_command(state)


def _take_back(state: GameState) -> None:
    cmd = state.cmd
    if not cmd.log:
        raise IllegalAction(f"{SIDES[cmd.side]} has nothing to take back in this command phase")
    snapshot, log = cmd.snapshot, cmd.log[:-1]
    fresh = GameState.from_json(snapshot)
    fresh.cmd.snapshot = snapshot
    for line in log:
        apply(fresh, parse_action(line))
    state.__dict__.update(fresh.__dict__)


def sample_chance(state: GameState, rng: random.Random):
    if current_players(state) != (CHANCE,):
        raise IllegalAction("no chance action is due in this command phase")
    return events_cards.sample_pick(state, rng)

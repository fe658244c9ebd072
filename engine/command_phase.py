"""The command phase (6.0): Player 1 moves and levies (or executes his event), then Player 2.

Owns the dispatch of command actions to movement, levy and event rules, the end of a player's
command, and take-back: a player may undo his last move, levy or step of the current command
phase; the state is rebuilt from a copy of the state taken when the phase began plus a replay.
"""
from __future__ import annotations

import random

from . import events_cards, levy, movement, turns
from .actions import (
    AddStep,
    DeclareMain,
    EndCommand,
    InvokeJupiter,
    InvokeVulcan,
    JupiterPick,
    JupiterSend,
    Levy,
    Move,
    TakeBack,
    line_of,
    parse_action,
)
from .board import BOARD, CAESAR, CHANCE, POMPEIUS, SIDES
from .errors import IllegalAction
from .refusals import COMMAND_ACTIONS, wrong_phase
from .state import GameState

UNDOABLE = (Move, Levy, AddStep, DeclareMain)


def current_players(state: GameState) -> tuple[int, ...]:
    """The player in command, or CHANCE while Jupiter's blind pick is due."""
    cmd = state.command
    if cmd.jupiter_loc is not None and cmd.jupiter_block is None and not cmd.event_done:
        return (CHANCE,)
    return (cmd.side,)


def legal_actions(state: GameState, side: int) -> list:
    """Moves, declarations, levies, steps, the event's actions, end of command and take-back of `side` now."""
    cmd = state.command
    if side == CHANCE or side not in current_players(state):
        return []
    if cmd.event in movement.NO_MOVE_EVENTS:
        events: list = events_cards.legal_event_actions(state, side)
        if cmd.jupiter_block is None:
            events.append(EndCommand(side))
        return events
    acts: list = movement.legal_moves(state, side)
    acts.extend(movement.legal_declarations(state, side))
    acts.extend(levy.legal_levies(state, side))
    acts.append(EndCommand(side))
    if take_back_open(state):
        acts.append(TakeBack(side))
    return acts


def take_back_open(state: GameState) -> bool:
    """Whether the player in command may take back his last move, levy, step or declaration:
    he made one, and the game keeps take-back (`GameState.take_back`)."""
    cmd = state.command
    return bool(cmd.log) and cmd.snapshot is not None


def _no(code: str, rule: str | None, message: str, **params) -> IllegalAction:
    return IllegalAction(message, rule=rule, code=code, params=params)


def awaited(state: GameState) -> str:
    """What the command phase waits for now, in words (for refusals)."""
    cmd = state.command
    who = SIDES[cmd.side]
    rank = "Player 1" if cmd.side == state.player1 else "Player 2"
    if current_players(state) == (CHANCE,):
        return (f"Chance's blind pick of the block {who} touches in {BOARD.loc_names[cmd.jupiter_target]} "
                f"(Jupiter)")
    if cmd.jupiter_block is not None:
        return f"{who} to send {BOARD.block_label(cmd.jupiter_block, cmd.side)} to a friendly city (Jupiter)"
    if cmd.event in movement.NO_MOVE_EVENTS:
        return f"{who}'s {cmd.event} ({rank}): its target, or ends command"
    return f"{who}'s command ({rank}, turn {state.turn}): moves, levies or ends command"


def _actor_error(state: GameState, a) -> IllegalAction | None:
    """An action by someone the command phase does not wait for (6.0: Player 1 commands, then
    Player 2; Chance only makes Jupiter's blind pick)."""
    cmd = state.command
    actor = getattr(a, "actor", None)
    players = current_players(state)
    if actor in players and (actor != CHANCE or isinstance(a, JupiterPick)):
        return None
    now = awaited(state)   # only for a refusal: it names blocks and places
    if actor == CHANCE and not isinstance(a, JupiterPick):
        return _no("turn.not-chance", "6.0", f"Chance only makes Jupiter's blind pick; {a} is a player's "
                   f"action; awaiting {now}", awaited=now)
    if actor not in (CAESAR, POMPEIUS, CHANCE):
        return _no("action.malformed", None, f"malformed action (no actor {actor!r}): {a!r}", action=repr(a))
    if actor == CHANCE:
        return _no("turn.chance-not-due", "6.0", f"no chance action is due: it is {SIDES[cmd.side]}'s command "
                   f"phase; awaiting {now}", awaited=now)
    name = SIDES[actor]
    if players == (CHANCE,):
        return _no("turn.chance-due", "2.1", f"{name} waits: Jupiter's block is picked blind first; awaiting "
                   f"{now}", actor=name, awaited=now)
    if actor == state.player1:   # a stale decision: Player 1's command has passed on
        return _no("command.ended", "6.0", f"{name}'s command phase of turn {state.turn} has ended; "
                   f"awaiting {now}", actor=name, turn=state.turn, awaited=now)
    return _no("turn.not-yours", "6.0", f"it is {SIDES[cmd.side]}'s turn to act in the command phase, not "
               f"{name}'s: Player 1 commands, then Player 2; awaiting {now}", actor=name, awaited=now)


def apply(state: GameState, a) -> None:
    """Validate a command-phase action (IllegalAction, nothing changed) and perform it."""
    cmd = state.command
    if not isinstance(a, COMMAND_ACTIONS):
        raise wrong_phase(a, "command", awaited(state))
    _check(_actor_error(state, a))
    side = cmd.side
    loc = getattr(a, "loc", 0)
    if not 0 <= loc < BOARD.n_locs:
        raise _no("id.no-location", None, f"no location number {loc}", number=loc)
    if isinstance(a, JupiterPick):
        _check(events_cards.pick_error(state, a.block))
        if events_cards.apply_pick(state, a.block):
            _event_done(state)
        return
    if cmd.jupiter_block is not None and not isinstance(a, JupiterSend):
        label = BOARD.block_label(cmd.jupiter_block, side)
        raise _no("jupiter.send-first", "2.1", f"Jupiter: first send the defecting block {label} to an "
                  f"adjacent friendly city", block=label)
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
            raise _no("jupiter.nothing-to-send", "2.1", "Jupiter: no defecting block is waiting for its "
                      "destination")
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
    cmd.log.append(line_of(a))


def apply_listed(state: GameState, a) -> None:
    """`apply` for an action `legal_actions` listed now (`Game.apply(checked=False)`): moves,
    levies, added steps and the end of command are performed without being validated again;
    the rest by `apply`."""
    cmd = state.command
    kind = type(a)
    if kind is Move:
        movement.apply_move(state, cmd.side, a.block, a.path)
    elif kind is Levy:
        levy.apply_levy(state, cmd.side, a.block, a.loc)
    elif kind is AddStep:
        levy.apply_add_step(state, cmd.side, a.block)
    elif kind is EndCommand:
        turns.end_command(state)
        return
    else:
        apply(state, a)
        return
    cmd.log.append(line_of(a))


def _check(err: IllegalAction | None) -> None:
    if err is not None:
        raise err


def _check_event(state: GameState, name: str) -> None:
    cmd = state.command
    if cmd.event != name:
        played = BOARD.cards[cmd.card].name
        raise _no("event.not-played", "2.1", f"{name} is an event card; {SIDES[cmd.side]} played {played}",
                  event=name, side=SIDES[cmd.side], card=played)
    if cmd.event_done or cmd.jupiter_loc is not None:
        raise _no("event.already-invoked", "2.1", f"{name} has already been invoked this turn", event=name)


def _event_done(state: GameState) -> None:
    state.command.event_done = True
    turns.end_command(state)


def _take_back(state: GameState) -> None:
    cmd = state.command
    if not cmd.log:
        raise _no("command.nothing-to-take-back", None, f"{SIDES[cmd.side]} has nothing to take back in this "
                  "command phase", actor=SIDES[cmd.side])
    if cmd.snapshot is None:
        raise _no("command.take-back-off", None, "take-back is off in this game (played with take_back=False)")
    snapshot, log = cmd.snapshot, cmd.log[:-1]
    assert snapshot is not None   # set when the command phase began
    fresh = snapshot.copy()   # the snapshot itself stays untouched for the next take-back
    fresh.command.snapshot = snapshot
    for line in log:
        apply(fresh, parse_action(line))
    state.__dict__.update(fresh.__dict__)


def sample_chance(state: GameState, rng: random.Random):
    """Jupiter's blind pick, drawn with `rng`."""
    if current_players(state) != (CHANCE,):
        now = awaited(state)
        raise _no("turn.chance-not-due", "6.0", f"no chance action is due in this command phase; awaiting {now}",
                  awaited=now)
    return events_cards.sample_pick(state, rng)

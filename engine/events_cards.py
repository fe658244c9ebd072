"""The full effects of the Jupiter and Vulcan event cards (rulings "Events").

Jupiter: the player names a location holding enemy blocks adjacent (road or sea border) to a
friendly city; Chance supplies the block touched blind; a navis or leader loses a step (a
leader at I dies and scores), any other block (Cleopatra too) joins the player at its current
strength and the player sends it at once to an adjacent friendly city.
Vulcan: every block in the named enemy city loses a step; blocks at I are eliminated.
Both end the event player's command phase. (Mars, Neptune, Mercury and Pluto are movement
effects: see engine.movement; their battle effects belong to engine.battle.)
"""
from __future__ import annotations

import random

from .actions import InvokeJupiter, InvokeVulcan, JupiterPick, JupiterSend
from .board import BOARD
from .errors import IllegalAction
from .movement import status
from .state import Battle, GameState


def _name(l: int) -> str:
    return BOARD.loc_names[l]


def _friendly_cities(state: GameState, side: int) -> set[int]:
    return {l for l in range(BOARD.n_locs) if BOARD.is_city[l] and state.friendly(l, side)}


def jupiter_targets(state: GameState, side: int) -> list[int]:
    """The locations `side` may name with Jupiter: holding enemy blocks, adjacent to a friendly city."""
    friendly = _friendly_cities(state, side)
    return [l for l in range(BOARD.n_locs)
            if state.count[l][1 - side] and any(n in friendly for n in BOARD.neighbours[l])]


def _no(code: str, message: str, **params) -> IllegalAction:
    """An event's refusal: the card's own text rules (2.1: "event cards have a special action
    defined on the card")."""
    return IllegalAction(message, rule="2.1", code=code, params=params)


def jupiter_error(state: GameState, side: int, loc: int) -> IllegalAction | None:
    """Why `side` may not invoke Jupiter on `loc`, or None."""
    if not state.count[loc][1 - side]:
        return _no("jupiter.no-enemy", f"Jupiter: {_name(loc)} holds no enemy block", location=_name(loc))
    if loc not in jupiter_targets(state, side):
        return _no("jupiter.not-adjacent", f"Jupiter: {_name(loc)} is not adjacent to a friendly city",
                   location=_name(loc))
    return None


def pick_error(state: GameState, b: int) -> IllegalAction | None:
    """Why block `b` cannot be Jupiter's blind pick now, or None."""
    cmd = state.command
    if not 0 <= b < BOARD.n_blocks:
        return IllegalAction(f"no block number {b}", rule=None, code="id.no-block", params={"number": b})
    if state.loc[b] != cmd.jupiter_loc or state.owner[b] == cmd.side:
        return _no("jupiter.pick-elsewhere", f"Jupiter: the block is picked among the enemy blocks in "
                   f"{_name(cmd.jupiter_target)}", location=_name(cmd.jupiter_target))
    return None


def send_destinations(state: GameState) -> list[int]:
    """Where Jupiter's defector may go: friendly cities adjacent by road to the target location."""
    cmd = state.command
    return [n for n, _ in BOARD.land_adj[cmd.jupiter_target] if state.friendly(n, cmd.side)]


def send_error(state: GameState, b: int, loc: int) -> IllegalAction | None:
    """Why the defector `b` may not be sent to `loc`, or None."""
    cmd = state.command
    if b != cmd.jupiter_block:
        label = BOARD.block_label(cmd.defector, cmd.side)   # picked in the open: both sides know it
        return _no("jupiter.wrong-block", f"Jupiter: the defecting block is {label}", block=label)
    if loc not in send_destinations(state):
        return _no("jupiter.bad-destination", f"Jupiter: the defector moves to a friendly city adjacent to "
                   f"{_name(cmd.jupiter_target)}; {_name(loc)} is not one", location=_name(loc),
                   origin=_name(cmd.jupiter_target))
    return None


def apply_jupiter(state: GameState, loc: int) -> None:
    """Record the location Jupiter's player named (the blind pick follows)."""
    state.command.jupiter_loc = loc


def apply_pick(state: GameState, b: int) -> bool:
    """Returns True when Jupiter is fully resolved (step loss), False when the defector waits
    for its destination."""
    info = BOARD.blocks[b]
    if info.is_leader or info.is_navis:
        state.reduce(b)
        return True
    state.command.jupiter_block = b
    return False


def apply_send(state: GameState, b: int, loc: int) -> None:
    """The defector joins the Jupiter player and moves to `loc`."""
    state.change_side(b, state.command.side)
    state.relocate(b, loc)
    state.moved[b] = True
    state.command.jupiter_block = None


def vulcan_targets(state: GameState, side: int) -> list[int]:
    """The enemy cities `side` may name with Vulcan."""
    return [l for l in range(BOARD.n_locs) if BOARD.is_city[l] and state.friendly(l, 1 - side)]


def vulcan_error(state: GameState, side: int, loc: int) -> IllegalAction | None:
    """Why `side` may not invoke Vulcan on `loc`, or None."""
    if BOARD.is_sea[loc] or not state.friendly(loc, 1 - side):
        st = "a sea" if BOARD.is_sea[loc] else status(state, loc, side)
        return _no("vulcan.not-enemy-city", f"Vulcan: the target is an enemy city; {_name(loc)} is {st}",
                   location=_name(loc), status=st)
    return None


def apply_vulcan(state: GameState, side: int, loc: int) -> None:
    """Every block in `loc` loses a step (Cleopatra changes side instead; the city may become contested)."""
    turned = [b for b in list(state.at[loc]) if state.reduce(b) == "cleopatra"]
    if turned and state.contested(loc):
        # Cleopatra changed sides where she stands, next to surviving enemies: a battle.
        bt = state.battles.setdefault(loc, Battle(loc, side, None))
        bt.entries.extend((b, None, side) for b in turned)


def sample_pick(state: GameState, rng: random.Random) -> JupiterPick:
    """Jupiter's blind pick among the enemy blocks in the target location, drawn with `rng`."""
    cmd = state.command
    choices = [b for b in state.at[cmd.jupiter_target] if state.owner[b] != cmd.side]
    return JupiterPick(rng.choice(choices))


def legal_event_actions(state: GameState, side: int) -> list:
    """The Jupiter or Vulcan actions of `side` now."""
    cmd = state.command
    if cmd.jupiter_block is not None:
        return [JupiterSend(side, cmd.jupiter_block, l) for l in send_destinations(state)]
    if cmd.event_done:
        return []
    if cmd.event == "Jupiter":
        return [InvokeJupiter(side, l) for l in jupiter_targets(state, side)]
    if cmd.event == "Vulcan":
        return [InvokeVulcan(side, l) for l in vulcan_targets(state, side)]
    return []


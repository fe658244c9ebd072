"""The winter turn (8.0): Cleopatra goes home, navis to port, supply, victory, disbanding,
year reset — in the order the rules option `winter_order` names (rulings, Winter).

Plugs into `engine.phases`. Owns `state.ext["winter"]`: which step is running and for which
side. Steps without a decision run by themselves (a navis with one friendly port goes there;
with none it is disbanded); the owner decides the rest: which friendly port, which surplus
blocks to disband, and which blocks to disband voluntarily (Caesar first each time).
"""
from __future__ import annotations

from . import flow
from .battle_actions import Disband, EndDisband, NavisToPort
from .board import BOARD, CAESAR, POMPEIUS
from .errors import IllegalAction
from .state import LAST_YEAR, GameState
from .victory import DRAW, ROME, decide

ORDERS = {
    "v1.01": ("cleopatra", "navis", "supply", "victory", "disband", "reset"),
    "first-edition": ("cleopatra", "victory", "navis", "supply", "disband", "reset"),
}
DECIDING = ("navis", "supply", "disband")
ALEXANDRIA = BOARD.location("Alexandria")
CLEO = BOARD.cleopatra
NAVIS = tuple(b.id for b in BOARD.blocks if b.is_navis)


def supply_limit(city: int) -> int:
    """8.3: three blocks, plus the city's value."""
    return 3 + BOARD.vp[city]


def begin(state: GameState) -> None:
    state.ext["winter"] = {"step": 0, "side": CAESAR, "done": [False, False]}
    _run(state)


def _steps(state: GameState) -> tuple[str, ...]:
    return ORDERS[state.options["winter_order"]]


def _data(state: GameState) -> dict:
    return state.ext["winter"]


def current_step(state: GameState) -> str:
    return _steps(state)[_data(state)["step"]]


def current_players(state: GameState) -> tuple[int, ...]:
    if state.ext.get("winter") is None:
        return ()
    return (_data(state)["side"],) if current_step(state) in DECIDING else ()


def navis_ports(state: GameState, navis: int) -> list[int]:
    """Friendly ports on the sea where `navis` stands (8.2)."""
    side = state.owner[navis]
    return [p for p in BOARD.sea_ports[state.loc[navis]] if state.friendly(p, side)]


def _navis_at_sea(state: GameState, side: int) -> list[int]:
    return [b for b in NAVIS if state.owner[b] == side and state.loc[b] >= 0 and BOARD.is_sea[state.loc[b]]]


def oversupplied(state: GameState, side: int) -> list[int]:
    """Cities where `side` has more blocks than winter supply allows."""
    count = state.count
    return [l for l, limit in _SUPPLY_LIMITS if count[l][side] > limit]


_SUPPLY_LIMITS = tuple((l, supply_limit(l)) for l in range(BOARD.n_locs) if not BOARD.is_sea[l])


def legal_actions(state: GameState, side: int) -> list:
    if side not in current_players(state):
        return []
    step = current_step(state)
    if step == "navis":
        return [NavisToPort(side, b, p) for b in _navis_at_sea(state, side) for p in navis_ports(state, b)]
    disbands = _disbands[side]
    if step == "supply":
        return [disbands[b] for l in oversupplied(state, side)
                for b in state.blocks_at(l, side) if b != CLEO]
    loc, owner = state.loc, state.owner
    return [_end_disband[side]] + [disbands[b] for b in range(BOARD.n_blocks)
                                   if owner[b] == side and loc[b] >= 0 and b != CLEO]


# The listing hands out these immutable values rather than making new ones at every call.
_disbands = tuple(tuple(Disband(side, b) for b in range(BOARD.n_blocks)) for side in (CAESAR, POMPEIUS))
_end_disband = (EndDisband(CAESAR), EndDisband(POMPEIUS))


def apply(state: GameState, action) -> None:
    if action not in legal_actions(state, getattr(action, "actor", None)):
        step = current_step(state) if state.ext.get("winter") else "no step under way"
        raise IllegalAction(f"8.0 winter ({step}): {action} is not legal now")
    if isinstance(action, NavisToPort):
        state.relocate(action.block, action.loc)
    elif isinstance(action, Disband):
        state.disband(action.block)
    elif isinstance(action, EndDisband):
        _data(state)["done"][action.actor] = True
    _run(state)


def _run(state: GameState) -> None:
    """Carry out every step and side that needs no decision, until one does or the year ends."""
    data = _data(state)
    while True:
        step = current_step(state)
        side = data["side"]
        if step == "cleopatra":
            _cleopatra_home(state)
        elif step == "navis":
            _forced_navis(state, side)
            if any(len(navis_ports(state, b)) > 1 for b in _navis_at_sea(state, side)):
                return
        elif step == "supply":
            if oversupplied(state, side):
                return
        elif step == "victory":
            if _victory(state):
                return
        elif step == "disband":
            if not data["done"][side] and _has_blocks(state, side):
                return
        elif step == "reset":
            state.ext["winter"] = None
            flow.next_year(state)
            return
        if step in DECIDING and side == CAESAR:
            data["side"] = POMPEIUS
        else:
            data["side"] = CAESAR
            data["step"] += 1


def _has_blocks(state: GameState, side: int) -> bool:
    return any(state.owner[b] == side and state.loc[b] >= 0 and b != CLEO for b in range(BOARD.n_blocks))


def _forced_navis(state: GameState, side: int) -> None:
    for b in _navis_at_sea(state, side):
        ports = navis_ports(state, b)
        if not ports:
            state.disband(b)
        elif len(ports) == 1:
            state.relocate(b, ports[0])


def _cleopatra_home(state: GameState) -> None:
    """8.1: Cleopatra moves to Alexandria; if the other side holds it she joins that side."""
    if state.loc[CLEO] < 0:
        return
    if state.loc[CLEO] != ALEXANDRIA:
        state.relocate(CLEO, ALEXANDRIA)
    if state.count[ALEXANDRIA][1 - state.owner[CLEO]]:
        state.change_side(CLEO, 1 - state.owner[CLEO])


def _victory(state: GameState) -> bool:
    """8.4 / 1.2: ends the game if someone has won (or the last year is over)."""
    vp = (state.vp(CAESAR), state.vp(POMPEIUS))
    rome = CAESAR if state.friendly(ROME, CAESAR) else POMPEIUS if state.friendly(ROME, POMPEIUS) else None
    last = state.year >= LAST_YEAR
    verdict = decide(vp, rome, last)
    if verdict is None:
        return False
    state.ext["winter"] = None
    score = f"winter {state.year}: Caesar {vp[0]} VP, Pompeius {vp[1]} VP"
    if verdict == DRAW:
        flow.finish_game(state, None, score + ", Rome vacant: draw")
    else:
        flow.finish_game(state, verdict, score + (", Rome decides" if vp[0] == vp[1] else ""))
    return True


def public_winter(state: GameState) -> dict | None:
    """The winter step under way and whose decision it waits for (everyone may know)."""
    data = state.ext.get("winter")
    if state.phase != "winter" or not data:
        return None
    players = current_players(state)
    return {"step": current_step(state),
            "waiting_for": ("Caesar", "Pompeius")[players[0]] if players else None}

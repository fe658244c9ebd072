"""The winter turn (8.0): Cleopatra goes home, navis to port, supply, victory, disbanding,
year reset — in the order the rules option `winter_order` names (rulings, Winter).

Plugs into `engine.phases`. Owns `state.ext["winter"]`: which step is running and for which
side. Steps without a decision run by themselves (a navis with one friendly port goes there;
with none it is disbanded); the owner decides the rest: which friendly port, which surplus
blocks to disband, and which blocks to disband voluntarily (Caesar first each time).
"""
from __future__ import annotations

import random

from . import turns
from .actions import Disband, EndDisband, NavisToPort
from .board import BOARD, CAESAR, POMPEIUS, SIDES
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
    """Enter the winter turn: its automatic steps run until a decision is due (or the game or year ends)."""
    state.ext["winter"] = {"step": 0, "side": CAESAR, "done": [False, False]}
    _run(state)


def _steps(state: GameState) -> tuple[str, ...]:
    return ORDERS[state.options["winter_order"]]


def _data(state: GameState) -> dict:
    return state.ext["winter"]


def current_step(state: GameState) -> str:
    """The winter step now: "cleopatra", "navis", "supply", "victory", "disband" or "reset"."""
    return _steps(state)[_data(state)["step"]]


def current_players(state: GameState) -> tuple[int, ...]:
    """The side whose winter decision is due now."""
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
    """The winter actions (navis to port, disbands, end of disbanding) of `side` now."""
    if side not in current_players(state):
        return []
    step = current_step(state)
    if step == "navis":
        return [NavisToPort(side, b, p) for b in _navis_at_sea(state, side) for p in navis_ports(state, b)]
    disbands = _disbands[side]
    if step == "supply":
        return [disbands[b] for l in oversupplied(state, side)
                for b in state.blocks_at(l, side) if b != CLEO]
    return [_end_disband[side]] + [disbands[b] for b in state.fielded[side] if b != CLEO]


# The listing hands out these immutable values rather than making new ones at every call.
_disbands = tuple(tuple(Disband(side, b) for b in range(BOARD.n_blocks)) for side in (CAESAR, POMPEIUS))
_end_disband = (EndDisband(CAESAR), EndDisband(POMPEIUS))


STEP_RULE = {"cleopatra": "8.1", "navis": "8.2", "supply": "8.3", "victory": "8.4", "disband": "8.5",
             "reset": "8.6"}
STEP_WORDS = {"navis": "each navis at sea goes to a friendly port on its sea",
              "supply": "blocks beyond a city's winter supply are disbanded",
              "disband": "each player may disband blocks, then ends disbanding"}


def _no(code: str, rule: str | None, message: str, **params) -> IllegalAction:
    return IllegalAction(message, rule=rule, code=code, params=params)


def malformed(action, why: str) -> IllegalAction:
    """An action no player could send (an actor or id out of range), as `Game.apply` says it."""
    return IllegalAction(f"malformed action ({why}): {action!r}", code="action.malformed",
                         params={"action": repr(action)})


def awaited(state: GameState) -> str:
    """The winter decision under way, in words anyone may read."""
    players = current_players(state)
    if not players:
        return "nothing"
    step = current_step(state)
    return f"{SIDES[players[0]]}: {STEP_WORDS[step]} ({STEP_RULE[step]})"


def refusal(state: GameState, action) -> IllegalAction | None:
    """Why `action` is refused in the winter turn (8.0-8.5), or None when it is legal now.
    Checks run from what the actor may know: whose turn and step, then his own blocks."""
    if state.ext.get("winter") is None:
        return _no("winter.not-under-way", "8.0", "no winter step is under way")
    actor = getattr(action, "actor", None)
    if isinstance(actor, int) and action in legal_actions(state, actor):
        return None
    step, now = current_step(state), awaited(state)
    rule = STEP_RULE[step]
    if not isinstance(action, (NavisToPort, Disband, EndDisband)):
        return _no("winter.not-a-winter-action", "8.0", f"{action} is not a winter action; awaiting {now}",
                   action=str(action), awaited=now)
    if actor not in (CAESAR, POMPEIUS):
        return malformed(action, f"only Caesar or Pompeius acts in winter, not {actor!r}")
    name = SIDES[actor]
    if actor not in current_players(state):
        if step == "disband" and not _has_blocks(state, actor):
            return _no("winter.no-block-left", "8.5", f"{name} has no block left to disband: his disbanding "
                       f"step ended by itself; awaiting {now}", side=name, awaited=now)
        return _no("winter.not-your-turn", rule, f"{name} waits: awaiting {now} (Caesar first)", side=name,
                   awaited=now)
    kind = {"navis": NavisToPort, "supply": Disband}.get(step, (Disband, EndDisband))
    if not isinstance(action, kind):
        return _no("winter.wrong-step", rule, f"{action} is not part of this step: awaiting {now}",
                   step=step, awaited=now)
    if isinstance(action, EndDisband):    # the deciding side's `ends disbanding` is always legal
        return _no("winter.not-legal", rule, f"{action} is not legal now; awaiting {now}", awaited=now)
    b = action.block
    if type(b) is not int or not 0 <= b < BOARD.n_blocks:
        return malformed(action, f"no block number {b!r}")
    label = BOARD.block_label(b, actor)
    if b == CLEO and isinstance(action, Disband):
        return _no("winter.cleopatra", "7.52", "Cleopatra cannot be disbanded: each winter she goes home to "
                   "Alexandria", block=label)
    if state.owner[b] != actor:
        return _no("winter.not-your-block", rule, f"{label} is not {name}'s block", block=label, side=name)
    if state.loc[b] < 0:
        return _no("winter.not-on-map", rule, f"{label} is not on the map", block=label)
    where = BOARD.loc_names[state.loc[b]]
    if step == "navis":
        return _navis_refusal(state, action, label, where)
    if step == "supply":
        loc = state.loc[b]
        return _no("winter.supply", "8.3", f"{where} supplies {supply_limit(loc)} block(s) and {name} has "
                   f"{state.count[loc][actor]} there: {label} need not be disbanded; the surplus is in "
                   f"{', '.join(BOARD.loc_names[x] for x in oversupplied(state, actor))}", block=label,
                   location=where, limit=supply_limit(loc), count=state.count[loc][actor],
                   oversupplied=[BOARD.loc_names[x] for x in oversupplied(state, actor)])
    return _no("winter.not-legal", rule, f"{action} is not legal now; awaiting {now}", awaited=now)


def _navis_refusal(state: GameState, action, label: str, where: str) -> IllegalAction:
    b = action.block
    if not BOARD.blocks[b].is_navis or not BOARD.is_sea[state.loc[b]]:
        return _no("winter.navis-not-at-sea", "8.2", f"only navis at sea go to port in winter; {label} is in "
                   f"{where}", block=label, location=where)
    port = action.loc
    to = BOARD.loc_names[port] if type(port) is int and 0 <= port < BOARD.n_locs else repr(port)
    ports = [BOARD.loc_names[p] for p in navis_ports(state, b)]
    on_sea = type(port) is int and port in BOARD.sea_ports[state.loc[b]]
    why = "is not friendly" if on_sea else f"is not a port on {where}"
    return _no("winter.navis-port", "8.2", f"{label} goes to a friendly port on {where}: {to} {why} "
               f"(friendly ports there: {', '.join(ports)})", block=label, sea=where, port=to, ports=ports)


def apply(state: GameState, action) -> None:
    """Validate a winter action (IllegalAction, nothing changed), perform it and run the automatic steps after
    it."""
    err = refusal(state, action)
    if err is not None:
        raise err
    if isinstance(action, NavisToPort):
        state.relocate(action.block, action.loc)
    elif isinstance(action, Disband):
        state.disband(action.block)
    elif isinstance(action, EndDisband):
        _data(state)["done"][action.actor] = True
    _run(state)


def apply_listed(state: GameState, action) -> None:
    """`apply` for an action `legal_actions` listed now (`Game.apply(checked=False)`),
    performed without `refusal`'s check."""
    kind = type(action)
    if kind is Disband:
        state.disband(action.block)
    elif kind is EndDisband:
        _data(state)["done"][action.actor] = True
    elif kind is NavisToPort:
        state.relocate(action.block, action.loc)
    else:
        apply(state, action)
        return
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
            turns.next_year(state)
            return
        if step in DECIDING and side == CAESAR:
            data["side"] = POMPEIUS
        else:
            data["side"] = CAESAR
            data["step"] += 1


def _has_blocks(state: GameState, side: int) -> bool:
    fielded = state.fielded[side]
    return len(fielded) > 1 or bool(fielded) and fielded[0] != CLEO


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
    if verdict == DRAW or isinstance(verdict, str):
        turns.finish_game(state, None, score + ", Rome vacant: draw")
    else:
        turns.finish_game(state, verdict, score + (", Rome decides" if vp[0] == vp[1] else ""))
    return True


def public_winter(state: GameState) -> dict | None:
    """The winter step under way and whose decision it waits for (everyone may know)."""
    data = state.ext.get("winter")
    if state.phase != "winter" or not data:
        return None
    players = current_players(state)
    return {"step": current_step(state),
            "waiting_for": ("Caesar", "Pompeius")[players[0]] if players else None}


def sample_chance(state: GameState, rng: random.Random):
    """The winter has no chance node: nothing is drawn at random in it."""
    raise IllegalAction("8.0 no chance action is due in the winter", code="winter.no-chance")

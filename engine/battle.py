"""The battle phase (7.1): Player 1 picks each battle in turn; each is fought by a `Fight`.

Plugs into `engine.phases` (current_players / legal_actions / apply / sample_chance / begin).
Owns the phase's own data in `state.ext["battle"]`: the fight in progress (a `Fight` dict or
None), the battle picked whose attacker is still to declare his main attack (`declaring`), and
whether Player 1's Mars/Neptune surprise (rulings, Events) has been used. When no contested
location is left the phase hands over to `turns.end_battle_phase`.

Main attack (rulings, 7.3): when Player 1 picks a battle whose attacker entered by more than
one road (or sea border) that still brings blocks there, the attacker declares his main attack
before round 1 (`DeclareMain`, naming any of those roads; the current one confirms it). That
settles which blocks are reserves; pinning was settled in the command phase and is unchanged.
"""
from __future__ import annotations

import random

from . import turns
from .actions import ChooseBattle, DeclareMain, Roll
from .battle_fight import IS_NAVIS, Fight, new_fight
from .battle_refusals import fight_refusal, loc_name, no
from .board import BOARD, CHANCE, SIDES
from .errors import IllegalAction
from .movement import declare_main_error, main_attack_choices
from .state import BATTLE, GameState

SURPRISE_EVENTS = ("Mars", "Neptune")


def begin(state: GameState) -> None:
    """Enter the battle phase (engine.flow): its bookkeeping, and the first battle when there is no choice."""
    state.ext["battle"] = {"fight": None, "surprise_used": False, "declaring": None}


def _data(state: GameState) -> dict:
    """The phase's data, for reading: a state built without it (by hand, or before `flow.settle`
    began the phase) reads as a battle phase that has fought nothing yet. Queries and
    refused actions must not write it; `apply` stores it once a battle is picked."""
    return state.ext.get("battle") or {"fight": None, "surprise_used": False, "declaring": None}


def declaring(state: GameState) -> dict | None:
    """The battle picked whose attacker is to declare his main attack: {"loc", "surprise"}."""
    data = state.ext.get("battle") if state.phase == BATTLE else None
    return data.get("declaring") if data else None


def current_fight(state: GameState) -> Fight | None:
    """The battle being fought, if any (reading only: views call this in any phase)."""
    data = state.ext.get("battle") if state.phase == BATTLE else None
    fight = data and data["fight"]
    return None if fight is None else Fight(fight, state)


def current_players(state: GameState) -> tuple[int, ...]:
    """Who acts now in the battle phase: Player 1 picking, the attacker declaring, the side whose block's turn
    it is, the side hit, the victor regrouping, or CHANCE for dice."""
    fight = current_fight(state)
    if fight is None:
        pending = declaring(state)
        return (state.p1,) if pending is None else (state.battles[pending["loc"]].attacker,)
    who = fight.to_act()
    return () if who is None else (who,)


def surprise_event(state: GameState) -> str | None:
    """Player 1's unused Mars or Neptune of this game turn, if any."""
    if _data(state)["surprise_used"] or not state.revealed:
        return None
    card = BOARD.cards[state.revealed[-1][2 + state.p1]]
    return card.name if card.event and card.name in SURPRISE_EVENTS else None


def _surprise_fits(state: GameState, loc: int, event: str) -> bool:
    """Mars: a battle Player 1 attacks; Neptune: a sea battle or a shore attack with navis."""
    attack = state.battles.get(loc)
    attacker = attack.attacker if attack else state.player1
    if attacker != state.player1:
        return False
    if event == "Mars":
        return True
    return BOARD.is_sea[loc] or any(IS_NAVIS[b] for b in state.blocks_at(loc, attacker))


def legal_actions(state: GameState, side: int) -> list:
    """The battle-phase actions of `side` now (never chance actions)."""
    if side not in current_players(state):
        return []
    fight = current_fight(state)
    if fight is not None:
        return fight.legal_actions()
    pending = declaring(state)
    if pending is not None:
        loc = pending["loc"]
        return [DeclareMain(side, loc, _origin(e, loc)) for e in main_attack_choices(state, state.battles[loc])]
    event = surprise_event(state)
    acts = []
    for loc in state.contested_locations():
        acts.append(ChooseBattle(side, loc))
        if event and _surprise_fits(state, loc, event):
            acts.append(ChooseBattle(side, loc, event))
    return acts


def apply_listed(state: GameState, action) -> None:
    """`apply` for an action `legal_actions` listed now, or dice `sample_chance` drew
    (`Game.apply(checked=False)`): performed without the refusals' checks."""
    apply(state, action, listed=True)


def apply(state: GameState, action, listed: bool = False) -> None:
    """Validate `action` against the battle phase (IllegalAction, nothing changed) and perform it."""
    data = _data(state)
    if getattr(action, "actor", None) == CHANCE and not isinstance(action, Roll):
        raise IllegalAction(f"7.4 Chance only rolls the dice in a battle; {action} is a player's action",
                            code="turn.not-chance", params={"action": str(action)})
    if isinstance(action, DeclareMain):
        _declare(state, data, action)
        return
    if data["fight"] is not None:
        fight = Fight(data["fight"], state)
        err = None if listed else fight_refusal(fight, action)
        if err is not None:
            raise err
        fight.apply(action, listed)
        _after(state, fight)
        return
    err = None if listed else pick_refusal(state, action)
    if err is not None:
        raise err
    state.ext["battle"] = data
    if action.surprise:
        data["surprise_used"] = True
    attack = state.battles.get(action.loc)
    if attack is not None and len(main_attack_choices(state, attack)) > 1:
        data["declaring"] = {"loc": action.loc, "surprise": bool(action.surprise)}
        return
    _begin_fight(state, data, action.loc, bool(action.surprise))


def pick_refusal(state: GameState, action) -> IllegalAction | None:
    """Why `action` is refused while no battle is being fought (7.1, 7.3; Mars and Neptune are
    event cards, 2.1), or None when it is a battle Player 1 may pick now."""
    data = _data(state)
    pending = data.get("declaring")
    p1 = SIDES[state.player1] if state.player1 is not None else "Player 1"
    if pending is not None:
        who = SIDES[state.battles[pending["loc"]].attacker]
        where = BOARD.loc_names[pending["loc"]]
        return no("battle.declare-main-first", "7.3", f"{who} first declares his main attack on {where}; "
                  f"{action} is not that", side=who, location=where)
    if not isinstance(action, ChooseBattle):
        if isinstance(action, Roll):
            return no("battle.no-dice-due", "7.4", f"no block is firing: {p1} (Player 1) first picks the next "
                      f"battle", awaited=f"{p1} to pick the next battle")
        return no("battle.pick-first", "7.1", f"{p1} (Player 1) first picks the next battle; {action} is not "
                  f"that", side=p1)
    if action in legal_actions(state, action.actor):
        return None
    where = loc_name(action.loc)
    if action.actor != state.player1:
        return no("battle.not-player-1", "7.1", f"Player 1, {p1}, picks the order of the battles",
                  side=p1, location=where)
    if not state.contested(action.loc):
        return no("battle.not-contested", "7.1", f"no battle is to be fought in {where}", location=where)
    event = surprise_event(state)
    if action.surprise != event:
        if event is None and _data(state)["surprise_used"] and _played_surprise(state) == action.surprise:
            return no("battle.surprise-used", "2.1", f"{p1} has already used his {action.surprise} in a battle "
                      f"this turn", card=action.surprise, location=where)
        return no("battle.no-surprise", "2.1", f"{p1} (Player 1) did not play {action.surprise} this turn",
                  card=action.surprise, location=where)
    rule = ("Mars: a battle Player 1 attacks" if event == "Mars"
            else "Neptune: a sea battle, or a battle Player 1 attacks with navis")
    return no("battle.surprise-misfit", "2.1", f"{rule}; the battle of {where} is not one", card=event,
              location=where)


def _played_surprise(state: GameState) -> str | None:
    """Player 1's Mars or Neptune of this turn, used or not."""
    if not state.revealed or state.player1 is None:
        return None
    card = BOARD.cards[state.revealed[-1][2 + state.p1]]
    return card.name if card.event and card.name in SURPRISE_EVENTS else None


def _declare(state: GameState, data: dict, action) -> None:
    """The attacker of the battle just picked names (or confirms) his main attack (7.3)."""
    where = loc_name(action.loc)
    fight = data["fight"]
    if fight is not None and fight["loc"] == action.loc:
        raise no("battle.main-fixed", "7.3", f"the battle in {where} has begun: its main attack can no longer "
                 f"change", location=where)
    pending = data.get("declaring")
    if pending is None or pending["loc"] != action.loc:
        raise no("battle.declare-not-now", "7.3", f"in the battle phase the main attack on {where} is declared "
                 f"when Player 1 picks that battle, before its round 1", location=where)
    err = declare_main_error(state, action.actor, action.loc, action.origin, confirm=True)
    if err is not None:   # a structured refusal (7.3), or its text from an older movement module
        raise err if isinstance(err, IllegalAction) else IllegalAction(err, code="main.invalid")
    state.battles[action.loc].main_edge = BOARD.edge(action.origin, action.loc)
    data["declaring"] = None
    _begin_fight(state, data, action.loc, pending["surprise"])


def _begin_fight(state: GameState, data: dict, loc: int, surprise: bool) -> None:
    data["fight"] = _setup(state, loc, surprise)
    fight = Fight(data["fight"], state)
    fight.start()
    _after(state, fight)


def _origin(edge: int, loc: int) -> int:
    a, b = BOARD.edge_ends[edge]
    return b if a == loc else a


def _setup(state: GameState, loc: int, surprise: bool) -> dict:
    """The fight's data from the command phase's attack bookkeeping (6.12-6.14, 7.3)."""
    attack = state.battles.get(loc)
    if attack is None:   # contested without a recorded attack: Player 1 counts as attacker
        return new_fight(loc, state.p1, [], ([], []), surprise)
    entries: tuple[list[int], list[int]] = ([], [])
    navis_origins = {}
    for block, edge, side in attack.entries:
        if edge is not None:
            entries[side].append(_origin(edge, loc))
            if IS_NAVIS[block]:
                navis_origins[block] = _origin(edge, loc)
    for edge in attack.attacker_edges:
        entries[attack.attacker].append(_origin(edge, loc))
    on_map = [b for b in attack.reserves() if state.loc[b] == loc]
    return new_fight(loc, attack.attacker, on_map, entries, surprise, navis_origins)


def _after(state: GameState, fight: Fight) -> None:
    if not fight.finished:
        return
    state.ext["battle"]["fight"] = None
    state.battles.pop(fight.loc, None)
    if not state.contested_locations():
        turns.end_battle_phase(state)


def sample_chance(state: GameState, rng: random.Random) -> Roll:
    """The dice roll due now, drawn from `rng`."""
    fight = current_fight(state)
    need = fight.dice_needed() if fight else 0
    if not need:
        raise no("battle.no-dice-due", "7.4", "no dice are due: no block is firing")
    return Roll(tuple(rng.randint(1, 6) for _ in range(need)))


def waiting_reserves(state: GameState, loc: int) -> list[int]:
    """The reserves in `loc` still waiting to arrive (7.3): the blocks of the attack bookkeeping
    that are still there, until the battle there reaches round 2 (then there are none)."""
    fight = current_fight(state)
    if fight is not None and fight.loc == loc:
        pending = fight.d["reserves"]
    else:
        attack = state.battles.get(loc)
        pending = attack.reserves() if attack else ()
    return [b for b in pending if state.loc[b] == loc]


def public_battle(state: GameState) -> dict | None:
    """The battle being fought as everyone sees it: its blocks are revealed (7.1), reserves
    only once they arrive in round 2, and the last dice rolled. None outside a battle and once it is over: the blocks
    stand up again and the victor's regroup is blind."""
    fight = current_fight(state)
    if fight is None or fight.d["over"]:
        return None
    d = fight.d
    sides = ("Caesar", "Pompeius")
    revealed = {
        sides[s]: [{"block": BOARD.blocks[b].key, "strength": state.strength(b)}
                   for b in fight.blocks(s) if b not in d["reserves"]]
        for s in (0, 1)}
    return {"location": BOARD.loc_names[d["loc"]], "attacker": sides[d["attacker"]],
            "round": d["round"], "revealed": revealed,
            "reserves": {sides[s]: sum(1 for b in fight.blocks(s) if b in d["reserves"]) for s in (0, 1)},
            "firing": None if d["firing"] is None else BOARD.blocks[d["firing"]].key,
            "pending_hits": d["hits"], "last_roll": _last_roll(state, d)}


def _last_roll(state: GameState, d: dict) -> dict | None:
    """The dice of the last block that fired in this battle: public like every die (rulings).
    The block is named only while it is still revealed in the battle (one that has retreated
    stands hidden again)."""
    roll = d.get("last_roll")
    if roll is None:
        return None
    block, faces, hits = roll
    shown = state.loc[block] == d["loc"] and block not in d["reserves"]
    return {"block": BOARD.blocks[block].key if shown else None, "faces": list(faces), "hits": hits}

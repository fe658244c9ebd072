"""Information states: what Caesar, Pompeius or the public may know (rulings "Hidden information").

Public: blocks per location and side, how many of them moved this turn, attack bookkeeping in
counts (reserves still waiting), levy pool sizes, face-up eliminated blocks, dead leaders, VP,
revealed cards, hand sizes, who has chosen, and the battle being fought (its revealed blocks
and the last dice rolled). The owner's view adds identity and strength of his own
blocks, his hand, his discard and his chosen-but-unrevealed card, and during his own command
its amphibious bookkeeping (6.3). Nothing else.
"""
from __future__ import annotations

from .battle import declaring, public_battle, waiting_reserves
from .board import BOARD, CHANCE, SIDES
from .state import DEAD, ELIMINATED, POOL, GameState
from .winter import public_winter


def _card(c):
    return None if c is None else BOARD.cards[c].name


def public_view(state: GameState) -> dict:
    """What everyone may see (the TV): the public information state."""
    locs = {}
    for l in range(BOARD.n_locs):
        if state.at[l]:
            entry = {}
            for s in (0, 1):
                mine = [b for b in state.at[l] if state.owner[b] == s]
                if mine:
                    entry[SIDES[s]] = {"blocks": len(mine), "moved": sum(1 for b in mine if state.moved[b])}
            locs[BOARD.loc_names[l]] = entry
    battles = []
    pending = declaring(state)
    for bt in state.battles.values():
        reserves = waiting_reserves(state, bt.loc)
        battles.append({
            "location": BOARD.loc_names[bt.loc], "attacker": SIDES[bt.attacker],
            "main_attack": BOARD.edge_name(bt.main_edge) if bt.main_edge is not None else None,
            "attacker_roads": [BOARD.edge_name(e) for e in bt.attacker_edges],
            "reserves": {SIDES[s]: sum(1 for b in reserves if state.owner[b] == s) for s in (0, 1)},
            "declaring_main_attack": pending is not None and pending["loc"] == bt.loc,
        })
    cmd = state.cmd
    command = None
    if cmd is not None:
        command = {"side": SIDES[cmd.side], "card": _card(cmd.card), "event": cmd.event,
                   "mp": cmd.mp, "mp_used": cmd.mp_used, "lp": cmd.lp, "lp_used": cmd.lp_used,
                   "activated": [BOARD.loc_names[l] for l in cmd.activated],
                   "levying": cmd.levying,
                   "jupiter_location": None if cmd.jupiter_loc is None else BOARD.loc_names[cmd.jupiter_loc]}
    return {
        "year": state.year, "turn": state.turn, "phase": state.phase,
        "options": dict(state.options),
        "player1": None if state.player1 is None else SIDES[state.player1],
        "vp": {SIDES[s]: state.vp(s) for s in (0, 1)},
        "locations": locs,
        "battles": battles,
        "command": command,
        "road_use": {BOARD.edge_name(e): n for e, n in enumerate(state.road_use) if n},
        "levy_pool_size": {SIDES[s]: sum(1 for b in range(BOARD.n_blocks)
                                         if state.loc[b] == POOL and BOARD.blocks[b].side == s) for s in (0, 1)},
        "eliminated": sorted(BOARD.blocks[b].key for b in range(BOARD.n_blocks) if state.loc[b] == ELIMINATED),
        "dead_leaders": sorted(BOARD.blocks[b].key for b in range(BOARD.n_blocks) if state.loc[b] == DEAD),
        "hand_size": {SIDES[s]: len(state.hands[s]) for s in (0, 1)},
        "has_discarded": {SIDES[s]: state.discards[s] is not None for s in (0, 1)},
        "has_chosen": {SIDES[s]: state.chosen[s] is not None for s in (0, 1)},
        "revealed": [{"turn": i + 1, "Caesar": _card(r[0]), "Pompeius": _card(r[1]),
                      "Caesar_counts_as": _card(r[2]), "Pompeius_counts_as": _card(r[3]),
                      "cancelled": bool(r[4])} for i, r in enumerate(state.revealed)],
        "result": state.result,
        "fight": public_battle(state),
        "winter": public_winter(state),
    }


def private_view(state: GameState, side: int) -> dict:
    """What `side` may see: the public view with his own blocks, pool, hand, discard and chosen card."""
    v = public_view(state)
    v["side"] = SIDES[side]
    v["own_blocks"] = [
        {"block": BOARD.blocks[b].key, "location": BOARD.loc_names[state.loc[b]],
         "strength": state.strength(b), "steps": state.steps[b], "moved": state.moved[b],
         "reserve": state.loc[b] in state.battles and b in waiting_reserves(state, state.loc[b])}
        for b in range(BOARD.n_blocks) if state.owner[b] == side and state.loc[b] >= 0]
    v["own_levy_pool"] = sorted(BOARD.blocks[b].key for b in range(BOARD.n_blocks)
                                if state.loc[b] == POOL and BOARD.blocks[b].side == side)
    v["hand"] = [BOARD.cards[c].name for c in sorted(state.hands[side])]
    v["discard"] = _card(state.discards[side])
    v["chosen"] = _card(state.chosen[side])
    cmd = state.cmd
    if cmd is not None and cmd.side == side:
        # His own moves so far, which he made and the opponent saw only as moves (6.3): whether
        # an amphibious move may still come first, and the seas whose navis carried one.
        v["command"] = dict(v["command"], amphibious_open=cmd.amphibious_open,
                            amphibious_seas=[BOARD.loc_names[s] for s in cmd.amphibious_seas])
    return v


def view(state: GameState, side: int | None) -> dict:
    """`public_view` for None, else `private_view` of that side."""
    if side is None:
        return public_view(state)
    if side == CHANCE:
        raise ValueError("Chance has no information state")
    return private_view(state, side)

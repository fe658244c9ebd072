"""Why a battle action is refused (7.1-7.8): the precise structured refusal for an action a
`Fight` does not list, or for a battle-phase action before or between fights.

Owns only the diagnosis: `fight_refusal(fight, action)` returns None exactly when `action`
is among `fight.legal_actions()` (the legal list stays the one authority; tests hold the two
together), else an `IllegalAction` naming the rule, a stable code from docs/refusals-battle.md,
JSON-safe params (blocks as the acting side may name them, printed location names, numbers)
and the English line. Nothing here changes the game.

Hidden information: the checks run from what the actor may know first (whose block it is, what
the battle waits for); where an enemy block is, or how strong, is never said unless the battle
has revealed it.
"""
from __future__ import annotations

from .actions import EndRegroup, Fire, Hit, Pass, Regroup, Retreat, Roll
from .battle_fight import INITIATIVE, IS_NAVIS, LAST_ROUND, REGROUP_LIMIT, RETREAT_LIMIT, Fight, sea_neighbours
from .board import BOARD, CHANCE_NAME, SIDES
from .errors import IllegalAction
from .state import CHANCE

ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")
TURN_ACTIONS = (Fire, Pass, Retreat)


def no(code: str, rule: str | None, message: str, **params) -> IllegalAction:
    """A battle refusal (`IllegalAction`) with its code, rule and params."""
    return IllegalAction(message, rule=rule, code=code, params=params)


def malformed(action, why: str) -> IllegalAction:
    """An action no player could send (an actor or id out of range): the same refusal as
    `Game.apply` gives an action whose line cannot be written."""
    return IllegalAction(f"malformed action ({why}): {action!r}", code="action.malformed",
                         params={"action": repr(action)})


def who(side) -> str:
    """The name of an actor id: a side, CHANCE_NAME, or "nobody"."""
    return CHANCE_NAME if side == CHANCE else SIDES[side] if side in (0, 1) else "nobody"


def loc_name(loc) -> str:
    """The printed name of location id `l`."""
    return BOARD.loc_names[loc] if isinstance(loc, int) and 0 <= loc < BOARD.n_locs else f"location {loc!r}"


def awaited(fight: Fight) -> str:
    """What the battle waits for, in words anyone may read (battle blocks are revealed)."""
    d, st = fight.d, fight.state
    where = BOARD.loc_names[d["loc"]]
    if d["over"]:
        return f"{who(d['winner'])}'s regroup after the battle of {where}"
    if d["firing"] is not None:
        firer = BOARD.blocks[d["firing"]].key
        if d["hits"] == 0:
            return f"Chance's {fight.dice_needed()} dice for {firer} (battle of {where})"
        return f"{who(1 - st.owner[d['firing']])} to take {d['hits']} hit(s) from {firer}"
    found = fight.eligible()
    if not found:
        return "nothing"
    side = st.owner[found[0]]
    letter = INITIATIVE[side == d["attacker"]][found[0]]
    return f"{who(side)}'s {letter} block(s), round {d['round']} of the battle of {where}"


def fight_refusal(fight: Fight, action) -> IllegalAction | None:
    """The refusal `fight.apply(action)` deserves, or None when the action is legal now."""
    if action in fight.legal_actions():
        return None
    d = fight.d
    now = awaited(fight)
    where = BOARD.loc_names[d["loc"]]
    if isinstance(action, Roll):
        return None if fight.dice_needed() else no(
            "battle.no-dice-due", "7.4", f"no block is waiting for its dice; awaiting {now}", awaited=now)
    if not isinstance(action, (*TURN_ACTIONS, Hit, Regroup, EndRegroup)):
        return no("battle.not-now", "7.1", f"{action} is not an action of the battle of {where} under way; "
                  f"awaiting {now}", action=str(action), location=where, awaited=now)
    actor = action.actor
    if actor not in (0, 1):
        return malformed(action, f"only Caesar or Pompeius acts in a battle, not {actor!r}")
    if d["over"]:
        return _after_battle(fight, action, now)
    if isinstance(action, (Regroup, EndRegroup)):
        return no("battle.no-regroup-yet", "7.7", f"only the victor regroups, once the battle of {where} "
                  f"has ended; awaiting {now}", location=where, awaited=now)
    if d["firing"] is not None and d["hits"] == 0:
        return no("battle.dice-due", "7.4", f"{action} must wait: awaiting {now}", awaited=now)
    if d["firing"] is not None:
        return _hit(fight, action, now)
    if isinstance(action, Hit):
        return no("battle.no-hits-pending", "7.4", f"no hits are waiting to be taken; awaiting {now}",
                  awaited=now)
    return _turn(fight, action, now)


def _own_block(fight: Fight, action, now: str) -> IllegalAction | None:
    """The acting side's own block, in this battle (in that order: nothing about an enemy
    block's whereabouts is said)."""
    st, d = fight.state, fight.d
    b, actor = action.block, action.actor
    if type(b) is not int or not 0 <= b < BOARD.n_blocks:
        return malformed(action, f"no block number {b!r}")
    label = BOARD.block_label(b, actor)
    if st.owner[b] != actor:
        return no("battle.not-your-block", "7.2", f"{label} is not {who(actor)}'s block", block=label,
                  side=who(actor))
    if st.loc[b] != d["loc"]:
        where = BOARD.loc_names[d["loc"]]
        return no("battle.not-in-battle", "7.1", f"{label} is not in the battle of {where}", block=label,
                  location=where)
    return None


def _hit(fight: Fight, action, now: str) -> IllegalAction:
    st, d = fight.state, fight.d
    taker = 1 - st.owner[d["firing"]]
    if not isinstance(action, Hit):
        firer = BOARD.block_label(d["firing"], getattr(action, "actor", None))
        return no("battle.hits-pending", "7.4", f"first {who(taker)} takes {d['hits']} hit(s) from {firer} "
                  f"(he picks among his equally strongest blocks)", side=who(taker), hits=d["hits"],
                  firing=firer, awaited=now)
    if action.actor != taker:
        return no("battle.not-your-hit", "7.4", f"these hits fall on {who(taker)}'s blocks: their owner "
                  f"chooses among equals; awaiting {now}", side=who(taker), awaited=now)
    err = _own_block(fight, action, now)
    if err:
        return err
    label = BOARD.block_label(action.block, action.actor)
    if action.block in d["reserves"]:
        return no("battle.reserve-round-1", "7.3", f"{label} is a reserve: reserves take no hits in round 1",
                  block=label)
    cands = fight.hit_candidates()
    strongest = st.strength(cands[0]) if cands else 0
    strength = st.strength(action.block)
    return no("battle.not-strongest", "7.4", f"each hit falls on the strongest block at that instant: "
              f"{label} is {ROMAN[strength]}, the strongest are {ROMAN[strongest]} "
              f"({', '.join(BOARD.block_label(b, action.actor) for b in cands)})", block=label,
              strength=strength, strongest=strongest,
              candidates=[BOARD.block_label(b, action.actor) for b in cands])


def _turn(fight: Fight, action, now: str) -> IllegalAction:
    """Fire, pass or retreat on a battle turn (7.2, 7.3, 7.6)."""
    _st, d = fight.state, fight.d
    err = _own_block(fight, action, now)
    if err:
        return err
    b, actor = action.block, action.actor
    label = BOARD.block_label(b, actor)
    if b in d["reserves"]:
        return no("battle.reserve-round-1", "7.3", f"{label} is a reserve: reserves do not fire, retreat or "
                  f"take a turn in round 1 (they arrive in round 2)", block=label)
    if b in d["acted"]:
        return no("battle.already-acted", "7.2", f"{label} has had its battle turn in round {d['round']}",
                  block=label, round=d["round"])
    if b not in fight.eligible():
        return no("battle.not-your-turn", "7.2", f"not {label}'s battle turn: awaiting {now} (A before B, C, "
                  f"D; defender before attacker)", block=label, awaited=now)
    attacking = actor == d["attacker"]
    must_retreat = d["round"] == LAST_ROUND and attacking
    if isinstance(action, (Fire, Pass)) and must_retreat:
        return no("battle.must-retreat", "7.2", f"in round {LAST_ROUND} attacking blocks must retreat: {label} "
                  f"cannot {'fire' if isinstance(action, Fire) else 'pass'}", block=label)
    if not isinstance(action, Retreat):
        return no("battle.not-legal", "7.2", f"{action} is not a legal battle action now", block=label)
    if d["round"] == 1:
        return no("battle.no-retreat-round-1", "7.6", "no block retreats in battle round 1", block=label)
    dests = fight.retreat_destinations(b)
    if action.loc is None:
        if must_retreat:
            names = [BOARD.loc_names[x] for x, _ in dests]
            return no("battle.can-retreat", "7.6", f"{label} can retreat (to {', '.join(names)}): only a block "
                      f"that must retreat and cannot is eliminated", block=label, destinations=names)
        return no("battle.retreat-not-required", "7.6", f"{label} need not retreat: only an attacking block in "
                  f"round {LAST_ROUND} that cannot retreat is eliminated", block=label)
    return retreat_refusal(fight, b, action.loc, action.by_sea, label) or no(
        "battle.not-legal", "7.6", f"{action} is not a legal retreat now", block=label)


def retreat_refusal(fight: Fight, b: int, dest, by_sea: bool, label: str) -> IllegalAction | None:
    """Why `b` may not retreat to `dest` (7.61-7.64, 7.82), or None."""
    st, d = fight.state, fight.d
    here = d["loc"]
    side = st.owner[b]
    attacking = side == d["attacker"]
    there, to = BOARD.loc_names[here], loc_name(dest)
    params = {"block": label, "destination": to}
    if not isinstance(dest, int) or not 0 <= dest < BOARD.n_locs:
        return no("battle.retreat-not-adjacent", "7.6", f"{to} is no place to retreat to", **params)
    if IS_NAVIS[b]:
        return _navis_retreat(fight, b, dest, by_sea, label, params)
    if by_sea:
        return _sea_retreat(fight, side, dest, label, params)
    edge = BOARD.edge(here, dest)
    if edge is None or BOARD.edge_class[edge] == "sea":
        hint = " (a land block crosses a sea only 'by sea', 7.64)" if BOARD.is_port[dest] else ""
        return no("battle.retreat-not-adjacent", "7.6", f"no road joins {there} and {to}{hint}", **params)
    if not st.friendly_or_vacant(dest, side):
        return no("battle.retreat-enemy", "7.61", f"blocks never retreat to an enemy or contested location: {to}",
                  **params)
    if attacking and not st.friendly(dest, side) and dest not in d["entries"][side]:
        return no("battle.retreat-attacker-road", "7.62", f"attacking blocks retreat to a vacant city only by a "
                  f"road used to start or reinforce the battle; {there}–{to} was not", **params)
    if not attacking and dest in d["entries"][1 - side]:
        return no("battle.retreat-defender-road", "7.63", f"defending blocks never retreat along a road the "
                  f"attacker used to enter the battle: {there}–{to}", **params)
    limit = RETREAT_LIMIT[BOARD.edge_class[edge]]
    if d["retreat_use"][side].count(edge) >= limit:
        return no("battle.retreat-limit", "7.61", f"the road {there}–{to} has carried its {limit} retreating "
                  f"block(s) this round", **params, limit=limit)
    return None


def _sea_retreat(fight: Fight, side: int, dest: int, label: str, params: dict) -> IllegalAction | None:
    st, d = fight.state, fight.d
    here = d["loc"]
    to = BOARD.loc_names[dest]
    if side in d["sea_retreated"]:
        return no("battle.sea-retreat-used", "7.64", f"one block per battle round may retreat by sea; "
                  f"{who(side)}'s has gone this round", **params)
    shared = [s for s in BOARD.port_seas[here] if dest != here and dest in BOARD.sea_ports[s]]
    if not shared:
        return no("battle.sea-retreat-not-on-sea", "7.64", f"a sea retreat crosses one sea adjacent to "
                  f"{BOARD.loc_names[here]} to a port on that same sea; {to} is not one", **params)
    if not st.friendly(dest, side):
        return no("battle.sea-retreat-port", "7.64", f"the destination port of a sea retreat must be friendly: "
                  f"{to} is not", **params)
    if not any(st.friendly(s, side) for s in shared):
        seas = [BOARD.loc_names[s] for s in shared]
        return no("battle.sea-retreat-no-sea", "7.64", f"a sea retreat needs a friendly sea: "
                  f"{', '.join(seas)} is not friendly", **params, seas=seas)
    return None


def _navis_retreat(fight: Fight, b: int, dest: int, by_sea: bool, label: str,
                   params: dict) -> IllegalAction | None:
    st, d = fight.state, fight.d
    side = st.owner[b]
    there, to = BOARD.loc_names[d["loc"]], BOARD.loc_names[dest]
    if by_sea:
        return no("battle.navis-by-sea", "7.82", "a navis retreats along a sea border; 'by sea' is for land "
                  "blocks (7.64)", **params)
    if dest not in sea_neighbours(d["loc"]):
        return no("battle.navis-retreat-not-adjacent", "7.82", f"a navis retreats from {there} to an adjacent "
                  f"sea or a port on the same sea; {to} is neither", **params)
    if not st.friendly_or_vacant(dest, side):
        return no("battle.retreat-enemy", "7.61", f"blocks never retreat to an enemy or contested location: {to}",
                  **params)
    if st.friendly(dest, side):
        return None
    if side == d["attacker"]:
        if dest not in d["entries"][side]:
            return no("battle.navis-retreat-origin", "7.82", f"attacking navis retreat to a vacant sea or port "
                      f"only where they came from; no attacking block came from {to}", **params)
        return None
    if not BOARD.is_sea[dest]:
        return no("battle.navis-retreat-vacant-port", "7.82", f"defending navis retreat to a friendly port, "
                  f"not to vacant {to}", **params)
    if dest in d["entries"][1 - side]:
        return no("battle.navis-retreat-attacker-sea", "7.82", f"defending navis never retreat to a vacant "
                  f"sea the attacker came from: {to}", **params)
    return None


def _after_battle(fight: Fight, action, now: str) -> IllegalAction:
    """The battle is over; only its victor regroups (7.7, 7.83)."""
    st, d = fight.state, fight.d
    where = BOARD.loc_names[d["loc"]]
    if not isinstance(action, (Regroup, EndRegroup)):
        return no("battle.over", "7.7", f"the battle of {where} is over; awaiting {now}", location=where,
                  awaited=now)
    if action.actor != d["winner"]:
        return no("battle.not-victor", "7.7", f"only the victor of {where}, {who(d['winner'])}, regroups",
                  location=where, victor=who(d["winner"]))
    if not isinstance(action, Regroup):   # the victor's `ends regroup` is always legal
        return no("battle.not-legal", "7.7", f"{action} is not legal now", awaited=now)
    err = _own_block(fight, action, now)
    if err:
        return err
    label = BOARD.block_label(action.block, action.actor)
    to = loc_name(action.loc)
    params = {"block": label, "destination": to}
    if IS_NAVIS[action.block]:
        if action.loc not in sea_neighbours(d["loc"]):
            return no("battle.regroup-not-adjacent", "7.83", f"a navis regroups to an adjacent sea or a port on "
                      f"the same sea; {to} is neither", **params)
    else:
        edge = BOARD.edge(d["loc"], action.loc) if isinstance(action.loc, int) else None
        if edge is None or BOARD.edge_class[edge] == "sea":
            return no("battle.regroup-not-adjacent", "7.7", f"no road joins {where} and {to} (no amphibious "
                      f"regroup)", **params)
        if st.friendly_or_vacant(action.loc, action.actor):
            limit = REGROUP_LIMIT[BOARD.edge_class[edge]]
            return no("battle.regroup-limit", "7.7", f"the road {where}–{to} has carried its {limit} regrouping "
                      f"block(s) (road limits, 6.11)", **params, limit=limit)
    return no("battle.regroup-enemy", "7.7", f"blocks regroup only to a friendly or vacant location: {to}",
              **params)

"""What the game waits for: one `Decision` per actor (Caesar, Pompeius or chance).

Owns the description of the current decision as data a phone or the table renders without
knowing engine internals: its actor, a stable `kind`, the rule that governs it, JSON-safe
`params`, and `options` (exactly the actor's legal actions now, so the decisions partition
`Game.legal_actions`). Chance decisions have no options; their params say what is due (the
deal, how many dice for which block, Jupiter's blind pick among how many blocks where).

Hidden information: `params` are public unless their key is listed in `private`; only the
actor sees private params and options (`Decision.for_viewer`). Public params name blocks only
while they are revealed in the battle being fought, and never name a card that is not
revealed. Read-only: nothing here changes the state.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from . import battle, winter
from .actions import Action, AddStep, DeclareMain, EndCommand, Fire, Levy, Move, Pass, Retreat, TakeBack
from .battle_fight import FIREPOWER, INITIATIVE, Fight
from .board import BOARD, CHANCE, CHANCE_NAME, SIDES, UnknownName, parse_actor
from .card_phase import APOLLO, HAND_SIZE, effective_card
from .events_cards import jupiter_targets, send_destinations, vulcan_targets
from .movement import main_attack_choices
from .phases import phase_module
from .state import BATTLE, CARD, COMMAND, DEAL, DISCARD, OVER, WINTER, GameState, json_copy

# The kinds of decision, with the rule that governs each (docs/engine-design.md lists them).
KINDS = {
    "deal": "2.1", "discard": "2.1", "play": "2.1",
    "command": "6.0", "jupiter-target": "2.1", "jupiter-pick": "2.1", "jupiter-send": "2.1",
    "vulcan-city": "2.1",
    "choose-battle": "7.1", "main-attack": "7.3", "battle-turn": "7.2", "dice": "7.4",
    "take-hit": "7.4", "regroup": "7.7",
    "navis-to-port": "8.2", "supply": "8.3", "disband": "8.5",
}


@dataclass(frozen=True, eq=True)
class Decision:
    """One actor's decision. `private`: the params keys only the actor may see."""
    actor: str                       # a Side ("Caesar" | "Pompeius") or CHANCE_NAME ("Chance")
    kind: str
    rule: str
    params: dict[str, Any]
    options: tuple[Action, ...] = ()
    private: tuple[str, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON-safe data, its options as notation lines."""
        return {"actor": self.actor, "kind": self.kind, "rule": self.rule,
                "params": json_copy(self.params), "options": [str(a) for a in self.options]}

    def for_viewer(self, viewer: object) -> Decision:
        """What `viewer` ("Caesar", "Pompeius", a Side, or None for the table/TV) may see: the actor
        sees everything; anyone else sees the kind, the rule and the public params only."""
        try:
            name = None if viewer is None else SIDES[parse_actor(viewer, allow_chance=False)]
        except UnknownName:
            raise ValueError(f"a viewer is Caesar, Pompeius or None (public), not {viewer!r}") from None
        if name == self.actor and self.actor != CHANCE_NAME:
            return self
        public = {k: v for k, v in self.params.items() if k not in self.private}
        return replace(self, params=public, options=(), private=())


def pending(state: GameState) -> list[Decision]:
    """The decisions the game waits for now, Caesar's before Pompeius' (empty once over)."""
    if state.phase == OVER:
        return []
    mod = phase_module(state.phase)
    out = []
    for who in mod.current_players(state):
        if who == CHANCE:
            out.append(_chance(state))
        else:
            out.append(_player(state, who, tuple(mod.legal_actions(state, who))))
    return out


# --------------------------------------------------------------------------- helpers
def _name(loc: int) -> str:
    return BOARD.loc_names[loc]


def _key(b: int) -> str:
    return BOARD.blocks[b].key


def _card(c: int | None) -> str | None:
    return None if c is None else BOARD.cards[c].name


def _origin(edge: int, loc: int) -> int:
    a, c = BOARD.edge_ends[edge]
    return c if a == loc else a


def _fight(state: GameState) -> Fight:
    fight = battle.current_fight(state)
    assert fight is not None, "a battle is being fought"
    return fight


def _decision(side: int, kind: str, params: dict, options: tuple, private: tuple = ()) -> Decision:
    return Decision(SIDES[side], kind, KINDS[kind], params, options, private)


# --------------------------------------------------------------------------- chance
def _chance(state: GameState) -> Decision:
    if state.phase == DEAL:
        return Decision(CHANCE_NAME, "deal", KINDS["deal"], {"year": state.year, "cards_each": HAND_SIZE})
    if state.phase == COMMAND:
        cmd = state.command
        assert cmd.jupiter_loc is not None
        victims = [b for b in state.at[cmd.jupiter_loc] if state.owner[b] != cmd.side]
        # Identities stay hidden: the table learns the picked block from its tag.
        return Decision(CHANCE_NAME, "jupiter-pick", KINDS["jupiter-pick"],
                        {"card": "Jupiter", "player": SIDES[cmd.side], "location": _name(cmd.jupiter_loc),
                         "side": SIDES[1 - cmd.side], "blocks": len(victims)})
    fight = _fight(state)
    firing = fight.d["firing"]
    return Decision(CHANCE_NAME, "dice", KINDS["dice"],
                    {"dice": fight.dice_needed(), "block": _key(firing), "side": SIDES[state.owner[firing]],
                     "location": _name(fight.loc), "round": fight.d["round"],
                     "hits_on": FIREPOWER[firing]})


# --------------------------------------------------------------------------- players
def _player(state: GameState, side: int, options: tuple) -> Decision:
    phase = state.phase
    if phase in (DISCARD, CARD):
        return _card_decision(state, side, options)
    if phase == COMMAND:
        return _command(state, side, options)
    if phase == BATTLE:
        return _battle(state, side, options)
    if phase == WINTER:
        return _winter(state, side, options)
    raise ValueError(f"no player decision in the {phase} phase")


def _card_decision(state: GameState, side: int, options: tuple) -> Decision:
    private = {"hand": [_card(c) for c in sorted(state.hands[side])]}
    if state.phase == DISCARD:
        return _decision(side, "discard", {"year": state.year, **private}, options, ("hand",))
    params: dict[str, Any] = {"year": state.year, "turn": state.turn, **private}
    keys: tuple[str, ...] = ("hand",)
    if APOLLO in state.hands[side] and state.turn > 1 and state.revealed:
        params["apollo_copies"] = _card(effective_card(state, side, APOLLO))
        keys += ("apollo_copies",)
    return _decision(side, "play", params, options, keys)


def _command(state: GameState, side: int, options: tuple) -> Decision:
    cmd = state.command
    card = {"card": _card(cmd.card), "event": cmd.event}
    if cmd.event == "Jupiter":
        if cmd.jupiter_block is not None and cmd.jupiter_loc is not None:
            return _decision(side, "jupiter-send",
                             {**card, "location": _name(cmd.jupiter_loc), "block": _key(cmd.jupiter_block),
                              "destinations": [_name(l) for l in send_destinations(state)]},
                             options, ("block",))
        return _decision(side, "jupiter-target",
                         {**card, "targets": [_name(l) for l in jupiter_targets(state, side)],
                          "may_decline": True}, options)
    if cmd.event == "Vulcan":
        return _decision(side, "vulcan-city",
                         {**card, "targets": [_name(l) for l in vulcan_targets(state, side)],
                          "may_decline": True}, options)
    count = {"moves": Move, "levies": Levy, "steps": AddStep, "declarations": DeclareMain}
    choices = {k: sum(1 for a in options if type(a) is cls) for k, cls in count.items()}
    params = {**card, "mp": cmd.mp, "mp_used": cmd.mp_used, "mp_left": max(cmd.mp - cmd.mp_used, 0),
              "lp": cmd.lp, "lp_used": cmd.lp_used, "lp_left": max(cmd.lp - cmd.lp_used, 0),
              "activated": [_name(l) for l in cmd.activated], "levying": cmd.levying,
              "amphibious_open": cmd.amphibious_open,
              # private: which of his blocks can move, be levied or gain a step is his secret
              "choices": choices, "can_end": any(type(a) is EndCommand for a in options),
              "can_take_back": any(type(a) is TakeBack for a in options),
              "last": cmd.log[-1] if cmd.log else None}
    return _decision(side, "command", params, options, ("choices", "can_end", "can_take_back", "last"))


def _battle(state: GameState, side: int, options: tuple) -> Decision:
    fight = battle.current_fight(state)
    if fight is None:
        pick = battle.declaring(state)
        if pick is not None:
            bt = state.battles[pick["loc"]]
            roads = main_attack_choices(state, bt)
            return _decision(side, "main-attack",
                             {"location": _name(bt.loc), "surprise": pick["surprise"],
                              "roads": [BOARD.edge_name(e) for e in roads],
                              "from": [_name(_origin(e, bt.loc)) for e in roads],
                              "current": None if bt.main_edge is None else BOARD.edge_name(bt.main_edge)},
                             options)
        event = battle.surprise_event(state)
        battles = []
        for loc in state.contested_locations():
            attack = state.battles.get(loc)
            surprise = sorted({a.surprise for a in options if a.loc == loc and a.surprise})
            attacker = attack.attacker if attack else state.player1
            battles.append({"location": _name(loc), "attacker": None if attacker is None else SIDES[attacker],
                            "surprise": surprise})
        return _decision(side, "choose-battle", {"battles": battles, "surprise_event": event}, options)
    d = fight.d
    where = {"location": _name(fight.loc), "round": d["round"], "attacker": SIDES[d["attacker"]]}
    if d["over"]:
        # The battle is over: its blocks stand up again, so the regroup is the winner's secret.
        dests = {_key(b): [_name(x) for x in fight.regroup_destinations(b)] for b in fight.blocks(side)}
        return _decision(side, "regroup", {**where, "blocks": len(dests), "destinations": dests},
                         options, ("destinations",))
    if d["firing"] is not None:
        cands = fight.hit_candidates()
        return _decision(side, "take-hit",
                         {**where, "hits": d["hits"], "firing": _key(d["firing"]),
                          "blocks": [_key(b) for b in cands],
                          "strength": state.strength(cands[0]) if cands else 0}, options)
    return _decision(side, "battle-turn", {**where, **_turn_params(fight, side, options)}, options)


def _turn_params(fight: Fight, side: int, options: tuple) -> dict:
    """The blocks that may take this battle turn (revealed: they fight now) and what each may do."""
    d = fight.d
    eligible = fight.eligible()
    letter = INITIATIVE[side == d["attacker"]][eligible[0]] if eligible else None
    blocks = []
    for b in eligible:
        mine = [a for a in options if getattr(a, "block", None) == b]
        retreats = [a for a in mine if type(a) is Retreat]
        blocks.append({
            "block": _key(b), "strength": fight.state.strength(b),
            "fire": any(type(a) is Fire for a in mine), "pass": any(type(a) is Pass for a in mine),
            "retreat": [{"to": _name(a.loc), "by_sea": a.by_sea} for a in retreats if a.loc is not None],
            "eliminated_if_no_retreat": any(a.loc is None for a in retreats),
        })
    must = d["round"] == 4 and side == d["attacker"]
    return {"letter": letter, "blocks": blocks, "must_retreat": must}


def _winter(state: GameState, side: int, options: tuple) -> Decision:
    step = winter.current_step(state)
    if step == "navis":
        seas: dict[str, int] = {}
        ports: dict[str, list[str]] = {}
        for a in options:
            seas.setdefault(_name(state.loc[a.block]), 0)
            ports.setdefault(_key(a.block), []).append(_name(a.loc))
        for b in {a.block for a in options}:
            seas[_name(state.loc[b])] += 1
        return _decision(side, "navis-to-port", {"seas": seas, "ports": ports}, options, ("ports",))
    if step == "supply":
        cities = [{"city": _name(l), "blocks": state.count[l][side], "limit": winter.supply_limit(l),
                   "over": state.count[l][side] - winter.supply_limit(l)}
                  for l in winter.oversupplied(state, side)]
        return _decision(side, "supply", {"cities": cities}, options)
    return _decision(side, "disband", {"blocks": sum(1 for a in options if getattr(a, "block", None) is not None)},
                     options, ("blocks",))


__all__ = ["Decision", "pending", "KINDS", "CHANCE_NAME"]

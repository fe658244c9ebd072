"""What an action changed: `Effect`s named from a before/after comparison of the state.

Owns `capture(state)` (a cheap picture of what effects are made of: block places, sides and
steps, cards revealed, phase/turn/year, the fight, the result), `compute(before, state,
action)` -> `Effects` (the differences, named, with their cause taken from the action), who may
see each effect (`Effect.seen_by`; everyone else gets `Effect.redacted`), whether the action
revealed hidden information or consumed chance (`Effects.barrier`, the undo barrier), and the
English instruction the table gives for an effect (`instruction(effect, viewer)`).

Effects are computed from differences, not announced by the rules modules, so automatic
consequences (Vulcan, Cleopatra, disruption, round-4 eliminations, winter navis and supply,
the year's reset) are never missed. A block effect names the block only to its owner(s), unless
the block is revealed under the rules just before or just after the action (a battle being
fought, face up in the pool, a dead leader), or the rules make it public then (Jupiter's
defector once moved, Cleopatra changing side or going home).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import compress
from operator import ne
from typing import Any

from .actions import Deal, DeclareMain, Discard, JupiterPick, JupiterSend, Play
from .board import BOARD, CHANCE, SIDES, parse_actor, side_index
from .state import BATTLE, DEAD, ELIMINATED, OVER, POOL, WINTER, GameState
from .winter import current_step

N_BLOCKS = BOARD.n_blocks
_IDS = range(N_BLOCKS)
CLEO = BOARD.cleopatra
_MAX_STEPS = tuple(b.max_steps for b in BOARD.blocks)
_PER_STEP = tuple(b.strength_per_step for b in BOARD.blocks)
_VP_LOCS = tuple(l for l in range(BOARD.n_locs) if BOARD.vp[l])
_ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")
OFF_MAP = {POOL: "pool", ELIMINATED: "eliminated", DEAD: "dead"}

# The cause of a block effect when the block is the one the action names (or the action hits).
ACTION_CAUSE = {"Move": "move", "Levy": "levy", "AddStep": "add-step", "TakeBack": "take-back",
                "JupiterPick": "jupiter", "JupiterSend": "jupiter", "InvokeVulcan": "vulcan",
                "Roll": "hit", "Hit": "hit", "Retreat": "retreat", "Regroup": "regroup",
                "NavisToPort": "winter-navis", "Disband": "disband"}
CHANCE_BARRIER = {"Deal": "deal", "Roll": "dice", "JupiterPick": "jupiter-pick"}


@dataclass(slots=True)
class Effect:
    """One change. `kind` is a stable code, `params` JSON-safe (blocks by key, locations and
    cards by printed name, sides by name). `seen_by`: the sides who may see `params` (None:
    everyone); any other viewer sees `redacted`. `block` is the block id, if any. Treat it as
    immutable: it is not frozen only because frozen dataclasses are slow to build, and one is
    built per change on every apply."""
    kind: str
    params: dict
    seen_by: tuple[int, ...] | None = None
    redacted: dict | None = None
    block: int | None = None

    def visible_to(self, viewer: int | None) -> bool:
        """Whether `viewer` (0, 1 or None = public) may see `params` in full."""
        return self.seen_by is None or (viewer is not None and viewer in self.seen_by)

    def as_seen(self, viewer: int | None) -> dict[str, Any]:
        """The JSON form `viewer` (0, 1 or None = public) may see."""
        if self.visible_to(viewer):
            return {"kind": self.kind, "params": dict(self.params)}
        return {"kind": self.kind, "params": dict(self.redacted or {}), "redacted": True}

    def to_json(self) -> dict[str, Any]:
        """The effect in full, as JSON-safe data."""
        return {"kind": self.kind, "params": dict(self.params)}


class Effects(list):
    """The effects of one applied action, in order (a list of `Effect`). `action` is the action;
    `barrier` names what it revealed or what chance it consumed (None: nothing, undoable);
    `block_shown`: whether the block the action names may be named to everyone."""

    def __init__(self, action=None, items: Iterable[Effect] = ()):
        super().__init__(items)
        self.action = action
        self.barrier: str | None = None
        self.block_shown = False

    def as_seen(self, viewer: int | None) -> list[dict]:
        """Each effect as `viewer` may see it."""
        return [e.as_seen(viewer) for e in self]

    def to_json(self) -> dict[str, Any]:
        """The action line, the barrier and every effect in full, as JSON-safe data."""
        return {"action": str(self.action), "barrier": self.barrier, "effects": [e.to_json() for e in self]}


@dataclass(slots=True)
class Snapshot:
    """What `compute` compares: taken by `capture` just before an action is applied."""
    loc: list[int]
    owner: list[int]
    steps: list[int]
    phase: str
    cmd_side: int | None
    turn: int
    year: int
    n_revealed: int
    fight: tuple | None          # (loc, round, over, reserves, disrupted count, firing, attacker)
    in_battle: frozenset[int]    # the blocks the battle being fought reveals now
    winter_step: str | None
    main_edges: dict = field(default_factory=dict)

    def revealed(self, b: int) -> bool:
        """Whether block `b` was revealed to everyone just before the action."""
        return b in self.in_battle or self.loc[b] < POOL


def _fight(state: GameState) -> dict | None:
    data = state.ext.get("battle") if state.phase == BATTLE else None
    return data.get("fight") if data else None


def _in_battle(state: GameState) -> frozenset[int]:
    """The blocks tipped forward in the battle being fought: its non-reserve blocks (7.1, 7.3)."""
    f = _fight(state)
    if f is None or f["over"]:
        return frozenset()
    reserves = f["reserves"]
    return frozenset(b for b in state.at[f["loc"]] if b not in reserves)


def revealed_blocks(state: GameState) -> set[int]:
    """Blocks whose identity and strength everyone may know now (rulings "Hidden information"):
    the non-reserve blocks of the battle being fought, face-up eliminated blocks, dead leaders."""
    return {b for b, l in enumerate(state.loc) if l < POOL} | _in_battle(state)


def capture(state: GameState) -> Snapshot:
    """What `compute` compares, taken from `state` just before an action."""
    f = _fight(state)
    fight = None if f is None else (f["loc"], f["round"], f["over"], tuple(f["reserves"]),
                                    len(f["disrupted"]), f["firing"], f["attacker"])
    winter = state.ext.get("winter") if state.phase == WINTER else None
    step = current_step(state) if winter else None
    return Snapshot(state.loc[:], state.owner[:], state.steps[:], state.phase,
                    state.cmd.side if state.cmd else None, state.turn, state.year, len(state.revealed),
                    fight, _in_battle(state) if f is not None else frozenset(), step,
                    {l: bt.main_edge for l, bt in state.battles.items()} if state.battles else {})


def _lname(l: int) -> str:
    return BOARD.loc_names[l] if l >= 0 else OFF_MAP[l]


def _card(c: int | None) -> str | None:
    return None if c is None else BOARD.cards[c].name


def _vp_now(st: GameState) -> list[int]:
    """`GameState.vp` for both sides, looking only at the locations worth VP."""
    v = [0, 0]
    for l in _VP_LOCS:
        c = st.count[l]
        if c[0] and not c[1]:
            v[0] += BOARD.vp[l]
        elif c[1] and not c[0]:
            v[1] += BOARD.vp[l]
    for s in (0, 1):
        v[s] += sum(1 for b in BOARD.leaders[1 - s] if st.loc[b] == DEAD)
    return v


def _vp_delta(before: Snapshot, st: GameState, changed: list[int]) -> list[int]:
    """How each side's VP changed, from the few blocks that changed (4.x: friendly cities'
    values, 1 per dead enemy leader); the counts before are the counts now, adjusted."""
    delta = [0, 0]
    touched = set()
    for b in changed:
        for l in (before.loc[b], st.loc[b]):
            if l >= 0 and BOARD.vp[l]:
                touched.add(l)
            elif l == DEAD and (before.loc[b] == DEAD) != (st.loc[b] == DEAD):
                delta[1 - BOARD.blocks[b].side] += 1 if st.loc[b] == DEAD else -1
    for l in touched:
        now = st.count[l]
        then = now[:]
        for b in changed:
            if st.loc[b] == l:
                then[st.owner[b]] -= 1
            if before.loc[b] == l:
                then[before.owner[b]] += 1
        for s in (0, 1):
            delta[s] += BOARD.vp[l] * ((now[s] > 0 and not now[1 - s]) - (then[s] > 0 and not then[1 - s]))
    return delta


def compute(before: Snapshot, st: GameState, action) -> Effects:
    """The effects of `action`, which has just turned the position `before` into `st`."""
    out = Effects(action)
    name = type(action).__name__
    actor: int = action.actor
    in_battle_after = _in_battle(st) if before.fight is not None or st.phase == BATTLE else frozenset()
    public_reveal = False
    if isinstance(action, Deal):
        for s in (0, 1):
            cards = [_card(c) for c in action.hand(s)]
            out.append(Effect("cards.dealt", {"side": SIDES[s], "cards": cards, "count": len(cards)},
                              (s,), {"side": SIDES[s], "count": len(cards)}))
    elif isinstance(action, (Discard, Play)):
        kind = "card.discarded" if isinstance(action, Discard) else "card.chosen"
        out.append(Effect(kind, {"side": SIDES[actor], "card": _card(action.card)}, (actor,),
                          {"side": SIDES[actor]}))
    if len(st.revealed) > before.n_revealed and st.year == before.year:
        r = st.revealed[-1]
        out.append(Effect("cards.revealed", {
            "turn": len(st.revealed), "Caesar": _card(r[0]), "Pompeius": _card(r[1]),
            "Caesar_counts_as": _card(r[2]), "Pompeius_counts_as": _card(r[3]), "cancelled": bool(r[4]),
            "player1": None if r[4] or st.player1 is None else SIDES[st.player1]}))
        public_reveal = True
    if isinstance(action, JupiterPick):
        b = action.block
        info = BOARD.blocks[b]
        defects = not (info.is_leader or info.is_navis)
        jupiter_player = before.cmd_side if before.cmd_side is not None else before.owner[b]
        seen = (before.owner[b], jupiter_player) if defects else (before.owner[b],)
        out.append(Effect("jupiter.picked", {"block": info.key, "side": SIDES[before.owner[b]],
                                             "at": _lname(before.loc[b]), "defects": defects},
                          seen, {"side": SIDES[before.owner[b]], "at": _lname(before.loc[b])}, b))
    if isinstance(action, DeclareMain) and before.main_edges.get(action.loc) != \
            (st.battles[action.loc].main_edge if action.loc in st.battles else None):
        out.append(Effect("battle.main_attack", {"at": _lname(action.loc), "from": _lname(action.origin),
                                                 "side": SIDES[actor]}))
    changed = _changed(before, st)
    if changed:
        public_reveal |= _block_effects(out, before, st, action, name, in_battle_after, changed)
    public_reveal |= _battle_effects(out, before, st, action)
    _flow_effects(out, before, st, changed)
    if actor == CHANCE or name in CHANCE_BARRIER:
        out.barrier = CHANCE_BARRIER.get(name, "chance")
    elif public_reveal:
        out.barrier = _reveal_kind(out)
    named: int | None = getattr(action, "block", None)
    out.block_shown = named is not None and (before.revealed(named) or named in in_battle_after
                                             or st.loc[named] < POOL or isinstance(action, JupiterSend))
    return out


def _reveal_kind(out: Effects) -> str:
    for e in out:
        if e.kind == "cards.revealed":
            return "card-reveal"
        if e.kind in ("battle.begun", "battle.round"):
            return "battle-reveal"
        if e.kind == "block.side" and e.params.get("cause") == "jupiter":
            return "jupiter-defector"
    for e in out:
        if e.block == CLEO and e.seen_by is None:
            return "cleopatra"
    return "elimination"


def _changed(before: Snapshot, st: GameState) -> list[int]:
    """The blocks whose place, side or steps differ (usually none or one: compare lists first)."""
    out: set[int] = set()
    for old, new in ((before.loc, st.loc), (before.owner, st.owner), (before.steps, st.steps)):
        if old != new:
            out.update(compress(_IDS, map(ne, old, new)))
    return sorted(out)


def _block_effects(out: Effects, before: Snapshot, st: GameState, action, name: str,
                   in_battle_after: frozenset[int], changed: list[int]) -> bool:
    """Append the block effects; True if one names publicly a block that was hidden."""
    own = getattr(action, "block", None)
    action_cause = ACTION_CAUSE.get(name, "rules")
    if name == "Disband" and before.winter_step == "supply":
        action_cause = "supply"
    winter_ran = before.phase == WINTER or st.phase in (WINTER, OVER) or st.year != before.year
    disrupted = (before.fight is not None and (f := _fight(st)) is not None
                 and len(f["disrupted"]) > before.fight[4])
    reserves = before.fight[3] if before.fight else ()
    revealing = False
    bl, bo, bs = before.loc, before.owner, before.steps
    for b in changed:
        l0, l1, o0, o1, s0, s1 = bl[b], st.loc[b], bo[b], st.owner[b], bs[b], st.steps[b]
        info = BOARD.blocks[b]
        cause = action_cause
        if b != own:
            if l0 == ELIMINATED and l1 == POOL:
                cause = "year-end"
            elif b == CLEO and (o0 != o1 or l0 != l1) and name != "JupiterSend":
                cause = "winter-cleopatra" if winter_ran else "cleopatra"
            elif winter_ran and info.is_navis and l0 >= 0 and BOARD.is_sea[l0]:
                cause = "winter-navis"
            elif disrupted and b in reserves:
                cause = "disruption"
            elif before.phase == BATTLE and name not in ("Roll", "Hit") and l1 in (ELIMINATED, DEAD):
                cause = "round-4"
        was_shown = before.revealed(b)
        public = (was_shown or l1 < POOL or b in in_battle_after or cause in ("cleopatra", "winter-cleopatra")
                  or (name == "JupiterSend" and b == own))
        if public and not was_shown:
            revealing = True
        seen = None if public else tuple(sorted({o0, o1}))
        key, side0 = info.key, SIDES[o0]
        if o0 != o1 and l1 >= 0:   # off the map a block is its printed side's: no side effect
            at = _lname(l0 if l0 >= 0 else l1)
            out.append(Effect("block.side", {"block": key, "from": side0, "to": SIDES[o1], "at": at,
                                             "cause": cause}, seen, {"at": at, "cause": cause}, b))
        side = SIDES[o1]
        if l1 >= 0 and l0 >= 0 and l0 != l1:
            out.append(Effect("block.moved", {"block": key, "side": side, "from": _lname(l0), "to": _lname(l1),
                                              "cause": cause}, seen,
                              {"side": side, "from": _lname(l0), "to": _lname(l1), "cause": cause}, b))
        elif l1 >= 0 and l0 < 0:
            out.append(Effect("block.placed", {"block": key, "side": side, "to": _lname(l1), "from": _lname(l0),
                                               "steps": s1, "strength": s1 * _PER_STEP[b], "cause": cause},
                              seen, {"side": side, "to": _lname(l1), "cause": cause}, b))
            continue
        elif l1 in (ELIMINATED, DEAD) and l0 >= 0:
            out.append(Effect("block.eliminated", {"block": key, "side": SIDES[info.side], "from": _lname(l0),
                                                   "to": _lname(l1), "cause": cause}, None, None, b))
            continue
        elif l1 == POOL and l0 >= 0:
            out.append(Effect("block.to_pool", {"block": key, "side": SIDES[info.side], "from": _lname(l0),
                                                "cause": cause}, seen,
                              {"side": SIDES[info.side], "from": _lname(l0), "cause": cause}, b))
            continue
        elif l1 == POOL and l0 == ELIMINATED:
            out.append(Effect("block.returned", {"block": key, "side": SIDES[info.side], "cause": cause},
                              None, None, b))
            continue
        elif l0 != l1:   # any other off-map change (not made by the rules today)
            out.append(Effect("block.off_map", {"block": key, "side": side, "from": _lname(l0), "to": _lname(l1),
                                                "steps": s1, "cause": cause}, seen, {"side": side}, b))
            continue
        if s0 != s1 and l1 >= 0:
            at = _lname(l1)
            out.append(Effect("block.strength", {
                "block": key, "side": side, "at": at, "from": s0, "to": s1,
                "strength_from": s0 * _PER_STEP[b], "strength_to": s1 * _PER_STEP[b], "cause": cause},
                seen, {"side": side, "at": at, "cause": cause}, b))
    return revealing


def _battle_effects(out: Effects, before: Snapshot, st: GameState, action) -> bool:
    f0 = before.fight
    f1 = _fight(st)
    revealing = False
    if type(action).__name__ == "Roll" and f0 is not None and f0[5] is not None:
        firer = f0[5]
        fp = BOARD.blocks[firer].firepower
        out.append(Effect("dice.rolled", {"block": BOARD.blocks[firer].key, "side": SIDES[before.owner[firer]],
                                          "faces": list(action.faces),
                                          "hits": sum(1 for x in action.faces if x <= fp)}, block=firer))
    new = f1 is not None and (f0 is None or f0[0] != f1["loc"] or (f0[2] and not f1["over"]))
    if f0 is not None and not f0[2] and (f1 is None or f1["loc"] != f0[0] or f1["over"]):
        loc = f0[0]
        c = st.count[loc]
        if f1 is not None and f1["loc"] == loc:
            winner = f1["winner"]
        else:   # the fight is gone already: nobody regroups, so nobody is left, or one side
            winner = 0 if c[0] and not c[1] else 1 if c[1] and not c[0] else None
        out.append(Effect("battle.ended", {"at": _lname(loc), "winner": None if winner is None else SIDES[winner]}))
    elif f0 is not None and f1 is not None and f1["loc"] == f0[0] and not f1["over"]:
        if len(f1["disrupted"]) > f0[4]:
            for s in f1["disrupted"][f0[4]:]:
                out.append(Effect("battle.disrupted", {"at": _lname(f0[0]), "side": SIDES[s]}))
        if f1["round"] != f0[1]:
            arrived = [b for b in f0[3] if st.loc[b] == f0[0]]
            out.append(Effect("battle.round", {"at": _lname(f0[0]), "round": f1["round"],
                                               "revealed": _shown(st, arrived)}))
            revealing = bool(arrived)
    if new and f1 is not None and not f1["over"]:
        loc = f1["loc"]
        shown = [b for b in st.at[loc] if b not in f1["reserves"]]
        waiting = {SIDES[s]: sum(1 for b in f1["reserves"] if st.owner[b] == s and st.loc[b] == loc) for s in (0, 1)}
        out.append(Effect("battle.begun", {"at": _lname(loc), "attacker": SIDES[f1["attacker"]],
                                           "surprise": bool(f1["surprise"]), "revealed": _shown(st, shown),
                                           "reserves": waiting}))
        revealing = True
    return revealing


def _shown(st: GameState, blocks: list[int]) -> list[dict]:
    return [{"block": BOARD.blocks[b].key, "side": SIDES[st.owner[b]], "strength": st.strength(b)} for b in blocks]


def _flow_effects(out: Effects, before: Snapshot, st: GameState, changed: list[int]) -> None:
    cmd_side = st.cmd.side if st.cmd else None
    if st.year != before.year:
        out.append(Effect("year.changed", {"from": before.year, "to": st.year}))
    if st.turn != before.turn or st.year != before.year:
        out.append(Effect("turn.changed", {"year": st.year, "turn": st.turn}))
    if st.phase != before.phase or cmd_side != before.cmd_side:
        out.append(Effect("phase.changed", {"from": before.phase, "to": st.phase,
                                            "side": None if cmd_side is None else SIDES[cmd_side]}))
    delta = _vp_delta(before, st, changed) if changed else None
    if delta and delta != [0, 0]:
        v1 = _vp_now(st)
        v0 = [v1[0] - delta[0], v1[1] - delta[1]]
        out.append(Effect("vp.changed", {"from": {SIDES[s]: v0[s] for s in (0, 1)},
                                         "to": {SIDES[s]: v1[s] for s in (0, 1)}}))
    if st.result is not None and before.phase != OVER:
        r = st.result
        out.append(Effect("game.over", {"winner": None if r["winner"] is None else SIDES[r["winner"]],
                                        "reason": r["reason"], "vp": {SIDES[s]: r["vp"][s] for s in (0, 1)}}))


# --- instructions for the table -------------------------------------------------------------

def _viewer(viewer: object) -> int | None:
    return None if viewer is None else parse_actor(viewer, allow_chance=False)


def _label(effect: Effect, viewer: int | None) -> str:
    b = effect.block
    assert b is not None, "block effects name their block"
    return BOARD.block_label(b, viewer) if viewer is not None else BOARD.blocks[b].key


def instruction(effect: Effect, viewer=None) -> str | None:
    """What the table tells `viewer` ("Caesar", "Pompeius", 0, 1 or None = everyone) to do
    for `effect`, in English; None when the effect asks nothing of the board (cards, dice,
    phase, VP). A block hidden from the viewer is "a Caesar block"."""
    v = _viewer(viewer)
    k, p = effect.kind, effect.params
    full = effect.visible_to(v)
    if not full:
        p = effect.redacted or {}
    if k == "block.moved":
        who = _label(effect, v) if full else f"a {p['side']} block"
        return f"move {who} from {p['from']} to {p['to']}"
    if k == "block.placed":
        if full:
            return f"put {_label(effect, v)} from the {p['side']} levy pool in {p['to']} at {_ROMAN[p['strength']]}"
        return f"put a {p['side']} block from the levy pool in {p['to']}"
    if k == "block.strength":
        if full:
            return f"turn {_label(effect, v)} in {p['at']} to {_ROMAN[p['strength_to']]}"
        return f"turn a {p['side']} block in {p['at']}"
    if k == "block.eliminated":
        if p["to"] == "dead":
            return (f"remove {_label(effect, v)} from {p['from']}: a dead leader, a trophy for "
                    f"{SIDES[1 - side_index(p['side'])]}")
        return f"remove {_label(effect, v)} from {p['from']}; put it in the {p['side']} levy pool face up"
    if k == "block.to_pool":
        who = _label(effect, v) if full else f"a {p['side']} block"
        return f"remove {who} from {p['from']}; put it in the {p['side']} levy pool standing"
    if k == "block.returned":
        return f"stand {_label(effect, v)} up in the {p['side']} levy pool"
    if k == "block.side":
        if full:
            return f"turn {_label(effect, v)} in {p['at']} to face {p['to']}: it now fights for {p['to']}"
        return f"turn a block in {p['at']} to face the other side"
    if k == "block.off_map":
        return f"put {_label(effect, v) if full else 'a ' + p['side'] + ' block'} in the {p.get('to', 'pool')}"
    if k == "battle.begun":
        return f"battle in {p['at']}: tip its blocks forward (reserves stay standing)"
    if k == "battle.round" and p["revealed"]:
        return f"round {p['round']} in {p['at']}: tip the reserves forward"
    if k == "battle.ended":
        return f"the battle in {p['at']} is over: stand its blocks up"
    return None


__all__ = ["Effect", "Effects", "Snapshot", "capture", "compute", "instruction", "revealed_blocks"]

"""Reusable checks of the pending decision and of moves by endpoints, for any position.

`check_pending(game)` and `check_endpoints(game)` raise AssertionError naming what is wrong;
they change nothing in `game` (trial applications run on copies). Called after every action
of random games by tests/engine/test_pending.py, test_endpoints.py and the fuzz.
"""
from __future__ import annotations

import json
import random
import re
from collections import Counter

from engine.actions import Deal, JupiterPick, Move, Roll
from engine.battle import current_fight, public_battle
from engine.board import BOARD, CHANCE_NAME, SIDES
from engine.endpoints import MAIN, RESERVE
from engine.errors import IllegalAction
from engine.game import Game, sample_chance
from engine.pending import KINDS
from engine.state import COMMAND, POOL

VIEWERS = (None, "Caesar", "Pompeius")
# Every block key as a whole word, longest first ("C Legio 13" is not "C Legio 1").
BLOCK_KEY = re.compile(r"\b(" + "|".join(re.escape(b.key) for b in sorted(BOARD.blocks, key=lambda b: -len(b.key)))
                       + r")\b")


# --------------------------------------------------------------------------- pending
def check_pending(game: Game) -> None:
    decisions = game.pending()
    assert [d.actor for d in decisions] == game.current_players(), (decisions, game.current_players())
    for d in decisions:
        assert KINDS.get(d.kind) == d.rule, (d.kind, d.rule)
        data = d.to_json()
        assert json.loads(json.dumps(data)) == data, d.kind
        if d.actor == CHANCE_NAME:
            _check_chance(game, d)
        else:
            assert d.options, f"{d.actor}'s {d.kind} decision has no option"
    for side in SIDES:
        mine = [a for d in decisions if d.actor == side for a in d.options]
        legal = game.legal_actions(side, take_back=True) if side in game.current_players() else []
        assert Counter(mine) == Counter(legal), f"{side}: options {len(mine)} != legal {len(legal)}"
    for d in decisions:
        for viewer in VIEWERS:
            _check_hidden(game, d, viewer)


def _check_chance(game: Game, d) -> None:
    assert game.is_chance_node() and not d.options, d
    outcome = sample_chance(game, random.Random(0))
    if d.kind == "deal":
        assert isinstance(outcome, Deal) and d.params["cards_each"] == len(outcome.caesar) == len(outcome.pompeius)
    elif d.kind == "dice":
        n = d.params["dice"]
        fight = current_fight(game.state)
        assert isinstance(outcome, Roll) and len(outcome.faces) == n == fight.dice_needed() > 0, (d, outcome)
        assert d.params["block"] == BOARD.blocks[fight.d["firing"]].key
        for wrong in (n - 1, n + 1):
            trial = game.copy()
            try:
                trial.apply(Roll((1,) * wrong))
            except IllegalAction:
                continue
            raise AssertionError(f"a roll of {wrong} dice was accepted where {n} are due")
    elif d.kind == "jupiter-pick":
        st = game.state
        loc = BOARD.location(d.params["location"])
        enemy = [b for b in st.at[loc] if st.owner[b] != st.cmd.side]
        assert isinstance(outcome, JupiterPick) and outcome.block in enemy and d.params["blocks"] == len(enemy)
    else:
        raise AssertionError(f"unknown chance decision {d.kind}")


def secret_blocks(game: Game, viewer: str | None) -> set[str]:
    """Keys of the blocks whose identity `viewer` may not know now: blocks of the other side
    (both, for the public) on the map and not revealed in the battle being fought, and levy
    pools."""
    st = game.state
    me = None if viewer is None else SIDES.index(viewer)
    fight = public_battle(st)
    revealed = set()
    if fight:
        revealed = {x["block"] for blocks in fight["revealed"].values() for x in blocks}
        revealed |= {fight["firing"]} | ({(fight["last_roll"] or {}).get("block")})
    out = set()
    for b, info in enumerate(BOARD.blocks):
        if st.loc[b] >= 0 and st.owner[b] != me and info.key not in revealed:
            out.add(info.key)
        elif st.loc[b] == POOL and info.side != me:
            out.add(info.key)
    return out


def secret_cards(game: Game, viewer: str | None) -> set[str]:
    """Card names `viewer` may not see: the others' hands, discards and unrevealed cards, less
    any kind revealed this year (a name cannot tell two cards of one kind apart)."""
    st = game.state
    me = None if viewer is None else SIDES.index(viewer)
    shown = {BOARD.cards[c].name for r in st.revealed for c in r[:4]}
    hidden = set()
    for s in (0, 1):
        if s != me:
            cards = list(st.hands[s]) + [c for c in (st.discards[s], st.chosen[s]) if c is not None]
            hidden |= {BOARD.cards[c].name for c in cards}
    return hidden - shown


def _check_hidden(game: Game, d, viewer: str | None) -> None:
    seen = d.for_viewer(viewer)
    if viewer == d.actor:
        assert seen == d
        return
    assert seen.options == () and seen.kind == d.kind and seen.rule == d.rule
    text = json.dumps(seen.to_json())
    leaked = set(BLOCK_KEY.findall(text)) & secret_blocks(game, viewer)
    assert not leaked, f"{d.kind} of {d.actor} shows {sorted(leaked)} to {viewer or 'the public'}: {text}"
    for card in secret_cards(game, viewer):
        assert json.dumps(card) not in text, f"{d.kind} of {d.actor} shows card {card} to {viewer}: {text}"


# --------------------------------------------------------------------------- endpoints
def check_endpoints(game: Game, trials: int = 4) -> None:
    """Moves by endpoints equal the legal Move list filtered by (block, origin, dest), for
    every triple it holds; triples it does not hold give nothing; up to `trials` options per
    position are applied on a copy to confirm their MP and battle role."""
    st = game.state
    if st.phase != COMMAND or game.is_chance_node():
        return
    side = st.cmd.side
    by_end: dict[tuple[int, int, int], list[Move]] = {}
    for a in game.legal_actions(side):
        if isinstance(a, Move) and a.path[0] != a.path[-1]:   # loops: not by endpoints (moves_between)
            by_end.setdefault((a.block, a.path[0], a.path[-1]), []).append(a)
    tried = 0
    for (b, o, dst), moves in by_end.items():
        got = game.moves_between(SIDES[side], b, o, dst)
        assert Counter(m.action for m in got) == Counter(moves), (b, o, dst, got, moves)
        for m in got:
            _check_option(game, m)
            if tried < trials and (m.contact or len(got) > 1):
                _check_by_applying(game, m)
                tried += 1
    for b in range(BOARD.n_blocks):
        o = st.loc[b]
        if o < 0 or st.owner[b] != side:
            continue
        for dst, _ in BOARD.sea_adj[o] + BOARD.land_adj[o]:
            if (b, o, dst) not in by_end:
                assert game.moves_between(SIDES[side], b, o, dst) == [], (b, o, dst)
    for b, o, dst in list(by_end)[:1]:   # the side not in command moves nothing
        assert game.moves_between(SIDES[1 - side], b, o, dst) == []


def _check_option(game: Game, m) -> None:
    st = game.state
    path = m.action.path
    assert m.path == tuple(BOARD.loc_names[x] for x in path)
    assert len(m.borders) == len(path) - 1
    assert all(c == BOARD.edge_class[BOARD.edge(path[i], path[i + 1])] for i, (_, c) in enumerate(m.borders))
    assert m.amphibious == (not BOARD.blocks[m.action.block].is_navis and BOARD.is_sea[path[1]])
    assert m.mp == (1 if m.amphibious or path[0] not in st.cmd.activated else 0)
    assert (m.contact is None) == (m.arrives_as is None) == (not st.count[path[-1]][1 - m.action.actor])


def _check_by_applying(game: Game, m) -> None:
    trial = game.copy()
    before = trial.state.cmd.mp_used
    trial.apply(m.action)
    st = trial.state
    if st.phase == COMMAND and st.cmd.side == m.action.actor:
        assert st.cmd.mp_used - before == m.mp, (m, st.cmd.mp_used, before)
    if m.contact:
        bt = st.battles[m.action.path[-1]]
        assert (bt.attacker == m.action.actor) == (m.contact in ("attack", "reinforce")), m
        assert bt.is_reserve(m.action.block) == (m.arrives_as == RESERVE), m
        assert m.arrives_as in (MAIN, RESERVE)

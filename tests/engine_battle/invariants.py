"""Invariants checked after every action of the fuzz games, each computed independently of
the engine's own bookkeeping."""
from __future__ import annotations

import json

from engine.battle import public_battle
from engine.board import BOARD, SIDES
from engine.state import DEAD, ELIMINATED, POOL, GameState
from engine.views import view

OFF_MAP = (POOL, ELIMINATED, DEAD)


def check_blocks(st: GameState) -> None:
    """Every block is in exactly one place; the per-location indices agree with it; steps in
    range; only leaders are dead."""
    seen = {}
    for loc, here in enumerate(st.at):
        assert here == sorted(here), f"{BOARD.loc_names[loc]} index unsorted"
        for b in here:
            assert b not in seen, f"{BOARD.blocks[b].key} in two locations"
            seen[b] = loc
        assert st.count[loc] == [sum(1 for b in here if st.owner[b] == s) for s in (0, 1)], \
            f"{BOARD.loc_names[loc]} per-side counts disagree with its blocks"
    for b, info in enumerate(BOARD.blocks):
        where = st.loc[b]
        if where >= 0:
            assert seen.get(b) == where, f"{info.key}: loc {where} but indexed at {seen.get(b)}"
            assert 1 <= st.steps[b] <= info.max_steps, f"{info.key} has {st.steps[b]} steps"
            if BOARD.is_sea[where]:
                assert info.is_navis, f"{info.key} (land) stands at sea"
        else:
            assert where in OFF_MAP and b not in seen, f"{info.key} off map but indexed"
            assert st.owner[b] == info.side, f"{info.key} off map but owned by the other side"
            assert where != DEAD or info.is_leader, f"{info.key} dead but not a leader"


def recomputed_vp(st: GameState, side: int) -> int:
    owners: dict[int, set[int]] = {}
    for b in range(BOARD.n_blocks):
        if st.loc[b] >= 0:
            owners.setdefault(st.loc[b], set()).add(st.owner[b])
    vp = sum(BOARD.vp[loc] for loc, who in owners.items() if who == {side})
    return vp + sum(1 for b, info in enumerate(BOARD.blocks)
                    if info.is_leader and info.side != side and st.loc[b] == DEAD)


def check_vp(st: GameState) -> None:
    for s in (0, 1):
        assert st.vp(s) == recomputed_vp(st, s), f"{SIDES[s]} VP {st.vp(s)} != recomputed"


def check_views(st: GameState) -> None:
    """Neither side's view names an enemy block that stands hidden on the map or in the
    enemy's levy pool, nor the enemy's hand, discard or chosen card."""
    fight = public_battle(st)
    revealed = set()
    if fight:
        for blocks in fight["revealed"].values():
            revealed.update(x["block"] for x in blocks)
    for side in (0, 1):
        v = view(st, side)
        text = json.dumps(v)
        for b, info in enumerate(BOARD.blocks):
            hidden = (st.loc[b] >= 0 and st.owner[b] != side and info.key not in revealed) or \
                     (st.loc[b] == POOL and info.side != side)
            if hidden:
                assert f'"{info.key}"' not in text, f"{SIDES[side]}'s view shows {info.key}"
        assert sorted(v["hand"]) == sorted(BOARD.cards[c].name for c in st.hands[side])
        assert "own_levy_pool" in v and all(k.startswith(SIDES[side][0]) or k == "Cleopatra"
                                            for k in v["own_levy_pool"])


class Checker:
    """`after(game, action)` hook for `play_game`: blocks and VP after every action, the views
    (the costly part) every `view_every` actions and whenever the phase changes."""

    def __init__(self, view_every: int = 10):
        self.view_every = view_every
        self.actions = 0
        self.phase = None
        self.cleopatra_on_map = False

    def __call__(self, game, action) -> None:
        st = game.state
        self.actions += 1
        check_blocks(st)
        on_map = st.loc[BOARD.cleopatra] >= 0
        assert on_map or not self.cleopatra_on_map, f"Cleopatra left the map after {action}"
        self.cleopatra_on_map = on_map
        check_vp(st)
        if self.actions % self.view_every == 0 or st.phase != self.phase:
            check_views(st)
        self.phase = st.phase

"""Reusable checks of effects, per-side history and undo (called by the tests here and by the
lead's 300-game fuzz). Each check raises AssertionError naming what is wrong.

    check_effects(game_before_copy, game_after, effects)
    check_undo(game, rng) -> the action undone, or None
    check_history_secrecy(game) / hidden_names(...)

The effects are replayed here by our own small table model (not by engine code): a block
effect moves, places, turns or removes the block as the instruction says.
"""
from __future__ import annotations

import json
import random
import re

from engine.actions import card_name
from engine.board import BOARD, SIDES, side_index
from engine.effects import Effects, instruction
from engine.errors import IllegalAction
from engine.game import Game, sample_chance
from engine.state import CHANCE, DEAD, ELIMINATED, OVER, POOL, GameState

OFF = {"pool": POOL, "eliminated": ELIMINATED, "dead": DEAD}


def _loc(name: str) -> int:
    return OFF[name] if name in OFF else BOARD.location(name)


def _apply_effect(st: GameState, e) -> None:
    """The table model: what a block effect tells the players to do to the board."""
    p = e.params
    if not e.kind.startswith("block."):
        return
    b = BOARD.block(p["block"])
    assert b == e.block, f"{e.kind}: params name {p['block']}, the effect block {e.block}"
    info = BOARD.blocks[b]
    if e.kind == "block.side":
        assert SIDES[st.owner[b]] == p["from"], f"{p['block']} is not {p['from']}'s"
        st.change_side(b, side_index(p["to"]))
    elif e.kind == "block.moved":
        assert st.loc[b] == _loc(p["from"]), f"{p['block']} is not in {p['from']}"
        st.relocate(b, _loc(p["to"]))
    elif e.kind == "block.placed":
        assert st.loc[b] == _loc(p["from"]) and st.loc[b] < 0, f"{p['block']} is not off the map"
        st.owner[b] = side_index(p["side"])
        st.steps[b] = p["steps"]
        st.place(b, _loc(p["to"]))
    elif e.kind == "block.strength":
        assert st.loc[b] == _loc(p["at"]) and st.steps[b] == p["from"], \
            f"{p['block']} is not at {p['from']} in {p['at']}"
        st.steps[b] = p["to"]
    elif e.kind in ("block.eliminated", "block.to_pool"):
        assert st.loc[b] == _loc(p["from"]), f"{p['block']} is not in {p['from']}"
        st.lift(b)
        st.owner[b], st.steps[b] = info.side, info.max_steps
        st.loc[b] = POOL if e.kind == "block.to_pool" else _loc(p["to"])
    elif e.kind == "block.returned":
        assert st.loc[b] == ELIMINATED, f"{p['block']} is not face up in the pool"
        st.loc[b] = POOL
    else:
        raise AssertionError(f"unexpected block effect {e.kind}")


def check_effects(game_before_copy: Game, game_after: Game, effects: Effects) -> None:
    """Applying `effects` to the previous position reproduces the new one: every block's
    place, steps and side (and the per-location indices); the phase, turn, year, VP and
    result effects agree with the new state; every effect is JSON-safe, and no instruction or
    redacted form names a block its viewer may not see. `effects`: what `game_after.apply`
    returned (or `game_after.effects_at(-1)`; self-play needs `play_game(..., effects=True)`)."""
    assert isinstance(effects, Effects) and effects.action is not None, \
        "no effects: apply with effects=True (selfplay.play_game(..., effects=True))"
    st = game_before_copy.state.copy()
    for e in effects:
        _apply_effect(st, e)
        json.dumps(e.to_json())
        for v in (0, 1, None):
            json.dumps(e.as_seen(v))
            line = instruction(e, v)
            assert line is None or isinstance(line, str)
            if e.block is not None and not e.visible_to(v):
                info = BOARD.blocks[e.block]
                assert info.key not in (line or "") and info.key not in json.dumps(e.as_seen(v)), (e, v, line)
    after = game_after.state
    for b in range(BOARD.n_blocks):
        got, want = (st.loc[b], st.owner[b], st.steps[b]), (after.loc[b], after.owner[b], after.steps[b])
        if got != want and not (got[0] < 0 and want[0] < 0 and got[:2] == want[:2]):
            raise AssertionError(f"after {effects.action}: effects leave {BOARD.blocks[b].key} at {got}, "
                                 f"the game has it at {want}; effects: {[e.to_json() for e in effects]}")
        if want[0] < 0:
            assert got[2] == want[2], f"{BOARD.blocks[b].key} off the map at {got[2]} steps, not {want[2]}"
    assert st.at == after.at and st.count == after.count
    before = game_before_copy.state
    kinds = [e.kind for e in effects]
    assert ("year.changed" in kinds) == (before.year != after.year)
    assert ("turn.changed" in kinds) == (before.turn != after.turn or before.year != after.year)
    assert ("game.over" in kinds) == (before.phase != OVER and after.phase == OVER)
    phase = [e.params for e in effects if e.kind == "phase.changed"]
    commanding = [s.cmd.side if s.cmd else None for s in (before, after)]
    if before.phase != after.phase or commanding[0] != commanding[1]:
        assert phase and phase[-1]["to"] == after.phase, f"{effects.action}: no phase change to {after.phase}"
    else:
        assert not phase
    vp = [e.params for e in effects if e.kind == "vp.changed"]
    now = {SIDES[s]: after.vp(s) for s in (0, 1)}
    then = {SIDES[s]: before.vp(s) for s in (0, 1)}
    if now != then:
        assert vp and vp[-1]["to"] == now and vp[-1]["from"] == then, \
            f"{effects.action}: VP {then} -> {now}, effects {vp}"
    else:
        assert not vp
    assert ("cards.revealed" in kinds) == (len(after.revealed) > len(before.revealed) and after.year == before.year)
    if effects.action.actor == CHANCE:
        assert effects.barrier is not None


def check_undo(game: Game, rng: random.Random):
    """Play one action from `game` (a chance outcome, or a random legal player action) on a
    copy, then undo it. If the copy says it can be undone, the undo restores exactly the state
    (`to_json()`), the notation history, every side's history and the undo status, and the
    same action applied again gives the same effects. Otherwise the undo is refused with code
    "undo.barrier" and changes nothing. Returns the action undone (None: refused). `game`
    itself is not changed."""
    if game.is_over():
        return None
    g = game.copy()
    state0, hist0 = json.dumps(g.to_json(), sort_keys=True), list(g.history)
    tail = max(0, len(g.history) - 5)   # the entries an undo could touch, and how many there are
    seen0 = [json.dumps(g.history_for(v, since=tail)) for v in (None, "Caesar", "Pompeius")]
    can0 = g.can_undo()
    if g.is_chance_node():
        action = sample_chance(g, rng)
    else:
        action = rng.choice(g.legal_actions())
    fx = g.apply(action, effects=True)
    after = json.dumps(g.to_json(), sort_keys=True)
    if not g.can_undo():
        assert fx.barrier is not None
        try:
            g.undo()
        except IllegalAction as exc:
            assert exc.code == "undo.barrier" and exc.params["barrier"] == fx.barrier, exc.to_json()
        else:
            raise AssertionError(f"undo of {action} was allowed across {fx.barrier}")
        assert json.dumps(g.to_json(), sort_keys=True) == after
        return None
    assert fx.barrier is None and action.actor != CHANCE
    assert g.undo() == action
    assert json.dumps(g.to_json(), sort_keys=True) == state0, f"undo of {action} did not restore the state"
    assert g.history == hist0
    assert [json.dumps(g.history_for(v, since=tail)) for v in (None, "Caesar", "Pompeius")] == seen0
    assert g.can_undo() == can0
    again = g.apply(action, effects=True)
    assert [e.to_json() for e in again] == [e.to_json() for e in fx] and again.barrier == fx.barrier
    return action


# --- secrecy -------------------------------------------------------------------------------------

_KEY_RE = {b.id: re.compile(re.escape(b.key) + r"(?![0-9])") for b in BOARD.blocks}


def public_blocks(st: GameState) -> set[int]:
    """Blocks the rules reveal to everyone in this position (our own reading, independent of
    engine.effects): the non-reserve blocks of a battle being fought, face-up eliminated
    blocks, dead leaders."""
    out = {b for b in range(BOARD.n_blocks) if st.loc[b] in (ELIMINATED, DEAD)}
    data = st.ext.get("battle") if st.phase == "battle" else None
    fight = data and data.get("fight")
    if fight and not fight["over"]:
        out |= {b for b in st.at[fight["loc"]] if b not in fight["reserves"]}
    return out


def check_entry_secrecy(before: Game, after: Game, viewer: int | None) -> None:
    """The newest entry of `after.history_for(viewer)` names no block of another side that is
    hidden from `viewer` both before and after that action (Jupiter's defector excepted once
    sent), and carries no card of another side's deal, discard or unrevealed play."""
    entry = after.history_for(viewer, since=len(after.history) - 1)[-1]
    text = json.dumps(entry)
    bst, ast = before.state, after.state
    action = after.effects_at(-1).action
    allowed = public_blocks(bst) | public_blocks(ast)
    if type(action).__name__ == "JupiterSend":
        allowed.add(action.block)
    cleo = BOARD.cleopatra
    if bst.owner[cleo] != ast.owner[cleo] or (getattr(action, "block", None) != cleo and bst.loc[cleo] != ast.loc[cleo]
                                             and ast.loc[cleo] == BOARD.location("Alexandria")):
        allowed.add(cleo)   # she changes side in place, or goes home in winter (8.1): a public rule
    for b in range(BOARD.n_blocks):
        own = viewer is not None and (bst.owner[b] == viewer or ast.owner[b] == viewer)
        if own or b in allowed:
            continue
        pick = type(action).__name__ == "JupiterPick" and action.block == b and viewer is not None \
            and not (BOARD.blocks[b].is_leader or BOARD.blocks[b].is_navis) and bst.cmd.side == viewer
        if pick:
            continue
        assert not _KEY_RE[b].search(text), f"{SIDES[viewer] if viewer is not None else 'public'} sees hidden " \
                                            f"{BOARD.blocks[b].key} in {entry}"
        if getattr(action, "block", None) == b:
            label = BOARD.block_label(b, action.actor)
            if label not in SIDES:
                assert not re.search(re.escape(label) + r"(?![0-9])", entry["text"]), entry
                # The action as data, redacted alike: no label, no key, the engine says it is redacted.
                data = entry["action"]
                assert data.get("redacted") is True and not {"block", "key"} & set(data["params"]), entry
                assert not re.search(re.escape(label) + r"(?![0-9])", json.dumps(data)), entry
    name = type(action).__name__
    revealed = any(e["kind"] == "cards.revealed" for e in entry["effects"])
    if name in ("Discard", "Play", "Deal") and not (name == "Play" and revealed):
        others = (0, 1) if viewer is None else (1 - viewer,)
        for e in entry["effects"]:
            if e["kind"] in ("cards.dealt", "card.discarded", "card.chosen") and \
                    side_index(e["params"]["side"]) in others:
                assert "card" not in e["params"] and "cards" not in e["params"], entry
        if name == "Deal":
            for s in others:
                assert f"{SIDES[s]}: 6 cards" in entry["text"] or viewer is None, entry
        elif action.actor in others:
            verb = "discards" if name == "Discard" else "plays"
            assert entry["text"] == f"{SIDES[action.actor]} {verb} a card", entry
            assert entry["action"] == {"type": {"Discard": "discard", "Play": "play"}[name],
                                       "actor": SIDES[action.actor], "params": {}, "redacted": True}, entry
        if name == "Deal":
            data = entry["action"]["params"]
            assert set(data) == ({"count"} if viewer is None else {"count", "own"}), entry
            assert viewer is None or data["own"] == [card_name(c) for c in action.hand(viewer)], entry

"""The fuzz invariants catch what they claim to catch (a checker that cannot fail proves nothing)."""
import pytest

from engine.board import BOARD
from engine.game import Game
from engine.views import view

from . import invariants
from .helpers import B, L


def test_a_consistent_state_passes():
    st = Game().state
    invariants.check_blocks(st)
    invariants.check_vp(st)
    invariants.check_views(st)


@pytest.mark.parametrize("corrupt, message", [
    (lambda st: st.count[L("Roma")].__setitem__(0, 1), "counts disagree"),
    (lambda st: st.steps.__setitem__(B("C Legio 13"), 0), "steps"),
    (lambda st: st.at[L("Roma")].append(B("C Legio 13")), "two locations"),
    (lambda st: st.loc.__setitem__(B("C Legio 17"), -3), "dead but not a leader"),
])
def test_corrupted_blocks_are_caught(corrupt, message):
    st = Game().state
    corrupt(st)
    with pytest.raises(AssertionError, match=message):
        invariants.check_blocks(st)


def test_a_wrong_vp_is_caught(monkeypatch):
    st = Game().state
    monkeypatch.setattr(type(st), "vp", lambda self, side: 99)
    with pytest.raises(AssertionError, match="VP"):
        invariants.check_vp(st)


def test_a_leaking_view_is_caught(monkeypatch):
    st = Game().state
    real = view

    def leaky(state, side):
        v = real(state, side)
        v["leak"] = BOARD.blocks[B("P Legio 1")].key
        return v
    monkeypatch.setattr(invariants, "view", leaky)
    with pytest.raises(AssertionError, match="shows P Legio 1"):
        invariants.check_views(st)

"""A determinization agrees with everything the side knows: seen from that side it gives back
the same view, and the same legal actions."""
import random

from engine import SIDES, Game
from rubicon.bot.determinize import determinize, supported
from rubicon.bot.info import Memory, information_state
from tests.bot.helpers import positions

# Parts of the view a determinization must reproduce exactly (the attack bookkeeping and the
# battle turn order are drawn, so `battles` and `fight` are compared by what they count).
KEYS = ("year", "turn", "phase", "player1", "vp", "locations", "road_use", "levy_pool_size", "eliminated",
        "dead_leaders", "hand_size", "has_discarded", "has_chosen", "revealed", "own_blocks", "own_levy_pool",
        "hand", "discard", "chosen", "command")


def test_determinizations_reproduce_the_view_and_the_legal_actions():
    rng = random.Random(7)
    checked = 0
    for i in range(6):
        for game, side in positions(("easy", "easy"), seed=8, index=i, every=4):
            info = information_state(game, side, Memory(side))
            if not supported(info):
                continue
            det = Game(state=determinize(info, rng))
            view = det.view(SIDES[side])
            for k in KEYS:
                assert view[k] == info.view[k], k
            assert [b["reserves"] for b in view["battles"]] == [b["reserves"] for b in info.view["battles"]]
            legal = [a for a in det.legal_actions(SIDES[side]) if type(a).__name__ != "TakeBack"]
            assert sorted(map(str, legal)) == sorted(map(str, info.legal))
            checked += 1
    assert checked >= 50


def test_the_opponents_cards_come_from_the_cards_this_side_has_not_seen():
    for game, side in positions(("easy", "random"), seed=9, every=2, limit=30):
        info = information_state(game, side, Memory(side))
        if info.view["phase"] not in ("discard", "card"):
            continue
        det = determinize(info, random.Random(1))
        opp = 1 - side
        assert len(det.hands[opp]) == info.view["hand_size"][SIDES[opp]]
        mine = sorted(det.hands[side] + det.hands[opp] + [c for c in det.discards + det.chosen if c is not None]
                      + [c for r in det.revealed for c in r[:2]])
        from engine import BOARD
        deck = list(BOARD.deck)
        for c in mine:
            deck.remove(c)   # never more of a kind than the deck holds

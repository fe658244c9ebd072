"""At the table the bot reads only its side's snapshot part (view and legal actions); the
information state built from it is exactly the one the never-peeks tests check."""
from engine import SIDES
from rubicon.bot.info import Memory, from_view, information_state
from tests.bot.helpers import positions


def test_the_snapshot_part_gives_the_same_information_state():
    checked = 0
    for game, side in positions(("easy", "easy"), seed=8, every=4, limit=60):
        name = SIDES[side]
        a = information_state(game, side, Memory(side))
        b = from_view(side, game.view(name), game.legal_actions(name, take_back=True), Memory(side))
        assert a.digest() == b.digest()
        checked += 1
    assert checked == 60

"""Refusals of unreadable lines name what was written, not a fragment of it."""
import pytest

from engine.errors import ParseError
from engine.game import Game


@pytest.mark.parametrize("line, expected", [
    ("Pompeius levies Legio 99 in Alexandria", "no block name starts 'Legio 99 in Alexandria'"),
    ("Caesar moves Legio XIII Ravenna-Ariminum", "no block name starts 'Legio XIII Ravenna-Ariminum'"),
    ("Caesar moves Legio 13 Ravenna-Rome2", "unknown location 'Rome2'"),
    ("Chance picks Navis 1", "ambiguous"),
])
def test_unknown_names_are_quoted_whole(line, expected):
    game = Game()
    before = game.to_json()
    with pytest.raises(ParseError) as err:
        game.apply(line)
    assert expected in str(err.value)
    assert game.to_json() == before

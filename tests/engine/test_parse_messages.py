"""Refusals of unreadable lines name what was written, not a fragment of it."""
import pytest

from engine.actions import parse_action
from engine.errors import ParseError
from engine.game import Game
from engine.notation import RecordError, read_record


@pytest.mark.parametrize("line, expected", [
    ("Pompeius levies Legio 99 in Alexandria", "no block name starts 'Legio 99 in Alexandria'"),
    ("Caesar moves Legio XIII Ravenna-Ariminum", "no block name starts 'Legio XIII Ravenna-Ariminum'"),
    ("Caesar moves Legio 13 Ravenna-Rome2", "unknown location 'Rome2'"),
    ("Chance picks Navis 1", "ambiguous"),
])
def test_unknown_names_are_quoted_whole(line, expected):
    game = Game()
    before = game.state.to_json()
    with pytest.raises(ParseError) as err:
        game.apply(line)
    assert expected in str(err.value)
    assert game.state.to_json() == before


@pytest.mark.parametrize("line", ["Chance rolls 1 7", "Chance rolls 0"])
def test_die_faces_out_of_range_are_named(line):
    with pytest.raises(ParseError, match="7.4 a die shows 1 to 6"):
        parse_action(line)


def test_a_misspelled_option_line_is_named(tmp_path):
    with pytest.raises(RecordError, match="an option line reads 'Option NAME: VALUE'"):
        read_record("Options winter_order: v1.01\n", "game.txt")

"""Bad input: each a clear error naming the rule (or what is unreadable) and the state unchanged."""
import pytest

from engine.actions import Levy, Move, Play, parse_action
from engine.errors import IllegalAction, ParseError

from .helpers import B, L, command_game, refused

POS = {"Genua": ["C Legio 8", "C Legio 12"], "Neapolis": ["P Legio 1"]}


def game():
    return command_game(POS, "3/1", "2/2")


@pytest.mark.parametrize("line,match", [
    ("Caesar moves Legio 8 Genua-Atlantis", "unknown location 'Atlantis'"),
    ("Caesar moves Legio 99 Genua-Roma", "unknown block"),
    ("Caesar plays 9/9", "unknown card '9/9'"),
    ("Caesar levies Legio 17 in Nowhere", "unknown location 'Nowhere'"),
    ("Caesar moves Legio 8 Genua", "two or more locations"),
    ("Caesar teleports Legio 8 Roma", "not an action of the notation"),
    ("Brutus moves Legio 8 Genua-Roma", "starts with Caesar, Pompeius or Chance"),
    ("", "starts with Caesar, Pompeius or Chance"),
    ("Chance moves Legio 8 Genua-Roma", "only a player"),
])
def test_unreadable_lines_raise_parse_error_and_change_nothing(line, match):
    g = game()
    e = refused(g, line, match)
    assert isinstance(e, ParseError)


def test_parse_error_is_an_illegal_action_is_a_value_error():
    with pytest.raises(ValueError):
        parse_action("Caesar plays nothing")
    assert issubclass(ParseError, IllegalAction) and issubclass(IllegalAction, ValueError)


def test_move_along_a_road_that_does_not_exist():
    refused(game(), "Caesar moves Legio 8 Genua-Neapolis", "6.1 no road or sea border joins Genua and Neapolis")


def test_block_that_already_moved():
    g = game()
    g.apply("Caesar moves Legio 8 Genua-Roma")
    refused(g, "Caesar moves Legio 8 Roma-Genua", "6.1 a block moves once per game turn")


def test_exceeded_road_limit():
    g = command_game({"Ravenna": ["C Legio 7", "C Legio 8", "C Legio 9"], "Neapolis": ["P Legio 1"]}, "3/1", "2/2")
    g.apply("Caesar moves Legio 7 Ravenna-Roma")
    g.apply("Caesar moves Legio 8 Ravenna-Roma")
    refused(g, "Caesar moves Legio 9 Ravenna-Roma", "6.11 road limit")


def test_levy_into_a_vacant_city():
    refused(game(), "Caesar levies Auxilia 1 in Roma", "6.4 .*friendly city.*Roma is vacant")


def test_moving_the_enemy_block_or_a_block_not_there():
    g = game()
    refused(g, "Caesar moves P Legio 1 Neapolis-Roma", "6.1 P Legio 1 is not a Caesar block")
    refused(g, "Caesar moves Legio 8 Roma-Neapolis", "6.1 Legio 8 stands in Genua, not in Roma")
    refused(g, "Caesar moves Legio 17 Roma-Neapolis", r"6.1 Legio 17 is not on the map \(pool\)")


def test_acting_out_of_turn():
    g = game()
    refused(g, "Pompeius moves Legio 1 Neapolis-Roma", "6.0 it is Caesar's turn")
    refused(g, "Chance picks P Legio 1", "no chance action is due")
    refused(g, "Caesar plays 2/2", "not a command-phase action")


def test_nonsense_values_are_refused_not_crashing():
    g = game()
    refused(g, Move(0, 999, (L("Genua"), L("Roma"))), "malformed action")
    refused(g, Move(0, -2, (L("Genua"), L("Roma"))), "no block number -2")
    refused(g, Move(0, B("C Legio 8"), (L("Genua"),)), "at least one more location")
    refused(g, Move(0, B("C Legio 8"), (L("Genua"), 999)), "malformed action")
    refused(g, Move(0, B("C Legio 8"), (L("Genua"), -3)), "no location number -3")
    refused(g, Levy(0, B("C Auxilia 1"), -5), "no location number -5")
    refused(g, Play(0, 77), "malformed action")
    refused(g, Play(0, -1), "not a command-phase action")


def test_take_back_with_nothing_to_take_back():
    refused(game(), "Caesar takes back", "nothing to take back")


@pytest.mark.parametrize("data", [{}, {"year": 705}, [], None, {"options": {"winter_order": "never"}},
                                  {"format": "rubicon-save/1", "options": {"winter_order": "never"}, "lines": []}])
def test_json_that_is_not_a_save_is_a_clear_value_error(data):
    from engine.game import Game
    with pytest.raises(ValueError, match="not a Rubicon save"):
        Game.from_json(data)


def test_every_phase_has_its_module_and_an_unknown_phase_is_a_clear_refusal():
    from engine import phases
    from engine.state import OVER, PHASES
    assert set(phases.PHASE_MODULES) == set(PHASES) - {OVER}
    with pytest.raises(IllegalAction, match="no phase 'lunch' is played"):
        phases.phase_module("lunch")


@pytest.mark.parametrize("line", [
    "Caesar declares main attack on" + " " * 900 + "x",
    "Chance deals Caesar:" + " " * 900 + "x",
    "Caesar " + "x" * 100_000,
    "Caesar moves Legio 13 " + "-".join(["Roma"] * 150),
])
def test_long_or_spacey_lines_are_refused_quickly(line):
    # no timing asserted: a regex that backtracked on these would hang this test for minutes
    g = game()
    refused(g, line, ".")

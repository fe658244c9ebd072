"""Moves by endpoints (`Game.moves_between`): every legal move taking a block from where it
was lifted to where it was set down, with what each implies."""
import pytest

from engine.board import BOARD
from engine.errors import ParseError
from engine.game import Game
from engine.selfplay import game_rng, play_game

from .api_checks_pending import check_endpoints
from .helpers import B, L, command_game


def paths(options) -> list[str]:
    return ["-".join(o.path) for o in options]


def test_random_games_match_a_brute_force_filter_of_the_legal_moves():
    for i in range(10):
        play_game(game_rng(4711, i), after=lambda game, _action: check_endpoints(game))


def test_several_roads_between_two_cities_each_with_its_borders_and_mp():
    g = command_game({"Ravenna": ["C Legio 13", "C Legio 8"], "Alexandria": ["P Legio 38"]}, "3/2", "1/2")
    opts = g.moves_between("Caesar", "Legio 13", "Ravenna", "Roma")
    assert paths(opts) == ["Ravenna-Roma", "Ravenna-Asculum-Roma", "Ravenna-Genua-Roma"]
    assert [o.borders for o in opts] == [
        (("Ravenna–Roma", "minor"),),
        (("Ravenna–Asculum", "major"), ("Asculum–Roma", "minor")),
        (("Ravenna–Genua", "major"), ("Genua–Roma", "major"))]
    assert all(o.mp == 1 and o.contact is None and o.arrives_as is None and not o.amphibious for o in opts)
    assert [str(o.action) for o in opts] == [f"Caesar moves Legio 13 {p}" for p in paths(opts)]
    g.apply(opts[0].action)
    # Ravenna is activated now: Legio 8 follows for free.
    assert [o.mp for o in g.moves_between("Caesar", "Legio 8", "Ravenna", "Roma")] == [0, 0, 0]
    assert g.moves_between("Caesar", "Legio 13", "Roma", "Neapolis") == []   # it has moved


def test_attack_main_attack_reserve_and_response():
    g = command_game({"Ravenna": ["C Legio 13"], "Genua": ["C Legio 8"], "Roma": ["P Legio 1"],
                      "Neapolis": ["P Legio 2"]}, "3/2", "2/2")
    [attack] = g.moves_between("Caesar", "Legio 13", "Ravenna", "Roma")
    assert (attack.contact, attack.arrives_as, attack.attacks, paths([attack])) == \
        ("attack", "main", True, ["Ravenna-Roma"])   # an attack is a one-location move
    g.apply(attack.action)
    [second] = g.moves_between("Caesar", "Legio 8", "Genua", "Roma")
    assert (second.contact, second.arrives_as, second.reinforces) == ("reinforce", "reserve", True)
    g.apply(second.action)
    g.apply("Caesar ends command")
    [response] = g.moves_between("Pompeius", "Legio 2", "Neapolis", "Roma")
    assert (response.contact, response.arrives_as, response.response) == ("response", "reserve", True)


def test_amphibious_routes_name_the_seas_they_bind():
    g = command_game({"Massilia": ["C Legio 11"], "Mare Hispanum": ["C Navis 1"], "Mare Tyrrhenum": ["C Navis 2"],
                      "Alexandria": ["P Legio 38"]}, "3/2", "1/2")
    opts = g.moves_between("Caesar", "Legio 11", "Massilia", "Roma")
    assert paths(opts) == ["Massilia-Genua-Roma", "Massilia-Mare Hispanum-Mare Tyrrhenum-Roma"]
    assert [x.mp for x in opts] == [1, 1] and not opts[0].amphibious and opts[0].seas == ()
    o = opts[1]
    assert o.amphibious and o.mp == 1 and o.seas == ("Mare Hispanum", "Mare Tyrrhenum")
    assert [c for _, c in o.borders] == ["sea", "sea", "sea"]
    land = g.moves_between("Caesar", "Legio 11", "Massilia", "Genua")
    assert any(not x.amphibious for x in land) and any(x.amphibious for x in land)
    assert o.to_json()["move"] == "Caesar moves Legio 11 Massilia-Mare Hispanum-Mare Tyrrhenum-Roma"


def test_navis_moves_by_sea_borders():
    g = command_game({"Massilia": ["C Navis 1", "C Legio 11"], "Alexandria": ["P Legio 38"]}, "3/2", "1/2")
    opts = g.moves_between("Caesar", "Navis 1", "Massilia", "Mare Tyrrhenum")
    assert paths(opts) == ["Massilia-Mare Hispanum-Mare Tyrrhenum"]
    assert opts[0].seas == ("Mare Hispanum",) and not opts[0].amphibious


def test_ids_or_names_and_nothing_for_the_wrong_side_place_or_phase():
    g = command_game({"Ravenna": ["C Legio 13"], "Alexandria": ["P Legio 38"]}, "3/2", "1/2")
    by_name = g.moves_between("Caesar", "Legio 13", "Ravenna", "Roma")
    assert g.moves_between(0, B("C Legio 13"), L("Ravenna"), L("Roma")) == by_name
    assert g.moves_between("Caesar", "C Legio 13", "ravenna", "ROMA") == by_name
    assert g.moves_between("Pompeius", "C Legio 13", "Ravenna", "Roma") == []
    assert g.moves_between("Pompeius", "Legio 38", "Alexandria", "Pelusium") == []   # not his command yet
    assert g.moves_between("Caesar", "Legio 13", "Genua", "Roma") == []   # it is not in Genua
    assert g.moves_between("Caesar", "Legio 13", "Ravenna", "Ravenna") == []
    assert g.moves_between("Caesar", 999, 0, 1) == []
    with pytest.raises(ParseError, match="unknown location"):
        g.moves_between("Caesar", "Legio 13", "Ravenna", "Atlantis")
    with pytest.raises(ParseError, match="unknown block"):
        g.moves_between("Caesar", "Legio 99", "Ravenna", "Roma")
    with pytest.raises(ParseError, match="unknown side"):
        g.moves_between("Brutus", "Legio 13", "Ravenna", "Roma")
    assert Game().moves_between("Caesar", "Legio 13", "Ravenna", "Roma") == []   # the deal


def test_a_jupiter_or_vulcan_command_has_no_moves():
    g = command_game({"Ravenna": ["C Legio 13"], "Roma": ["P Legio 1"]}, "Vulcan", "2/2")
    assert g.moves_between("Caesar", "Legio 13", "Ravenna", "Genua") == []
    assert BOARD.loc_names[g.state.loc[B("C Legio 13")]] == "Ravenna"

"""Jupiter and Vulcan, full effects (rulings "Events")."""
import random

from engine.board import BOARD, CAESAR, POMPEIUS
from engine.game import sample_chance
from engine.state import DEAD, ELIMINATED

from .helpers import B, L, command_game, refused


def jupiter_game(pos, **kw):
    g = command_game(pos, "Jupiter", "2/2", **kw)
    assert g.state.player1 == CAESAR and g.state.cmd.event == "Jupiter"
    return g


POS = {"Genua": ["C Legio 12"], "Roma": ["P Legio 1", "P Pompeius"], "Neapolis": ["P Legio 3"],
       "Mare Tyrrhenum": ["P Navis 1"], "Massilia": ["C Legio 11"]}


def test_jupiter_targets_are_enemy_locations_adjacent_to_a_friendly_city():
    g = jupiter_game(POS)
    targets = {BOARD.loc_names[a.loc] for a in g.legal_actions() if hasattr(a, "loc")}
    assert targets == {"Roma", "Mare Tyrrhenum"}   # Roma by road from Genua; the sea borders Genua
    refused(g, "Caesar invokes Jupiter on Neapolis", "Jupiter: Neapolis is not adjacent to a friendly city")
    refused(g, "Caesar invokes Jupiter on Massilia", "Jupiter: Massilia holds no enemy block")


def test_jupiter_blind_pick_is_a_chance_action_among_the_enemy_blocks_there():
    g = jupiter_game(POS)
    g.apply("Caesar invokes Jupiter on Roma")
    assert g.current_players() == ["Chance"] and g.legal_actions() == []
    refused(g, "Chance picks P Legio 3", "Jupiter: the block is picked among the enemy blocks in Roma")
    picks = {sample_chance(g, random.Random(s)).block for s in range(30)}
    assert picks == {B("P Legio 1"), B("P Pompeius")}


def test_jupiter_defector_joins_at_its_strength_and_moves_to_an_adjacent_friendly_city():
    g = jupiter_game(POS, steps={"P Legio 1": 2})
    g.apply("Caesar invokes Jupiter on Roma")
    g.apply("Chance picks P Legio 1")
    assert [str(a) for a in g.legal_actions()] == ["Caesar sends P Legio 1 to Genua"]
    refused(g, "Caesar ends command", "Jupiter: first send the defecting block")
    refused(g, "Caesar sends P Legio 1 to Massilia", "Jupiter: the defector moves to a friendly city adjacent to Roma")
    g.apply("Caesar sends P Legio 1 to Genua")
    b = B("P Legio 1")
    assert g.state.owner[b] == CAESAR and g.state.loc[b] == L("Genua") and g.state.steps[b] == 2
    assert g.state.cmd.side == POMPEIUS   # the event ends Caesar's command phase


def test_jupiter_on_a_leader_costs_a_step_and_a_leader_at_one_dies_and_scores():
    g = jupiter_game(POS)
    g.apply("Caesar invokes Jupiter on Roma")
    g.apply("Chance picks P Pompeius")
    assert g.state.steps[B("P Pompeius")] == 2 and g.state.owner[B("P Pompeius")] == POMPEIUS
    g = jupiter_game(POS, steps={"P Pompeius": 1})
    vp = g.state.vp(CAESAR)
    g.apply("Caesar invokes Jupiter on Roma")
    g.apply("Chance picks P Pompeius")
    assert g.state.loc[B("P Pompeius")] == DEAD and g.state.vp(CAESAR) == vp + 1


def test_jupiter_on_a_navis_costs_a_step():
    g = jupiter_game(POS)
    g.apply("Caesar invokes Jupiter on Mare Tyrrhenum")
    g.apply("Chance picks P Navis 1")
    assert g.state.steps[B("P Navis 1")] == 1 and g.state.owner[B("P Navis 1")] == POMPEIUS


def test_cleopatra_defects_with_jupiter():
    g = jupiter_game({"Alexandria": ["Cleopatra"], "Catabathmus": ["C Legio 12"]})
    g.apply("Caesar invokes Jupiter on Alexandria")
    g.apply("Chance picks Cleopatra")
    g.apply("Caesar sends Cleopatra to Catabathmus")
    assert g.state.owner[B("Cleopatra")] == CAESAR


def test_a_defector_returns_to_its_printed_side_when_eliminated():
    g = jupiter_game(POS, steps={"P Legio 1": 1})
    g.apply("Caesar invokes Jupiter on Roma")
    g.apply("Chance picks P Legio 1")
    g.apply("Caesar sends P Legio 1 to Genua")
    b = B("P Legio 1")
    assert g.state.eliminate(b) == "eliminated"
    assert g.state.owner[b] == POMPEIUS and g.state.loc[b] == ELIMINATED


def test_jupiter_may_be_declined_and_without_target_is_no_dead_end():
    g = jupiter_game({"Genua": ["C Legio 12"], "Alexandria": ["P Legio 38"]})
    assert [str(a) for a in g.legal_actions()] == ["Caesar ends command"]
    g.apply("Caesar ends command")


def vulcan_game(pos, **kw):
    g = command_game(pos, "2/2", "Vulcan", **kw)
    assert g.state.player1 == POMPEIUS
    return g


def test_vulcan_reduces_every_block_in_an_enemy_city_and_eliminates_those_at_one():
    pos = {"Ravenna": ["C Caesar", "C Legio 13", "C Navis 2", "C Equitatus 1"], "Neapolis": ["P Legio 1"]}
    g = vulcan_game(pos, steps={"C Caesar": 1, "C Navis 2": 1})
    vp = g.state.vp(POMPEIUS)
    g.apply("Pompeius invokes Vulcan on Ravenna")
    s = g.state
    assert s.loc[B("C Caesar")] == DEAD and s.vp(POMPEIUS) == vp + 1
    assert s.loc[B("C Navis 2")] == ELIMINATED
    assert s.steps[B("C Legio 13")] == 2 and s.steps[B("C Equitatus 1")] == 2
    assert s.cmd.side == CAESAR


def test_vulcan_targets_only_enemy_cities():
    g = vulcan_game({"Ravenna": ["C Legio 13"], "Mare Hadriaticum": ["C Navis 2"], "Neapolis": ["P Legio 1"]})
    targets = {BOARD.loc_names[a.loc] for a in g.legal_actions() if hasattr(a, "loc")}
    assert targets == {"Ravenna"}
    refused(g, "Pompeius invokes Vulcan on Mare Hadriaticum", "Vulcan: the target is an enemy city")
    refused(g, "Pompeius invokes Vulcan on Neapolis", "Neapolis is friendly")


def test_vulcan_with_no_enemy_city_has_no_effect_and_no_dead_end():
    g = vulcan_game({"Mare Hadriaticum": ["C Navis 2"], "Neapolis": ["P Legio 1"]})
    assert [str(a) for a in g.legal_actions()] == ["Pompeius ends command"]


def test_vulcan_turns_cleopatra_at_one_to_the_other_side_where_she_stands():
    g = command_game({"Alexandria": ["Cleopatra", "P Legio 38"], "Roma": ["C Legio 12"]}, "Vulcan", "2/2",
                     steps={"Cleopatra": 1})
    g.apply("Caesar invokes Vulcan on Alexandria")
    s = g.state
    assert s.owner[B("Cleopatra")] == CAESAR and s.loc[B("Cleopatra")] == L("Alexandria")
    assert s.contested(L("Alexandria")) and L("Alexandria") in s.battles

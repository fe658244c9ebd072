"""Bad input in the battle and winter phases: a clear IllegalAction naming the rule, and the
game unchanged."""
import pytest

from engine.actions import ChooseBattle, Fire, Hit, NavisToPort, Regroup, Retreat, Roll

from .helpers import B, L, battle_game, refused
from .test_winter import winter_game


@pytest.fixture
def battle():
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Legio 1", "P Legio 2"]},
                    ["Caesar Roma-Neapolis"], steps={"P Legio 1": 2, "P Legio 2": 2})
    return g


def test_bad_battle_choices(battle):
    refused(battle, "Caesar fights Roma", "7.1")                       # not contested
    refused(battle, "Pompeius fights Neapolis", "7.1")                 # not Player 1
    refused(battle, ChooseBattle(0, 999), "out of range")
    refused(battle, "Caesar fights Neapolis with Mars", "2.1 .*did not play Mars")   # no Mars played
    refused(battle, "Chance rolls 1 2 3", "7.4")                       # no block is firing
    refused(battle, "Caesar fires Caesar", "7.1")                      # pick the battle first


def test_bad_battle_turns(battle):
    battle.apply("Caesar fights Neapolis")
    refused(battle, "Pompeius fires Legio 1", "7.2")                   # Caesar's A turn first
    refused(battle, Fire(1, B("C Caesar")), "7.2")                     # wrong actor
    refused(battle, Fire(0, 999), "out of range")
    refused(battle, "Caesar retreats Caesar to Roma", "7.6")           # round 1
    refused(battle, Retreat(0, B("C Caesar"), -7), "7.6")
    refused(battle, Regroup(0, B("C Caesar"), L("Roma")), "7.7")       # nobody has won
    battle.apply("Caesar fires Caesar")
    refused(battle, "Caesar passes Caesar", "7.4")                     # the dice are due
    refused(battle, "Chance rolls 1 2", "7.4")
    refused(battle, "Chance rolls 1 2 7", "7.4 a die shows 1 to 6")
    refused(battle, Roll((1, 2, 7)), "7.4")
    refused(battle, Roll(("1", 2, 3)), "7.4")
    refused(battle, Roll(None), "malformed")
    battle.apply("Chance rolls 1 6 6")
    refused(battle, Hit(1, B("C Caesar")), "7.2")
    refused(battle, Hit(0, B("P Legio 1")), "7.4")                     # the owner chooses
    battle.apply("Pompeius takes the hit on Legio 2")


def test_bad_winter_actions():
    g = winter_game({"Mare Hispanum": ["C Navis 1"], "Massilia": ["C Legio 7"], "Genua": ["C Legio 8"],
                     "Alexandria": ["Cleopatra"]})
    refused(g, NavisToPort(0, B("C Navis 1"), L("Carthago Nova")), "8.2")   # not friendly
    refused(g, NavisToPort(1, B("C Navis 1"), L("Massilia")), "8.2")
    refused(g, "Caesar disbands Legio 7", "8.2")                             # navis step first
    refused(g, "Pompeius ends disbanding", "8.2")
    g.apply("Caesar winters Navis 1 in Massilia")
    refused(g, "Pompeius disbands Cleopatra", "8.5 Pompeius has no block left")   # only Cleopatra
    refused(g, "Caesar disbands Legio 99", "unknown block")

"""The heuristic (every level) spares its leaders: a dead leader is a VP to the enemy (4.1).
From the records of 200 hard-vs-hard games: hits put on a leader at I while a legion
as strong could take them, leaders disbanded before legions as weak, leaders firing at I
instead of retreating, leaders walking alone into enemy places."""
import random

from engine import BOARD, Disband, EndCommand, Fire, GameState, Hit, Move, Retreat
from rubicon.bot import heuristic

CAESAR, ANTONIUS, LEGIO_7, LEGIO_8 = 0, 1, 3, 4
POMPEIUS_LEADER = 32
LOC = {n: i for i, n in enumerate(BOARD.loc_names)}


def _state(placed, phase="battle"):
    s = GameState(empty=True)
    s.phase = phase
    for b, where, steps in placed:
        s.place(b, LOC[where])
        s.steps[b] = steps
    return s


def test_a_hit_goes_on_a_legion_before_a_leader_of_equal_strength():
    s = _state([(ANTONIUS, "Roma", 1), (LEGIO_7, "Roma", 1)])
    for style in (heuristic.BASE, heuristic.TUNED, heuristic.EXPERT):
        hits = [Hit(0, ANTONIUS), Hit(0, LEGIO_7)]   # the engine lists the leader first
        assert heuristic.choose(s, 0, hits, random.Random(1), style) == Hit(0, LEGIO_7)


def test_winter_disbands_a_legion_before_a_leader_as_weak():
    s = _state([(CAESAR, "Roma", 2), (LEGIO_7, "Roma", 2)], phase="winter")
    got = heuristic.choose(s, 0, [Disband(0, CAESAR), Disband(0, LEGIO_7)], random.Random(1), heuristic.TUNED)
    assert got == Disband(0, LEGIO_7)


def _fight(s, where):
    s.ext["battle"] = {"fight": {"loc": LOC[where]}}


def test_a_leader_at_one_retreats_rather_than_fire_at_even_odds():
    s = _state([(ANTONIUS, "Roma", 1), (LEGIO_7, "Roma", 2), (POMPEIUS_LEADER, "Roma", 3)])
    _fight(s, "Roma")
    legal = [Fire(0, ANTONIUS), Retreat(0, ANTONIUS, LOC["Neapolis"])]
    assert isinstance(heuristic.choose(s, 0, legal, random.Random(1), heuristic.TUNED), Retreat)


def test_a_leader_at_one_fires_when_his_side_is_clearly_winning():
    s = _state([(ANTONIUS, "Roma", 1), (LEGIO_7, "Roma", 3), (LEGIO_8, "Roma", 3), (POMPEIUS_LEADER, "Roma", 1)])
    _fight(s, "Roma")
    legal = [Fire(0, ANTONIUS), Retreat(0, ANTONIUS, LOC["Neapolis"])]
    assert isinstance(heuristic.choose(s, 0, legal, random.Random(1), heuristic.TUNED), Fire)


def test_a_leader_does_not_walk_alone_into_an_enemy_place():
    """Caesar at III next to a lone Pompeian leader at I: three to one, but a legion goes in
    first; Caesar alone in front of the enemy is not worth it."""
    s = _state([(CAESAR, "Ravenna", 3), (POMPEIUS_LEADER, "Asculum", 1)], phase="command")
    s.player1 = 1   # Pompeius has commanded: nothing can join him
    road = (LOC["Ravenna"], LOC["Asculum"])
    assert BOARD.edge(*road) is not None
    lone = Move(0, CAESAR, road)
    got = heuristic.choose(s, 0, [lone, EndCommand(0)], random.Random(1), heuristic.TUNED)
    assert got == EndCommand(0)
    s.place(LEGIO_7, LOC["Ravenna"])
    first = Move(0, LEGIO_7, road)
    got = heuristic.choose(s, 0, [lone, first, EndCommand(0)], random.Random(1), heuristic.TUNED)
    assert got == first

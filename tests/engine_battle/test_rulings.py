"""Two battle rulings (docs/engine-design.md "Battles: readings"):

(a) attacking blocks retreat to a vacant location by any road or sea border the attack used
    to start or reinforce the battle: land (7.62) and navis (7.82) read the same way;
(b) in round 1, once a side has no engaged block left (only reserves to arrive), the other
    side's remaining turns of the round pass by themselves: no decision, no dice.
"""
import random

from engine.battle import current_fight
from engine.board import BOARD
from engine.game import sample_chance

from .helpers import B, L, battle_game, lines, pass_all
from .test_battle_fuzz import scenario


def test_a_land_attacker_retreats_to_a_vacant_city_by_another_attacking_blocks_road():
    g = battle_game({"Roma": ["C Legio 7"], "Sipontum": ["C Legio 8"], "Neapolis": ["P Legio 1"]},
                    ["Legio 7 Roma-Neapolis", "Legio 8 Sipontum-Neapolis"], steps={"P Legio 1": 4})
    g.apply("Caesar fights Neapolis")
    g.apply("Caesar declares main attack on Neapolis from Roma")
    pass_all(g, 2)
    g.apply("Pompeius passes Legio 1")
    retreats = {x for x in lines(g) if "retreats" in x}
    assert retreats == {f"Caesar retreats Legio {n} to {c}" for n in (7, 8) for c in ("Roma", "Sipontum")}


def test_an_attacking_navis_retreats_to_a_vacant_sea_another_navis_came_from():
    g = battle_game({"Mare Hispanum": ["C Navis 1"], "Mare Internum": ["C Navis 2"],
                     "Mare Tyrrhenum": ["P Navis 3"], "Neapolis": ["P Legio 1"]},
                    ["Navis 1 Mare Hispanum-Mare Tyrrhenum", "Navis 2 Mare Internum-Mare Tyrrhenum"])
    g.apply("Caesar fights Mare Tyrrhenum")
    g.apply("Caesar declares main attack on Mare Tyrrhenum from Mare Hispanum")
    pass_all(g, 2)
    g.apply("Pompeius passes Navis 3")
    g.apply("Caesar retreats Navis 1 to Mare Internum")     # Navis 2's sea border, not its own
    assert g.state.loc[B("C Navis 1")] == L("Mare Internum")


def _round_1_wipeout():
    """Caesar (A) and Legio 7 attack Neapolis, held by Legio 1 at I; Pompeius reinforces from
    Brundisium with Legio 3 at II (a reserve). Caesar's fire eliminates Legio 1 before Legio 7's
    turn: Pompeius has no engaged block left, only his reserve."""
    g = battle_game({"Roma": ["C Caesar", "C Legio 7"], "Neapolis": ["P Legio 1"], "Brundisium": ["P Legio 3"]},
                    ["Caesar Roma-Neapolis", "Legio 7 Roma-Neapolis"], ["Legio 3 Brundisium-Neapolis"],
                    steps={"P Legio 1": 1, "P Legio 3": 2})
    g.apply("Caesar fights Neapolis")
    g.apply("Caesar fires Caesar")
    return g


def test_round_1_turns_that_could_hit_nothing_pass_by_themselves():
    g = _round_1_wipeout()
    before = {b: (g.state.loc[b], g.state.steps[b], g.state.owner[b]) for b in range(BOARD.n_blocks)}
    g.apply("Chance rolls 1 6 6")
    f = current_fight(g.state)
    assert f.d["round"] == 2 and f.d["reserves"] == [] and f.d["acted"] == []
    # Nothing else changed: Legio 1 eliminated, the reserve disrupted (one step), the defender
    # disrupted so Caesar defends from now on; Legio 7 neither fired nor rolled.
    after = {b: (g.state.loc[b], g.state.steps[b], g.state.owner[b]) for b in range(BOARD.n_blocks)}
    changed = {BOARD.blocks[b].key for b in after if after[b] != before[b]}
    assert changed == {"P Legio 1", "P Legio 3"}
    assert g.state.steps[B("P Legio 3")] == 1 and g.state.steps[B("C Legio 7")] == before[B("C Legio 7")][1]
    assert f.d["last_roll"][0] == B("C Caesar") and f.d["defender"] == 0
    assert g.history[-1] == "Chance rolls 1 6 6"
    # Round 2: Caesar (A, now defending) acts first; Legio 7's round-1 turn is not asked for.
    assert {str(a) for a in g.legal_actions()} >= {"Caesar fires Caesar", "Caesar passes Caesar"}
    assert "Caesar passes Legio 7" not in lines(g)


def test_a_side_with_engaged_blocks_on_both_sides_still_plays_every_turn():
    g = _round_1_wipeout()
    g.apply("Chance rolls 6 6 6")                   # a miss: Legio 1 stands, Legio 7 is asked
    assert current_fight(g.state).d["round"] == 1
    g.apply("Pompeius passes Legio 1")
    assert "Caesar passes Legio 7" in lines(g)


def test_random_battles_never_ask_for_a_turn_that_could_hit_nothing_and_always_end():
    asked = 0
    for i in range(60):
        rng = random.Random(f"ruling-b/{i}")
        g = scenario(rng)
        while g.state.phase == "battle":
            f = current_fight(g.state)
            if f is not None and not f.d["over"] and f.d["firing"] is None and f.eligible():
                asked += 1
                assert f.engaged(0) and f.engaged(1), "a battle turn asked for while one side has nothing to hit"
            if g.is_chance_node():
                g.apply(sample_chance(g, rng))
            else:
                g.apply(rng.choice(g.legal_actions()))
    assert asked > 500

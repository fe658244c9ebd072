"""Levies (6.4) and the levy rulings: placement rules, optional points, steps, Octavian/Brutus."""
from engine.board import BOARD
from engine.state import POOL

from .helpers import B, command_game, refused


def base(**kw):
    pos = {"Massilia": ["C Legio 11", "C Navis 1"], "Roma": ["C Legio 12"], "Genua": ["C Antonius"],
           "Alexandria": ["P Legio 38"]}
    return command_game(pos, "1/3", "1/2", **kw)


def test_levies_are_optional():
    g = base()
    g.apply("Caesar ends command")
    assert g.state.cmd.side == 1


def test_new_block_enters_at_one_step_and_cannot_move():
    g = base()
    g.apply("Caesar levies Legio 17 in Roma")
    assert g.state.steps[B("C Legio 17")] == 1 and g.state.strength(B("C Legio 17")) == 1
    refused(g, "Caesar moves Legio 17 Roma-Neapolis", "6.1 a block moves once per game turn")


def test_no_move_after_a_levy():
    g = base()
    g.apply("Caesar levies Auxilia 1 in Massilia")
    refused(g, "Caesar moves Legio 11 Massilia-Narbo", "6.4 levies come after all movement")


def test_steps_may_be_added_to_a_new_block_at_once():
    g = base()
    g.apply("Caesar levies Legio 17 in Roma")
    g.apply("Caesar adds a step to Legio 17")
    g.apply("Caesar adds a step to Legio 17")
    assert g.state.steps[B("C Legio 17")] == 3
    refused(g, "Caesar adds a step to Legio 17", "6.4 no levy point left: the card gives 3 and 3 are spent")


def test_elephant_enters_at_strength_two():
    g = command_game({"Utica": ["P Legio 39"], "Massilia": ["C Legio 11"]}, "3/1", "1/3")
    g.apply("Caesar ends command")
    g.apply("Pompeius levies Elephant in Utica")
    assert g.state.strength(B("P Elephant")) == 2
    g.apply("Pompeius adds a step to Elephant")
    assert g.state.strength(B("P Elephant")) == 4


def test_legions_only_in_their_named_friendly_city():
    g = base()
    refused(g, "Caesar levies Legio 17 in Massilia", "6.4 Legio 17 is levied only in Roma, its named city")
    refused(g, "Caesar levies Legio 18 in Neapolis", "6.4 .* friendly city .*Neapolis is vacant")


def test_levy_into_a_vacant_city_is_refused():
    g = base()
    refused(g, "Caesar levies Auxilia 1 in Narbo", "6.4 new blocks and steps are raised only in a friendly city")


def test_auxilia_ballista_leaders_in_any_friendly_city():
    g = base()
    g.apply("Caesar levies Auxilia 1 in Genua")
    g.apply("Caesar levies Ballista in Roma")


def test_navis_built_only_in_a_friendly_major_port():
    g = base()
    refused(g, "Caesar levies Navis 3 in Roma", "6.4 navis are built in a friendly major port; Roma is not")
    refused(g, "Caesar levies Navis 3 in Ravenna", "friendly city")
    g.apply("Caesar levies Navis 3 in Massilia")


def test_navis_steps_only_in_port_never_at_sea():
    g = command_game({"Mare Hispanum": ["C Navis 1"], "Massilia": ["C Navis 2", "C Legio 11"],
                      "Alexandria": ["P Legio 38"]}, "1/3", "1/2", steps={"C Navis 1": 1, "C Navis 2": 1})
    refused(g, "Caesar adds a step to Navis 1", "6.4 steps are added to navis only in port, never at sea")
    g.apply("Caesar adds a step to Navis 2")


def test_steps_only_in_friendly_not_contested_cities():
    g = command_game({"Genua": ["C Legio 11", "C Legio 12"], "Roma": ["P Legio 1"], "Massilia": ["C Legio 7"]},
                     "3/2", "1/2", steps={"C Legio 11": 1, "C Legio 7": 1})
    g.apply("Caesar moves Legio 12 Genua-Roma")
    g.apply("Caesar adds a step to Legio 7")
    refused(g, "Caesar adds a step to Legio 12", "3.11 Legio 12 is already at full strength")
    g2 = command_game({"Roma": ["C Legio 12", "P Legio 1"], "Massilia": ["C Legio 7"]}, "3/2", "1/2",
                      steps={"C Legio 12": 1})
    refused(g2, "Caesar adds a step to Legio 12", "Roma is contested")


def test_octavian_only_after_caesar_or_antonius_died():
    g = base()
    refused(g, "Caesar levies Octavian in Roma",
            "7.51 Octavian becomes available only when another Caesar leader is dead")
    g = command_game({"Roma": ["C Legio 12"], "Alexandria": ["P Legio 38"]}, "1/3", "1/2", dead=("C Antonius",))
    g.apply("Caesar levies Octavian in Roma")


def test_brutus_only_after_pompeius_or_scipio_died():
    g = command_game({"Roma": ["C Legio 12"], "Alexandria": ["P Legio 38"]}, "3/1", "1/3")
    g.apply("Caesar ends command")
    refused(g, "Pompeius levies Brutus in Alexandria", "7.51")
    g = command_game({"Roma": ["C Legio 12"], "Alexandria": ["P Legio 38"]}, "3/1", "1/3", dead=("P Scipio",))
    g.apply("Caesar ends command")
    g.apply("Pompeius levies Brutus in Alexandria")


def test_blocks_eliminated_this_year_cannot_be_levied():
    g = command_game({"Roma": ["C Legio 12"], "Alexandria": ["P Legio 38"]}, "1/3", "1/2", eliminated=("C Legio 17",))
    refused(g, "Caesar levies Legio 17 in Roma", "5.2 Legio 17 was eliminated this year")


def test_legal_levies_match_the_rules():
    g = base()
    levies = [str(a) for a in g.legal_actions() if " levies " in str(a)]
    assert "Caesar levies Legio 17 in Roma" in levies
    assert "Caesar levies Navis 3 in Massilia" in levies
    assert not any("Octavian" in x for x in levies)
    assert not any(x.endswith("in Narbo") for x in levies)
    pool = [b for b in range(BOARD.n_blocks) if g.state.loc[b] == POOL and BOARD.blocks[b].side == 0]
    assert B("C Legio 17") in pool


def test_levy_of_a_block_not_in_the_pool():
    g = base()
    refused(g, "Caesar levies Legio 11 in Massilia", "6.4 Legio 11 is on the map, not in the levy pool")
    refused(g, "Caesar levies P Legio 32 in Roma", "6.4 P Legio 32 is not in the Caesar levy pool")
    refused(g, "Caesar levies Auxilia 1 in Mare Hispanum", "6.4 new blocks and steps are raised in cities, not at sea")
    refused(g, "Caesar adds a step to Legio 17", r"6.4 steps are added to blocks on the map; Legio 17 is not \(pool\)")


def test_dead_leaders_are_gone_for_good():
    g = command_game({"Roma": ["C Legio 12"], "Alexandria": ["P Legio 38"]}, "1/3", "1/2", dead=("C Antonius",))
    refused(g, "Caesar levies Antonius in Roma", "7.51 Antonius is dead")

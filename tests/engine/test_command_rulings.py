"""One test per command-phase ruling (rules-notes.md "Command phase" and the movement effects
of Mars, Neptune, Mercury and Pluto)."""
from engine.board import BOARD, POMPEIUS

from .helpers import B, L, command_game, destinations, refused

C6 = ["C Legio 7", "C Legio 8", "C Legio 9", "C Legio 10", "C Legio 11", "C Legio 12"]
P6 = ["P Legio 1", "P Legio 2", "P Legio 3", "P Legio 4", "P Legio 5", "P Legio 6"]


def test_one_mp_activates_one_location_and_each_block_goes_its_own_way():
    g = command_game({"Massilia": C6[:3], "Narbo": C6[3:4], "Alexandria": ["P Legio 38"]}, "1/2", "1/3")
    g.apply("Caesar moves Legio 7 Massilia-Genua")
    g.apply("Caesar moves Legio 8 Massilia-Lugdunum-Cenabum")
    assert g.state.cmd.mp_used == 1
    refused(g, "Caesar moves Legio 10 Narbo-Tarraco", "6.1 no move point left to activate Narbo")
    g.apply("Caesar moves Legio 9 Massilia-Narbo")


def test_moves_in_any_order_mp_from_locations_activated():
    g = command_game({"Massilia": C6[:2], "Narbo": C6[2:4], "Alexandria": ["P Legio 38"]}, "2/1", "1/3")
    g.apply("Caesar moves Legio 7 Massilia-Genua")
    g.apply("Caesar moves Legio 9 Narbo-Tarraco")
    g.apply("Caesar moves Legio 8 Massilia-Lugdunum")   # Massilia already activated: free
    g.apply("Caesar moves Legio 10 Narbo-Burdigala")
    assert g.state.cmd.mp_used == 2


def test_a_block_moves_once_per_turn():
    g = command_game({"Massilia": C6[:1], "Alexandria": ["P Legio 38"]})
    g.apply("Caesar moves Legio 7 Massilia-Genua")
    refused(g, "Caesar moves Legio 7 Genua-Roma", "6.1 a block moves once per game turn: Legio 7 has already moved")


def test_two_location_moves_pass_only_friendly_or_vacant_and_entering_enemy_stops():
    g = command_game({"Massilia": C6[:2], "Genua": ["P Legio 1"]})
    refused(g, "Caesar moves Legio 7 Massilia-Genua-Roma", "6.1 blocks entering an enemy or contested location stop")
    g.apply("Caesar moves Legio 7 Massilia-Genua")
    refused(g, "Caesar moves Legio 8 Massilia-Genua-Ravenna", "Genua is contested")
    g.apply("Caesar moves Legio 8 Massilia-Genua")   # reinforcing his own attack


def test_road_limits_count_both_directions_and_each_road_of_a_move():
    g = command_game({"Ravenna": C6[:1], "Roma": C6[1:3], "Alexandria": ["P Legio 38"]}, "2/1", "1/3")
    g.apply("Caesar moves Legio 7 Ravenna-Roma")
    g.apply("Caesar moves Legio 8 Roma-Ravenna")
    refused(g, "Caesar moves Legio 9 Roma-Ravenna", r"6.11 road limit: .*minor road already carries 2")
    g = command_game({"Genua": C6[:3], "Alexandria": ["P Legio 38"]}, "2/1", "1/3")
    g.apply("Caesar moves Legio 7 Genua-Roma-Ravenna")
    g.apply("Caesar moves Legio 8 Genua-Roma-Ravenna")
    refused(g, "Caesar moves Legio 9 Genua-Roma-Ravenna", "Roma–Ravenna minor road|Ravenna–Roma minor road")
    assert g.state.road_use[BOARD.edge(L("Genua"), L("Roma"))] == 2


def test_strait_limit_2_and_1_into_a_defended_city():
    g = command_game({"Messana": C6[:3], "Alexandria": ["P Legio 38"]})
    g.apply("Caesar moves Legio 7 Messana-Rhegium")
    g.apply("Caesar moves Legio 8 Messana-Rhegium")
    refused(g, "Caesar moves Legio 9 Messana-Rhegium", r"strait road already carries 2 .*\(limit 2\)")
    g = command_game({"Messana": C6[:2], "Rhegium": ["P Legio 1"]})
    g.apply("Caesar moves Legio 7 Messana-Rhegium")
    refused(g, "Caesar moves Legio 8 Messana-Rhegium",
            r"strait road into a defended city already carries 1 .*\(limit 1\)")


def test_main_attack_is_the_first_road_unless_declared_and_other_roads_are_reserves():
    g = command_game({"Genua": C6[:2], "Ravenna": C6[2:4], "Roma": P6[:3]}, "3/1", "2/2")
    g.apply("Caesar moves Legio 9 Ravenna-Roma")
    g.apply("Caesar moves Legio 7 Genua-Roma")
    g.apply("Caesar moves Legio 8 Genua-Roma")
    bt = g.state.battles[L("Roma")]
    assert BOARD.edge_ends[bt.main_edge] in {(L("Ravenna"), L("Roma")), (L("Roma"), L("Ravenna"))}
    assert sorted(bt.reserves()) == sorted([B("C Legio 7"), B("C Legio 8")])
    g.apply("Caesar declares main attack on Roma from Genua")
    assert sorted(g.state.battles[L("Roma")].reserves()) == [B("C Legio 9")]
    refused(g, "Caesar declares main attack on Roma from Neapolis", "7.3 Caesar did not enter Roma from Neapolis")
    g.apply("Caesar ends command")
    # pinning follows the declared main attack: 2 attackers pin 2 of the 3 defenders
    g.apply("Pompeius moves Legio 1 Roma-Neapolis")
    refused(g, "Pompeius moves Legio 2 Roma-Asculum", "6.13 pinning: 2 attacking blocks")


def test_response_moves_of_player_2_are_reserves_and_only_from_adjacent():
    g = command_game({"Genua": C6[:2], "Roma": P6[:1], "Neapolis": P6[1:3], "Brundisium": P6[3:4]}, "3/1", "2/2")
    g.apply("Caesar moves Legio 7 Genua-Roma")
    g.apply("Caesar ends command")
    g.apply("Pompeius moves Legio 2 Neapolis-Roma")
    refused(g, "Pompeius moves Legio 4 Brundisium-Neapolis-Roma",
            "6.12 blocks attack or reinforce only from an adjacent")
    bt = g.state.battles[L("Roma")]
    assert bt.is_reserve(B("P Legio 2")) and not bt.is_reserve(B("C Legio 7"))


def test_pinning_binds_player_2_whichever_side_he_is():
    g = command_game({"Genua": C6[:2], "Roma": P6[:2]}, "1/2", "3/1")
    assert g.state.player1 == POMPEIUS
    g.apply("Pompeius moves Legio 1 Roma-Genua")
    g.apply("Pompeius ends command")
    refused(g, "Caesar moves Legio 8 Genua-Roma", "6.13 unpinned blocks may not leave Genua by the Genua–Roma road")
    g.apply("Caesar moves Legio 8 Genua-Lugdunum")
    refused(g, "Caesar moves Legio 7 Genua-Massilia", "6.13 pinning: 1 attacking block")


def test_navis_ignore_road_limits():
    navis = ["C Navis 1", "C Navis 2", "C Navis 3", "C Navis 4", "C Navis 5"]
    g = command_game({"Massilia": navis, "Alexandria": ["P Legio 38"]})
    for k in navis:
        g.apply(f"Caesar moves {k[2:]} Massilia-Mare Hispanum")
    assert g.state.count[L("Mare Hispanum")] == [5, 0]


def test_land_blocks_do_not_stop_at_sea_and_islands_need_the_sea():
    g = command_game({"Genua": C6[:1], "Alexandria": ["P Legio 38"]})
    refused(g, "Caesar moves Legio 7 Genua-Mare Hispanum", "land block moves by sea only amphibiously")
    refused(g, "Caesar moves Legio 7 Genua-Aleria", "6.1 no road or sea border joins Genua and Aleria")


def test_pluto_raises_limits_for_its_group_move_into_enemy_locations():
    g = command_game({"Genua": C6, "Roma": P6[:1]}, "Pluto", "2/2")
    for k in C6:
        g.apply(f"Caesar moves {k[2:]} Genua-Roma")
    assert g.state.count[L("Roma")] == [6, 1]
    # but not for moves into friendly or vacant locations
    g = command_game({"Genua": C6, "Alexandria": ["P Legio 38"]}, "Pluto", "2/2")
    for k in C6[:4]:
        g.apply(f"Caesar moves {k[2:]} Genua-Roma")
    refused(g, "Caesar moves Legio 11 Genua-Roma", r"\(limit 4\)")


def test_pluto_minor_3_and_strait_2():
    g = command_game({"Ravenna": C6[:4], "Roma": P6[:1]}, "Pluto", "2/2")
    for k in C6[:3]:
        g.apply(f"Caesar moves {k[2:]} Ravenna-Roma")
    refused(g, "Caesar moves Legio 10 Ravenna-Roma", r"\(limit 3\)")
    g = command_game({"Messana": C6[:3], "Rhegium": P6[:1]}, "Pluto", "2/2")
    g.apply("Caesar moves Legio 7 Messana-Rhegium")
    g.apply("Caesar moves Legio 8 Messana-Rhegium")
    refused(g, "Caesar moves Legio 9 Messana-Rhegium", r"\(limit 2\)")


def test_event_moves_are_one_group_move():
    g = command_game({"Massilia": C6[:1], "Narbo": C6[1:2], "Alexandria": ["P Legio 38"]}, "Mars", "2/2",
                     steps={"C Legio 7": 1})
    g.apply("Caesar moves Legio 7 Massilia-Genua")
    refused(g, "Caesar moves Legio 8 Narbo-Tarraco", "no move point left")
    refused(g, "Caesar adds a step to Legio 7", "2.1 the Mars card gives no levy point")   # its text, not 6.4


def test_mars_moves_land_blocks_only_neptune_navis_only():
    pos = {"Massilia": ["C Legio 7", "C Navis 1"], "Alexandria": ["P Legio 38"]}
    g = command_game(pos, "Mars", "2/2")
    refused(g, "Caesar moves Navis 1 Massilia-Mare Hispanum", "Mars: only land blocks")
    g = command_game(pos, "Neptune", "2/2")
    refused(g, "Caesar moves Legio 7 Massilia-Genua", "Neptune: only navis")
    g.apply("Caesar moves Navis 1 Massilia-Mare Hispanum")


def test_mercury_and_pluto_move_no_navis():
    pos = {"Massilia": ["C Legio 7", "C Navis 1"], "Alexandria": ["P Legio 38"]}
    for ev in ("Mercury", "Pluto"):
        g = command_game(pos, ev, "2/2")
        refused(g, "Caesar moves Navis 1 Massilia-Mare Hispanum", f"{ev}: navis do not move")
        assert "Mare Hispanum" not in destinations(g, "C Navis 1")


def test_mercury_three_locations_or_two_and_attack():
    g = command_game({"Massilia": C6[:3], "Burdigala": P6[:1]}, "Mercury", "2/2")
    assert "Cenabum" in destinations(g, "C Legio 7")
    g.apply("Caesar moves Legio 7 Massilia-Genua-Roma-Neapolis")
    g.apply("Caesar moves Legio 8 Massilia-Narbo-Burdigala")      # attack on the second step
    refused(g, "Caesar moves Legio 9 Massilia-Lugdunum-Cenabum-Burdigala",
            "Mercury: a block attacks on its first or second step")
    refused(g, "Caesar moves Legio 9 Massilia-Genua-Roma-Neapolis-Brundisium", "Mercury: at most three")


def test_jupiter_and_vulcan_give_no_move_and_no_levy():
    g = command_game({"Massilia": C6[:1], "Alexandria": ["P Legio 38"]}, "Vulcan", "2/2", steps={"C Legio 7": 1})
    refused(g, "Caesar moves Legio 7 Massilia-Genua", "the Vulcan card gives no move")
    refused(g, "Caesar adds a step to Legio 7", "no levy point")


def test_declaring_the_main_attack_needs_an_attack_by_that_road():
    g = command_game({"Genua": C6[:2], "Roma": P6[:1], "Ravenna": C6[2:3]}, "3/1", "2/2")
    refused(g, "Caesar declares main attack on Roma from Genua", "7.3 Caesar is not attacking Roma")
    g.apply("Caesar moves Legio 7 Genua-Roma")
    refused(g, "Caesar declares main attack on Roma from Genua", "7.3 Genua–Roma is already the main attack on Roma")
    refused(g, "Caesar declares main attack on Roma from Ravenna", "7.3 Caesar did not enter Roma from Ravenna")
    assert not [a for a in g.legal_actions() if " declares " in str(a)]
    g.apply("Caesar moves Legio 9 Ravenna-Roma")
    assert [str(a) for a in g.legal_actions() if " declares " in str(a)] == [
        "Caesar declares main attack on Roma from Ravenna"]


def test_amphibious_moves_start_in_a_port_along_bordering_seas():
    g = command_game({"Lugdunum": C6[:1], "Roma": C6[1:2], "Mare Tyrrhenum": ["C Navis 1"],
                      "Mare Hispanum": ["C Navis 2"], "Alexandria": ["P Legio 38"]}, "3/1", "2/2")
    refused(g, "Caesar moves Legio 7 Lugdunum-Mare Hispanum-Narbo", "6.3 amphibious moves start in a port")
    refused(g, "Caesar moves Legio 8 Roma-Mare Hispanum-Narbo", "6.3 Roma and Mare Hispanum do not border")

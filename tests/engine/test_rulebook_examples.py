"""The rulebook's examples about movement, as tests (6.11 road limits, move example, movement
and attacking, pinning, navis move examples, amphibious example)."""
from engine.board import BOARD, CAESAR, POMPEIUS

from .helpers import B, L, command_game, destinations, refused

LEGIONS_C = ["C Legio 7", "C Legio 8", "C Legio 9", "C Legio 10", "C Legio 11", "C Legio 12"]
LEGIONS_P = ["P Legio 1", "P Legio 2", "P Legio 3", "P Legio 4", "P Legio 5"]


def short(key):
    return key[2:]


def test_road_limit_genua_to_rome_is_4():
    g = command_game({"Genua": LEGIONS_C[:5], "Neapolis": ["P Legio 1"]})
    for k in LEGIONS_C[:4]:
        g.apply(f"Caesar moves {short(k)} Genua-Roma")
    refused(g, f"Caesar moves {short(LEGIONS_C[4])} Genua-Roma",
            r"6.11 road limit: Genua–Roma major road already carries 4 Caesar blocks this turn \(limit 4\)")


def test_road_limit_ravenna_to_rome_is_2():
    g = command_game({"Ravenna": LEGIONS_C[:3], "Neapolis": ["P Legio 1"]})
    g.apply("Caesar moves Legio 7 Ravenna-Roma")
    g.apply("Caesar moves Legio 8 Ravenna-Roma")
    refused(g, "Caesar moves Legio 9 Ravenna-Roma", r"6.11 road limit: .*minor road already carries 2 Caesar blocks")


def test_both_players_use_massilia_genua_in_one_turn():
    # Player 1 moves 4 blocks Massilia-Genua-Ravenna; Player 2 then moves 4 blocks
    # Rome-Genua-Massilia. Road limits apply to each player.
    g = command_game({"Massilia": LEGIONS_C[:4], "Roma": LEGIONS_P[:4]}, "4/1", "3/1")
    for k in LEGIONS_C[:4]:
        g.apply(f"Caesar moves {short(k)} Massilia-Genua-Ravenna")
    g.apply("Caesar ends command")
    for k in LEGIONS_P[:4]:
        g.apply(f"Pompeius moves {short(k)} Roma-Genua-Massilia")
    assert g.state.count[L("Massilia")] == [0, 4] and g.state.count[L("Ravenna")] == [4, 0]


def test_a_block_left_in_genua_stops_player_2_passing_through():
    g = command_game({"Massilia": LEGIONS_C[:4], "Roma": LEGIONS_P[:4]}, "4/1", "3/1")
    for k in LEGIONS_C[:3]:
        g.apply(f"Caesar moves {short(k)} Massilia-Genua-Ravenna")
    g.apply(f"Caesar moves {short(LEGIONS_C[3])} Massilia-Genua")
    g.apply("Caesar ends command")
    refused(g, "Pompeius moves Legio 1 Roma-Genua-Massilia",
            "6.1 blocks entering an enemy or contested location stop: Genua is enemy")
    g.apply("Pompeius moves Legio 1 Roma-Genua")   # but it may attack Genua
    assert g.state.battles[L("Genua")].attacker == POMPEIUS


def test_move_example_from_massilia():
    g = command_game({"Massilia": ["C Legio 11", "C Navis 1"], "Alexandria": ["P Legio 1"]})
    # ... and back to Massilia itself, Massilia-Genua-Massilia (the Mercury ruling: no rule forbids it)
    assert destinations(g, "C Legio 11") == {
        "Narbo", "Lugdunum", "Genua", "Tarraco", "Burdigala", "Treviri", "Cenabum", "Ravenna", "Roma", "Massilia"}


def test_navis_move_example_1_from_massilia():
    g = command_game({"Massilia": ["C Navis 1"], "Alexandria": ["P Legio 1"]})
    hispanum_ports = {"Utica", "Caralis", "Iomnium", "Siga", "Tingis", "Carthago Nova", "Tarraco", "Narbo", "Genua"}
    # ... and back to Massilia, Massilia-Mare Hispanum-Massilia (the Mercury ruling)
    assert destinations(g, "C Navis 1") == {"Mare Hispanum", "Oceanus Atlanticus", "Mare Tyrrhenum", "Massilia"} \
        | hispanum_ports


def test_navis_move_example_2_from_mare_internum():
    g = command_game({"Mare Internum": ["C Navis 1"], "Alexandria": ["P Legio 1"]})
    d = destinations(g, "C Navis 1")
    assert {"Mare Tyrrhenum", "Mare Hadriaticum", "Mare Aegaeum", "Mare Aegypticum"} <= d
    # via Mare Aegaeum: another sea (Propontis, Egypticum) or a port of that sea
    assert {"Propontis", "Creta", "Athenae", "Aenos", "Thessalonica", "Ephesus"} <= d
    assert "Pergamum" not in d   # Pergamum is not a port
    g.apply("Caesar moves Navis 1 Mare Internum-Mare Aegaeum-Propontis")


def test_navis_one_move_and_attack_or_two_moves():
    g = command_game({"Massilia": ["C Navis 1"], "Mare Tyrrhenum": ["P Navis 1"], "Utica": ["P Legio 39"]})
    refused(g, "Caesar moves Navis 1 Massilia-Mare Hispanum-Mare Tyrrhenum", "6.12 blocks attack or reinforce only")
    refused(g, "Caesar moves Navis 1 Massilia-Mare Hispanum-Utica", "6.12")
    refused(g, "Caesar moves Navis 1 Massilia-Genua", "6.2 navis move only across sea borders")
    g.apply("Caesar moves Navis 1 Massilia-Mare Hispanum")


def test_movement_and_attacking_example():
    # 6 Caesar blocks in Massilia, 3 Pompeius in Tarraco and 3 in Genua.
    pos = {"Massilia": LEGIONS_C, "Tarraco": ["P Legio 4", "P Legio 5", "P Legio 6"],
           "Genua": ["P Legio 1", "P Legio 2", "P Legio 3"]}
    g = command_game(pos)
    refused(g, "Caesar moves Legio 7 Massilia-Narbo-Tarraco", "6.12 blocks attack or reinforce only from an adjacent")
    for k in LEGIONS_C[:4]:
        g.apply(f"Caesar moves {short(k)} Massilia-Genua")
    refused(g, "Caesar moves Legio 11 Massilia-Genua", "6.11 road limit")
    refused(g, "Caesar moves Legio 11 Massilia-Lugdunum-Genua", "6.12")
    # Mercury allows an attack on Tarraco and an attack on Genua from two directions
    g = command_game(pos, "Mercury", "2/2")
    g.apply("Caesar moves Legio 7 Massilia-Narbo-Tarraco")
    for k in LEGIONS_C[1:4]:
        g.apply(f"Caesar moves {short(k)} Massilia-Genua")
    g.apply("Caesar moves Legio 11 Massilia-Lugdunum-Genua")
    g.apply("Caesar moves Legio 12 Massilia-Lugdunum-Genua")
    genua = g.state.battles[L("Genua")]
    assert sorted(BOARD.blocks[b].key for b in genua.reserves()) == ["C Legio 11", "C Legio 12"]
    assert g.state.battles[L("Tarraco")].attacker == CAESAR


def test_pinning_example():
    # 5 blocks defend Rome; 4 attack from Genua (main) and 2 from Ravenna (reserves): 4 pinned,
    # 1 may move, but not by either road the attacker used.
    g = command_game({"Genua": LEGIONS_C[:4], "Ravenna": LEGIONS_C[4:], "Roma": LEGIONS_P}, "3/1", "2/2")
    for k in LEGIONS_C[:4]:
        g.apply(f"Caesar moves {short(k)} Genua-Roma")
    for k in LEGIONS_C[4:]:
        g.apply(f"Caesar moves {short(k)} Ravenna-Roma")
    bt = g.state.battles[L("Roma")]
    assert len(bt.main_force()) == 4 and len(bt.reserves()) == 2
    g.apply("Caesar ends command")
    first = {BOARD.loc_names[a.path[1]] for a in g.legal_actions() if getattr(a, "block", None) == B("P Legio 1")}
    assert first == {"Neapolis", "Asculum"}
    refused(g, "Pompeius moves Legio 1 Roma-Genua", "6.13 unpinned blocks may not leave Roma by the Genua–Roma road")
    refused(g, "Pompeius moves Legio 1 Roma-Ravenna", "6.13")
    g.apply("Pompeius moves Legio 1 Roma-Neapolis")
    refused(g, "Pompeius moves Legio 2 Roma-Neapolis", r"6.13 pinning: 4 attacking blocks .* pin 4 defending blocks")


def test_amphibious_example_rome_to_antioch():
    # Caesar has navis in Tyrrhenum, Internum and Egypticum and moves 2 legions from Rome to
    # vacant Antioch for 2 MP, before any other move.
    pos = {"Roma": ["C Legio 7", "C Legio 8", "C Legio 9"], "Mare Tyrrhenum": ["C Navis 1"],
           "Mare Internum": ["C Navis 2"], "Mare Aegypticum": ["C Navis 3"], "Alexandria": ["P Legio 38"]}
    g = command_game(pos, "2/3", "1/2")
    route = "Roma-Mare Tyrrhenum-Mare Internum-Mare Aegypticum-Antiochia"
    assert any(str(a) == f"Caesar moves Legio 7 {route}" for a in g.legal_actions())
    g.apply(f"Caesar moves Legio 7 {route}")
    refused(g, "Caesar moves Navis 1 Mare Tyrrhenum-Mare Hispanum", "6.3 one navis must stay in Mare Tyrrhenum")
    g.apply(f"Caesar moves Legio 8 {route}")
    assert g.state.cmd.mp_used == 2
    refused(g, "Caesar moves Legio 9 Roma-Neapolis", "6.1 no move point left")
    assert g.state.count[L("Antiochia")] == [2, 0]


def test_amphibious_moves_come_first():
    pos = {"Roma": ["C Legio 7", "C Legio 8"], "Mare Tyrrhenum": ["C Navis 1"], "Alexandria": ["P Legio 38"]}
    g = command_game(pos, "3/1", "1/2")
    g.apply("Caesar moves Legio 7 Roma-Neapolis")
    refused(g, "Caesar moves Legio 8 Roma-Mare Tyrrhenum-Utica", "6.3 amphibious moves come before any other move")


def test_amphibious_only_across_friendly_seas_to_friendly_or_vacant_ports():
    pos = {"Roma": ["C Legio 7"], "Mare Tyrrhenum": ["C Navis 1"], "Utica": ["P Legio 39"],
           "Mare Internum": ["P Navis 1"]}
    g = command_game(pos, "3/1", "1/2")
    refused(g, "Caesar moves Legio 7 Roma-Mare Tyrrhenum-Utica", "6.3 amphibious moves never go to enemy")
    refused(g, "Caesar moves Legio 7 Roma-Mare Tyrrhenum-Mare Internum-Creta", "Mare Internum is enemy")
    refused(g, "Caesar moves Legio 7 Roma-Mare Tyrrhenum", "never stops at sea")
    g.apply("Caesar moves Legio 7 Roma-Mare Tyrrhenum-Aleria")


def test_a_block_may_not_mix_land_and_sea_movement():
    pos = {"Genua": ["C Legio 7"], "Mare Tyrrhenum": ["C Navis 1"], "Alexandria": ["P Legio 38"]}
    g = command_game(pos, "3/1", "1/2")
    refused(g, "Caesar moves Legio 7 Genua-Roma-Mare Tyrrhenum-Aleria", "nor mixes land and sea movement")
    refused(g, "Caesar moves Legio 7 Genua-Mare Tyrrhenum-Roma-Neapolis", "nor mixes land and sea movement")


def test_navis_attack_a_sea_and_navis_respond_from_an_adjacent_port_as_reserves():
    pos = {"Mare Hispanum": ["C Navis 1"], "Mare Tyrrhenum": ["P Navis 1"], "Neapolis": ["P Navis 2", "P Legio 1"]}
    g = command_game(pos, "3/1", "2/2")
    g.apply("Caesar moves Navis 1 Mare Hispanum-Mare Tyrrhenum")
    g.apply("Caesar ends command")
    g.apply("Pompeius moves Navis 2 Neapolis-Mare Tyrrhenum")
    bt = g.state.battles[L("Mare Tyrrhenum")]
    assert bt.attacker == CAESAR and bt.is_reserve(B("P Navis 2"))
    refused(g, "Pompeius moves Navis 1 Mare Tyrrhenum-Mare Hispanum", "6.13")


def test_shore_attack_by_navis_and_land_blocks_one_of_them_in_reserve():
    # 6.2: navis attack a port only from an adjacent sea; with a land attack too, one of the
    # two (the later road or border, unless declared) is in reserve.
    pos = {"Mare Tyrrhenum": ["C Navis 1"], "Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"]}
    g = command_game(pos, "3/1", "2/2")
    g.apply("Caesar moves Legio 7 Roma-Neapolis")
    g.apply("Caesar moves Navis 1 Mare Tyrrhenum-Neapolis")
    bt = g.state.battles[L("Neapolis")]
    assert bt.reserves() == [B("C Navis 1")]
    g.apply("Caesar declares main attack on Neapolis from Mare Tyrrhenum")
    assert bt.reserves() == [B("C Legio 7")]

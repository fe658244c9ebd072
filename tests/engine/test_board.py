"""Game data: the project's JSON loads into consistent indexed structures matching the rulebooks."""
import pytest

from engine.board import BOARD as B
from engine.board import CAESAR, MAJOR, MINOR, POMPEIUS, STRAIT, UnknownName


def names(ids):
    return sorted(B.loc_names[i] for i in ids)


def land_neighbours(name):
    return names(n for n, _ in B.land_adj[B.location(name)])


def road_class(a, b):
    e = B.edge(B.location(a), B.location(b))
    assert e is not None, f"no edge {a}-{b}"
    return B.edge_class[e]


def test_counts():
    assert B.n_blocks == 63
    assert len(B.deck) == 27
    assert sum(1 for s in B.is_sea if s) == 9
    assert sum(B.vp) == 13  # "City VPs total 13"
    assert sum(1 for v in B.vp if v) == 11  # "Eleven cities have a value of 1 or 2"


def test_blocks_per_side():
    # 31 tan, 31 green, 1 blue (Cleopatra starts on Pompeius' side)
    per = [sum(1 for b in B.blocks if b.side == s) for s in (CAESAR, POMPEIUS)]
    assert per == [31, 32]
    assert B.blocks[B.cleopatra].side == POMPEIUS


def test_setup_705_places_every_block_once_with_navis_3_in_caesar_pool():
    assert len(B.setup_map) + len(B.setup_pool) == 63
    assert B.block("C Navis 3") in B.setup_pool
    assert B.setup_map[B.block("Caesar", CAESAR)] == B.location("Ravenna")
    assert B.setup_map[B.block("Cleopatra")] == B.location("Alexandria")
    assert sum(1 for b in B.setup_map if B.blocks[b].side == CAESAR) == 14


def test_road_examples():
    # 6.11: Genua->Rome major (4 blocks), Ravenna->Rome minor (2 blocks)
    assert road_class("Genua", "Roma") == MAJOR
    assert road_class("Ravenna", "Rome") == MINOR
    assert {road_class(a, b) for a, b in [("Messana", "Rhegium"), ("Gades", "Tingis"),
                                           ("Aenos", "Pergamum"), ("Byzantium", "Nicomedia")]} == {STRAIT}


def test_move_example_from_massilia_neighbours():
    assert land_neighbours("Massilia") == ["Genua", "Lugdunum", "Narbo"]
    two = set()
    for n in ("Narbo", "Lugdunum", "Genua"):
        two |= set(land_neighbours(n))
    assert {"Tarraco", "Burdigala", "Treviri", "Cenabum", "Ravenna", "Roma"} <= two


def test_port_tables_match_v101():
    table = {
        "Oceanus Atlanticus": "Burdigala Gades Olisipo Portus Sala Tingis",
        "Mare Hispanum": "Caralis|Carthago Nova|Genua|Iomnium|Massilia|Narbo|Siga|Tarraco|Tingis|Utica",
        "Mare Tyrrhenum": "Aleria Caralis Genua Lilybaeum Messana Neapolis Rhegium Roma Utica",
        "Mare Internum": "Ambracia Brundisium Creta Cyrene Lilybaeum Messana Pylos Rhegium Syracusae Tacape Thubactus "
                         "Utica",
        "Mare Hadriaticum": "Aquileia Brundisium Dyrrachium Ravenna Salona Sipontum",
        "Mare Aegaeum": "Aenos Athenae Creta Ephesus Thessalonica",
        "Propontis": "Byzantium Nicomedia",
        "Pontus Euxinus": "Byzantium Sinope",
        "Mare Aegypticum": "Alexandria Antiochia Catabathmus Creta Perga Pelusium Salamis Tarsus",
    }
    for sea, ports in table.items():
        expected = sorted(ports.split("|") if "|" in ports else ports.split())
        assert names(B.sea_ports[B.location(sea)]) == expected, sea
    majors = names(i for i in range(B.n_locs) if B.is_major_port[i])
    assert majors == ["Alexandria", "Athenae", "Carthago Nova", "Creta", "Ephesus", "Massilia", "Neapolis",
                      "Ravenna", "Salamis", "Syracusae", "Utica"]
    assert len(B.port_seas[B.location("Utica")]) == 3 and len(B.port_seas[B.location("Creta")]) == 3
    assert not B.is_port[B.location("Pergamum")]


def test_navis_example_seas():
    # Navis move example 2: from Mare Internum to Tyrrhenum, Hadriaticum, Aegaeum or Egypticum
    assert names(B.sea_seas[B.location("Internum")]) == [
        "Mare Aegaeum", "Mare Aegypticum", "Mare Hadriaticum", "Mare Tyrrhenum"]
    assert names(B.sea_seas[B.location("Aegaeum")]) == ["Mare Aegypticum", "Mare Internum", "Propontis"]
    assert names(B.sea_seas[B.location("Hispanum")]) == ["Mare Tyrrhenum", "Oceanus Atlanticus"]


def test_islands_have_no_roads_except_sicilia_strait():
    for isl in ("Aleria", "Caralis", "Creta", "Salamis"):
        assert B.land_adj[B.location(isl)] == ()


def test_names_and_aliases_case_insensitive():
    assert B.location("rome") == B.location("ROMA")
    assert B.location("nova carthago") == B.location("Carthago Nova")
    assert B.block("pompey") == B.block("P Pompeius")
    assert B.block("legio 13", CAESAR) == B.block("C Legio 13")
    assert B.card("apollo") == B.card("Apollo")
    with pytest.raises(UnknownName, match="unknown location 'Atlantis'"):
        B.location("Atlantis")
    with pytest.raises(UnknownName, match="ambiguous"):
        B.block("Auxilia 1")
    with pytest.raises(UnknownName):
        B.card("5/5")


def test_levy_cities_are_cities():
    for b in B.blocks:
        if b.type in ("legion", "equitatus", "elephant"):
            assert b.levy_city is not None and B.is_city[b.levy_city], b.key


def test_705_start_pompeius_holds_7_vp_caesar_1_and_four_cities_vacant():
    from engine.state import GameState
    st = GameState()
    assert (st.vp(CAESAR), st.vp(POMPEIUS)) == (1, 7)
    for city in ("Roma", "Athenae", "Byzantium", "Ephesus"):
        assert st.vacant(B.location(city))

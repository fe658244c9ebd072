"""The Mercury ruling (docs/engine-design.md "Readings"): a move may pass the
same location twice, its start included. The rulebook forbids no such path (6.1 "Blocks can
move in multiple directions"; Mercury "Blocks can move in multiple directions, and use the
bonus (or not) as desired"); a road taken twice by one block counts that block once against
its limit (6.11 counts blocks); an amphibious move still ends in another port (6.3)."""
from engine.actions import Move
from engine.board import BOARD

from .helpers import B, L, command_game, refused


def edge(a: str, c: str) -> int:
    e = BOARD.edge(L(a), L(c))
    assert e is not None
    return e


def _line(g, line: str) -> Move:
    """The Move a line denotes, checked to be among the legal actions before it is applied."""
    legal = {str(a): a for a in g.legal_actions("Caesar")}
    assert line in legal, f"{line} is not listed"
    return legal[line]


def test_the_issue_s_mercury_loop_is_legal_listed_and_ends_where_it_began():
    g = command_game({"Lugdunum": ["C Ballista"], "Alexandria": ["P Legio 38"]}, "Mercury", "2/2")
    line = "Caesar moves Ballista Lugdunum-Cenabum-Treviri-Lugdunum"
    assert g.explain(line) is None
    g.apply(_line(g, line))
    st = g.state
    assert st.loc[B("C Ballista")] == L("Lugdunum") and st.moved[B("C Ballista")]
    assert st.cmd.mp_used == 1 and st.cmd.activated == [L("Lugdunum")]
    roads = [edge("Lugdunum", "Cenabum"), edge("Cenabum", "Treviri"), edge("Treviri", "Lugdunum")]
    assert [st.road_use[e] for e in roads] == [1, 1, 1]


def test_an_ordinary_two_location_move_may_come_back_to_its_start():
    g = command_game({"Genua": ["C Legio 8"], "Alexandria": ["P Legio 38"]}, "2/2", "1/3")
    g.apply(_line(g, "Caesar moves Legio 8 Genua-Roma-Genua"))
    assert g.state.loc[B("C Legio 8")] == L("Genua")
    refused(g, "Caesar moves Legio 8 Genua-Roma", "6.1 a block moves once per game turn")


def test_mercury_may_pass_a_location_twice_on_the_way_elsewhere():
    g = command_game({"Massilia": ["C Legio 7"], "Alexandria": ["P Legio 38"]}, "Mercury", "2/2")
    g.apply(_line(g, "Caesar moves Legio 7 Massilia-Genua-Massilia-Narbo"))
    assert g.state.loc[B("C Legio 7")] == L("Narbo")


def test_a_road_taken_twice_by_one_block_counts_that_block_once():
    # Genua-Lugdunum is a minor road: two blocks of one side per player turn (6.11).
    g = command_game({"Genua": ["C Legio 7", "C Legio 8", "C Legio 9"], "Alexandria": ["P Legio 38"]}, "2/2", "1/3")
    road = edge("Genua", "Lugdunum")
    g.apply("Caesar moves Legio 7 Genua-Lugdunum-Genua")
    assert g.state.road_use[road] == 1
    g.apply(_line(g, "Caesar moves Legio 8 Genua-Lugdunum"))
    assert g.state.road_use[road] == 2
    refused(g, "Caesar moves Legio 9 Genua-Lugdunum", "6.11 road limit")
    assert all("Genua-Lugdunum" not in str(a) for a in g.legal_actions("Caesar"))


def test_a_loop_still_stops_on_contact_and_attacks_only_as_far_as_the_card_allows():
    g = command_game({"Genua": ["C Legio 7", "C Legio 8"], "Roma": ["P Legio 1"], "Alexandria": ["P Legio 38"]},
                     "2/2", "1/3")
    refused(g, "Caesar moves Legio 7 Genua-Roma-Genua", "6.1 blocks entering an enemy or contested location stop")
    g.apply("Caesar moves Legio 7 Genua-Roma")   # Genua keeps Legio 8: friendly
    refused(g, "Caesar moves Legio 8 Genua-Lugdunum-Genua-Roma", "6.1 blocks move one or two locations")


def test_a_navis_may_come_back_to_the_sea_it_left():
    g = command_game({"Mare Hispanum": ["C Navis 1"], "Alexandria": ["P Legio 38"]}, "2/2", "1/3")
    g.apply(_line(g, "Caesar moves Navis 1 Mare Hispanum-Mare Tyrrhenum-Mare Hispanum"))
    assert g.state.loc[B("C Navis 1")] == L("Mare Hispanum")


def test_an_amphibious_move_ends_in_another_port():
    g = command_game({"Massilia": ["C Legio 7"], "Mare Hispanum": ["C Navis 1"], "Alexandria": ["P Legio 38"]},
                     "2/2", "1/3")
    refused(g, "Caesar moves Legio 7 Massilia-Mare Hispanum-Massilia", "6.3 .*another port")
    assert not any(str(a).endswith("Massilia-Mare Hispanum-Massilia") for a in g.legal_actions("Caesar"))

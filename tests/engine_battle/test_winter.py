"""Winter (8.x) and victory (1.2): the book's supply example (Genua 3, Massilia 4, Rome 5),
Cleopatra going home, navis to port, both winter orders, disbanding, year reset, victory."""
import pytest

from engine.board import CAESAR, POMPEIUS
from engine.state import ELIMINATED, POOL
from engine.victory import DRAW, decide
from engine.winter import supply_limit

from .helpers import B, L, lines, position, refused, start_turn

FIVE = ["C Legio 7", "C Legio 8", "C Legio 9", "C Legio 10", "C Legio 11"]
FIVE_MORE = ["C Legio 12", "C Legio 13", "C Legio 14", "C Legio 16", "C Legio 17"]
FIVE_LAST = ["C Legio 18", "C Legio 19", "C Legio 20", "C Legio 21", "C Equitatus 1"]


def winter_game(placements, options=None, year=705, **kw):
    """The winter of `year`, reached by ending the fifth game turn without a battle."""
    g = position(placements, options=options, **kw)
    g.state.turn = 5
    g.state.year = year
    start_turn(g, "4/1", "2/3")
    g.apply("Caesar ends command")
    g.apply("Pompeius ends command")
    assert g.state.phase in ("winter", "over")
    return g


def test_supply_limits_from_the_book():
    assert [supply_limit(L(c)) for c in ("Genua", "Massilia", "Roma")] == [3, 4, 5]


def test_winter_supply_genua_massilia_rome():
    g = winter_game({"Genua": FIVE, "Massilia": FIVE_MORE, "Roma": FIVE_LAST, "Alexandria": ["Cleopatra"]})
    choices = {l for l in lines(g)}
    assert choices == {f"Caesar disbands {k[2:]}" for k in FIVE + FIVE_MORE}   # not Rome's five
    refused(g, "Caesar disbands Legio 18", "8.3 Roma supplies 5")
    g.apply("Caesar disbands Legio 7")
    g.apply("Caesar disbands Legio 8")
    assert {l for l in lines(g)} == {f"Caesar disbands {k[2:]}" for k in FIVE_MORE}
    g.apply("Caesar disbands Legio 12")
    # Supply done; then victory (no winner), then voluntary disbanding, Caesar first.
    assert "Caesar ends disbanding" in lines(g)
    assert g.state.loc[B("C Legio 7")] == POOL and g.state.steps[B("C Legio 7")] == 3
    assert g.state.count[L("Genua")][CAESAR] == 3 and g.state.count[L("Massilia")][CAESAR] == 4


def test_cleopatra_goes_home_and_joins_the_holder_of_alexandria():
    g = winter_game({"Antiochia": ["Cleopatra", "P Legio 1"], "Alexandria": ["C Legio 7"]})
    cleo = B("Cleopatra")
    assert g.state.loc[cleo] == L("Alexandria") and g.state.owner[cleo] == CAESAR


def test_cleopatra_goes_home_to_a_friendly_alexandria_without_changing_side():
    g = winter_game({"Antiochia": ["Cleopatra"], "Alexandria": ["P Legio 1"], "Roma": ["C Legio 7"]})
    cleo = B("Cleopatra")
    assert g.state.loc[cleo] == L("Alexandria") and g.state.owner[cleo] == POMPEIUS


def test_navis_to_port_caesar_first():
    g = winter_game({"Mare Hispanum": ["C Navis 1", "C Navis 2"], "Mare Internum": ["P Navis 1"],
                     "Mare Aegypticum": ["C Navis 3"], "Massilia": ["C Legio 7"], "Genua": ["C Legio 8"],
                     "Utica": ["P Legio 1"], "Alexandria": ["Cleopatra"]})
    # Caesar's navis on Mare Hispanum may go to Massilia or Genua; his navis on Mare Aegypticum
    # has no friendly port there and is disbanded; Pompeius waits.
    assert g.state.loc[B("C Navis 3")] == POOL
    assert lines(g) == {"Caesar winters Navis 1 in Massilia", "Caesar winters Navis 1 in Genua",
                        "Caesar winters Navis 2 in Massilia", "Caesar winters Navis 2 in Genua"}
    g.apply("Caesar winters Navis 1 in Genua")
    g.apply("Caesar winters Navis 2 in Genua")
    # Pompeius' single friendly port on that sea: moved without a decision.
    assert g.state.loc[B("P Navis 1")] == L("Utica")
    assert "Caesar ends disbanding" in lines(g)


def test_first_edition_order_checks_victory_before_navis():
    cities = {"Roma": ["C Legio 7"], "Syracusae": ["C Legio 8"], "Massilia": ["C Legio 9"],
              "Athenae": ["C Legio 10"], "Byzantium": ["C Legio 11"], "Ephesus": ["C Legio 12"],
              "Tarraco": ["C Legio 13"], "Antiochia": ["C Legio 14"], "Alexandria": ["Cleopatra"],
              "Mare Hispanum": ["C Navis 1"], "Carthago Nova": ["C Legio 17"]}   # Caesar 10 VP
    first = winter_game(cities, options={"winter_order": "first-edition"})
    assert first.state.phase == "over" and first.result()["winner"] == "Caesar"
    assert first.state.loc[B("C Navis 1")] == L("Mare Hispanum")     # never reached the navis step
    v101 = winter_game(cities)
    assert v101.state.phase == "winter"                              # navis first in v1.01
    v101.apply("Caesar winters Navis 1 in Massilia")
    assert v101.state.phase == "over" and v101.result()["winner"] == "Caesar"


def test_voluntary_disbanding_then_year_reset():
    g = winter_game({"Roma": ["C Legio 7", "C Legio 8"], "Alexandria": ["Cleopatra", "P Legio 1"]},
                    eliminated=("C Legio 9", "P Legio 2"))
    assert "Pompeius disbands Cleopatra" not in lines(g) | {"x"}
    g.apply("Caesar disbands Legio 8")
    g.apply("Caesar ends disbanding")
    assert "Pompeius disbands Cleopatra" not in lines(g)
    assert lines(g) == {"Pompeius ends disbanding", "Pompeius disbands Legio 1"}
    g.apply("Pompeius ends disbanding")
    st = g.state
    assert (st.year, st.turn, st.phase) == (706, 1, "deal")
    assert st.loc[B("C Legio 9")] == POOL and st.loc[B("P Legio 2")] == POOL
    assert st.loc[B("C Legio 8")] == POOL


def test_last_winter_ends_the_game():
    g = winter_game({"Roma": ["C Legio 7"], "Massilia": ["P Legio 1"], "Alexandria": ["Cleopatra"]}, year=709)
    # Caesar 2 (Rome), Pompeius 1 + 2 (Massilia, Alexandria): Pompeius has more VP.
    assert g.state.phase == "over"
    assert g.result()["winner"] == "Pompeius"


@pytest.mark.parametrize("vp, rome, last, expected", [
    ((10, 3), None, False, CAESAR),
    ((9, 9), CAESAR, False, None),
    ((11, 10), None, False, CAESAR),
    ((10, 10), POMPEIUS, False, POMPEIUS),
    ((10, 10), None, False, DRAW),
    ((4, 6), None, True, POMPEIUS),
    ((5, 5), CAESAR, True, CAESAR),
    ((5, 5), None, True, DRAW),
])
def test_victory_decision(vp, rome, last, expected):
    assert decide(vp, rome, last) == expected


def test_eliminated_blocks_stay_face_up_until_the_year_ends():
    g = winter_game({"Roma": ["C Legio 7"], "Alexandria": ["Cleopatra"]}, eliminated=("C Legio 9",))
    assert g.state.loc[B("C Legio 9")] == ELIMINATED    # still winter: disbanding step

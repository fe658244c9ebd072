"""Shared sensing zones (the shipped reader map: one antenna for Byzantium and Nicomedia, and six more):
a block set down on a shared antenna is placed by the rules when one of its locations is legal, and
asked on the mover's phone when several are; the other phone and the TV learn nothing of it."""
import json

import pytest

from firmware_bridge.events import PanelPressed

from .physical_rig import READERS, Rig, record_lines


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path / "journal.sqlite3")
    yield r
    r.stop()


def placement_lines(part):
    return [p["line"] for p in part["placements"]]


def journal(rig):
    return rig.session.journal.lines(rig.session.snapshot().game_id)[1]


def test_byzantium_and_nicomedia_share_one_antenna_in_the_shipped_map():
    assert READERS.index_of("Byzantium") == READERS.index_of("Nicomedia")
    assert READERS.place(READERS.index_of("Nicomedia")).locations == ("Byzantium", "Nicomedia")


def test_a_block_set_on_a_shared_zone_goes_where_the_rules_allow_it(rig):
    rig.act(*record_lines("zone_rules_selfplay.txt"))
    rig.set_board()
    assert rig.part("Pompeius")["instructions"] == []     # Syracusae on the Messana antenna, Tarsus on Antiochia's
    rig.play('lift Perga "P Scipio"\nplace Byzantium "P Scipio"')   # the Byzantium/Nicomedia antenna
    part = rig.part("Pompeius")
    assert part["ask"] is None, part["ask"]                 # Byzantium is out of reach: Nicomedia it is
    assert placement_lines(part) == ["Pompeius moves Scipio Perga-Appia-Nicomedia"]
    assert part["instructions"] == [] and part["messages"] == []
    before = len(journal(rig))
    outcome = rig.session.sense(PanelPressed("panel", side="Pompeius", button="done"))
    assert outcome.ok, outcome.refusal
    assert outcome.accepted == ("Pompeius moves Scipio Perga-Appia-Nicomedia", "Pompeius ends command")
    assert journal(rig)[before:] == list(outcome.accepted)
    # Scipio stays on the antenna, and the table reads him in Nicomedia as the game has him: nothing to mend.
    for viewer in ("Caesar", "Pompeius", "public"):
        assert rig.part(viewer)["instructions"] == [], viewer


def test_a_block_on_a_shared_zone_where_both_are_legal_is_asked_on_the_mover_s_phone_only(rig):
    rig.act(*record_lines("zone_ask_selfplay.txt"))
    rig.set_board()
    quiet = {v: rig.part(v) for v in ("Caesar", "public")}
    rig.play('lift Perga "P Legio 34"\nplace Nicomedia "P Legio 34"')
    ask = rig.part("Pompeius")["ask"]
    assert ask["prompt"] == "Legio 34 set on Byzantium/Nicomedia: which did you mean?"
    assert sorted(ask["options"]) == ["Perga-Appia-Nicomedia", "Perga-Appia-Nicomedia-Byzantium"]
    # Caesar's phone and the TV read exactly what they read before the block was lifted: no question,
    # no placement, no place named (that it has two readings would tell something of the block).
    for viewer, part in quiet.items():
        now = rig.part(viewer)
        assert now == part, viewer
        assert "Nicomedia" not in json.dumps(now) and "Byzantium" not in json.dumps(now), viewer
    assert rig.session.sense(PanelPressed("panel", side="Pompeius", button="done")).refusal["code"] == "table.ask-open"
    assert rig.session.answer("Caesar", "Perga-Appia-Nicomedia").refusal["code"] == "table.stale-answer"
    assert rig.session.answer("Pompeius", "Perga-Appia-Nicomedia-Byzantium").ok
    assert placement_lines(rig.part("Pompeius")) == ["Pompeius moves Legio 34 Perga-Appia-Nicomedia-Byzantium"]
    for viewer in quiet:
        assert "Byzantium" not in json.dumps(rig.part(viewer)), viewer
    outcome = rig.session.done("Pompeius")
    assert outcome.accepted == ("Pompeius moves Legio 34 Perga-Appia-Nicomedia-Byzantium", "Pompeius ends command")
    for viewer in ("Caesar", "Pompeius", "public"):
        assert rig.part(viewer)["instructions"] == [], viewer


def test_a_block_of_the_zone_lifted_and_set_back_stays_where_the_game_has_it(rig):
    rig.act(*record_lines("zone_rules_selfplay.txt"))
    rig.set_board()
    # Pompeius's Navis 5 was levied in Syracusae, on the Messana/Rhegium/Syracusae antenna.
    rig.play('lift Messana "P Navis 5"\nplace Messana "P Navis 5"')
    part = rig.part("Pompeius")
    assert placement_lines(part) == [] and part["ask"] is None and part["instructions"] == []


def test_a_block_of_the_other_side_set_on_a_shared_zone_is_put_back(rig):
    rig.act(*record_lines("zone_rules_selfplay.txt"))
    rig.set_board()
    rig.play('lift Genua "C Legio 8"\nplace Byzantium "C Legio 8"')
    assert rig.part("Caesar")["messages"][0]["code"] == "table.not-your-turn"
    assert rig.part("Pompeius")["instructions"][0]["text"] == (
        "put a Caesar block back in Genua (from Byzantium/Nicomedia)")

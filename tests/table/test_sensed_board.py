"""The sensed board: tags through the reader map and registry; in hand, strays, silent readers."""
from firmware_bridge.events import Diagnostic, TagGone, TagSeen
from rubicon.table.sensed_board import SensedBoard

from .physical_rig import READERS, REGISTRY

L8 = REGISTRY.uid_of("C Legio 8") or ""
GENUA, LUGDUNUM = READERS.index_of("Genua"), READERS.index_of("Lugdunum")


def board():
    return SensedBoard(READERS, REGISTRY.block_of)


def test_a_lifted_block_is_in_hand_until_set_down_and_a_late_report_changes_nothing():
    b = board()
    assert b.apply(TagSeen("board", reader=GENUA, uid=L8)).kind == "set"
    assert b.apply(TagGone("board", reader=GENUA, uid=L8)).kind == "lifted"
    assert b.where("C Legio 8") is None and b.in_hand == {"C Legio 8": "Genua"}
    assert b.apply(TagSeen("board", reader=LUGDUNUM, uid=L8)).kind == "set"
    assert b.apply(TagGone("board", reader=GENUA, uid=L8)).kind == "none"    # a stale report
    assert b.where("C Legio 8") == "Lugdunum" and b.in_hand == {}


def test_a_shared_antenna_senses_a_zone_and_the_pools_are_not_sensed():
    b = board()
    assert b.apply(TagSeen("board", reader=READERS.index_of("Roma"), uid=L8)).place == "Asculum"   # the reader's first
    assert b.zone(b.where("C Legio 8")) == b.zone("Roma") == ("Asculum", "Roma")
    assert b.zone("Genua") == ("Genua",) and b.zone(None) == ()
    assert b.senses("Roma") and b.senses("Genua") and not b.senses("Caesar levy pool")


def test_the_scan_pad_keeps_a_block_in_hand():
    b = board()
    b.apply(TagSeen("board", reader=GENUA, uid=L8))
    assert b.apply(TagSeen("board", reader=READERS.scan_pad, uid=L8)).kind == "scanned"
    assert b.where("C Legio 8") is None and b.in_hand == {"C Legio 8": "Genua"}


def test_unknown_tags_off_map_readers_and_silent_readers_are_kept_apart():
    b = board()
    assert b.apply(TagSeen("board", reader=GENUA, uid="DEADBEEF")).kind == "unknown-tag"
    assert b.apply(TagSeen("board", reader=250, uid=L8)).kind == "no-reader"
    assert b.unknown == {"DEADBEEF": "Genua"} and b.off_reader == {L8: 250} and b.place_of == {}
    b.apply(TagSeen("board", reader=GENUA, uid=L8))
    silent = Diagnostic("rfid", code="reader_silent", detail=f"reader {GENUA} (Genua) does not answer")
    assert b.apply(silent).kind == "silent"
    assert b.silent == {"Genua"} and b.where("C Legio 8") == "Genua"     # silence is not "the block left"
    b.apply(Diagnostic("rfid", code="reader_back", detail=f"reader {GENUA} (Genua) answers again"))
    assert b.silent == set()

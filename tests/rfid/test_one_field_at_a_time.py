"""One RF field at a time: the real mfrc522 library and our driver on the
register-level emulator's harsh radio model (neighbour coupling, capture, range), where each reader
must read exactly its own tags while at most one antenna is ever on.

Each harsh case also shows the emulator would catch the fault: with the fields left on, a
neighbour's tag is read; without the final request, a drowned tag is missed; without the settle
time, nothing answers; without the field reset, a drowned tag is lost on the next pass. With the
antennas' positions, a few fields far apart may be on at once (settling ahead of their turn).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.emulation.radio import Clock, HarshModel
from firmware_bridge.emulation.rig import EmulatedRig
from firmware_bridge.events import EventQueue, TagSeen
from firmware_bridge.rfid import reader_array
from firmware_bridge.rfid.iso14443 import FieldInventory
from firmware_bridge.rfid.iso14443_frames import WUPA
from firmware_bridge.rfid.reader_array import ReaderArray
from firmware_bridge.rfid.scanner import RfidScanner

SPACING_MM = 70.0      # antenna centres in a row: a neighbour's tags are out of its power range, in its hearing
READERS = list(range(6))
ANTENNAS = {r: (r * SPACING_MM, 0.0) for r in READERS}


@pytest.fixture
def harsh_rig(mock_pins, reader_map):
    rig = EmulatedRig(READERS, reader_map.bus.address_pins, pin_factory=mock_pins, harsh=HarshModel(ANTENNAS))
    with rig.installed():
        yield rig


@pytest.fixture
def harsh_array(harsh_rig, reader_map, mock_pins):
    array = ReaderArray(reader_map.bus, READERS, pin_factory=mock_pins, clock=harsh_rig.clock)
    yield array
    array.close()


def uid_of(n: int, seven: bool) -> str:
    return (bytes((0x04,)) + n.to_bytes(6, "big")).hex().upper() if seven else (0x10000000 + n).to_bytes(4, "big").hex()


def place_crowd(rig, rng: random.Random, per_reader: list[int]) -> dict[int, set[str]]:
    """Tags on each reader, anywhere within 20 mm of its antenna centre (some leaning towards a
    neighbour, some right over the antenna: strong beside weak)."""
    truth: dict[int, set[str]] = {}
    n = 0
    for reader, count in zip(READERS, per_reader, strict=True):
        for _ in range(count):
            n += 1
            uid = uid_of(n, seven=n % 3 != 0)
            rig.place(uid, reader, offset_mm=(rng.uniform(-20, 20), rng.uniform(-20, 20)))
            truth.setdefault(reader, set()).add(uid.upper())
    return truth


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), per_reader=st.lists(st.integers(0, 6), min_size=6, max_size=6))
def test_every_tag_read_on_its_own_reader_with_one_field_on(seed, per_reader, mock_pins, reader_map):
    mock_pins.reset()
    rig = EmulatedRig(READERS, reader_map.bus.address_pins, pin_factory=mock_pins, harsh=HarshModel(ANTENNAS))
    with rig.installed():
        array = ReaderArray(reader_map.bus, READERS, pin_factory=mock_pins, clock=rig.clock)
        try:
            truth = place_crowd(rig, random.Random(seed), per_reader)
            for _ in range(2):     # the second pass: the tags of the first were reset by their field's pause
                scans = array.scan_all()
                assert {r: set(s.uids) for r, s in scans.items() if s.uids} == truth
                assert all(s.complete for s in scans.values())
            assert rig.radio.max_on <= array.fields_at_once == 1
            assert rig.radio.jammed == 0
        finally:
            array.close()


def test_fields_left_on_read_a_neighbours_tag_and_jam(harsh_rig, harsh_array, monkeypatch):
    """The emulator's control case: with every antenna on (the old driver), reader 1 hears the tag
    that stands on reader 2, and the neighbours' fields spoil frames."""
    harsh_rig.place("04000000000001", 1, offset_mm=(0, 0))
    harsh_rig.place("04000000000002", 2, offset_mm=(-15, 0))     # 55 mm from reader 1's antenna
    monkeypatch.setattr(harsh_array, "_field_off", lambda reader: None)
    harsh_array.scan_all()
    second = harsh_array.scan_all()
    assert harsh_rig.radio.max_on == len(READERS)
    assert harsh_rig.radio.jammed > 0
    assert "04000000000002" in second[1].uids or not second[1].complete


def test_one_field_at_a_time_never_reports_the_neighbours_tag(harsh_rig, harsh_array):
    harsh_rig.place("04000000000001", 1, offset_mm=(0, 0))
    harsh_rig.place("04000000000002", 2, offset_mm=(-15, 0))
    for _ in range(3):
        scans = harsh_array.scan_all()
        assert scans[1].uids == {"04000000000001"} and scans[2].uids == {"04000000000002"}
    assert harsh_rig.radio.max_on == 1 and harsh_rig.radio.jammed == 0


def test_the_final_request_finds_a_tag_the_capture_effect_drowned(harsh_rig, harsh_array):
    strong, weak = "04000000000011", "04000000000012"
    harsh_rig.place(strong, 3, offset_mm=(0, 0))
    harsh_rig.place(weak, 3, offset_mm=(0, 30))          # in range, but 1/d^3 weaker by far: captured
    assert harsh_array.scan(3).uids == {strong, weak}
    # Control: the anticollision walk alone (no final request) meets no collision and misses it.
    harsh_array.chip_select.select(3)
    harsh_array._field_on(3)
    alone = FieldInventory()
    harsh_array.field_reader._walk(alone, WUPA, False, [64])
    harsh_array._field_off(3)
    assert alone.uids == {strong} and alone.complete


def test_without_the_field_reset_a_drowned_tag_is_lost(harsh_rig, harsh_array, monkeypatch):
    """A tag woken from HALT (still powered from the last read) falls back to HALT when drowned, so
    no REQA finds it: the pause between two reads of one reader is what resets it."""
    strong, weak = "04000000000021", "04000000000022"
    harsh_rig.place(strong, 4, offset_mm=(0, 0))
    harsh_rig.place(weak, 4, offset_mm=(0, 30))
    assert harsh_array.scan(4).uids == {strong, weak}
    assert harsh_array.scan(4).uids == {strong, weak}     # a lone reader waits FIELD_RESET_S before its field
    monkeypatch.setattr(reader_array, "FIELD_RESET_S", 0.0)
    assert harsh_array.scan(4).uids == {strong}


def test_a_tag_beyond_range_does_not_answer(harsh_rig, harsh_array):
    harsh_rig.place("04000000000031", 5, offset_mm=(0, 45))     # 45 mm: beyond the 40 mm an antenna powers
    harsh_rig.place("04000000000032", 5, offset_mm=(0, 5))
    assert harsh_array.scan(5).uids == {"04000000000032"}


def test_without_the_settle_time_no_tag_answers(harsh_rig, harsh_array):
    harsh_rig.place("04000000000041", 0)
    harsh_array.settle_s = 0.0
    assert harsh_array.scan(0).uids == set()
    harsh_array.settle_s = reader_array.FIELD_SETTLE_S
    assert harsh_array.scan(0).uids == {"04000000000041"}


def test_the_scanner_reports_each_tag_once_on_its_own_reader(harsh_rig, harsh_array):
    truth = place_crowd(harsh_rig, random.Random(25), [5, 6, 4, 6, 3, 5])
    scanner = RfidScanner(harsh_array, EventQueue(), appear_scans=2, vanish_scans=3)
    events = scanner.poll_once() + scanner.poll_once() + scanner.poll_once()
    seen = {(e.reader, e.uid) for e in events if isinstance(e, TagSeen)}
    assert seen == {(r, uid) for r, uids in truth.items() for uid in uids}
    assert [e for e in events if not isinstance(e, TagSeen)] == []
    assert harsh_rig.radio.max_on == 1


GRID = {r: ((r % 6) * SPACING_MM, (r // 6) * SPACING_MM) for r in range(36)}    # 6 x 6 antennas, 70 mm apart


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), fields=st.integers(2, 4))
def test_fields_warmed_ahead_far_apart_read_every_tag_and_hide_the_settle(seed, fields, mock_pins, reader_map):
    """A few fields on at once, each at least 120 mm from the reader being read: every tag still read
    on its own reader, no frame jammed, at most `fields` on, and much of the settle time hidden."""
    mock_pins.reset()
    readers = list(GRID)
    rig = EmulatedRig(readers, reader_map.bus.address_pins, pin_factory=mock_pins, harsh=HarshModel(GRID),
                      clock=Clock(real=False))
    rng = random.Random(seed)
    with rig.installed():
        array = ReaderArray(reader_map.bus, readers, pin_factory=mock_pins, clock=rig.clock, fields_at_once=fields,
                            positions=GRID)
        try:
            truth: dict[int, set[str]] = {}
            for n in range(40):
                reader = rng.choice(readers)
                uid = uid_of(n + 1, seven=n % 2 == 0)
                rig.place(uid, reader, offset_mm=(rng.uniform(-20, 20), rng.uniform(-20, 20)))
                truth.setdefault(reader, set()).add(uid.upper())
            array.scan_all()      # the first pass initialises the readers: only then are fields warmed ahead
            array.settle_waited_s = 0.0
            scans = array.scan_all()
            assert {r: set(s.uids) for r, s in scans.items() if s.uids} == truth
            assert 2 <= rig.radio.max_on <= fields and rig.radio.jammed == 0
            assert array.settle_waited_s < 0.6 * len(readers) * reader_array.FIELD_SETTLE_S
        finally:
            array.close()


def test_several_fields_need_the_antennas_positions(harsh_rig, reader_map, mock_pins):
    with pytest.raises(ValueError, match="positions"):
        ReaderArray(reader_map.bus, READERS, pin_factory=mock_pins, fields_at_once=2)


def test_fields_too_close_are_never_on_together(harsh_rig, reader_map, mock_pins):
    """Six antennas 70 mm apart in a row: only readers at least two apart (140 mm) may be on
    together; every tag is still read on its own reader, no frame jammed."""
    array = ReaderArray(reader_map.bus, READERS, pin_factory=mock_pins, clock=harsh_rig.clock, fields_at_once=3,
                        positions=ANTENNAS)
    try:
        for uid, reader in (("04000000000051", 1), ("04000000000052", 2), ("04000000000053", 4)):
            harsh_rig.place(uid, reader, offset_mm=(0, 5))
        for _ in range(2):
            scans = array.scan_all()
        assert {r: set(s.uids) for r, s in scans.items() if s.uids} == {1: {"04000000000051"}, 2: {"04000000000052"},
                                                                        4: {"04000000000053"}}
        assert harsh_rig.radio.jammed == 0 and harsh_rig.radio.max_on <= 3
    finally:
        array.close()


def test_a_tag_within_a_neighbours_power_range_answers_that_neighbour_too(harsh_rig, harsh_array):
    """Neighbour coupling the layout must avoid: a block standing 35 mm from
    two antennas is powered and read by each reader's own field, one field at a time or not."""
    harsh_rig.place("04000000000061", 1, offset_mm=(35, 0))
    scans = harsh_array.scan_all()
    assert scans[1].uids == scans[2].uids == {"04000000000061"}
    assert harsh_rig.radio.max_on == 1

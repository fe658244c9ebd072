"""The polling scheduler and N-stable-scan debouncing, on the emulated board."""
from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.events import Diagnostic, EventQueue, TagGone, TagSeen
from firmware_bridge.rfid.reader_array import ReaderScan
from firmware_bridge.rfid.scanner import RfidScanner
from firmware_bridge.rfid.tag_debounce import TagDebouncer


@pytest.fixture
def scanner(array, reader_map):
    return RfidScanner(array, EventQueue(), appear_scans=2, vanish_scans=3, place_name=reader_map.name)


def kinds(events):
    return [(e.kind, getattr(e, "reader", None), getattr(e, "uid", None) or getattr(e, "code", None)) for e in events]


def test_tag_seen_after_two_stable_scans_and_gone_after_three(scanner, rig):
    rig.place("04A1B2C3", 10)
    assert scanner.poll_once() == []
    assert kinds(scanner.poll_once()) == [("tag_seen", 10, "04A1B2C3")]
    assert scanner.poll_once() == []
    rig.lift("04A1B2C3")
    assert scanner.poll_once() == [] and scanner.poll_once() == []
    assert kinds(scanner.poll_once()) == [("tag_gone", 10, "04A1B2C3")]
    queued = [scanner.queue.get_nowait() for _ in range(scanner.queue.qsize())]
    assert [e.kind for e in queued] == ["tag_seen", "tag_gone"]


def test_one_scan_glitch_is_not_an_event(scanner, rig):
    tag = rig.place("04A1B2C3", 10)
    scanner.poll_once(), scanner.poll_once()
    rig.lift(tag)
    scanner.poll_once()
    rig.place(tag, 10)
    assert [scanner.poll_once() for _ in range(4)] == [[], [], [], []]


def test_block_moved_between_locations(scanner, rig, reader_map):
    roma, neapolis = reader_map.index_of("Roma"), reader_map.index_of("Neapolis")
    rig.place("04A1B2C3", roma)
    scanner.poll_once(), scanner.poll_once()
    rig.move("04A1B2C3", neapolis)
    events = [e for _ in range(3) for e in scanner.poll_once()]
    assert kinds(events) == [("tag_gone", roma, "04A1B2C3"), ("tag_seen", neapolis, "04A1B2C3")]


def test_unplugged_reader_is_a_diagnostic_not_a_move(scanner, rig):
    rig.place("04A1B2C3", 12)
    scanner.poll_once(), scanner.poll_once()
    rig.unplug(12)
    events = [e for _ in range(6) for e in scanner.poll_once()]
    assert kinds(events) == [("diagnostic", None, "reader_silent")]
    rig.plug(12)
    assert kinds(scanner.poll_once()) == [("diagnostic", None, "reader_back")]
    assert scanner.poll_once() == []


def test_unknown_tag_is_reported_once_and_never_seen(array, rig, reader_map):
    scanner = RfidScanner(array, is_enrolled=lambda uid: uid == "04A1B2C3", place_name=reader_map.name)
    rig.place("DEADBEEF", 20)
    rig.place("04A1B2C3", 20)
    events = [e for _ in range(5) for e in scanner.poll_once()]
    assert kinds(events) == [("tag_seen", 20, "04A1B2C3"), ("diagnostic", None, "unknown_tag")]
    assert "DEADBEEF" in events[1].detail and reader_map.name(20) in events[1].detail


def test_block_on_a_border_is_a_diagnostic_until_it_leaves_the_first_reader(scanner, rig):
    tag = rig.place("04A1B2C3", 30)
    scanner.poll_once(), scanner.poll_once()
    rig.place(tag, 31)  # now on both
    events = [e for _ in range(5) for e in scanner.poll_once()]
    assert kinds(events) == [("diagnostic", None, "tag_on_two_readers")]
    rig.field(30).remove(tag)
    events = [e for _ in range(3) for e in scanner.poll_once()]
    assert kinds(events) == [("tag_gone", 30, "04A1B2C3"), ("tag_seen", 31, "04A1B2C3")]


def test_corrupt_frames_never_make_a_tag_vanish(scanner, rig):
    tag = rig.place("04A1B2C3", 40)
    scanner.poll_once(), scanner.poll_once()
    tag.corrupt_next = 1000
    events = [e for _ in range(6) for e in scanner.poll_once()]
    assert kinds(events) == [("diagnostic", None, "bad_frame")]


def test_announce_counts_answering_readers(scanner, rig):
    rig.unplug(3)
    event = scanner.announce()
    assert event.kind == "device_up" and event.protocol == f"{len(rig.chips) - 1}/{len(rig.chips)} readers answering"


def test_run_for_a_number_of_passes(scanner, rig):
    rig.place("04A1B2C3", 1)
    scanner.run(passes=2)
    assert scanner.passes == 2
    event = scanner.queue.get_nowait()
    assert (type(event), event.reader, event.uid) == (TagSeen, 1, "04A1B2C3")


def test_background_thread_stops_cleanly(scanner):
    scanner.start()
    scanner.stop()
    assert scanner.passes >= 0 and scanner.queue.queue[-1].kind == "device_down"


def test_a_second_start_of_a_running_scanner_starts_no_second_thread(scanner):
    scanner.start(period_s=0.01)
    try:
        thread = scanner._thread
        assert scanner.start() is scanner and scanner._thread is thread
        assert [t.name for t in threading.enumerate()].count("rfid-scanner") == 1
    finally:
        scanner.stop()


def test_stop_twice_tells_the_table_once_and_close_frees_the_bus(scanner):
    scanner.start(period_s=0.01)
    scanner.stop()
    scanner.stop()
    assert [e.kind for e in scanner.queue.queue].count("device_down") == 1
    scanner.close()
    assert scanner.closed and not scanner.running
    with pytest.raises(RuntimeError, match="closed"):
        scanner.start()


@given(st.lists(st.booleans(), max_size=40))
def test_debouncer_emits_only_after_n_stable_scans(presence):
    debouncer = TagDebouncer(appear_scans=2, vanish_scans=3)
    on, run_in, run_out = False, 0, 0
    for present in presence:
        events = debouncer.feed([ReaderScan(0, frozenset({"AA000001"} if present else ()), True, True)])
        run_in = run_in + 1 if present else 0
        run_out = 0 if present else run_out + 1
        if not on and run_in >= 2:
            assert [type(e) for e in events] == [TagSeen]
            on = True
        elif on and run_out >= 3:
            assert [type(e) for e in events] == [TagGone]
            on = False
        else:
            assert events == []


def test_debouncer_rejects_zero_window():
    with pytest.raises(ValueError):
        TagDebouncer(appear_scans=0)
    assert Diagnostic("rfid", code="x").to_dict()["code"] == "x"


def test_open_rfid_scanner_uses_the_reader_map_and_registry(rig, reader_map, tmp_path):
    from firmware_bridge.board.tag_registry import TagRegistry
    from firmware_bridge.rfid.scanner import open_rfid_scanner

    registry = TagRegistry(tmp_path / "tags.json")
    registry.assign("04A1B2C3", "C Caesar")
    registry.save()
    rig.place("04A1B2C3", reader_map.index_of("Ravenna"))
    rig.place("DEADBEEF", reader_map.scan_pad)
    scanner = open_rfid_scanner(EventQueue(), registry=str(registry.path), vanish_scans=2)
    try:
        events = scanner.poll_once() + scanner.poll_once()
        assert kinds(events) == [("tag_seen", reader_map.index_of("Ravenna"), "04A1B2C3"),
                                 ("diagnostic", None, "unknown_tag")]
        assert "Scan pad" in events[1].detail
        assert scanner.debouncer.vanish_scans == 2
    finally:
        scanner.array.close()


def test_spi_errors_are_a_silent_reader_not_a_crash(scanner, rig):
    rig.place("04A1B2C3", 14)
    scanner.poll_once(), scanner.poll_once()
    rig.bus.failing.add(14)
    events = [e for _ in range(4) for e in scanner.poll_once()]
    assert kinds(events) == [("diagnostic", None, "reader_silent")]
    assert "Input/output error" in scanner.array.scan(14).problems[0]
    rig.bus.failing.clear()
    assert kinds(scanner.poll_once()) == [("diagnostic", None, "reader_back")]
    assert scanner.debouncer.stable == {"04A1B2C3": 14}


def test_a_failing_pass_is_reported_and_the_loop_goes_on(scanner, rig, monkeypatch):
    import firmware_bridge.rfid.scanner as module

    monkeypatch.setattr(module, "ERROR_BACKOFF_S", 0.0)
    real_scan_all = scanner.array.scan_all
    calls = []

    def flaky():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("bug in a pass")
        return real_scan_all()

    monkeypatch.setattr(scanner.array, "scan_all", flaky)
    rig.place("04A1B2C3", 1)
    scanner.run(passes=3)
    events = [scanner.queue.get_nowait() for _ in range(scanner.queue.qsize())]
    assert [e.kind for e in events] == ["diagnostic", "tag_seen"] and events[0].code == "scanner_error"

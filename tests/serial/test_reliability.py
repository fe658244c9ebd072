"""Devices the table can rely on: lost snapshots asked for again, backwards lines refused, bounded state."""
from firmware_bridge.events import Diagnostic, DiceRolled, EventQueue, TagSeen
from firmware_bridge.serial_bridge import session as session_module
from firmware_bridge.serial_bridge.session import MAX_SNAPSHOT_ITEMS, MAX_TAGS, DeviceSession
from firmware_bridge.shared.protocol import encode


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Device:
    def __init__(self, session, seq=0):
        self.session, self.seq = session, seq

    def say(self, verb, *fields):
        self.session.handle_line(encode(self.seq % 1000, verb, fields).rstrip(b"\n"))
        self.seq += 1


def make(kind, units):
    events, sent, clock = [], [], Clock()
    session = DeviceSession("/dev/ttyACM0", events.append, lambda verb, fields=(): sent.append((verb, fields)),
                            clock=clock)
    session.link_opened()
    dev = Device(session)
    dev.say("HELLO", kind, "1.0.0", "1", "B0000001", units)
    return session, dev, events, sent, clock


def snapshot(dev, *items):
    dev.say("SNAP", "BEGIN")
    for item in items:
        dev.say(*item)
    dev.say("SNAP", "END", len(items))


def test_a_lost_snapshot_is_asked_for_again_while_heartbeats_keep_the_link_up():
    session, dev, events, sent, clock = make("dice", 4)
    assert sent[-1] == ("SNAP", ())
    sent.clear()
    for roll in range(1, 5):           # the SNAP never reached the device: heartbeats and rolls go on
        dev.say("HB")
        dev.say("ROLL", roll, 1, roll)
        clock.now += 0.2
        session.tick()
    assert ("SNAP", ()) not in sent and not [e for e in events if isinstance(e, DiceRolled)]
    clock.now += 1.0
    session.tick()
    assert sent.count(("SNAP", ())) == 1 and session.counters["snapshot_retry"] == 1
    snapshot(dev, ("LAST", 4), ("ROLL", 1, 1, 1), ("ROLL", 2, 1, 2), ("ROLL", 3, 1, 3), ("ROLL", 4, 1, 4))
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(1,), (2,), (3,), (4,)]
    clock.now += 5
    sent.clear()
    session.tick()
    assert ("SNAP", ()) not in sent        # taken: no more asking


def test_a_tag_already_on_a_reader_is_reported_after_a_lost_snapshot():
    session, dev, events, sent, clock = make("board", 81)
    for _ in range(5):
        dev.say("HB")
    clock.now += 1.5
    session.tick()
    snapshot(dev, ("TAG", 29, "04A1B2C3"))
    assert [(e.reader, e.uid) for e in events if isinstance(e, TagSeen)] == [(29, "04A1B2C3")]


def test_a_snapshot_whose_end_is_lost_for_good_does_not_swallow_later_rolls():
    session, dev, events, sent, clock = make("dice", 4)
    dev.say("SNAP", "BEGIN")
    dev.say("LAST", 0)                 # END never comes; nor does any line showing a gap
    clock.now += 1.5
    session.tick()
    snapshot(dev, ("LAST", 0))
    dev.say("ROLL", 1, 2, 6, 6)
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(6, 6)]


def test_a_line_numbered_backwards_is_not_processed_but_resynchronises():
    """A replayed line must not move a tag, but the device may as well have reused a number for
    news: the Pi takes its numbering and asks for a snapshot, which says what is true."""
    session, dev, events, sent, clock = make("board", 81)
    snapshot(dev)
    for _ in range(10):
        dev.say("HB")
    events.clear()
    sent.clear()
    stale = Device(session, seq=dev.seq - 5)
    stale.say("SEEN", 3, "04A1B2C3")
    assert events == [] and session.counters["resync"] == 1 and sent == [("SNAP", ())]
    dev.say("HB")                      # the device's own numbering goes on: the stale line was a replay
    assert session.counters["missed"] == 0 and sent == [("SNAP", ())]
    snapshot(dev)
    assert events == []


def test_a_dice_state_numbered_backwards_is_not_processed():
    session, dev, events, sent, clock = make("dice", 4)
    snapshot(dev, ("LAST", 0))
    dev.say("STATE", "rolled")
    events.clear()
    Device(session, seq=dev.seq - 2).say("STATE", "rolling")
    assert events == [] and session.counters["missed"] == 0 and session.counters["resync"] == 1


def test_the_same_line_twice_is_a_duplicate_not_a_resync():
    session, dev, events, sent, clock = make("dice", 4)
    snapshot(dev, ("LAST", 0))
    sent.clear()
    dev.say("STATE", "rolling")
    Device(session, seq=dev.seq - 1).say("STATE", "rolling")
    assert session.counters["duplicate_line"] == 1 and session.counters["resync"] == 0 and sent == []


def test_a_device_that_renumbers_without_a_hello_is_resynchronised_at_once():
    session, dev, events, sent, clock = make("board", 81)
    snapshot(dev)
    dev.seq = 300                       # a gap: answered by a snapshot, numbering goes on from there
    snapshot(dev)
    restarted = Device(session, seq=0)
    sent.clear()
    restarted.say("HB")                 # out of step: not trusted, the device's numbering is taken
    assert sent == [("SNAP", ())] and session.counters["resync"] == 1
    restarted.say("SEEN", 4, "04A1B2C3")   # in step with its new numbering: taken
    assert [(e.reader, e.uid) for e in events if isinstance(e, TagSeen)] == [(4, "04A1B2C3")]
    snapshot(restarted, ("TAG", 4, "04A1B2C3"))
    assert [(e.reader, e.uid) for e in events if isinstance(e, TagSeen)] == [(4, "04A1B2C3")]
    assert sent == [("SNAP", ())]      # one snapshot, not one more for a gap


def test_the_set_of_tags_reported_is_bounded_and_drops_are_counted():
    session, dev, events, sent, clock = make("board", 256)
    snapshot(dev)
    for i in range(MAX_TAGS + 10):
        dev.say("SEEN", i % 256, f"{i:08X}")
    assert len(session.tags) == MAX_TAGS and session.counters["tags_overflow"] == 10


def test_an_unfinished_snapshot_is_bounded_and_asked_for_again():
    session, dev, events, sent, clock = make("board", 256)
    snapshot(dev)
    sent.clear()
    session.request_snapshot()
    dev.say("SNAP", "BEGIN")
    for i in range(MAX_SNAPSHOT_ITEMS + 50):
        dev.say("TAG", i % 256, f"{i:08X}")
        assert session._snapshot is None or len(session._snapshot) <= MAX_SNAPSHOT_ITEMS
    assert session.counters["snapshot_overflow"] == 1
    clock.now += 1.5
    session.tick()
    assert sent.count(("SNAP", ())) == 2


def test_the_event_queue_is_bounded_drops_the_oldest_and_says_so():
    events = EventQueue(maxsize=5)
    for i in range(12):
        events.put(TagSeen("rfid", reader=i, uid="04A1B2C3"))     # never blocks a driver
    assert events.dropped == 7
    first = events.get_nowait()
    assert isinstance(first, Diagnostic) and first.code == "events_dropped" and "7" in first.detail
    assert [events.get_nowait().reader for _ in range(5)] == [7, 8, 9, 10, 11]
    assert events.empty()


def test_the_default_event_queue_is_bounded():
    assert 0 < EventQueue().maxsize <= 100_000
    assert session_module.MAX_TAGS <= MAX_SNAPSHOT_ITEMS

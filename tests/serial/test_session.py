"""What the Pi makes of a device's lines, without a port: events, dedup, snapshots, counters."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.events import DeviceUp, Diagnostic, DiceRolled, DiceState, TagGone, TagSeen
from firmware_bridge.serial_bridge.session import DeviceSession
from firmware_bridge.shared.protocol import FROM_DEVICE, ProtocolError, checksum, decode, encode, parse


class Device:
    """Numbers lines as a device would; `skip()` loses one."""

    def __init__(self, session):
        self.session = session
        self.seq = 0

    def say(self, verb, *fields):
        self.session.handle_line(encode(self.seq, verb, fields).rstrip(b"\n"))
        self.seq += 1

    def skip(self):
        self.seq += 1


def make(kind="dice", expected=None, boot="B0000001", units=4):
    events, sent = [], []
    session = DeviceSession("/dev/ttyACM0", events.append, lambda verb, fields=(): sent.append((verb, fields)),
                            expected)
    session.link_opened()
    dev = Device(session)
    dev.say("HELLO", kind, "1.0.0", "1", boot, units)
    if kind == "dice":
        snapshot(dev, ("LAST", 0))
    return session, dev, events, sent


def snapshot(dev, *items):
    dev.say("SNAP", "BEGIN")
    for item in items:
        dev.say(*item)
    dev.say("SNAP", "END", len(items))


def test_handshake_emits_device_up_then_asks_for_a_snapshot():
    session, dev, events, sent = make()
    assert sent == [("HELLO", ("1",)), ("SNAP", ())]
    assert events == [DeviceUp("dice@/dev/ttyACM0", device_kind="dice", firmware="1.0.0", protocol="1",
                               t=events[0].t)]


def test_lines_before_the_handshake_are_ignored():
    events, sent = [], []
    session = DeviceSession("x", events.append, lambda *a: sent.append(a))
    session.link_opened()
    Device(session).say("ROLL", 1, 1, 6)
    assert events == [] and session.counters["before_hello"] == 1


def test_rolls_are_acked_deduplicated_and_checked_against_the_request():
    session, dev, events, sent = make()
    events.clear()
    sent.clear()
    session.request_roll(2)
    dev.say("STATE", "rolling")
    dev.say("STATE", "rolled")
    dev.say("ROLL", 1, 2, 5, 3)
    dev.say("ROLL", 1, 2, 5, 3)              # replayed after a lost ACK
    session.request_roll(3)
    dev.say("ROLL", 2, 2, 4, 4)              # two dice where three were asked for
    dev.say("ROLL", 3, 3, 1, 1, 1)
    assert [type(e) for e in events] == [DiceState, DiceState, DiceRolled, Diagnostic, DiceRolled]
    assert [e.code for e in events if isinstance(e, Diagnostic)] == ["dice_mismatch"]
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(5, 3), (1, 1, 1)]
    assert sent == [("REQROLL", (2,)), ("ACK", (1,)), ("ACK", (1,)), ("REQROLL", (3,)), ("ACK", (2,)), ("ACK", (3,))]
    assert session.counters["duplicate_roll"] == 1 and session.counters["dice_mismatch"] == 1
    with pytest.raises(ValueError):
        session.request_roll(5)


def test_a_reboot_restarts_roll_ids():
    session, dev, events, sent = make()
    dev.say("ROLL", 1, 1, 2)
    session.link_opened()
    dev.say("HELLO", "dice", "1.0.0", "1", "B0000002", 4)   # new boot id
    snapshot(dev, ("LAST", 0))
    dev.say("ROLL", 1, 1, 3)
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(2,), (3,)]


def test_a_sequence_gap_asks_for_a_snapshot_and_the_snapshot_is_diffed():
    session, dev, events, sent = make("board", units=8)
    dev.say("SNAP", "BEGIN")
    dev.say("TAG", 1, "04000001")
    dev.say("SNAP", "END", 1)
    dev.say("SEEN", 2, "04000002")
    sent.clear()
    dev.skip()                                # a lost GONE for reader 1 ...
    dev.say("HB")
    assert sent == [("SNAP", ())]
    dev.say("SNAP", "BEGIN")
    dev.say("TAG", 2, "04000002")
    dev.say("TAG", 5, "04000005")             # ... and a lost SEEN for reader 5
    dev.say("SNAP", "END", 2)
    tags = [(type(e).__name__, e.reader) for e in events if isinstance(e, (TagSeen, TagGone))]
    assert tags == [("TagSeen", 1), ("TagSeen", 2), ("TagGone", 1), ("TagSeen", 5)]
    assert session.counters["missed"] == 1


def test_a_truncated_snapshot_is_discarded_and_asked_again():
    session, dev, events, sent = make("board", units=8)
    sent.clear()
    dev.say("SNAP", "BEGIN")
    dev.say("TAG", 1, "04000001")
    dev.say("SNAP", "END", 2)
    assert sent == [("SNAP", ())] and len(events) == 1 and session.counters["bad_snapshot"] == 1


@pytest.mark.parametrize("lines, counter", [
    ([("SEEN", 1, "04000001")], "kind"),                       # a tray does not see tags
    ([("ROLL", 1, 3, 1, 2)], "range"),                          # count mismatch inside the line
    ([("ROLL", 1, 1, 0)], "range"),                             # face 0
    ([("WOBBLE",)], "unknown"),
    ([("TAG", 1, "04000001")], "kind"),
    ([("ERR", "-", "CHECKSUM")], "device_error"),
])
def test_bad_messages_are_counted_and_emit_nothing(lines, counter):
    session, dev, events, sent = make()
    events.clear()
    for line in lines:
        dev.say(*line)
    assert events == [] and session.counters[counter] == 1


def test_wrong_kind_or_version_is_rejected():
    session, dev, events, sent = make("board", expected="dice")
    assert events == [] and session.rejected and session.counters["wrong_device"] == 1
    session, dev, events, sent = make()
    session.link_opened()
    dev.say("HELLO", "dice", "1.0.0", "2", "B0000001", 4)
    assert session.rejected == "device speaks protocol 2, this bridge 1"


def test_board_reader_out_of_range_and_duplicates():
    session, dev, events, sent = make("board", units=2)
    events.clear()
    dev.say("SEEN", 5, "04000001")
    dev.say("SEEN", 1, "04000001")
    dev.say("SEEN", 1, "04000001")
    dev.say("GONE", 0, "04000001")
    assert events == [TagSeen("board@/dev/ttyACM0", reader=1, uid="04000001", t=events[0].t)]
    assert session.counters["range"] == 1 and session.counters["duplicate_tag"] == 2


def test_a_roll_overtaking_a_lost_one_waits_for_the_snapshot():
    session, dev, events, sent = make()
    dev.say("ROLL", 1, 1, 1)
    dev.skip()                                  # ROLL 2 lost on the wire
    sent.clear()
    dev.say("ROLL", 3, 1, 3)                    # not delivered, not acked: the gap asks for a snapshot
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(1,)]
    assert sent == [("SNAP", ())]
    snapshot(dev, ("STATE", "rolled"), ("LAST", 3), ("ROLL", 2, 1, 2), ("ROLL", 3, 1, 3))
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(1,), (2,), (3,)]
    assert sent[1:] == [("ACK", (2,)), ("ACK", (3,))]


def test_the_first_snapshot_of_a_boot_sets_where_roll_ids_start():
    events, sent = [], []
    session = DeviceSession("x", events.append, lambda verb, fields=(): sent.append((verb, fields)))
    session.link_opened()
    dev = Device(session)
    dev.say("HELLO", "dice", "1.0.0", "1", "B0000009", 4)
    dev.say("ROLL", 41, 1, 5)                   # before the snapshot: it comes again inside it
    snapshot(dev, ("LAST", 41), ("ROLL", 41, 1, 5))
    dev.say("ROLL", 42, 2, 6, 6)
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(5,), (6, 6)]
    assert session.counters["roll_before_snapshot"] == 1


def test_rolls_the_device_had_to_drop_are_counted_not_invented():
    session, dev, events, sent = make()
    snapshot(dev, ("LAST", 20), ("ROLL", 19, 1, 4), ("ROLL", 20, 1, 5))   # 1..18 overflowed its buffer
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(4,), (5,)]
    assert session.counters["lost_roll"] == 1 and session.last_roll_id == 20


def frame(body):
    return b"$%s*%02X" % (body.encode(), checksum(body.encode()))


def is_valid_roll(line):
    try:
        seq, verb, fields = decode(line)
        return verb == "ROLL" and bool(parse(FROM_DEVICE, verb, fields))
    except ProtocolError:
        return False


@given(st.lists(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60), max_size=30))
def test_random_well_checksummed_frames_never_raise_or_invent_events(bodies):
    session, dev, events, sent = make("dice")
    events.clear()
    for body in bodies:
        session.handle_line(frame(body))
    assert len([e for e in events if isinstance(e, DiceRolled)]) <= sum(is_valid_roll(frame(b)) for b in bodies)
    assert not [e for e in events if isinstance(e, (TagSeen, TagGone))]


def test_backoff_doubles_to_its_cap_and_resets():
    from firmware_bridge.serial_bridge.link import Backoff, LinkConfig

    backoff = Backoff(LinkConfig(backoff_min=0.1, backoff_max=0.5))
    assert [backoff.next() for _ in range(5)] == [0.1, 0.2, 0.4, 0.5, 0.5]
    backoff.reset()
    assert backoff.next() == 0.1


def test_a_table_roll_is_acked_only_once_taken():
    events, sent = [], []
    session = DeviceSession("/dev/ttyACM0", events.append, lambda verb, fields=(): sent.append((verb, fields)),
                            table_rolls=True)
    session.link_opened()
    dev = Device(session)
    dev.say("HELLO", "dice", "1.0.0", "1", "B0000001", 4)
    snapshot(dev, ("LAST", 0))
    sent.clear()
    session.request_roll(2)
    dev.say("ROLL", 1, 2, 5, 3)
    dev.say("ROLL", 1, 2, 5, 3)                # repeated while the table has not answered: no ACK yet
    assert [(e.faces, e.roll) for e in events if isinstance(e, DiceRolled)] == [((5, 3), "B0000001/1")]
    assert ("ACK", (1,)) not in sent
    session.roll_taken("B0000009/1")           # another boot's roll: that tray forgot it long ago
    assert ("ACK", (1,)) not in sent
    session.roll_taken("B0000001/1")
    assert sent.count(("ACK", (1,))) == 1
    dev.say("ROLL", 1, 2, 5, 3)                # repeated after it was taken: ACKed again, not delivered
    assert sent.count(("ACK", (1,))) == 2 and len([e for e in events if isinstance(e, DiceRolled)]) == 1
    session.request_roll(3)
    dev.say("ROLL", 2, 1, 4)                   # the wrong size: no roll for the table, ACKed at once
    assert ("ACK", (2,)) in sent and [e.code for e in events if isinstance(e, Diagnostic)] == ["dice_mismatch"]
    snapshot(dev, ("LAST", 5), ("ROLL", 3, 3, 1, 1, 1), ("ROLL", 4, 3, 2, 2, 2), ("ROLL", 5, 3, 3, 3, 3))
    assert [e.faces for e in events if isinstance(e, DiceRolled)][1:] == [(3, 3, 3)]
    assert ("ACK", (3,)) in sent and ("ACK", (4,)) in sent and ("ACK", (5,)) not in sent
    assert session.counters["stale_roll"] == 2

"""The device end of protocol v1 (shared by the RP2040 firmware and the simulator), driven directly."""
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.shared.device_core import BoardScanner, DiceTray
from firmware_bridge.shared.protocol import checksum, decode, encode


class Wire:
    def __init__(self):
        self.lines = []

    def __call__(self, data):
        self.lines.append(decode(data.rstrip(b"\n")))

    def take(self):
        out, self.lines = [(verb, fields) for _, verb, fields in self.lines], []
        return out


class Tray:
    def __init__(self):
        self.moving = False
        self.faces = [0, 0, 0, 0]
        self.led = None

    def motion(self):
        return self.moving

    def pockets(self):
        return list(self.faces)

    def set_led(self, target, mode):
        self.led = mode


class Readers:
    count = 4

    def __init__(self):
        self.tags = [[] for _ in range(4)]
        self.leds = {}

    def read(self):
        return [list(t) for t in self.tags]

    def set_led(self, target, mode):
        self.leds[target] = mode


def host(seq, verb, *fields):
    return encode(seq, verb, fields)


def tray_device():
    wire, tray = Wire(), Tray()
    dev = DiceTray(wire, tray, boot="CAFE0001", settle_ms=100)
    return dev, tray, wire


def roll(dev, tray, faces, t):
    tray.moving = True
    dev.poll(t)
    tray.moving, tray.faces = False, list(faces) + [0] * (4 - len(faces))
    dev.poll(t + 50)
    dev.poll(t + 100)


def test_hello_reply_and_heartbeats():
    dev, tray, wire = tray_device()
    dev.feed(host(0, "HELLO", "1"), 0)
    assert wire.take() == [("HELLO", ("dice", "1.0.0", "1", "CAFE0001", "4"))]
    dev.poll(0)
    dev.poll(500)
    dev.poll(1000)
    assert wire.take() == [("HB", ()), ("HB", ())]


def test_roll_is_reported_replayed_in_snapshots_until_acked():
    dev, tray, wire = tray_device()
    dev.poll(0)
    wire.take()
    dev.feed(host(0, "REQROLL", "3"), 0)
    assert tray.led == "blink" and wire.take() == [("OK", ("0",))]
    roll(dev, tray, [6, 2, 4], 10)
    assert wire.take() == [("STATE", ("rolling",)), ("STATE", ("rolled",)), ("ROLL", ("1", "3", "6", "2", "4"))]
    assert tray.led == "off"
    roll(dev, tray, [1], 200)
    wire.take()
    dev.feed(host(1, "SNAP"), 300)
    assert wire.take() == [("SNAP", ("BEGIN",)), ("STATE", ("rolled",)), ("LAST", ("2",)),
                           ("ROLL", ("1", "3", "6", "2", "4")), ("ROLL", ("2", "1", "1")), ("SNAP", ("END", "4"))]
    dev.feed(host(2, "ACK", "2"), 300)   # acks name one roll: an older one not yet delivered stays
    dev.feed(host(3, "SNAP"), 300)
    assert [m for m in wire.take() if m[0] == "ROLL"] == [("ROLL", ("1", "3", "6", "2", "4"))]


def test_a_die_that_is_not_flat_is_crooked_and_not_a_roll():
    dev, tray, wire = tray_device()
    dev.poll(0)
    wire.take()
    roll(dev, tray, [3, -1], 10)
    assert wire.take() == [("STATE", ("rolling",)), ("STATE", ("crooked",))]
    assert dev.unacked == []


def test_bad_lines_get_error_replies_and_change_nothing():
    dev, tray, wire = tray_device()
    dev.feed(b"\x00\xff garbage\n", 0)
    dev.feed(b"$0,SNAP*00\n", 0)
    dev.feed(host(1, "REQROLL", "9"), 0)
    dev.feed(host(2, "DANCE"), 0)
    dev.feed(host(3, "LED", "7", "on"), 0)       # a tray has no LED 7
    dev.feed(b"$" + b"9" * 5000 + b"\n", 0)
    replies = wire.take()
    assert [(v, f[:2]) for v, f in replies] == [
        ("ERR", ("-", "FORMAT")), ("ERR", ("-", "CHECKSUM")), ("ERR", ("1", "RANGE")),
        ("ERR", ("2", "UNKNOWN")), ("ERR", ("3", "RANGE")), ("ERR", ("-", "TOOLONG"))]
    assert dev.rx_errors == 6 and tray.led is None and dev.state is None


def test_host_silence_turns_the_tray_light_off():
    dev, tray, wire = tray_device()
    dev.feed(host(0, "LED", "tray", "on"), 0)
    assert tray.led == "on"
    dev.poll(4999)
    assert tray.led == "on"
    dev.poll(5000)
    assert tray.led == "off"


def test_board_reports_debounced_changes_and_snapshots():
    wire, readers = Wire(), Readers()
    dev = BoardScanner(wire, readers, boot="CAFE0002", window_ms=300)
    dev.feed(host(0, "HELLO", "1"), 0)
    readers.tags[2] = ["04A1B2C3"]
    for t in range(0, 400, 50):
        dev.poll(t)
    readers.tags[2] = []
    dev.poll(400)                      # one missed read: not a departure
    readers.tags[2] = ["04A1B2C3"]
    readers.tags[3] = ["04000001"]     # a block passing over reader 3 for 100 ms
    dev.poll(450)
    readers.tags[3] = []
    for t in range(500, 900, 50):
        dev.poll(t)
    lines = [m for m in wire.take() if m[0] != "HB"]
    assert lines == [("HELLO", ("board", "1.0.0", "1", "CAFE0002", "4")), ("SEEN", ("2", "04A1B2C3"))]
    dev.feed(host(1, "SNAP"), 900)
    dev.feed(host(2, "LED", "3", "blink"), 900)
    dev.feed(host(3, "REQROLL", "2"), 900)
    assert wire.take() == [("SNAP", ("BEGIN",)), ("TAG", ("2", "04A1B2C3")), ("SNAP", ("END", "1")),
                           ("OK", ("2",)), ("ERR", ("3", "KIND", "REQROLL is not for a board device"))]
    assert readers.leds == {3: "blink"}


printable = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60)


@given(st.lists(st.one_of(st.binary(max_size=200), printable.map(lambda body: b"$%s*%02X\n" % (
    body.encode(), checksum(body.encode())))), max_size=20))
def test_no_input_makes_a_device_raise_or_act(chunks):
    """Random bytes and well-checksummed random frames: only ERR replies, never an exception."""
    dev, tray, wire = tray_device()
    for chunk in chunks:
        dev.feed(chunk, 0)
    assert {verb for verb, _ in wire.take()} <= {"ERR", "OK", "HELLO", "SNAP", "LAST", "STATE"}
    assert dev.unacked == [] and dev.state is None

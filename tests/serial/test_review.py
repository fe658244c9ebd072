"""Review findings on the serial side, each proved by a test that failed before its fix."""
import pytest

from firmware_bridge.shared.debounce import Debouncer
from firmware_bridge.shared.protocol import ProtocolError, checksum, decode
from tests.serial.conftest import FAST
from tests.serial.test_session import make, snapshot


def framed(body, check):
    return b"$" + body + b"*" + check


@pytest.mark.parametrize("body,check", [
    (b"0,OK,0", b"+4"), (b"0,OK,0", b" 4"), (b"0,OK,0", b"4 "),   # checksum 0x04
    (b"8,HB", b"1e"),                                             # checksum 0x1E
])
def test_a_checksum_that_is_not_two_upper_case_hex_digits_is_refused(body, check):
    """int(..., 16) takes '+4', ' 4', '4 ' and lower case; PROTOCOL.md says two upper-case hex
    digits, so a corrupted checksum field must not pass as a valid one."""
    assert int(check, 16) == checksum(body)
    with pytest.raises(ProtocolError) as exc:
        decode(framed(body, check))
    assert exc.value.code == "FORMAT"


def test_a_well_formed_line_still_decodes():
    body = b"7,HB"
    assert decode(framed(body, b"%02X" % checksum(body))) == (7, "HB", ())


def test_a_tag_sliding_to_a_lower_numbered_reader_leaves_before_it_arrives():
    """Both changes commit in the same update: the departure must come first, or for a moment the
    tag is reported on two readers (and a consumer keyed by UID drops it on the late GONE)."""
    deb = Debouncer(window_ms=100)
    assert deb.update(0, {(5, "04A1B2C3")}) == []
    assert deb.update(100, {(5, "04A1B2C3")}) == [((5, "04A1B2C3"), True)]
    assert deb.update(200, {(2, "04A1B2C3")}) == []
    assert deb.update(300, {(2, "04A1B2C3")}) == [((5, "04A1B2C3"), False), ((2, "04A1B2C3"), True)]


def test_hello_from_a_restarted_device_is_not_counted_as_missed_lines():
    """A restarted device numbers from 0 again: its HELLO is a new session, not a gap of hundreds
    of lines, and it needs one snapshot (asked by the handshake), not two."""
    session, dev, events, sent = make("board", units=8)
    for _ in range(300):
        dev.say("HB")
    sent.clear()
    dev.seq = 0
    dev.say("HELLO", "board", "1.0.0", "1", "B0000002", 8)
    assert session.counters["missed"] == 0
    assert sent.count(("SNAP", ())) == 1
    snapshot(dev)
    assert session.up and session.identity[3] == "B0000002"


def test_a_url_pyserial_chokes_on_is_a_lost_link_not_a_dead_reader_thread():
    """pyserial raises KeyError for loop:// with an unknown option; it escaped open() and killed the
    bridge's reader thread, so the bridge never retried and never said why."""
    import threading

    from firmware_bridge.events import EventQueue
    from firmware_bridge.serial_bridge.bridge import SerialBridge
    from firmware_bridge.serial_bridge.link import LinkConfig, LinkLost, SerialLink

    with pytest.raises(LinkLost, match="cannot open"):
        SerialLink("loop://?logging=bogus", LinkConfig()).open()

    tried_twice = threading.Event()
    bridge = SerialBridge("loop://?logging=bogus", EventQueue(),
                          config=LinkConfig(backoff_min=0.001, backoff_max=0.001))
    real_open = bridge.link.open

    def counting_open():
        if bridge.connects == 0 and bridge.counters["link_lost"] >= 1:
            tried_twice.set()
        real_open()

    bridge.link.open = counting_open
    bridge.start()
    try:
        assert tried_twice.wait(10), "the reader thread stopped retrying"
        assert bridge._thread.is_alive()
    finally:
        bridge.stop()


def test_a_snapshot_with_an_invalid_item_completes_without_it_instead_of_looping():
    """A snapshot line that arrives intact but does not parse (a face 7) comes back in every
    snapshot; counting it as missing made END mismatch and the Pi ask again at once, forever,
    and the rolls behind it never arrived."""
    from firmware_bridge.events import DiceRolled

    session, dev, events, sent = make("dice")
    sent.clear()
    snapshot(dev, ("ROLL", 1, 1, 7), ("ROLL", 2, 1, 5), ("LAST", 2))
    assert ("SNAP", ()) not in sent
    assert [e.faces for e in events if isinstance(e, DiceRolled)] == [(5,)]
    assert session.counters["range"] == 1


def test_a_tray_whose_pocket_sensor_reads_a_face_outside_1_to_6_reports_crooked():
    """Pocket sensors say 0 (empty), 1..6 or -1 (not flat); a glitch value such as 7 must not
    become a ROLL line the Pi can never accept (and the device would replay in every snapshot)."""
    from firmware_bridge.shared.device_core import DiceTray
    from tests.serial.test_device_core import Tray, Wire

    wire, tray = Wire(), Tray()
    device = DiceTray(wire, tray, settle_ms=100, boot="B0000001")
    tray.moving = True
    device.poll(0)
    tray.moving, tray.faces = False, [7, 3, 0, 0]
    device.poll(200)
    lines = wire.take()
    assert ("STATE", ("crooked",)) in lines and not any(verb == "ROLL" for verb, _ in lines)
    assert device.unacked == []


def test_a_line_of_the_maximum_length_ending_in_cr_lf_is_accepted():
    """PROTOCOL.md: at most 120 bytes without the newline, and a CR before it is ignored; the line
    buffer counted the CR and threw a full-length CRLF line away as too long."""
    from firmware_bridge.shared.protocol import MAX_LINE, LineBuffer, encode

    detail = "x" * (MAX_LINE - len(encode(5, "ERR", ("-", "FORMAT", ""))) + 1)
    line = encode(5, "ERR", ("-", "FORMAT", detail)).rstrip(b"\n")
    assert len(line) == MAX_LINE
    [received] = LineBuffer().feed(line + b"\r\n")
    assert decode(received) == (5, "ERR", ("-", "FORMAT", detail))
    assert LineBuffer().feed(line + b"xy\n") == [None]  # longer still is too long


def test_the_simulators_tcp_port_never_reports_data_sent_that_was_only_partly_sent():
    """socket.send on a non-blocking socket may take part of the data and return: the rest was
    silently lost while the device thought it sent (unlike the pty port, which waits for room and
    raises BlockingIOError when the Pi is not reading)."""
    import socket

    from firmware_bridge.sim.ports import TcpPort

    port = TcpPort(0)
    device_end, pi_end = socket.socketpair()
    device_end.setblocking(False)
    port.conn = device_end          # a connected client that is not reading
    data = b"x" * (8 << 20)         # more than any socket buffer holds
    try:
        try:
            port.write(data)
        except BlockingIOError:
            return                  # refused: nothing claimed
        pi_end.settimeout(5)        # a liveness bound only: lost bytes never come
        received = b""
        while len(received) < len(data):
            try:
                chunk = pi_end.recv(1 << 20)
            except TimeoutError:
                break
            received += chunk
        assert received == data, f"write() returned, but {len(data) - len(received)} bytes were lost"
    finally:
        pi_end.close()
        port.close()


def test_a_second_start_of_a_running_bridge_starts_no_second_reader_thread():
    from firmware_bridge.events import EventQueue
    from firmware_bridge.serial_bridge.bridge import SerialBridge

    bridge = SerialBridge("loop://", EventQueue(), "dice", FAST).start()
    try:
        thread = bridge._thread
        assert bridge.start() is bridge and bridge._thread is thread
    finally:
        bridge.stop()
    assert not thread.is_alive() and not bridge.running
    bridge.start().stop()   # a stopped bridge may be started again
    with bridge:            # and a `with` block closes it for good
        assert bridge.running
    assert bridge.closed
    with pytest.raises(RuntimeError, match="closed"):
        bridge.start()

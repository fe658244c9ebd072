"""Protocol v1 framing, checksum, sequence arithmetic and message parsing."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.shared import protocol
from firmware_bridge.shared.protocol import FROM_DEVICE, FROM_HOST, LineBuffer, ProtocolError, decode, encode, parse

field = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E, blacklist_characters=",*$"),
                min_size=1, max_size=8)


def test_known_line_and_checksum():
    # XOR of "7,ROLL,3,2,5,6" computed by hand: the frame is readable in a terminal.
    body = b"7,ROLL,3,2,5,6"
    value = 0
    for ch in body:
        value ^= ch
    assert encode(7, "ROLL", (3, 2, 5, 6)) == b"$7,ROLL,3,2,5,6*%02X\n" % value
    assert decode(b"$7,ROLL,3,2,5,6*%02X\r" % value) == (7, "ROLL", ("3", "2", "5", "6"))


@given(st.integers(0, 999), st.sampled_from(sorted(FROM_DEVICE)), st.lists(field, max_size=6))
def test_encode_decode_round_trip(seq, verb, fields):
    assert decode(encode(seq, verb, fields)[:-1]) == (seq, verb, tuple(fields))


@given(st.binary(max_size=200))
def test_decode_never_raises_anything_but_protocol_error(data):
    try:
        decode(data)
    except ProtocolError as exc:
        assert exc.code in (protocol.E_FORMAT, protocol.E_CHECKSUM, protocol.E_RANGE, protocol.E_TOOLONG)


@pytest.mark.parametrize("line, code", [
    (b"$1,HB*00", protocol.E_CHECKSUM),
    (b"1,HB*7B", protocol.E_FORMAT),
    (b"$1,HB*ZZ", protocol.E_FORMAT),
    (b"$1,HB", protocol.E_FORMAT),
    (b"$1\x00,HB*00", protocol.E_FORMAT),
    (b"$" + b"1" * 200 + b"*00", protocol.E_TOOLONG),
])
def test_decode_rejects(line, code):
    with pytest.raises(ProtocolError) as info:
        decode(line)
    assert info.value.code == code


def test_sequence_wraps_and_gaps_count_across_the_wrap():
    assert protocol.next_seq(999) == 0
    assert protocol.missed_between(998, 998) == 0
    assert protocol.missed_between(998, 1) == 3


def test_encode_refuses_separators_and_overlong():
    with pytest.raises(ProtocolError):
        encode(1, "ERR", ("-", "a,b"))
    with pytest.raises(ProtocolError):
        encode(1, "ERR", ("-", "x" * 200))


@pytest.mark.parametrize("verb, fields, values", [
    ("HELLO", ("dice", "1.0.0", "1", "0A0B0C0D", "4"), ("dice", "1.0.0", "1", "0A0B0C0D", 4)),
    ("ROLL", ("12", "3", "1", "6", "2"), (12, (1, 6, 2))),
    ("SEEN", ("75", "04A1B2C3"), (75, "04A1B2C3")),
    ("SNAP", ("END", "3"), ("END", 3)),
    ("ERR", ("-", "CHECKSUM"), (None, "CHECKSUM", "")),
])
def test_parse_device_messages(verb, fields, values):
    assert parse(FROM_DEVICE, verb, fields) == values


@pytest.mark.parametrize("verb, fields, code", [
    ("ROLL", ("1", "3", "1", "6"), protocol.E_RANGE),          # count says 3, two faces
    ("ROLL", ("1", "2", "1", "7"), protocol.E_RANGE),          # face 7
    ("ROLL", ("1", "5", "1", "2", "3", "4", "5"), protocol.E_FORMAT),  # five dice
    ("ROLL", ("0", "1", "4"), protocol.E_RANGE),               # ids start at 1
    ("STATE", ("tumbling",), protocol.E_RANGE),
    ("SEEN", ("3", "04a1b2c3"), protocol.E_FORMAT),            # lower-case UID
    ("SEEN", ("3", "04A1B2"), protocol.E_FORMAT),              # 3-byte UID
    ("SEEN", ("300", "04A1B2C3"), protocol.E_RANGE),
    ("HELLO", ("toaster", "1", "1", "00", "0"), protocol.E_RANGE),
    ("JUMP", (), protocol.E_UNKNOWN),
    ("HB", ("x",), protocol.E_FORMAT),
])
def test_parse_rejects_device_messages(verb, fields, code):
    with pytest.raises(ProtocolError) as info:
        parse(FROM_DEVICE, verb, fields)
    assert info.value.code == code


def test_parse_host_messages():
    assert parse(FROM_HOST, "REQROLL", ("4",)) == (4,)
    assert parse(FROM_HOST, "LED", ("tray", "blink")) == ("tray", "blink")
    assert parse(FROM_HOST, "LED", ("12", "on")) == (12, "on")
    with pytest.raises(ProtocolError):
        parse(FROM_HOST, "REQROLL", ("5",))
    with pytest.raises(ProtocolError):
        parse(FROM_HOST, "LED", ("tray", "disco"))


def test_line_buffer_joins_fragments_and_drops_a_megabyte_line_once():
    buf = LineBuffer(max_line=120)
    assert buf.feed(b"$1,H") == []
    assert buf.feed(b"B*7B\n$2,") == [b"$1,HB*7B"]
    out = []
    for _ in range(1024):
        out += buf.feed(b"x" * 1024)         # 1 MB with no newline: held memory stays <= 120 bytes
        assert len(buf._buf) <= 120
    out += buf.feed(b"\n$3,HB*79\n")
    assert out == [None, b"$3,HB*79"]


@given(st.lists(st.binary(max_size=300), max_size=20))
def test_line_buffer_reports_every_newline_exactly_once(chunks):
    buf = LineBuffer(max_line=50)
    out = []
    for chunk in chunks:
        out += buf.feed(chunk)
    *whole, tail = b"".join(chunks).split(b"\n")
    expected = [line if len(line) <= 50 or (len(line) == 51 and line.endswith(b"\r")) else None for line in whole]
    # An over-long line is reported as soon as it passes the limit (+1 byte for a CR), newline or not.
    assert out == expected + ([None] if len(tail) > 51 else [])

"""Serial protocol v1 (hardware/PROTOCOL.md): framing, checksum, sequence numbers, message parsing.

Pure and MicroPython-compatible (no dataclasses, typing or f-strings): the Pi-side bridge, the
simulator and the RP2040 firmware all import this one file. A line is

    $<seq>,<VERB>[,<field>...]*<HH>\\n

where HH is the XOR of every byte between `$` and `*`, as two upper-case hex digits.
"""

from firmware_bridge.shared.errors import BridgeValueError

VERSION = "1"
MAX_LINE = 120          # bytes, without the newline; longer input is discarded as one bad line
SEQ_MOD = 1000          # sequence numbers run 0..999 and wrap
MAX_DICE = 4
MAX_READERS = 256
DEVICE_KINDS = ("dice", "board")
DICE_STATES = ("rolling", "rolled", "crooked")
LED_MODES = ("on", "off", "blink")
UID_LENGTHS = (8, 14, 20)   # 4-, 7- and 10-byte ISO 14443 UIDs as hex

# Error codes carried by ERR replies and used as counter names on the Pi.
E_CHECKSUM = "CHECKSUM"
E_FORMAT = "FORMAT"
E_UNKNOWN = "UNKNOWN"
E_RANGE = "RANGE"
E_TOOLONG = "TOOLONG"

_HEX = "0123456789ABCDEF"


class ProtocolError(BridgeValueError):
    """A line or message that does not follow protocol v1; `code` is one of the E_* codes."""

    def __init__(self, code, detail):
        super().__init__("%s: %s" % (code, detail))
        self.code = code
        self.detail = detail


def checksum(body):
    """XOR of the bytes of `body` (the text between `$` and `*`)."""
    value = 0
    for b in body:
        value ^= b
    return value


def next_seq(seq):
    """The sequence number after `seq` (they wrap at SEQ_MOD)."""
    return (seq + 1) % SEQ_MOD


def missed_between(expected, got):
    """How many lines were lost if `got` arrived when `expected` was due (0 = in order)."""
    return (got - expected) % SEQ_MOD


def encode(seq, verb, fields=()):
    """The wire form (bytes, newline included) of one message."""
    parts = [str(seq), verb]
    for f in fields:
        text = str(f)
        for bad in ",*$\r\n":
            if bad in text:
                raise ProtocolError(E_FORMAT, "field %r contains %r" % (text, bad))
        parts.append(text)
    body = ",".join(parts).encode()
    if len(body) + 4 > MAX_LINE:
        raise ProtocolError(E_TOOLONG, "message of %d bytes" % (len(body) + 4))
    c = checksum(body)
    return b"$" + body + b"*" + (_HEX[c >> 4] + _HEX[c & 15]).encode() + b"\n"


def decode(line):
    """Split one line (bytes, no newline) into (seq, verb, fields); raise ProtocolError if malformed."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise ProtocolError(E_TOOLONG, "%d bytes" % len(line))
    for b in line:
        if b < 0x20 or b > 0x7E:
            raise ProtocolError(E_FORMAT, "non-printable byte 0x%02X" % b)
    if len(line) < 6 or line[0:1] != b"$" or line[-3:-2] != b"*":
        raise ProtocolError(E_FORMAT, "not a $...*hh frame")
    body = line[1:-3]
    digits = line[-2:].decode()
    if digits[0] not in _HEX or digits[1] not in _HEX:  # int(x, 16) would take '+4', ' 4', 'a4'
        raise ProtocolError(E_FORMAT, "checksum %r is not two upper-case hex digits" % digits)
    sent = int(digits, 16)
    if sent != checksum(body):
        raise ProtocolError(E_CHECKSUM, "got %02X, computed %02X" % (sent, checksum(body)))
    if b"*" in body or b"$" in body:
        raise ProtocolError(E_FORMAT, "'*' or '$' inside a frame")
    parts = body.decode().split(",")
    if len(parts) < 2:
        raise ProtocolError(E_FORMAT, "no verb")
    seq = parse_int(parts[0], 0, SEQ_MOD - 1)
    return seq, parts[1], tuple(parts[2:])


def parse_int(text, lo, hi):
    """A decimal field as an int in lo..hi; ProtocolError FORMAT or RANGE otherwise."""
    if not text or len(text) > 10 or not text.isdigit():
        raise ProtocolError(E_FORMAT, "%r is not a number" % text)
    value = int(text)
    if value < lo or value > hi:
        raise ProtocolError(E_RANGE, "%d not in %d..%d" % (value, lo, hi))
    return value


def parse_choice(text, choices):
    """A field that must be one of `choices`; ProtocolError RANGE otherwise."""
    if text not in choices:
        raise ProtocolError(E_RANGE, "%r not one of %s" % (text, "/".join(choices)))
    return text


def parse_uid(text):
    """A UID field: upper-case hex of 4, 7 or 10 bytes; ProtocolError FORMAT otherwise."""
    if len(text) not in UID_LENGTHS:
        raise ProtocolError(E_FORMAT, "UID %r has a bad length" % text)
    for ch in text:
        if ch not in _HEX:
            raise ProtocolError(E_FORMAT, "UID %r is not upper-case hex" % text)
    return text


def parse_faces(count_text, face_texts):
    """`n` then n faces 1..6; a count that disagrees with the faces listed is a RANGE error."""
    n = parse_int(count_text, 1, MAX_DICE)
    if len(face_texts) != n:
        raise ProtocolError(E_RANGE, "count %d but %d faces" % (n, len(face_texts)))
    return tuple(parse_int(f, 1, 6) for f in face_texts)


def _fields(fields, lo, hi, verb):
    if not lo <= len(fields) <= hi:
        raise ProtocolError(E_FORMAT, "%s takes %d..%d fields, got %d" % (verb, lo, hi, len(fields)))


def _text(text):
    if not text:
        raise ProtocolError(E_FORMAT, "empty field")
    return text


def _reader_uid(f):
    return parse_int(f[0], 0, MAX_READERS - 1), parse_uid(f[1])


def _snap(f):
    if f and f[0] == "END":
        _fields(f, 2, 2, "SNAP END")
        return ("END", parse_int(f[1], 0, 99999))
    _fields(f, 1, 1, "SNAP BEGIN")
    return (parse_choice(f[0], ("BEGIN",)),)


def _ref(text):
    return None if text == "-" else parse_int(text, 0, SEQ_MOD - 1)


# verb -> (min fields, max fields, parser of the field tuple into typed values)
FROM_DEVICE = {
    "HELLO": (5, 5, lambda f: (parse_choice(f[0], DEVICE_KINDS), _text(f[1]), _text(f[2]),
                                _text(f[3]), parse_int(f[4], 0, MAX_READERS))),
    "HB": (0, 0, lambda f: ()),
    "STATE": (1, 1, lambda f: (parse_choice(f[0], DICE_STATES),)),
    "ROLL": (3, 2 + MAX_DICE, lambda f: (parse_int(f[0], 1, 999999999), parse_faces(f[1], f[2:]))),
    "LAST": (1, 1, lambda f: (parse_int(f[0], 0, 999999999),)),
    "SEEN": (2, 2, _reader_uid),
    "GONE": (2, 2, _reader_uid),
    "TAG": (2, 2, _reader_uid),
    "SNAP": (1, 2, _snap),
    "OK": (1, 1, lambda f: (_ref(f[0]),)),
    "ERR": (2, 3, lambda f: (_ref(f[0]), _text(f[1]), f[2] if len(f) > 2 else "")),
}

FROM_HOST = {
    "HELLO": (1, 1, lambda f: (_text(f[0]),)),
    "HB": (0, 0, lambda f: ()),
    "SNAP": (0, 0, lambda f: ()),
    "REQROLL": (1, 1, lambda f: (parse_int(f[0], 1, MAX_DICE),)),
    "LED": (2, 2, lambda f: ("tray" if f[0] == "tray" else parse_int(f[0], 0, MAX_READERS - 1),
                             parse_choice(f[1], LED_MODES))),
    "ACK": (1, 1, lambda f: (parse_int(f[0], 1, 999999999),)),
}


def parse(table, verb, fields):
    """Typed values of a message from FROM_DEVICE or FROM_HOST; ProtocolError if unknown or invalid."""
    spec = table.get(verb)
    if spec is None:
        raise ProtocolError(E_UNKNOWN, "verb %r" % verb)
    _fields(fields, spec[0], spec[1], verb)
    return spec[2](fields)


class LineBuffer:
    """Splits a byte stream into lines. A line longer than `max_line` (not counting a CR that ends
    it) is dropped whole (however long: no more than `max_line` + 1 bytes are ever held) and
    reported once as None."""

    def __init__(self, max_line=MAX_LINE):
        self.max_line = max_line
        self._buf = b""
        self._discarding = False

    def feed(self, data):
        """Add received bytes and return the complete lines among them; a line over MAX_LINE comes back as one
        None, and its bytes up to the next newline are discarded."""
        out = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                break
            self._take(data[start:nl], out)
            if self._discarding:
                self._discarding = False
            elif len(self._buf) > self.max_line and not self._buf.endswith(b"\r"):
                out.append(None)    # the byte held for a CR was not one
            else:
                out.append(self._buf)
            self._buf = b""
            start = nl + 1
        self._take(data[start:], out)
        return out

    def _take(self, chunk, out):
        if self._discarding:
            return
        if len(self._buf) + len(chunk) > self.max_line + 1:
            self._buf = b""
            self._discarding = True
            out.append(None)
        else:
            self._buf += chunk

"""The device end of protocol v1: what a dice tray or board scanner says and how it answers the Pi.

MicroPython-compatible and hardware-free: the RP2040 firmware (hardware/firmware/main.py) and the
simulator (device_sim.py) both drive these classes. A device is given a `write(bytes)` callable
and a sensors object (the one small interface below), then fed the bytes it receives with
`feed(data, now_ms)` and called with `poll(now_ms)` every few milliseconds.

Sensors interface
    dice tray:      motion() -> bool; pockets() -> list of 4 ints (0 empty, 1..6 face up,
                    -1 a die that is not flat); set_led("tray", mode)
    board scanner:  count (number of readers); read() -> list (one per reader) of UID strings;
                    set_led(reader, mode)
"""

import os

from firmware_bridge.shared.debounce import DEFAULT_WINDOW_MS, Debouncer
from firmware_bridge.shared.protocol import (
    E_RANGE,
    E_TOOLONG,
    FROM_HOST,
    VERSION,
    LineBuffer,
    ProtocolError,
    decode,
    encode,
    missed_between,
    next_seq,
    parse,
)
from firmware_bridge.shared.ticks import ticks_diff

FIRMWARE_VERSION = "1.0.0"
HEARTBEAT_MS = 1000
HOST_TIMEOUT_MS = 5000      # no line from the Pi for this long: lights off, the table is not listening
SETTLE_MS = 400             # dice still for this long after the last motion: read the faces
MAX_UNACKED = 16            # rolls kept for replay until the Pi acknowledges them


def new_boot_id():
    """A random 8-hex-digit boot id: the Pi tells a reboot (new id, state lost) from a reconnect (same id)."""
    return "".join("%02X" % b for b in os.urandom(4))


class Device:
    """Framing, sequence numbers, handshake, heartbeat and error replies common to both kinds."""

    kind = ""

    def __init__(self, write, sensors, boot=None, firmware=FIRMWARE_VERSION,
                 heartbeat_ms=HEARTBEAT_MS, host_timeout_ms=HOST_TIMEOUT_MS):
        self._write = write
        self.sensors = sensors
        self.boot = boot or new_boot_id()
        self.firmware = firmware
        self.heartbeat_ms = heartbeat_ms
        self.host_timeout_ms = host_timeout_ms
        self._seq = 0
        self._lines = LineBuffer()
        self._last_tx = None
        self._last_rx = None
        self._rx_expect = None
        self.rx_errors = 0
        self.rx_missed = 0

    @property
    def units(self):
        """How many units (dice pockets, readers) the device reports in its HELLO."""
        return 0

    def send(self, verb, fields=()):
        """Send one protocol line with the next sequence number; a line the link cannot take is lost, and the
        snapshot after the reconnect recovers the state."""
        line = encode(self._seq, verb, fields)
        self._seq = next_seq(self._seq)
        try:
            self._write(line)
        except OSError:
            pass    # link down: this line is lost; the Pi's snapshot after reconnect recovers the state

    def hello(self):
        """Announce the device: kind, firmware, protocol version, boot id and units."""
        self.send("HELLO", (self.kind, self.firmware, VERSION, self.boot, self.units))

    def feed(self, data, now_ms):
        """Take bytes from the Pi and act on every complete line in them."""
        for line in self._lines.feed(data):
            self._receive(line, now_ms)

    def _receive(self, line, now_ms):
        if line is None:
            self.rx_errors += 1
            self.send("ERR", ("-", E_TOOLONG))
            return
        if not line.strip():
            return
        try:
            seq, verb, fields = decode(line)
        except ProtocolError as exc:
            self.rx_errors += 1
            self.send("ERR", ("-", exc.code))
            return
        self._last_rx = now_ms
        if self._rx_expect is not None:
            self.rx_missed += missed_between(self._rx_expect, seq)
        self._rx_expect = next_seq(seq)
        try:
            values = parse(FROM_HOST, verb, fields)
            self._command(seq, verb, values)
        except ProtocolError as exc:
            self.rx_errors += 1
            self.send("ERR", (seq, exc.code, exc.detail.replace(",", ";")[:40]))

    def _command(self, seq, verb, values):
        if verb == "HELLO":
            self._rx_expect = None      # a new host session: its numbering starts afresh
            self.hello()
        elif verb == "SNAP":
            items = self.snapshot_items()
            self.send("SNAP", ("BEGIN",))
            for verb_, fields in items:
                self.send(verb_, fields)
            self.send("SNAP", ("END", len(items)))
        elif verb == "LED":
            self.set_led(values[0], values[1])
            self.send("OK", (seq,))
        elif verb != "HB":
            self.command(seq, verb, values)

    def poll(self, now_ms):
        """Once per loop: heartbeat when due, notice a silent Pi (host_lost), then sense."""
        if self._last_tx is None or ticks_diff(now_ms, self._last_tx) >= self.heartbeat_ms:
            self._last_tx = now_ms
            self.send("HB")
        if self._last_rx is not None and ticks_diff(now_ms, self._last_rx) >= self.host_timeout_ms:
            self._last_rx = None
            self.host_lost()
        self.sense(now_ms)

    # Kind-specific parts.
    def command(self, seq, verb, values):
        """Act on a command for this kind of device; the base device knows none (ProtocolError KIND)."""
        raise ProtocolError("KIND", "%s is not for a %s device" % (verb, self.kind))

    def set_led(self, target, mode):
        """Set LED `target` to `mode`; the base device has no LED (ProtocolError RANGE)."""
        raise ProtocolError(E_RANGE, "no LED %s" % target)

    def snapshot_items(self):
        """The (verb, fields) lines that describe the device's state in a SNAP reply."""
        return []

    def sense(self, now_ms):
        """Read the sensors and send what changed (nothing in the base device)."""
        pass

    def host_lost(self):
        """The Pi went silent: put the device in its safe state (nothing in the base device)."""
        pass


class DiceTray(Device):
    """Up to four dice in four pockets, a motion sensor and a tray light."""

    kind = "dice"

    def __init__(self, write, sensors, settle_ms=SETTLE_MS, **kw):
        Device.__init__(self, write, sensors, **kw)
        self.settle_ms = settle_ms
        self.state = None
        self._last_motion = None
        self._roll_id = 0
        self.unacked = []       # [(roll id, faces)], oldest first

    @property
    def units(self):
        """A tray has four dice pockets."""
        return 4

    def command(self, seq, verb, values):
        """REQROLL lights the tray for a roll; ACK forgets a roll the Pi has safely; anything else is refused."""
        if verb == "REQROLL":
            self.sensors.set_led("tray", "blink")
            self.send("OK", (seq,))
        elif verb == "ACK":
            self.unacked = [r for r in self.unacked if r[0] != values[0]]
        else:
            Device.command(self, seq, verb, values)

    def set_led(self, target, mode):
        """Set the tray light; a tray has no other LED."""
        if target != "tray":
            Device.set_led(self, target, mode)
        self.sensors.set_led("tray", mode)

    def host_lost(self):
        """Without a Pi no roll is asked for: the tray light goes off."""
        self.sensors.set_led("tray", "off")

    def snapshot_items(self):
        """The tray's state, the last roll id and every roll the Pi has not acknowledged."""
        items = [("STATE", (self.state,))] if self.state else []
        return items + [("LAST", (self._roll_id,))] + [self._roll_line(r) for r in self.unacked]

    def _roll_line(self, roll):
        return "ROLL", (roll[0], len(roll[1])) + roll[1]

    def _set_state(self, state):
        self.state = state
        self.send("STATE", (state,))

    def sense(self, now_ms):
        """Rolling while the dice move; once still for `settle_ms`, the faces as a ROLLED (or CROOKED) line, kept
        until acknowledged."""
        if self.sensors.motion():
            self._last_motion = now_ms
            if self.state != "rolling":
                self._set_state("rolling")
            return
        if self.state != "rolling" or ticks_diff(now_ms, self._last_motion) < self.settle_ms:
            return
        pockets = self.sensors.pockets()
        faces = tuple(p for p in pockets if 1 <= p <= 6)
        if not faces or len(faces) != len([p for p in pockets if p != 0]):  # -1 or a glitch like 7
            self._set_state("crooked")
            return
        self._set_state("rolled")
        self.sensors.set_led("tray", "off")
        self._roll_id += 1
        roll = (self._roll_id, faces)
        self.unacked = (self.unacked + [roll])[-MAX_UNACKED:]
        verb, fields = self._roll_line(roll)
        self.send(verb, fields)


class BoardScanner(Device):
    """N tag readers under the map, each with an LED; reports debounced tag arrivals and departures."""

    kind = "board"

    def __init__(self, write, sensors, window_ms=DEFAULT_WINDOW_MS, arrive_reads=None, **kw):
        Device.__init__(self, write, sensors, **kw)
        # the firmware passes arrive_reads (main.py: arrivals not held by the departure window); the
        # simulator, polling every few ms, keeps the window both ways
        self.debouncer = Debouncer(window_ms, arrive_reads)

    @property
    def units(self):
        """How many readers the scanner drives."""
        return self.sensors.count

    def set_led(self, target, mode):
        """Set reader `target`'s LED; a number beyond the readers is refused."""
        if target == "tray" or target >= self.units:
            Device.set_led(self, target, mode)
        self.sensors.set_led(target, mode)

    def snapshot_items(self):
        """One TAG line per tag stably present."""
        return [("TAG", key) for key in sorted(self.debouncer.stable)]

    def sense(self, now_ms):
        """Read every reader and send SEEN and GONE for what stayed changed through the debounce window."""
        present = set()
        for reader, uids in enumerate(self.sensors.read()):
            for uid in uids:
                present.add((reader, uid))
        for key, is_present in self.debouncer.update(now_ms, present):
            self.send("SEEN" if is_present else "GONE", key)

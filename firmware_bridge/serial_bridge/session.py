"""What the Pi makes of one device's protocol v1 lines: typed sensor events, dedup, snapshots, counters.

No I/O and no threads: `SerialBridge` feeds it received lines and gives it a `send(verb, fields)`
and an `emit(event)`. It survives reconnects (call `link_opened()` after each open), so a roll or a
tag is reported once however often the cable is pulled: rolls carry ids the device keeps until the
Pi ACKs them, and a snapshot after each handshake is diffed against what was already reported.
Every bad line is dropped, counted under its reason and logged the first time that reason occurs.

Rolls for a monitor (the default) are ACKed as they are delivered, every one in id order. Rolls
for a table (`table_rolls=True`) are ACKed only once the table says the roll is in its journal
(`roll_taken`), so a roll the Pi dies holding is still on the tray; and of several rolls not yet
delivered (a snapshot after a lost line, rolls made while the Pi was away) only the newest is
delivered: it is what lies in the tray, and the older ones are ACKed and counted (`stale_roll`),
never taken in its place.

Bounded against a faulty or hostile device: a snapshot asked for and not completed within
`snapshot_retry` seconds is asked for again (a lost SNAP must not stall rolls and tags while
heartbeats keep the link up); a line numbered at or before the last one taken is never trusted,
but it is not lost either: the same bytes again are a duplicate, anything else means the
device's numbering is not the one followed here (a replay, a device that reused or restarted its
numbers), so the Pi takes the device's numbering and asks for a snapshot, which brings whatever
the line carried (`resync`); an unfinished snapshot holds at most MAX_SNAPSHOT_ITEMS items and the
set of tags reported at most MAX_TAGS (beyond: dropped and counted, `snapshot_overflow` /
`tags_overflow`).
"""
from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from firmware_bridge.events import (
    DeviceDown,
    DeviceUp,
    Diagnostic,
    DiceRolled,
    DiceState,
    SensorEvent,
    TagGone,
    TagSeen,
)
from firmware_bridge.serial_bridge.commands import PendingCommands
from firmware_bridge.shared import protocol

log = logging.getLogger(__name__)

DICE_VERBS = {"STATE", "ROLL", "LAST"}
BOARD_VERBS = {"SEEN", "GONE", "TAG"}
SNAPSHOT_RETRY = 1.0        # seconds: a snapshot asked for and not complete by then is asked for again
MAX_SNAPSHOT_ITEMS = 1024   # a board of 256 readers with every block of the game fits many times over
MAX_TAGS = 1024


class DeviceIdentity(NamedTuple):
    """What a device's HELLO says about it."""

    kind: str
    firmware: str
    protocol: str
    boot: str
    units: int


class DeviceSession:
    """The Pi's side of protocol v1 for one device, without I/O: handshake, sequence checks, snapshots after a
    reconnect, commands awaiting replies, and the sensor events the lines mean."""
    def __init__(self, url: str, emit: Callable[[SensorEvent], None], send: Callable[[str, tuple], int | None],
                 expected_kind: str | None = None, commands: PendingCommands | None = None,
                 clock: Callable[[], float] = time.monotonic, snapshot_retry: float = SNAPSHOT_RETRY,
                 table_rolls: bool = False):
        self.url = url
        self.clock = clock
        self.snapshot_retry = snapshot_retry
        self.emit = emit
        self.send = send
        self.commands = commands or PendingCommands(send)
        self.leds: dict[str | int, str] = {}       # wanted LED modes, set again after each handshake
        self.expected_kind = expected_kind
        self.table_rolls = table_rolls
        self.awaiting: set[int] = set()         # rolls delivered, not yet taken by the table (no ACK yet)
        self.counters: Counter[str] = Counter()
        self.identity: DeviceIdentity | None = None     # of the last HELLO taken
        self.up = False
        self.rejected: str | None = None
        self.last_roll_id: int | None = None    # None: not yet known for this boot (the snapshot tells)
        self.requested_dice: int | None = None
        self.dice_state: str | None = None
        self.tags: set[tuple[int, str]] = set()
        self._rx_expect: int | None = None
        self._snapshot: list | None = None     # items between SNAP BEGIN and SNAP END
        self._snapshot_pending = False
        self._snapshot_asked = 0.0
        self.snapshots = 0                      # snapshots taken since this session began
        self._last_line: bytes | None = None    # the last line taken (a byte-identical repeat is a duplicate)
        self._due_before: int | None = None     # the seq due before the last resync (see _out_of_step)

    @property
    def source(self) -> str:
        """The device's name in events and logs: its kind and port (dice@/dev/ttyACM0)."""
        kind = self.identity.kind if self.identity else (self.expected_kind or "serial")
        return f"{kind}@{self.url}"

    def link_opened(self) -> None:
        """A new connection: forget the device's identity and what was half received; a HELLO must come first."""
        self.up = False
        self.rejected = None
        self._rx_expect = None
        self._snapshot = None
        self._snapshot_pending = False
        self._last_line = self._due_before = None
        self.commands.clear()
        self.send("HELLO", (protocol.VERSION,))

    def drop(self, reason: str, detail: str) -> None:
        """Count a line dropped for `reason`; the first of each reason is logged with `detail`."""
        self.counters[reason] += 1
        if self.counters[reason] == 1:
            log.warning("%s: dropped a line (%s): %s; further ones are only counted", self.url, reason, detail)

    def request_roll(self, count: int) -> None:
        """Ask the tray for a roll of `count` dice; repeated after a reconnect until the roll arrives."""
        if not 1 <= count <= protocol.MAX_DICE:
            raise ValueError(f"a roll is of 1..{protocol.MAX_DICE} dice, not {count}")
        self.requested_dice = count
        if self.up:
            self.commands.send("REQROLL", (count,))

    def cancel_roll(self) -> None:
        """The roll asked for is no longer wanted (rolled on the phone, typed, the game moved on):
        forget it (not asked again after a reconnect) and turn the tray light off (`LED,tray,off`:
        the protocol has no verb to withdraw a REQROLL). A roll still made is delivered as any."""
        if self.requested_dice is None:
            return
        self.requested_dice = None
        if self.up:
            self.commands.send("LED", ("tray", "off"))

    def set_led(self, target: str | int, mode: str) -> None:
        """Ask for an LED mode; ValueError (ProtocolError) if the target or mode is not valid."""
        protocol.parse(protocol.FROM_HOST, "LED", (str(target), mode))
        self.leds[target] = mode
        if self.up:
            self.commands.send("LED", (target, mode))

    def tick(self) -> None:
        """Called by the reader thread every read: resends commands that got no answer."""
        for verb, fields in self.commands.tick():
            self.drop("no_reply", f"no OK for {verb} {fields} after {self.commands.tries} tries")
        if self.up and self._snapshot_pending and self.clock() - self._snapshot_asked >= self.snapshot_retry:
            self.drop("snapshot_retry", f"no complete snapshot {self.snapshot_retry} s after asking; asking again")
            self.request_snapshot()

    def request_snapshot(self) -> None:
        """Ask the device for its whole state (SNAP), as after a reconnect or a gap in the sequence."""
        self._snapshot = None
        self._snapshot_pending = True
        self._snapshot_asked = self.clock()
        self.send("SNAP", ())

    def handle_line(self, line: bytes | None) -> None:
        """Act on one line from the device: check and decode it, or count it dropped, and emit what it means."""
        if line is None:
            return self.drop("toolong", f"line over {protocol.MAX_LINE} bytes")
        if not line.strip():
            return
        try:
            seq, verb, fields = protocol.decode(line)
        except protocol.ProtocolError as exc:
            return self.drop(exc.code.lower(), f"{exc.detail} in {line[:60]!r}")
        missed = 0 if self._rx_expect is None else protocol.missed_between(self._rx_expect, seq)
        if missed >= protocol.SEQ_MOD // 2:
            if verb != "HELLO":
                return self._out_of_step(seq, line)
            missed = 0  # a HELLO is taken whatever its number: it says itself whether the device restarted
        if seq == self._due_before:
            missed = 0  # the numbering of before the resync goes on: that line was a replay, nothing was lost
        self._due_before = None
        self._rx_expect = protocol.next_seq(seq)
        self._last_line = line
        try:
            values = protocol.parse(protocol.FROM_DEVICE, verb, fields)
        except protocol.ProtocolError as exc:
            values = None
            self.drop(exc.code.lower(), f"{exc.detail} in {line[:60]!r}")
            if self._snapshot is not None and verb != "SNAP":
                # It arrived (no gap) but will be just as invalid in every snapshot: count it, so
                # END matches and the snapshot is taken without it instead of asked for forever.
                self._snapshot_item(("INVALID", ()))
        if verb == "HELLO" and values is not None and self.identity is not None and values[3] != self.identity.boot:
            missed = 0  # a restarted device numbers afresh; its handshake asks for the snapshot
        if missed and self.up:
            self.counters["missed"] += missed
            log.info("%s: %d line(s) missed before seq %d; asking for a snapshot", self.url, missed, seq)
            self.request_snapshot()
        if values is not None:
            self._message(verb, values)

    def _out_of_step(self, seq: int, line: bytes) -> None:
        """A line numbered at or before the last one taken. The same bytes again are a duplicate.
        Anything else may be a replay (so it is not processed) or new news under a reused number
        (so it must not be lost): take the device's numbering and ask for a snapshot, which
        carries every roll not yet ACKed, the tray's state and the tags on the board."""
        if line == self._last_line:
            self.counters["duplicate_line"] += 1
            return
        due, self._rx_expect, self._last_line = self._rx_expect, protocol.next_seq(seq), line
        self._due_before = due
        self.drop("resync", f"seq {seq} when {due} was due in {line[:60]!r}: taking the device's numbering "
                            "and asking for a snapshot")
        if self.up:
            self.request_snapshot()

    def _snapshot_item(self, item: tuple) -> None:
        assert self._snapshot is not None
        if len(self._snapshot) >= MAX_SNAPSHOT_ITEMS:
            # Given up; the retry timer asks again, so a device that never ends one cannot spin us.
            self._snapshot = None
            self.drop("snapshot_overflow", f"a snapshot of more than {MAX_SNAPSHOT_ITEMS} items")
            return
        self._snapshot.append(item)

    def _message(self, verb: str, values: tuple) -> None:
        if verb == "HELLO":
            return self._hello(*values)
        if not self.up:
            self.counters["before_hello"] += 1  # recovered by the snapshot that follows the handshake
            return
        assert self.identity is not None    # up: its HELLO was taken
        kind = self.identity.kind
        if (verb in DICE_VERBS and kind != "dice") or (verb in BOARD_VERBS and kind != "board"):
            return self.drop("kind", f"{verb} from a {kind} device")
        if verb == "SNAP":
            return self._snap(values)
        if self._snapshot is not None and verb in ("STATE", "ROLL", "LAST", "TAG"):
            return self._snapshot_item((verb, values))
        if verb == "STATE":
            self._state(values[0])
        elif verb == "ROLL":
            self._roll(*values)
        elif verb in ("SEEN", "GONE"):
            self._tag(verb == "SEEN", *values)
        elif verb in ("TAG", "LAST"):
            self.drop("format", f"{verb} outside a snapshot")
        elif verb == "OK":
            self.commands.answered(values[0])
        elif verb == "ERR":
            command = self.commands.answered(values[0])
            self.drop("device_error", f"device replied ERR {values[1]} to {command or values[0]}: {values[2]}")

    def _hello(self, kind: str, firmware: str, proto: str, boot: str, units: int) -> None:
        if proto != protocol.VERSION:
            self.rejected = f"device speaks protocol {proto}, this bridge {protocol.VERSION}"
        elif self.expected_kind and kind != self.expected_kind:
            self.rejected = f"a {kind} device where a {self.expected_kind} device was expected"
        if self.rejected:
            self.drop("wrong_device", self.rejected)
            return
        rebooted = self.identity is not None and self.identity.boot != boot
        if self.up and not rebooted:
            return
        if self.up:
            self.emit(DeviceDown(self.source, reason="device restarted"))
        if rebooted or self.identity is None or self.identity.kind != kind:
            self.last_roll_id = None    # roll ids restart with each boot
            self.awaiting.clear()
        self.identity = DeviceIdentity(kind, firmware, proto, boot, units)
        self.up = True
        self.emit(DeviceUp(self.source, device_kind=kind, firmware=firmware, protocol=proto))
        self.request_snapshot()
        if kind == "dice" and self.requested_dice:
            self.commands.send("REQROLL", (self.requested_dice,))
        for target, mode in list(self.leds.items()):
            self.commands.send("LED", (target, mode))

    def _snap(self, values: tuple) -> None:
        if values[0] == "BEGIN":
            self._snapshot = []
            return
        items, self._snapshot = self._snapshot, None
        if items is None:
            # No BEGIN (lost: the gap already asked again) or given up: the retry timer asks again.
            return self.drop("bad_snapshot", f"snapshot END {values[1]} without its items")
        if len(items) != values[1]:
            self.drop("bad_snapshot", f"snapshot END {values[1]} after {len(items)} items")
            return self.request_snapshot()
        self._snapshot_pending = False
        self.snapshots += 1
        items = [item for item in items if item[0] != "INVALID"]
        assert self.identity is not None    # a snapshot is taken only from a device that is up
        if self.identity.kind == "board":
            present = {(reader, uid) for _, (reader, uid) in items}
            for key in sorted(self.tags - present):
                self._tag(False, *key)
            for key in sorted(present - self.tags):
                self._tag(True, *key)
            return
        rolls = sorted(values_ for verb, values_ in items if verb == "ROLL")
        last = [values_[0] for verb, values_ in items if verb == "LAST"]
        for verb, values_ in items:
            if verb == "STATE":
                self._state(values_[0])
        if self.last_roll_id is None and last:
            # First snapshot of this boot: rolls the device still holds are new, older ones were
            # acknowledged to an earlier session.
            self.last_roll_id = (rolls[0][0] if rolls else last[0] + 1) - 1
        if self.last_roll_id is None:
            return
        known = self.last_roll_id
        for roll_id, faces in rolls:
            if roll_id <= known:
                self._roll(roll_id, faces)      # delivered before: ACKed again unless the table has it still
        fresh = [(roll_id, faces) for roll_id, faces in rolls if roll_id > known]
        if fresh and fresh[0][0] > known + 1:
            self.drop("lost_roll", f"rolls {known + 1}..{fresh[0][0] - 1} were dropped by the device")
        if self.table_rolls and len(fresh) > 1:
            for roll_id, faces in fresh[:-1]:
                self.drop("stale_roll", f"roll {roll_id} {list(faces)} was never delivered and roll {fresh[-1][0]} "
                                        "came after it: only the newest roll, the one in the tray, is taken")
                self.send("ACK", (roll_id,))
            fresh = fresh[-1:]
        for roll_id, faces in fresh:
            self._roll(roll_id, faces, in_order=True)
        if last and last[0] > self.last_roll_id:
            self.drop("lost_roll", f"rolls up to {last[0]} were dropped by the device")
            self.last_roll_id = last[0]

    def _state(self, state: str) -> None:
        if state != self.dice_state:
            self.dice_state = state
            self.emit(DiceState(self.source, state=state))

    def _roll(self, roll_id: int, faces: tuple[int, ...], in_order: bool = False) -> None:
        """Deliver rolls once and in id order. A roll that overtakes a missing one waits: it is not
        acknowledged, and the snapshot asked for brings it back after the missing one."""
        if self.last_roll_id is None:
            self.counters["roll_before_snapshot"] += 1
            return
        if roll_id > self.last_roll_id + 1 and not in_order:
            self.counters["roll_out_of_order"] += 1
            if not self._snapshot_pending:
                self.request_snapshot()
            return
        if roll_id <= self.last_roll_id:
            self.counters["duplicate_roll"] += 1
            if roll_id not in self.awaiting:
                self.send("ACK", (roll_id,))     # taken (or given up) before: the tray may forget it
            return
        mismatch = bool(self.requested_dice) and len(faces) != self.requested_dice
        if mismatch or not self.table_rolls:
            # Before anything changes: a link lost on this write leaves the roll to be delivered again.
            self.send("ACK", (roll_id,))
        self.last_roll_id = roll_id
        if mismatch:
            detail = f"roll {roll_id} has {len(faces)} dice, {self.requested_dice} requested"
            # Not a roll, but the players must hear that it was not taken (the table says why).
            self.emit(Diagnostic(self.source, code="dice_mismatch", detail=detail))
            return self.drop("dice_mismatch", detail)
        self.requested_dice = None
        if not self.table_rolls:
            return self.emit(DiceRolled(self.source, faces=faces))
        assert self.identity is not None     # rolls are taken only from a device that said HELLO
        self.awaiting.add(roll_id)
        self.emit(DiceRolled(self.source, faces=faces, roll=f"{self.identity[3]}/{roll_id}"))

    def roll_taken(self, roll: str) -> None:
        """The table has roll `roll` ("BOOT/ID" of a DiceRolled) in its journal, or refused it:
        ACK it so the tray forgets it (after a reconnect, the roll repeated by the snapshot is
        ACKed then). A roll of an earlier boot is gone from the tray already."""
        boot, _, number = roll.rpartition("/")
        if self.identity is None or boot != self.identity[3] or not number.isdigit():
            return
        self.awaiting.discard(int(number))
        if self.up:
            self.send("ACK", (int(number),))

    def _tag(self, present: bool, reader: int, uid: str) -> None:
        assert self.identity is not None    # tags come only from a device that is up
        if reader >= self.identity.units:
            return self.drop("range", f"reader {reader} on a board of {self.identity.units}")
        key = (reader, uid)
        if present == (key in self.tags):
            self.counters["duplicate_tag"] += 1
            return
        if present:
            if len(self.tags) >= MAX_TAGS:
                return self.drop("tags_overflow", f"more than {MAX_TAGS} tags on the board; {uid} not reported")
            self.tags.add(key)
            self.emit(TagSeen(self.source, reader=reader, uid=uid))
        else:
            self.tags.discard(key)
            self.emit(TagGone(self.source, reader=reader, uid=uid))

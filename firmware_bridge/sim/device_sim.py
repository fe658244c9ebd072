"""A simulated dice tray or board scanner on a pty or TCP port, for owners without hardware and for tests.

It runs the same device logic as the RP2040 firmware (`device_core`) against scripted sensors
(`sim_sensors`) on a pty or TCP port (`sim_ports`) in its own thread, and injects faults at the
wire: garbage bytes, partial lines, bad checksums, silent stalls, unplugging and tag flicker.
Script it through `DeviceSim` methods or the text commands of `run_command` (what
`rubicon device-sim` reads from stdin).
"""
from __future__ import annotations

import logging
import queue
import random
import select
import threading
import time

from firmware_bridge.shared import protocol
from firmware_bridge.shared.device_core import BoardScanner, DiceTray
from firmware_bridge.shared.ticks import ticks_ms as now_ms
from firmware_bridge.sim.ports import PtyPort, TcpPort
from firmware_bridge.sim.sensors import SimBoard, SimDice
from lifecycle import Lifecycle

log = logging.getLogger(__name__)

_NOT_NEWLINE = bytes(b for b in range(256) if b != 10)


class DeviceSim(Lifecycle):
    """A device thread: `poll_ms` between polls, timings passed on to the device (heartbeat_ms,
    settle_ms for a tray, window_ms for a board), with the common life cycle (the lifecycle package):
    stop() ends the thread, close() also closes its port."""

    def __init__(self, kind: str, tcp_port: int | None = None, poll_ms: int = 2, readers: int | None = None,
                 motion_ms: int = 50, seed: int | None = None, **device_kw):
        if kind not in protocol.DEVICE_KINDS:
            raise ValueError(f"kind must be one of {protocol.DEVICE_KINDS}, not {kind!r}")
        self.kind = kind
        self.port = TcpPort(tcp_port) if tcp_port is not None else PtyPort()
        self.poll_ms = poll_ms
        self.random = random.Random(seed)
        self.sensors: SimDice | SimBoard
        self.device: DiceTray | BoardScanner
        if kind == "dice":
            self.sensors = SimDice(motion_ms)
            self.device = DiceTray(self._write, self.sensors, **device_kw)
        else:
            self.sensors = SimBoard(readers)
            self.device = BoardScanner(self._write, self.sensors, **device_kw)
        self.lines_sent = 0
        self.tap = None         # called with each line the device has written (benchmarks timestamp it)
        self._badsum = 0
        self._renumber: tuple[int, str | None] | None = None    # (lines back, of which verb) for the next line
        self._stalled_until = 0.0
        self._actions: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._roll_waiters: list[list] = []

    @property
    def path(self) -> str:
        """Where the Pi opens the device: the pty's stable link, or socket://host:port."""
        return self.port.path

    @property
    def tray(self) -> SimDice:
        """The scripted sensors of a dice tray."""
        if not isinstance(self.sensors, SimDice):
            raise ValueError("rolls are for a dice tray")
        return self.sensors

    @property
    def board(self) -> SimBoard:
        """The scripted readers of a board scanner."""
        if not isinstance(self.sensors, SimBoard):
            raise ValueError("tags are for a board scanner")
        return self.sensors

    def _on_start(self) -> None:
        self._start_thread(self._run, f"device-sim {self.kind}")
        self.do(self.device.hello)

    def _on_stop(self, timeout: float) -> None:
        self._end_thread(timeout)

    def _on_close(self) -> None:
        self.port.close()

    def do(self, func, *args) -> threading.Event:
        """Run func(*args) in the device thread; the returned event is set once it has run."""
        done = threading.Event()
        self._actions.put((func, args, done))
        return done

    # Scripting.
    def roll(self, faces, wait: bool = True, timeout: float = 10.0) -> bool:
        """Roll the tray; with wait, return once the device has settled (True) or timed out (False)."""
        if self.kind != "dice":
            raise ValueError("roll is for a dice tray")
        settled = threading.Event()
        self.do(self._start_roll, list(faces), settled)
        return settled.wait(timeout) if wait else True

    def _start_roll(self, faces, settled) -> None:
        self.tray.roll(faces)
        self._roll_waiters.append([settled, False])

    def place(self, reader: int, uid: str) -> threading.Event:
        """Put a tag on a reader; the event is set once the device thread has done it."""
        self.board._key(reader, uid)
        return self.do(self.board.place, reader, uid)

    def remove(self, reader: int, uid: str) -> threading.Event:
        """Take a tag off a reader; the event is set once the device thread has done it."""
        self.board._key(reader, uid)
        return self.do(self.board.remove, reader, uid)

    def flicker(self, reader: int, uid: str, polls: int = 100) -> threading.Event:
        """Let a tag drop in and out for `polls` polls (SimBoard.flicker)."""
        self.board._key(reader, uid)
        return self.do(self.board.flicker, reader, uid, polls)

    def blip(self, reader: int, uid: str) -> threading.Event:
        """Let a tag be read once only (SimBoard.blip)."""
        self.board._key(reader, uid)
        return self.do(self.board.blip, reader, uid)

    # Faults.
    def garbage(self, lines: int = 1) -> threading.Event:
        """Send `lines` lines of noise that are not protocol v1."""
        return self.do(self._garbage, lines)

    def _garbage(self, lines: int) -> None:
        for _ in range(lines):
            size = self.random.randint(0, 200)
            data = bytes(self.random.choice(_NOT_NEWLINE) for _ in range(size))
            self._raw(data + b"\n")

    def partial(self) -> threading.Event:
        """Send the first half of a numbered line with no newline: it spoils the next line too."""
        def cut():
            line = self._numbered("HB")
            self._raw(line[: len(line) // 2])
        return self.do(cut)

    def inject(self, verb: str, fields: tuple = (), raw: bytes | None = None) -> threading.Event:
        """Send one well-framed line numbered in the device's sequence (whatever its content), or raw bytes."""
        return self.do(lambda: self._raw(raw if raw is not None else self._numbered(verb, fields)))

    def _numbered(self, verb: str, fields: tuple = ()) -> bytes:
        body = ",".join([str(self.device._seq), verb] + [str(f) for f in fields]).encode()
        self.device._seq = protocol.next_seq(self.device._seq)
        return b"$%s*%02X\n" % (body, protocol.checksum(body))

    def renumber(self, back: int = 1, *, verb: str | None = None) -> threading.Event:
        """Number the device's next line (of `verb`, if given) `back` lines back (1: it reuses the
        number of the line before it), as firmware that lost its count would; its numbering goes
        on from there."""
        return self.do(setattr, self, "_renumber", (back, verb))

    def bad_checksums(self, lines: int = 1) -> threading.Event:
        """Spoil the checksum of the next `lines` lines the device sends."""
        return self.do(setattr, self, "_badsum", self._badsum + lines)

    def stall(self, seconds: float) -> threading.Event:
        """Send nothing, heartbeats included, for `seconds`, as a hung device."""
        return self.do(setattr, self, "_stalled_until", time.monotonic() + seconds)

    def unplug(self) -> threading.Event:
        """Pull the device out (the port goes away)."""
        return self.do(self.port.unplug)

    def replug(self) -> threading.Event:
        """Plug the device in again; it says HELLO, as a real one does on a new host."""
        def plug_in():
            self.port.replug()
            self.device.hello()    # a device announces itself when it gets a host again
        return self.do(plug_in)

    # The device thread.
    def _raw(self, data: bytes) -> None:
        try:
            self.port.write(data)
        except OSError:
            pass

    def _write(self, line: bytes) -> None:
        if self._renumber is not None:
            back, verb = self._renumber
            seq, said, fields = protocol.decode(line.rstrip(b"\n"))
            if verb is None or said == verb:
                self._renumber = None
                seq = (seq - back) % protocol.SEQ_MOD
                line = protocol.encode(seq, said, fields)
                self.device._seq = protocol.next_seq(seq)
        if self._badsum:
            self._badsum -= 1
            line = line[:-3] + (b"00" if line[-3:-1] != b"00" else b"FF") + b"\n"
        self.port.write(line)
        self.lines_sent += 1
        if self.tap is not None:
            self.tap(line)

    def _run(self) -> None:
        while not self._stop.is_set():
            if time.monotonic() < self._stalled_until:
                self._stop.wait(self.poll_ms / 1000)
                continue
            fd = self.port.fileno()
            if fd is None:
                self._stop.wait(self.poll_ms / 1000)
            else:
                ready, _, _ = select.select([fd], [], [], self.poll_ms / 1000)
                if ready:
                    data = self.port.read()
                    if data:
                        self.device.feed(data, now_ms())
            while True:
                try:
                    func, args, done = self._actions.get_nowait()
                except queue.Empty:
                    break
                try:
                    func(*args)
                except Exception:  # a bad script command must not kill the device
                    log.exception("device-sim: action %s failed", getattr(func, "__name__", func))
                done.set()
            self.device.poll(now_ms())
            self._settle_waiters()

    def _settle_waiters(self) -> None:
        state = getattr(self.device, "state", None)
        for waiter in list(self._roll_waiters):
            if state == "rolling":
                waiter[1] = True
            elif waiter[1]:
                waiter[0].set()
                self._roll_waiters.remove(waiter)


COMMANDS_HELP = """commands (one per line):
  roll F1 [F2 F3 F4]      roll the tray; a face of x is a die that is not flat
  place READER UID        put a tagged block on a reader      remove READER UID
  flicker READER UID [N]  hide a placed tag on every other poll for N polls (default 100)
  blip READER UID         show a tag for a single poll
  garbage [N]             N lines of random bytes             partial   half a line, no newline
  badsum [N]              corrupt the checksum of the next N lines
  renumber [N]            number the next line N back (1: reuse the last number)
  stall SECONDS           say nothing and hear nothing        unplug | replug
  disconnect SECONDS      unplug, wait, replug                sleep SECONDS     quit"""


MAX_SECONDS = 3600.0     # stall, disconnect and sleep: longer is surely a typo
MAX_COUNT = 10_000       # garbage and badsum lines, flicker polls


def _whole(text: str, what: str, lo: int, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{what} is a whole number, not {text!r}") from None
    if not lo <= value <= hi:
        raise ValueError(f"{what} is {lo}..{hi}, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value <= MAX_SECONDS:     # also refuses nan and inf
        raise ValueError(f"SECONDS is a number from 0 to {MAX_SECONDS:g}, not {text!r}")
    return value


def run_command(sim: DeviceSim, text: str) -> str:
    """Carry out one text command; returns what to tell the user. ValueError on a bad command
    (nothing is done then). Tag commands return once the device thread has carried them out,
    so the next command sees their effect. `#` starts a comment, as in the sensor-event scripts."""
    words = text.split("#", 1)[0].split()
    if not words:
        return ""
    verb, args = words[0].lower(), words[1:]

    def count() -> list[int]:
        if len(args) > 1:
            raise ValueError(f"usage: {verb} [N]")
        return [_whole(a, "N", 1, MAX_COUNT) for a in args]

    if verb == "roll":
        if not 1 <= len(args) <= protocol.MAX_DICE:
            raise ValueError("roll takes 1..4 faces")
        if any(a.lower() != "x" and a not in ("1", "2", "3", "4", "5", "6") for a in args):
            raise ValueError("faces are 1..6 or x")
        if not sim.roll([-1 if a.lower() == "x" else int(a) for a in args]):
            raise ValueError("the tray did not settle (is the device stalled or unplugged?)")
    elif verb in ("place", "remove", "blip", "flicker"):
        if sim.kind != "board":
            raise ValueError(f"{verb} is for a board scanner")
        if len(args) not in ((2, 3) if verb == "flicker" else (2,)):
            raise ValueError(f"usage: {verb} READER UID" + (" [POLLS]" if verb == "flicker" else ""))
        reader = _whole(args[0], "READER", 0, sim.board.count - 1)
        key = sim.board._key(reader, args[1])
        if verb in ("remove", "flicker") and key not in sim.board.placed:
            raise ValueError(f"no tag {key[1]} on reader {reader} (place it first)")
        extra = [_whole(args[2], "POLLS", 1, MAX_COUNT)] if len(args) == 3 else []
        getattr(sim, verb)(reader, key[1], *extra).wait(5)
    elif verb == "garbage":
        sim.garbage(*count())
    elif verb == "partial":
        sim.partial()
    elif verb == "badsum":
        sim.bad_checksums(*count())
    elif verb == "renumber":
        sim.renumber(*count())
    elif verb in ("stall", "disconnect", "sleep"):
        if len(args) != 1:
            raise ValueError(f"usage: {verb} SECONDS")
        seconds = _seconds(args[0])
        if verb == "stall":
            sim.stall(seconds)
        elif verb == "sleep":
            time.sleep(seconds)
        else:
            sim.unplug().wait(5)
            time.sleep(seconds)
            sim.replug()
    elif verb in ("unplug", "replug"):
        getattr(sim, verb)()
    elif verb == "help":
        return COMMANDS_HELP
    else:
        raise ValueError(f"unknown command {verb!r} (try help)")
    return "ok"

"""The Pi side of one serial device (dice tray or board scanner): a reader thread that keeps the link up.

Loop: open the port (any pyserial URL) -> send HELLO -> on the device's HELLO emit DeviceUp and ask
for a snapshot -> read lines into `DeviceSession` until the port fails, the device is silent for
`silence_timeout` or the handshake times out -> emit DeviceDown (if it was up) -> wait with
exponential backoff -> reopen. All events go on the one `EventQueue` given.
"""
from __future__ import annotations

import logging
import threading
import time

from firmware_bridge.events import DeviceDown, EventQueue
from firmware_bridge.serial_bridge.link import DEFAULT_CONFIG, Backoff, LinkConfig, LinkLost, SerialLink
from firmware_bridge.serial_bridge.session import DeviceSession
from lifecycle import Lifecycle

log = logging.getLogger(__name__)


class SerialBridge(Lifecycle):
    """One serial device (dice tray or board scanner) on protocol v1: a reader thread that connects,
    handshakes, turns lines into sensor events and reconnects; the common life cycle
    (the lifecycle package): start(), stop(), close(), `with`."""

    def __init__(self, url: str, events: EventQueue, expected_kind: str | None = None,
                 config: LinkConfig = DEFAULT_CONFIG, table_rolls: bool = False):
        self.url = url
        self.events = events
        self.config = config
        self.link = SerialLink(url, config)
        # table_rolls: a roll is ACKed only once `roll_taken` says the table has it, and only the
        # newest of several undelivered rolls is delivered (DeviceSession's docstring).
        self.session = DeviceSession(url, events.put, self._send, expected_kind, table_rolls=table_rolls)
        self.connects = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # The session and the link's writes are shared by the reader thread and callers of
        # request_roll/set_led; one lock keeps them consistent (reads stay outside it).
        self._lock = threading.RLock()

    @property
    def source(self) -> str:
        """The name this device's events carry ("dice@/dev/ttyACM0")."""
        return self.session.source

    @property
    def counters(self):
        """How many lines were dropped, and why, and how often the link was lost (the session's counters)."""
        return self.session.counters

    def _on_start(self) -> None:
        self._start_thread(self._run, f"serial-bridge {self.url}")

    def _on_stop(self, timeout: float) -> None:
        self._end_thread(timeout)

    def _on_close(self) -> None:
        with self._lock:
            self.link.close()

    def request_roll(self, count: int) -> None:
        """Light the tray for a roll of `count` dice (sent now if connected, else after reconnecting).
        ValueError if count is not 1..4."""
        self._try(self.session.request_roll, count)

    def cancel_roll(self) -> None:
        """The roll asked for is over without the tray (rolled on the phone): the light goes off
        and the request is not repeated after a reconnect."""
        self._try(self.session.cancel_roll)

    def roll_taken(self, roll: str) -> None:
        """The roll a DiceRolled named `roll` is safe with the consumer (in the table's journal,
        or refused): the tray may forget it (ACK). Before this, the tray keeps it."""
        self._try(self.session.roll_taken, roll)

    def set_led(self, target: str | int, mode: str) -> None:
        """Set the tray light (target "tray") or reader N's LED to on/off/blink; ValueError if invalid.
        Kept and set again after every reconnect."""
        self._try(self.session.set_led, target, mode)

    def _send(self, verb: str, fields: tuple = ()) -> int:
        return self.link.send(verb, fields)

    def _try(self, func, *args) -> None:
        try:
            with self._lock:
                func(*args)
        except LinkLost as exc:
            log.info("%s: not sent now (%s); the reader thread reconnects", self.url, exc)

    def _run(self) -> None:
        backoff = Backoff(self.config)
        while not self._stop.is_set():
            reason = "stopped"
            try:
                self.link.open()
                self.connects += 1
                self._serve(backoff)
            except LinkLost as exc:
                reason = str(exc)
                if self.session.counters["link_lost"] == 0:
                    log.warning("%s: %s; reconnecting with backoff", self.url, reason)
                self.session.counters["link_lost"] += 1
            finally:
                with self._lock:
                    self.link.close()
                    if self.session.up:
                        self.session.up = False
                        self.events.put(DeviceDown(self.session.source, reason=reason))
            self._stop.wait(backoff.next())

    def _serve(self, backoff: Backoff) -> None:
        cfg = self.config
        with self._lock:
            self.session.link_opened()
        opened = last_rx = last_tx = time.monotonic()
        while not self._stop.is_set():
            lines = self.link.read_lines()
            now = time.monotonic()
            if lines:
                last_rx = now
            with self._lock:
                for line in lines:
                    try:
                        self.session.handle_line(line)
                    except LinkLost:
                        raise
                    except Exception:  # a bug must cost one line, not the device's reader thread
                        self.session.counters["internal_error"] += 1
                        log.exception("%s: error handling %r; line dropped", self.url, line)
                self.session.tick()
            if self.session.rejected:
                raise LinkLost(self.session.rejected)
            if self.session.up:
                backoff.reset()
            elif now - opened > cfg.hello_timeout:
                raise LinkLost(f"no HELLO within {cfg.hello_timeout} s")
            if now - last_rx > cfg.silence_timeout:
                raise LinkLost(f"silent for {cfg.silence_timeout} s")
            if now - last_tx >= cfg.heartbeat:
                last_tx = now
                with self._lock:
                    self._send("HB")

"""The table's devices, started and fed into the table session: the one place the application
touches the drivers of firmware_bridge/.

`TableDevices(session, specs)` starts one driver per `DeviceSpec` (a serial dice tray, a serial
board scanner, the Pi-wired MFRC522 readers, the Pi's buzzer/LED panel), puts all their events
on one bounded `EventQueue` and forwards each to the session as `Sense(event)`, in order, from
one thread. A tray's roll is ACKed (the tray forgets it) only after the session's verdict on it,
that is after its line is in the journal: the Pi may die at any moment and the roll is on disk
or still on the tray (journal first, then the tray). A second thread follows the session's
snapshots and asks every dice tray for the dice the game waits for (`SerialBridge.request_roll`:
the tray light blinks). The session keeps each device's "up"/"down" from the DeviceUp/DeviceDown
events; a serial device is listed as down until it answers, so a table without its tray falls
back to the phones at once.

Degraded, never down: a device that cannot be opened (absent, miswired, not permitted) does not
stop the table. What to check (rubicon/table/device_checks.py) is logged and shown to every viewer
(the session's note "devices": a message per device in each table part), the device is listed as
down, and a Pi-wired device (readers, panel) is opened again with back-off (OPEN_BACKOFF_S) until
it joins; a serial device's bridge reconnects by itself. Only a configuration error (a reader
layout, tag registry or panel.toml that cannot be read: ConfigError / RegistryError with file and
line) stops `start()`.

    with TableDevices(session, [DeviceSpec("dice", "/dev/serial/by-id/usb-Rubicon_dice-if00")]):
        ...                      # play; the devices stop with the block

`rubicon run` builds the specs from its configuration (the shipping work); tests pass them.
"""
from __future__ import annotations

import dataclasses
import errno
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from firmware_bridge.device_kinds import Device, DeviceSpec, DeviceSpecError, Opening, Tray, kind_of
from firmware_bridge.events import DeviceDown, EventQueue
from firmware_bridge.serial_bridge.link import LinkConfig
from lifecycle import Lifecycle

from .device_checks import DeviceProblem, diagnose
from .session import ANSWER_TIMEOUT_S, Note, Sense, TableSession

log = logging.getLogger(__name__)

DEFAULT_LINK = LinkConfig()
POLL_S = 0.2     # how often the threads look at their stop flag while idle (never a synchronisation)
OPEN_BACKOFF_S = (1.0, 60.0)    # a device that failed to open is tried again after 1, 2, 4 ... 60 s
NOTE_KEY = "devices"            # the session's note: the devices not working, what to check

__all__ = ["DeviceSpec", "DeviceSpecError", "TableDevices"]


class TableDevices(Lifecycle):
    """Starts the devices of `specs` and feeds their events to `session` (see the module docstring);
    start(), stop(), close() and `with` as every thread owner (the lifecycle package)."""

    def __init__(self, session: TableSession, specs: Iterable[DeviceSpec], *,
                 link_config: LinkConfig = DEFAULT_LINK, pin_factory: Any = None,
                 backoff: tuple[float, float] = OPEN_BACKOFF_S, clock: Any = None):
        self.session = session
        self.clock = clock            # the readers' clock (None: the machine's; an emulated rig's in tests)
        self.specs = tuple(specs)
        # A serial board scanner's reader N is the reader map's first_reader + N (several Picos).
        self._first_reader = {s.source: s.first_reader for s in self.specs if s.first_reader}
        self.link_config = link_config
        self.pin_factory = pin_factory
        self.backoff = backoff
        self.panel: Any = None        # the panel driver once started (the table's buzzer and LEDs)
        self.on_panel: Callable[[Any], None] | None = None   # told when the panel opens (maybe late)
        self.events = EventQueue()
        self.trays: list[Tray] = []
        self.problems: dict[str, DeviceProblem] = {}     # source -> why it is not working
        self.attempts: dict[str, int] = {}                # source -> failed opening attempts
        self._configs: dict[str, Any] = {}                # source -> its loaded configuration
        self._retry: dict[str, tuple[float, float]] = {}  # source -> (when to try again, delay after)
        self._lock = threading.Lock()                     # problems, _retry, _drivers, panel
        self._drivers: list[Device] = []
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self._stop_reopening = threading.Event()     # set first at stop: no device opens after it

    # --- life cycle ------------------------------------------------------------------------
    def _on_start(self) -> None:
        self._stop.clear()
        self._stop_reopening.clear()
        for spec in self.specs:     # a configuration that cannot be read stops the start: nothing opened yet
            self._configs[spec.source] = self._configure(spec)
        try:
            for spec in self.specs:
                self._try_open(spec)
        except Exception:
            self._close_drivers()
            raise
        self._threads = [threading.Thread(target=self._forward, name="table-devices forward", daemon=True),
                         threading.Thread(target=self._ask_trays, name="table-devices dice", daemon=True),
                         threading.Thread(target=self._reopen, name="table-devices reopen", daemon=True)]
        for thread in self._threads:
            thread.start()

    def _on_stop(self, timeout: float) -> None:
        """Stop the drivers, forward what they said last, then stop the threads."""
        self._stop_reopening.set()
        for thread in self._threads:
            if thread.name == "table-devices reopen":
                thread.join(timeout)
        self._close_drivers()
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = []

    # --- drivers ---------------------------------------------------------------------------
    def _configure(self, spec: DeviceSpec) -> Any:
        """The device's configuration files, read: ConfigError / RegistryError (file and line) here."""
        configure = kind_of(spec.kind).configure
        return None if configure is None else configure(spec)

    def _try_open(self, spec: DeviceSpec) -> bool:
        """Open the device; if it cannot be, say what to check and try again later. True if opened."""
        kind = kind_of(spec.kind)
        opening = Opening(self.events, self.link_config, self.pin_factory, self.clock, self._configs.get(spec.source))
        if kind.port:
            # Listed as down until its handshake: the session's queue keeps this before its DeviceUp.
            self.session.submit(Sense(DeviceDown(spec.source, reason="not connected yet")))
        try:
            device = kind.open(spec, opening)
        except Exception as exc:    # absent, miswired, not permitted, not a Pi: the table runs without it
            self._failed(spec, diagnose(spec.kind, exc, url=spec.url, spi=_spi_of(opening.config)),
                         retry=not kind.port, exc=exc)
            return False
        with self._lock:
            self._drivers.append(device)
            if kind.role == "tray" and isinstance(device, Tray):
                self.trays.append(device)
            if kind.role == "panel":
                self.panel = device
        if kind.role == "panel" and self.on_panel is not None:
            self.on_panel(device)
        if kind.port:
            # A port that keeps reconnecting by itself: an absent or forbidden one is told now. Looked
            # at, not opened: opening a tty may block, and the device is opening it.
            if "://" not in spec.url and not os.access(spec.url, os.R_OK | os.W_OK):
                absent = OSError(errno.EACCES if os.path.exists(spec.url) else errno.ENOENT, "cannot open", spec.url)
                self._failed(spec, diagnose(spec.kind, absent, url=spec.url), retry=False)
            return True
        self._joined(spec)
        return True

    def _failed(self, spec: DeviceSpec, problem: DeviceProblem, retry: bool, exc: Exception | None = None) -> None:
        with self._lock:
            attempts = self.attempts[spec.source] = self.attempts.get(spec.source, 0) + 1
            told = self.problems.get(spec.source)
            self.problems[spec.source] = problem
            if retry:
                delay = self._retry.get(spec.source, (0.0, self.backoff[0]))[1]
                self._retry[spec.source] = (time.monotonic() + delay, min(delay * 2, self.backoff[1]))
        if told != problem:
            log.warning("%s (the table runs without it%s)", problem.text,
                        "; tried again with back-off until it joins" if retry else "; reconnected when it appears")
            if exc is not None and attempts == 1:
                log.debug("%s: opening failed", spec.source, exc_info=exc)
            self.events.put(DeviceDown(spec.source, reason=problem.text))
            self._publish_problems()

    def _joined(self, spec: DeviceSpec) -> None:
        with self._lock:
            self._retry.pop(spec.source, None)
            told = self.problems.pop(spec.source, None)
        if told is not None:
            log.warning("%s joined the table", spec.source)
            self._publish_problems()

    def _publish_problems(self) -> None:
        with self._lock:
            items = [p.as_message() for p in self.problems.values()]
        self.session.submit(Note(NOTE_KEY, items or None))

    def _reopen(self) -> None:
        """Open each device that failed when its back-off delay is over, until it joins or stop()."""
        specs = {spec.source: spec for spec in self.specs}
        while not self._stop_reopening.is_set():
            with self._lock:
                due = sorted(self._retry.items(), key=lambda item: item[1][0])
            if not due:
                self._stop_reopening.wait(POLL_S)
                continue
            source, (when, _) = due[0]
            wait = when - time.monotonic()
            if wait > 0:
                self._stop_reopening.wait(min(wait, POLL_S))
                continue
            self._try_open(specs[source])

    def _close_drivers(self) -> None:
        with self._lock:
            self._retry.clear()
        for driver in reversed(self._drivers):
            try:
                driver.close()
            except Exception:   # one driver failing to stop must not keep the others running
                log.exception("stopping %r failed", driver)
        self._drivers, self.trays, self.panel = [], [], None

    # --- threads ---------------------------------------------------------------------------
    def _forward(self) -> None:
        """Every event, in order, to the session; after stop, what is still queued too."""
        while True:
            try:
                event = self.events.get(timeout=POLL_S)
            except queue.Empty:
                if self._stop.is_set():
                    return
                continue
            verdict = self.session.submit(Sense(self._in_map_numbers(event)))
            if event.kind == "dice_rolled" and getattr(event, "roll", ""):
                self._roll_taken(event, verdict)
            if event.kind == "device_up" and event.source in self.problems:   # a serial device appeared
                spec = next((s for s in self.specs if s.source == event.source), None)
                if spec is not None:
                    self._joined(spec)

    def _in_map_numbers(self, event: Any) -> Any:
        """A tag event of a Pico scanning one region, with its reader numbered as the reader map has it."""
        first = self._first_reader.get(event.source)
        if first is None or event.kind not in ("tag_seen", "tag_gone"):
            return event
        return dataclasses.replace(event, reader=event.reader + first)

    def _roll_taken(self, event: Any, verdict: Any) -> None:
        """ACK a tray's roll once the session has its verdict (the roll's line committed, or the
        roll refused: not asked, wrong count); a failed commit is not ACKed: the tray keeps it."""
        try:
            verdict.result(ANSWER_TIMEOUT_S)
        except Exception as exc:   # a failed journal write, a dead owner thread: the tray keeps the roll
            log.warning("%s: roll %s not taken (%s); the tray keeps it", event.source, event.roll, exc)
            return
        for tray in list(self.trays):
            if tray.source == event.source:
                tray.roll_taken(event.roll)

    def _ask_trays(self) -> None:
        """Ask the trays for the dice the game waits for, each time the table changes while a roll
        is asked (after a refused roll the tray lights up again)."""
        version = -1
        asking = False      # a roll was asked of the trays and not yet seen over
        while not self._stop.is_set():
            if self.session.stopped:
                self._stop.wait(POLL_S)
                continue
            snap = self.session.wait_for_change(version, POLL_S)
            if snap.version == version:
                continue
            version = snap.version
            dice = (snap.public.table or {}).get("dice")
            if dice is None or "tray" not in dice.get("sources", ("tray",)):
                # No roll asked (any more: rolled on the phone, typed, undone), or the players chose
                # the phone or typed faces: the tray stops blinking and forgets the request.
                if asking:
                    asking = False
                    for tray in list(self.trays):
                        tray.cancel_roll()
                continue
            asking = True
            for tray in list(self.trays):
                try:
                    tray.request_roll(int(dice["count"]))
                except ValueError as exc:   # more dice than a tray holds: the phone rolls them
                    log.warning("%s: %s", tray.source, exc)


def _spi_of(config: Any) -> tuple[int, int]:
    """The readers' SPI (bus, device), when the device's configuration is a reader map's."""
    bus = getattr(config[0], "bus", None) if isinstance(config, tuple) and config else None
    return (bus.spi_bus, bus.spi_device) if bus is not None else (0, 0)

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

    with TableDevices(session, [DeviceSpec("dice", "/dev/serial/by-id/usb-Rubicon_dice-if00")]):
        ...                      # play; the devices stop with the block

`rubicon run` builds the specs from its configuration (the shipping work); tests pass them.
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from firmware_bridge.events import DeviceDown, EventQueue
from firmware_bridge.serial_bridge.bridge import SerialBridge
from firmware_bridge.serial_bridge.link import LinkConfig

from .session import ANSWER_TIMEOUT_S, Sense, TableSession

log = logging.getLogger(__name__)

DEVICE_KINDS = {"dice": "a serial dice tray", "board": "a serial board scanner",
                "readers": "the Pi-wired MFRC522 readers", "panel": "the Pi's buzzer, LEDs and Done buttons"}
DEFAULT_LINK = LinkConfig()
POLL_S = 0.2     # how often the threads look at their stop flag while idle (never a synchronisation)


class DeviceConfigError(ValueError):
    """A device spec that can never work (unknown kind, a serial device without a port)."""


@dataclass(frozen=True)
class DeviceSpec:
    """One device of the table. `kind`: dice | board (serial: `url` is a tty path or pyserial URL)
    | readers (Pi-wired: `path` is readers.toml, `registry` tags.json; None: the defaults) | panel
    (`path`: panel.toml or None)."""
    kind: str
    url: str = ""
    path: str | None = None
    registry: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in DEVICE_KINDS:
            raise DeviceConfigError(f"device kind {self.kind!r} is not one of {', '.join(DEVICE_KINDS)}")
        if self.kind in ("dice", "board") and not self.url:
            raise DeviceConfigError(f"{DEVICE_KINDS[self.kind]} needs its serial port (url), e.g. /dev/ttyACM0")

    @property
    def source(self) -> str:
        """The name the device's events carry, and the table's `devices` list shows."""
        return f"{self.kind}@{self.url}" if self.kind in ("dice", "board") else self.kind


class TableDevices:
    """Starts the devices of `specs` and feeds their events to `session` (see the module docstring).
    `start()`/`stop()` are safe to call twice; `with` starts and stops."""

    def __init__(self, session: TableSession, specs: Iterable[DeviceSpec], *,
                 link_config: LinkConfig = DEFAULT_LINK, pin_factory: Any = None):
        self.session = session
        self.specs = tuple(specs)
        self.link_config = link_config
        self.pin_factory = pin_factory
        self.panel: Any = None        # the panel driver once started (the table's buzzer and LEDs)
        self.events = EventQueue()
        self.trays: list[SerialBridge] = []
        self._drivers: list[Any] = []
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()

    # --- life cycle ------------------------------------------------------------------------
    def start(self) -> TableDevices:
        if self._threads:
            return self
        self._stop.clear()
        try:
            for spec in self.specs:
                self._open(spec)
        except Exception:
            self._close_drivers()
            raise
        self._threads = [threading.Thread(target=self._forward, name="table-devices forward", daemon=True),
                         threading.Thread(target=self._ask_trays, name="table-devices dice", daemon=True)]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the drivers, forward what they said last, then stop the threads."""
        if not self._threads:
            return
        self._close_drivers()
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = []

    def __enter__(self) -> TableDevices:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- drivers ---------------------------------------------------------------------------
    def _open(self, spec: DeviceSpec) -> None:
        if spec.kind in ("dice", "board"):
            # Listed as down until its handshake: the session's queue keeps this before its DeviceUp.
            self.session.submit(Sense(DeviceDown(spec.source, reason="not connected yet")))
            bridge = SerialBridge(spec.url, self.events, spec.kind, self.link_config,
                                  table_rolls=spec.kind == "dice").start()
            self._drivers.append(bridge)
            if spec.kind == "dice":
                self.trays.append(bridge)
        elif spec.kind == "readers":
            from firmware_bridge.rfid.scanner import open_rfid_scanner
            scanner = open_rfid_scanner(self.events, spec.path, spec.registry, source=spec.source)
            scanner.announce()
            scanner.start()
            self._drivers.append(scanner)
        else:
            from firmware_bridge.panel import Panel, PanelConfig
            self.panel = Panel(PanelConfig.load(spec.path), self.events, pin_factory=self.pin_factory)
            self._drivers.append(self.panel)

    def _close_drivers(self) -> None:
        for driver in reversed(self._drivers):
            try:
                driver.close() if hasattr(driver, "close") else driver.stop()
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
            verdict = self.session.submit(Sense(event))
            if event.kind == "dice_rolled" and getattr(event, "roll", ""):
                self._roll_taken(event, verdict)

    def _roll_taken(self, event: Any, verdict: Any) -> None:
        """ACK a tray's roll once the session has its verdict (the roll's line committed, or the
        roll refused: not asked, wrong count); a failed commit is not ACKed: the tray keeps it."""
        try:
            verdict.result(ANSWER_TIMEOUT_S)
        except Exception as exc:   # a failed journal write, a dead owner thread: the tray keeps the roll
            log.warning("%s: roll %s not taken (%s); the tray keeps it", event.source, event.roll, exc)
            return
        for tray in list(self.trays):
            if tray.session.source == event.source:
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
            dice = (snap.table.get("public") or {}).get("dice")
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
                    log.warning("%s: %s", tray.url, exc)

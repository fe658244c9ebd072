"""The polling scheduler: scan every reader in turn, debounce, put sensor events on the queue.

`RfidScanner.poll_once()` does one full-board pass (what the benchmark times); `run()` repeats
it until asked to stop, on a background thread if wanted. The debounce window is
`appear_scans` / `vanish_scans` passes (see `tag_debounce`).
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from firmware_bridge.events import DeviceDown, DeviceUp, Diagnostic, EventQueue, SensorEvent
from firmware_bridge.rfid.reader_array import ReaderArray, array_of
from firmware_bridge.rfid.tag_debounce import TagDebouncer
from lifecycle import Lifecycle

log = logging.getLogger(__name__)
ERROR_BACKOFF_S = 1.0


class RfidScanner(Lifecycle):
    """Scans the reader array pass after pass and puts debounced sensor events on `queue`; a device
    with the common life cycle (the lifecycle package): start(), stop(), close(), `with`."""

    def __init__(self, array: ReaderArray, queue: EventQueue | None = None, *, appear_scans: int = 2,
                 vanish_scans: int = 3, is_enrolled: Callable[[str], bool] | None = None,
                 place_name: Callable[[int], str] = str, source: str = "rfid"):
        self.array = array
        self.queue = queue if queue is not None else EventQueue()
        self.source = source
        self.debouncer = TagDebouncer(appear_scans, vanish_scans, source, is_enrolled, place_name)
        self.passes = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def announce(self) -> SensorEvent:
        """DeviceUp for the array, with how many readers answer."""
        answering = sum(self.array.scan(r).answered for r in self.array.readers)
        event = DeviceUp(self.source, device_kind="mfrc522-array", firmware="",
                         protocol=f"{answering}/{len(self.array.readers)} readers answering")
        self.queue.put(event)
        return event

    def poll_once(self) -> list[SensorEvent]:
        """One pass over the whole board: scan, debounce, queue the events (and log diagnostics); returns the
        events."""
        events = self.debouncer.feed(self.array.scan_all().values())
        self.passes += 1
        for event in events:
            if isinstance(event, Diagnostic):
                log.warning("%s: %s", event.code, event.detail)
            self.queue.put(event)
        return events

    def run(self, period_s: float = 0.0, passes: int | None = None) -> None:
        """Scan until `stop()` (or `passes` passes), at most one pass per `period_s`."""
        done = 0
        while not self._stop.is_set() and (passes is None or done < passes):
            started = time.monotonic()
            try:
                self.poll_once()
            except Exception as exc:  # the scanner thread must outlive a bug in one pass; say so and go on
                log.exception("RFID pass failed")
                self.queue.put(Diagnostic(self.source, code="scanner_error", detail=f"a pass failed: {exc!r}"))
                self._stop.wait(ERROR_BACKOFF_S)
            done += 1
            self._stop.wait(max(0.0, period_s - (time.monotonic() - started)))

    def _on_start(self, period_s: float = 0.0) -> None:
        """Scan on a background thread (`start(period_s=...)`: at most one pass per `period_s`); one
        thread only, since two would share the SPI bus (a second start() while it runs does nothing)."""
        self._start_thread(self.run, "rfid-scanner", period_s)

    def _on_stop(self, timeout: float) -> None:
        self._end_thread(timeout)
        self.queue.put(DeviceDown(self.source, reason="scanner stopped"))

    def _on_close(self) -> None:
        self.array.close()    # the SPI bus and the chip-select pins, free for the next scanner


def open_rfid_scanner(queue: EventQueue, readers: str | None = None, registry: str | None = None,
                      **debounce) -> RfidScanner:
    """The scanner the table app runs: the whole reader map, unknown tags reported, not seen.
    Raises ConfigError / RegistryError / HardwareUnavailable with a clear message."""
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.board.tag_registry import TagRegistry

    reader_map = ReaderMap.load(readers)
    tags = TagRegistry.load(registry)
    array = array_of(reader_map)
    return RfidScanner(array, queue, is_enrolled=tags.is_enrolled, place_name=reader_map.name, **debounce)

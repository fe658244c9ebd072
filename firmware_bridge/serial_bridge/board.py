"""A serial board scanner as a scan source, so enrollment and `rubicon devices scan` work on the serial build.

`SerialBoardScan.scan_all(readers)` answers like the Pi-wired `ReaderArray.scan_all`: one
`ReaderScan` per reader-map index, built from a fresh snapshot of the scanner (the tags it holds
stably, already debounced on the device). The scanner's reader N is reader-map index
`offset + N` (offset 0 for one scanner with the whole map; more Picos each take a range).
`settle` seconds pass before each snapshot, so a block lifted just before is debounced away.
"""
from __future__ import annotations

import time
from collections.abc import Iterable

from firmware_bridge.events import EventQueue
from firmware_bridge.rfid.reader_array import HardwareUnavailable, ReaderScan
from firmware_bridge.serial_bridge.bridge import SerialBridge
from firmware_bridge.serial_bridge.link import DEFAULT_CONFIG, LinkConfig
from lifecycle import Lifecycle

SETTLE_S = 0.6   # longer than the scanner's 400 ms debounce window


class SerialBoardScan(Lifecycle):
    """A serial board scanner read as a scan source (module docstring). Working once opened
    (`running`); close() closes its bridge (the lifecycle package)."""

    _running = True

    def __init__(self, bridge: SerialBridge, offset: int = 0, settle: float = SETTLE_S, timeout: float = 5.0):
        self.bridge, self.offset, self.settle, self.timeout = bridge, offset, settle, timeout

    @classmethod
    def open(cls, url: str, config: LinkConfig = DEFAULT_CONFIG, **kw) -> SerialBoardScan:
        """Connect to the scanner at `url` (its events go to a private bounded queue, unused);
        HardwareUnavailable if no board scanner answers within the timeout."""
        scan = cls(SerialBridge(url, EventQueue(maxsize=256), "board", config).start(), **kw)
        if not scan._wait(lambda: scan.bridge.session.up):
            scan.close()
            raise HardwareUnavailable(f"no board scanner answered on {url} within {scan.timeout:g} s")
        return scan

    def _wait(self, done) -> bool:
        deadline = time.monotonic() + self.timeout
        while not done():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def scan_all(self, readers: Iterable[int]) -> dict[int, ReaderScan]:
        """One ReaderScan per reader of `readers` from a fresh snapshot of the scanner, after `settle` seconds;
        HardwareUnavailable if the scanner does not answer in time."""
        readers = list(readers)
        time.sleep(self.settle)
        session = self.bridge.session
        with self.bridge._lock:
            before = session.snapshots
            if session.up:
                session.request_snapshot()
        fresh = self._wait(lambda: session.snapshots > before)
        with self.bridge._lock:
            up = fresh and session.up
            units = session.identity.units if session.identity else 0
            tags = set(session.tags)
        result = {}
        for reader in readers:
            on_device = reader - self.offset
            answered = up and 0 <= on_device < units
            uids = frozenset(uid for r, uid in tags if r == on_device) if answered else frozenset()
            problems = () if answered else ((f"scanner silent on {self.bridge.url}",) if 0 <= on_device < units
                                            else (f"no reader {on_device} on the scanner ({units} readers)",))
            result[reader] = ReaderScan(reader, uids, answered, answered, problems)
        return result

    def _on_close(self) -> None:
        self.bridge.close()

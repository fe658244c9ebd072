"""Presence debouncing for tag readers: a raw read must hold for the whole window before it counts.

Pure and MicroPython-compatible; the board-scanner firmware (device_core) runs it on the device's
own millisecond clock, so a stalled USB link or a busy Pi cannot stretch or shrink the window.

Window: DEFAULT_WINDOW_MS = 400. It must be longer than RF flicker and shorter than a real move.
An MFRC522 polled at ~20 Hz misses a tag that is really there now and then, alone or in short
bursts (RF nulls, a block nudged across the antenna): runs of one to four missed polls, 50-200 ms,
and rarely a burst joined by a stray miss either side, up to ~350 ms. A player lifting a block off
the map to move it takes at least half a second. bench/serial_latency.py runs the debouncer over
a flicker model (5% single misses, 0.5% of polls starting a 2-4 poll burst): 300 ms still gives
~0.7 false departures per tag-hour, 400 ms 0.03 (3 in 100 tag-hours) while catching every 0.5 s
lift; 500 ms would miss most of those.

Arrivals need not wait for it: a tag read at two consecutive updates (two passes of the board
scanner) is there, and a flicker is a tag *missed*, never one read where none is. So the board
scanner confirms an arrival after `arrive_reads` = 2 consecutive reads and keeps the window for
departures only (`Debouncer(window_ms, arrive_reads=2)`; hardware/firmware ARRIVE_READS): the
window would otherwise hold every set-down 400 ms (bench/rfid_pass_model.py, hardware/BOARD-BUILD.md).
Without `arrive_reads` both directions wait for the window.
"""

from firmware_bridge.shared.ticks import ticks_diff

DEFAULT_WINDOW_MS = 400
ARRIVE_READS = 2            # the board scanner's arrivals: this many consecutive reads


class Debouncer:
    """Tracks which keys (e.g. (reader, uid)) are stably present.

    `update(now_ms, present)` takes the set of keys read raw at `now_ms` and returns the committed
    changes as a list of (key, is_present): departures, then arrivals, each in sorted key order. A
    change commits only once the raw state has differed from the stable state at every update for
    at least `window_ms`; with `arrive_reads`, an arrival commits at the `arrive_reads`-th
    consecutive update that reads it, whatever the window.
    """

    def __init__(self, window_ms=DEFAULT_WINDOW_MS, arrive_reads=None):
        if arrive_reads is not None and arrive_reads < 1:
            raise ValueError("arrive_reads must be at least 1")
        self.window_ms = window_ms
        self.arrive_reads = arrive_reads
        self.stable = set()
        self._since = {}   # key -> time the raw state first disagreed with the stable state
        self._reads = {}   # key -> consecutive updates that read it while not stable

    def update(self, now_ms, present):
        """Take what is present at `now_ms` and return the (key, present) changes that held for the whole window."""
        changes = []
        for key in sorted(self.stable | set(present) | set(self._since)):
            raw = key in present
            if raw == (key in self.stable):
                self._since.pop(key, None)
                self._reads.pop(key, None)
                continue
            since = self._since.setdefault(key, now_ms)
            reads = self._reads[key] = self._reads.get(key, 0) + 1 if raw else 0
            arrived = raw and self.arrive_reads is not None and reads >= self.arrive_reads
            if arrived or ticks_diff(now_ms, since) >= self.window_ms:
                del self._since[key]
                self._reads.pop(key, None)
                if raw:
                    self.stable.add(key)
                else:
                    self.stable.discard(key)
                changes.append((key, raw))
        # Departures first: a tag that slid from one reader to another is never on both at once.
        changes.sort(key=lambda change: change[1])
        return changes

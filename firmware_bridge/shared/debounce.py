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
lift; 500 ms would miss most of those. The delay it adds is not noticeable at a board game.
"""

from firmware_bridge.shared.ticks import ticks_diff

DEFAULT_WINDOW_MS = 400


class Debouncer:
    """Tracks which keys (e.g. (reader, uid)) are stably present.

    `update(now_ms, present)` takes the set of keys read raw at `now_ms` and returns the committed
    changes as a list of (key, is_present): departures, then arrivals, each in sorted key order. A
    change commits only once the raw state has differed from the stable state at every update for
    at least `window_ms`.
    """

    def __init__(self, window_ms=DEFAULT_WINDOW_MS):
        self.window_ms = window_ms
        self.stable = set()
        self._since = {}   # key -> time the raw state first disagreed with the stable state

    def update(self, now_ms, present):
        """Take what is present at `now_ms` and return the (key, present) changes that held for the whole window."""
        changes = []
        for key in sorted(self.stable | set(present) | set(self._since)):
            raw = key in present
            if raw == (key in self.stable):
                self._since.pop(key, None)
                continue
            since = self._since.setdefault(key, now_ms)
            if ticks_diff(now_ms, since) >= self.window_ms:
                del self._since[key]
                if raw:
                    self.stable.add(key)
                else:
                    self.stable.discard(key)
                changes.append((key, raw))
        # Departures first: a tag that slid from one reader to another is never on both at once.
        changes.sort(key=lambda change: change[1])
        return changes

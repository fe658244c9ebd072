"""Presence debouncing for tag readers: a raw read must hold for the whole window before it counts.

Pure and MicroPython-compatible; the board-scanner firmware (device_core) runs it on the device's
own millisecond clock, so a stalled USB link or a busy Pi cannot stretch or shrink the window.

Window: DEFAULT_WINDOW_MS = 300. An MFRC522 polled at ~20 Hz misses a tag that is really there
for one or two polls at a time (RF nulls, a block nudged across the antenna): 50-150 ms. A player
lifting a block off the map and setting it down elsewhere takes well over half a second. 300 ms
sits above the flicker and below any real move, and adds a delay no one at the table notices.
"""

from firmware_bridge.ticks import ticks_diff

DEFAULT_WINDOW_MS = 300


class Debouncer:
    """Tracks which keys (e.g. (reader, uid)) are stably present.

    `update(now_ms, present)` takes the set of keys read raw at `now_ms` and returns the committed
    changes as a list of (key, is_present), in sorted key order. A change commits only once the raw
    state has differed from the stable state at every update for at least `window_ms`.
    """

    def __init__(self, window_ms=DEFAULT_WINDOW_MS):
        self.window_ms = window_ms
        self.stable = set()
        self._since = {}   # key -> time the raw state first disagreed with the stable state

    def update(self, now_ms, present):
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
        return changes

"""Commands the Pi sent a device that await its OK or ERR: resent when no answer comes, then given up.

A REQROLL or LED line can be lost or spoilt on the wire like any other; the device answers each
with OK (or ERR), so a command not answered within `retry_after` seconds is sent again (with a
new sequence number), at most `tries` times in all.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable

RETRY_AFTER = 1.0
TRIES = 3


class PendingCommands:
    """Commands sent to a device and not yet answered: each is sent again after `retry_after` seconds, up to
    `tries` times."""
    def __init__(self, send: Callable[[str, tuple], int | None], retry_after: float = RETRY_AFTER,
                 tries: int = TRIES, clock: Callable[[], float] = time.monotonic):
        self._send = send
        self.retry_after = retry_after
        self.tries = tries
        self.clock = clock
        self._pending: dict[int, tuple[str, tuple, float, int]] = {}
        self._lock = threading.Lock()

    def send(self, verb: str, fields: tuple, attempt: int = 1) -> None:
        """Send a command and remember it until its OK or ERR comes."""
        seq = self._send(verb, fields)
        if seq is not None:
            with self._lock:
                self._pending[seq] = (verb, fields, self.clock(), attempt)

    def answered(self, seq: int | None) -> tuple[str, tuple] | None:
        """The command an OK/ERR with this reference answers (None if none is waiting)."""
        if seq is None:     # an ERR about a line the device could not read ("-") answers no command
            return None
        with self._lock:
            entry = self._pending.pop(seq, None)
        return entry[:2] if entry else None

    def tick(self) -> list[tuple[str, tuple]]:
        """Resend what waited too long; returns the commands given up after the last try."""
        now = self.clock()
        with self._lock:
            due = [(seq, e) for seq, e in self._pending.items() if now - e[2] >= self.retry_after]
            for seq, _ in due:
                del self._pending[seq]
        given_up = []
        for _, (verb, fields, _, attempt) in due:
            if attempt >= self.tries:
                given_up.append((verb, fields))
            else:
                self.send(verb, fields, attempt + 1)
        return given_up

    def clear(self) -> None:
        """Forget every pending command (the link was lost: a snapshot sets the state again)."""
        with self._lock:
            self._pending.clear()

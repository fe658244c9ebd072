"""The journal's health as the table says it: the disk's refusal of the last write (`storage.*`:
full, read-only, no permission), said to every viewer until a write goes through, with a retry
scheduled meanwhile; and what the journal's check found and recovered at start
(`journal.recovered`), said until play goes on. Owner thread only, but for the retry's timer.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from engine import IllegalAction

from ..journal import Journal, StorageError
from .snapshots import lasting

# After the disk refused a write (full, read-only, permission), the session tries a small write this
# often and clears the message (and draws a chance outcome left due) once one goes through.
STORAGE_RETRY_S = 5.0


class JournalHealth:
    """What is wrong with the journal now, and the retry after a refused write."""

    def __init__(self, retry: Callable[[], object], retry_s: float = STORAGE_RETRY_S):
        self.retry_s = retry_s
        self._retry = retry          # queues the owner's own retry intent
        self._timer: threading.Timer | None = None
        self.storage: dict[str, Any] | None = None
        self.recovered: dict[str, Any] | None = None

    def refused(self, exc: StorageError) -> dict[str, Any]:
        """The disk refused a write: the refusal (said until a write goes through); a retry is
        scheduled unless one is."""
        refusal = IllegalAction(str(exc), code=exc.code, params=exc.params).to_json()
        self.storage = {k: refusal[k] for k in ("code", "rule", "params", "text")}
        if self._timer is None:
            self._timer = threading.Timer(self.retry_s, self._retry)
            self._timer.daemon = True
            self._timer.start()
        return refusal

    def retry_due(self) -> bool:
        """The retry's turn came: whether a refusal is still said (then try a write)."""
        self._timer = None
        return self.storage is not None

    def recovered_from(self, journal: Journal) -> None:
        """What the journal's check at open found and set aside, if anything (said until a commit)."""
        found = getattr(journal, "inspection", None)
        if found is not None and found.aside is not None:
            self.recovered = {"code": "journal.recovered", "rule": None,
                              "params": {"aside": found.aside.name, "lines": found.current_lines},
                              "text": "the journal was damaged: " + "; ".join(found.describe())}

    def written(self) -> None:
        """A write went through: what was said is over."""
        self.storage = self.recovered = None

    def messages(self) -> list[dict[str, Any]]:
        """The journal's messages in the message board's shape, for every viewer."""
        health = ((self.recovered, "play"), (self.storage, "write-taken"))
        return [lasting(m, "journal", clears) for m, clears in health if m is not None]

    def cancel(self) -> None:
        """No retry any more (the session stops)."""
        if self._timer is not None:
            self._timer.cancel()

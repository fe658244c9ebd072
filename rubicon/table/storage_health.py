"""The journal's health as the table says it: the disk's refusal of the last write (`storage.*`:
full, read-only, no permission), said to every viewer until a write goes through, with a retry
scheduled meanwhile; and what the journal's recoveries found (`journal.recovered`: its fault
reports, rubicon/table/faults.py), said until a player dismisses it. Owner thread only, but for the
retry's timer.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..errors import TableRefusal
from ..journal import Journal, StorageError
from .faults import FaultNotices
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
        self.faults: FaultNotices | None = None

    def refused(self, exc: StorageError) -> dict[str, Any]:
        """The disk refused a write: the refusal (said until a write goes through); a retry is
        scheduled unless one is."""
        refusal = TableRefusal(str(exc), code=exc.code, params=exc.params).to_json()
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
        """The fault reports of the journal's recoveries no player has dismissed yet (said until one does)."""
        self.faults = FaultNotices(journal)
        self.faults.load()

    def written(self) -> None:
        """A write went through: the storage trouble said is over (a fault report waits for a player)."""
        self.storage = None

    def messages(self) -> list[dict[str, Any]]:
        """The journal's messages in the message board's shape, for every viewer."""
        faults = self.faults.messages() if self.faults is not None else []
        return faults + ([lasting(self.storage, "journal", "write-taken")] if self.storage is not None else [])

    def cancel(self) -> None:
        """No retry any more (the session stops)."""
        if self._timer is not None:
            self._timer.cancel()

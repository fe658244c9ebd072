"""The journal's fault reports as the table says them: what a recovery found (rubicon/journal_check.py
commits it with the rebuilt game), shown to every viewer — the TV and both phones — until a player
dismisses it from his phone, whatever stops the table in between (it is read from the journal at
each start, not kept in memory). Owner thread only, like the rest of the session's state.

    notices = FaultNotices(journal)
    notices.load()                      # at start: the reports no player has dismissed yet
    notices.messages()                  # the table messages that say them (every viewer)
    notices.dismiss("Caesar", 1)        # a player has read report 1: journaled, no longer said

The session's owner thread carries out `DismissFault` with `dismiss_fault` (the health of the
journal, rubicon/table/storage_health.py, holds the notices).
"""
from __future__ import annotations

from typing import Any

from engine import IllegalAction, UnknownName, actor_name, parse_actor

from ..errors import TableRefusal
from ..journal import Journal
from .intents import DismissFault, Outcome


class FaultNotices:
    """The unread fault reports of the journal, as table messages."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self._reports: list[tuple[int, dict[str, Any]]] = []

    def load(self) -> None:
        """Read the reports no player has dismissed (at start, after the journal's check)."""
        faults = getattr(self.journal, "faults", None)
        self._reports = faults() if callable(faults) else []

    def messages(self) -> list[dict[str, Any]]:
        """One message per unread report, in the board's shape (id, cause, what ends it), `dismiss` its number."""
        return [_message(number, report) for number, report in self._reports]

    def dismiss(self, side: str, number: int) -> None:
        """`side` has read report `number`: journaled (one transaction, in the copy too) before it is no
        longer said. TableRefusal when there is no such unread report."""
        if not isinstance(number, int) or isinstance(number, bool) or \
                not any(n == number for n, _ in self._reports):
            raise TableRefusal(f"there is no fault report {number!r} to dismiss", code="journal.no-fault",
                               params={"fault": str(number)})
        self.journal.dismiss_fault(number)
        self._reports = [(n, r) for n, r in self._reports if n != number]


def dismiss_fault(owner: Any, intent: DismissFault) -> Any:
    """The owner thread's handling of `DismissFault` (owner: the session's GameOwner): journaled, published."""
    try:
        side = actor_name(parse_actor(intent.source, allow_chance=False))
    except (UnknownName, ValueError):
        return owner.refused(TableRefusal(f"unknown source {intent.source!r}", code="table.unknown-source",
                                          params={"source": str(intent.source)}))
    try:
        owner.health.faults.dismiss(side, intent.number)
    except IllegalAction as exc:
        return owner.refused(exc)
    owner.publish()
    return Outcome(owner.version)


def _message(number: int, report: dict[str, Any]) -> dict[str, Any]:
    nothing = bool(report.get("nothing_verified"))
    return {"code": "journal.recovered-nothing" if nothing else "journal.recovered", "rule": None,
            "params": {"aside": str(report.get("aside", "")), "lines": int(report.get("lines", 0))},
            "text": "the journal was damaged: " + "; ".join(report.get("said") or report.get("findings") or []),
            "id": f"fault-{number}", "cause": "journal", "clears": "dismissed", "dismiss": number}

"""Pairing: which browser speaks for Caesar and which for Pompeius.

Owns the one-time pairing codes (one per side, shown as a QR code and a link on the public view
until that side is paired), the binding of a browser to a side (a random token kept server-side;
the browser holds it in an HttpOnly, SameSite session cookie), revocation (pairing a side again
revokes its old phone), the rate limit on wrong codes (per client address), and the sides the
Pi plays, which no browser may pair (their hand and blocks stay hidden from every person).
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

SIDES = ("Caesar", "Pompeius")
MAX_FAILURES = 10          # wrong codes per client address ...
FAILURE_WINDOW_S = 60.0    # ... within this many seconds, then 429 until the window passes


class PairingRefused(ValueError):
    """A pairing attempt that is refused; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 403):
        super().__init__(message)
        self.status = status


@dataclass
class _SideSlot:
    code: str
    token: str | None = None


class Pairings:
    """Thread-safe: the web server's threads pair and check tokens concurrently."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, bot_sides: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._slots = {side: _SideSlot(self._new_code()) for side in SIDES}
        self._failures: dict[str, deque[float]] = {}
        self.bot_sides = frozenset(bot_sides)
        if not self.bot_sides <= set(SIDES):
            raise ValueError(f"unknown side among {sorted(self.bot_sides)} (sides: {', '.join(SIDES)})")

    @staticmethod
    def _new_code() -> str:
        return secrets.token_urlsafe(9)

    def code(self, side: str) -> str:
        """The current one-time code of `side` (for the public view's QR code)."""
        with self._lock:
            return self._slots[side].code

    def paired(self) -> dict[str, bool]:
        """For each side a person may pair (not one the Pi plays): whether a browser is paired."""
        with self._lock:
            return {side: slot.token is not None for side, slot in self._slots.items() if side not in self.bot_sides}

    def pair(self, side: str, code: str, client: str) -> str:
        """Use `side`'s one-time code; returns the new browser token. The old phone of that side
        (if any) is revoked, and a fresh code replaces the one used."""
        with self._lock:
            if side not in self._slots:
                raise PairingRefused(f"unknown side {side!r}", 404)
            if side in self.bot_sides:
                raise PairingRefused(f"the Pi plays {side}: no browser may pair with that side", 409)
            self._check_rate(client)
            slot = self._slots[side]
            if not isinstance(code, str) or not hmac.compare_digest(code.encode(), slot.code.encode()):
                self._failures.setdefault(client, deque()).append(self._clock())
                raise PairingRefused("this pairing code is not valid (it is used once: scan the code the table "
                                     "shows now)")
            slot.token = secrets.token_urlsafe(24)
            slot.code = self._new_code()
            return slot.token

    def side_of(self, token: object) -> str | None:
        """The side a browser token speaks for, or None (unknown or revoked)."""
        if not isinstance(token, str) or not token:
            return None
        with self._lock:
            for side, slot in self._slots.items():
                if slot.token is not None and hmac.compare_digest(token.encode(), slot.token.encode()):
                    return side
        return None

    def unpair(self, side: str) -> None:
        with self._lock:
            self._slots[side].token = None

    def _check_rate(self, client: str) -> None:
        now = self._clock()
        recent = self._failures.get(client)
        if recent is None:
            return
        while recent and now - recent[0] > FAILURE_WINDOW_S:
            recent.popleft()
        if len(recent) >= MAX_FAILURES:
            raise PairingRefused("too many wrong pairing codes from this device: wait a minute and scan the "
                                 "code the table shows", 429)

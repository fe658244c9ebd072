"""Pairing: which browsers speak for Caesar and which for Pompeius.

Owns the rules of pairing; the devices and codes themselves are kept, hashed, in the journal's
database (rubicon/pairings_store.py), so a pairing outlasts a restart or a power cut.

- A side with no device is *waiting*: the TV shows a one-time code for it (a QR code and a link),
  a fresh one each time the last expires (`CODE_TTL_S`).
- A side that has a device gets a new code only with someone of that side at the table:
  * a paired device of that side asks for one (`invite`): it is shown on that device only, for
    the next device (a tablet as the side's virtual table, a new phone);
  * someone at the TV asks (`request_new_code`: a lost phone) and that side consents, by its
    Done on the panel or the virtual table or on its phone (`consent`): the TV then shows a code
    for that side until it is used or expires;
  * `rubicon pair SIDE` on the Pi prints one (it writes the code to the database directly).
- Every code works once and expires; a side may have several devices, none of which is unpaired
  by another pairing; a device is unpaired by revoking it (`revoke`, `rubicon pair --revoke`).
- Wrong codes are rate limited per client address; the sides the Pi plays pair with nobody.
"""
from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine import SIDES
from rubicon.journal import StorageError
from rubicon.pairings_store import CODE_TTL_S, Device, PairingStore

from .errors import WebUiError

log = logging.getLogger(__name__)

MAX_FAILURES = 10          # wrong codes per client address ...
FAILURE_WINDOW_S = 60.0    # ... within this many seconds, then 429 until the window passes
TABLE = "table"            # `issued_by` of the codes the TV shows


class PairingRefused(WebUiError, ValueError):
    """A pairing request that is refused: `code` names it (docs/refusals.md), `status` is the HTTP
    status to answer with."""

    def __init__(self, code: str, message: str, status: int = 403):
        super().__init__(message)
        self.code = code
        self.status = status


@dataclass(frozen=True)
class ShownCode:
    """A pairing code as the TV shows it, and when it expires (wall-clock seconds)."""
    code: str
    expires: float      # wall-clock seconds (time.time): codes outlast the process in the database


def new_code() -> str:
    """A fresh pairing code: 72 random bits, URL-safe."""
    return secrets.token_urlsafe(9)


class Pairings:
    """Thread-safe: the web server's threads and the table session's owner thread (a Done taken as
    consent) call it concurrently. `clock`: wall-clock seconds (the codes' expiry is stored)."""

    def __init__(self, store: PairingStore, clock: Callable[[], float] = time.time,
                 bot_sides: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._store = store
        self.clock = clock
        self._shown: dict[str, ShownCode] = {}       # the code the TV shows, per waiting side
        self._requested: dict[str, float] = {}       # side -> until when its request for a new code waits
        self._renewing: dict[str, float] = {}        # paired side -> until when the TV shows it a code
        self._failures: dict[str, deque[float]] = {}
        self.bot_sides = frozenset(bot_sides)
        if not self.bot_sides <= set(SIDES):
            raise ValueError(f"unknown side among {sorted(self.bot_sides)} (sides: {', '.join(SIDES)})")

    def now(self) -> float:
        """The time by the pairings' clock (wall-clock seconds; tests set their own)."""
        return self.clock()

    # --- what the table shows ----------------------------------------------------------------
    def _waiting(self, side: str, now: float) -> bool:
        if side in self.bot_sides:
            return False
        if self._renewing.get(side, 0.0) > now:
            return True
        return not self._store.devices(side)

    def codes(self) -> dict[str, ShownCode]:
        """The code shown on the TV for each side waiting for a device (a fresh one once the last
        expired, or was used elsewhere); no code for a side that has its devices."""
        now = self.clock()
        out = {}
        with self._lock:
            for side in SIDES:
                if not self._waiting(side, now):
                    self._shown.pop(side, None)
                    continue
                shown = self._shown.get(side)
                if shown is None or shown.expires <= now:
                    until = self._renewing.get(side)
                    expires = min(until, now + CODE_TTL_S) if until else now + CODE_TTL_S
                    shown = ShownCode(new_code(), expires)
                    try:
                        self._store.add_code(side, shown.code, issued_by=TABLE, expires=expires, now=now)
                    except StorageError as exc:
                        # A code the journal does not hold could not be used: none is shown until the
                        # disk takes writes again (the TV already says what the disk refuses).
                        log.warning("no pairing code for %s: %s", side, exc)
                        self._shown.pop(side, None)
                        continue
                    self._shown[side] = shown
                out[side] = shown
        return out

    def code(self, side: str) -> str | None:
        """The code the TV shows for `side` now, or None (it is not waiting for a device)."""
        shown = self.codes().get(side)
        return None if shown is None else shown.code

    def paired(self) -> dict[str, bool]:
        """For each side a person may pair (not one the Pi plays): whether a device is paired."""
        return {side: bool(self._store.devices(side)) for side in SIDES if side not in self.bot_sides}

    def requested(self, side: str) -> bool:
        """Whether someone at the table asked for a new code for `side`, waiting for its consent."""
        with self._lock:
            return self._requested.get(side, 0.0) > self.clock()

    # --- pairing -----------------------------------------------------------------------------
    def pair(self, side: str, code: object, client: str, label: str = "") -> str:
        """Use a one-time code of `side`; returns the new device's token (its browser keeps it).
        The side's other devices stay paired."""
        self._pairable(side)
        with self._lock:
            self._check_rate(client)
        token = secrets.token_urlsafe(24)
        now = self.clock()
        device = None
        if isinstance(code, str) and 0 < len(code) <= 100:
            device = self._store.redeem(side, code, token, label=label[:120], now=now)
        if device is None:
            with self._lock:
                self._failures.setdefault(client, deque()).append(now)
            raise PairingRefused("pairing.bad-code", "this pairing code is not valid (it is used once and expires: "
                                 "scan the code the table shows now)")
        with self._lock:
            # Paired: the side waits no more; the TV's code (if another was used) is withdrawn.
            self._shown.pop(side, None)
            self._renewing.pop(side, None)
            self._requested.pop(side, None)
        self._store.withdraw_codes(side, TABLE, now)
        return token

    def invite(self, token: object) -> tuple[str, ShownCode]:
        """A code for one more device of the side `token`'s device is paired with, shown on that
        device only (its consent)."""
        device = self.device_of(token)
        if device is None:
            raise PairingRefused("pairing.not-paired", "this device is not paired", 401)
        now = self.clock()
        shown = ShownCode(new_code(), now + CODE_TTL_S)
        self._store.add_code(device.side, shown.code, issued_by=f"device:{device.id}", expires=shown.expires, now=now)
        return device.side, shown

    def request_new_code(self, side: str) -> None:
        """Someone at the table asks for a new code for `side` (its phone lost, its cookies cleared):
        the TV shows one once that side consents (`consent`)."""
        self._pairable(side)
        now = self.clock()
        with self._lock:
            if not self._waiting(side, now):
                self._requested[side] = now + CODE_TTL_S

    def consent(self, side: str) -> bool:
        """`side` consents to the open request for a new code (its Done, or its phone): the TV then
        shows a code for it. False, and nothing changes, when no request is open."""
        now = self.clock()
        with self._lock:
            if self._requested.pop(side, 0.0) <= now:
                return False
            self._renewing[side] = now + CODE_TTL_S
            self._shown.pop(side, None)
            return True

    def decline(self, side: str) -> None:
        """`side` declined to pair a device: forget its request."""
        with self._lock:
            self._requested.pop(side, None)

    def _pairable(self, side: str) -> None:
        if side not in SIDES:
            raise PairingRefused("pairing.unknown-side", f"unknown side {side!r}", 404)
        if side in self.bot_sides:
            raise PairingRefused("pairing.bot-side", f"the Pi plays {side}: no browser may pair with that side", 409)

    # --- devices -----------------------------------------------------------------------------
    def side_of(self, token: object) -> str | None:
        """The side a device token speaks for, or None (unknown or revoked)."""
        if not isinstance(token, str) or not token:
            return None
        return self._store.side_of(token)

    def device_of(self, token: object) -> Device | None:
        """The paired device a session's `token` stands for, or None."""
        if not isinstance(token, str) or not token:
            return None
        return self._store.device_of(token)

    def devices(self, side: str) -> list[Device]:
        """The devices paired for `side` now."""
        return self._store.devices(side)

    def revoke(self, *, side: str | None = None, token: object = None) -> int:
        """Unpair every device of `side`, or the one device holding `token`."""
        if token is not None:
            device = self.device_of(token)
            return 0 if device is None else self._store.revoke(device=device.id, now=self.clock())
        return self._store.revoke(side=side, now=self.clock())

    def unpair(self, side: str) -> None:
        """Revoke every device of `side`."""
        self.revoke(side=side)

    def _check_rate(self, client: str) -> None:
        now = self.clock()
        recent = self._failures.get(client)
        if recent is None:
            return
        while recent and now - recent[0] > FAILURE_WINDOW_S:
            recent.popleft()
        if len(recent) >= MAX_FAILURES:
            raise PairingRefused("pairing.too-many", "too many wrong pairing codes from this device: wait a minute "
                                 "and scan the code the table shows", 429)

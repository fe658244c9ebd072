"""Pairing: which browsers speak for Caesar and which for Pompeius, and which one is the table's
screen. The threat model and why each step holds: docs/pairing.md.

Owns the rules of pairing; the devices and codes themselves are kept, hashed, in the journal's
database (rubicon/pairings_store.py), so a pairing outlasts a restart or a power cut.

A code is never in an answer to a browser that is not paired (the TV's public page included):
- a side with no device is *waiting*: its one-time code is printed on the terminal of
  `rubicon run`, and drawn on the **table's screen** (a TV page paired once from the Pi, by the
  screen link `rubicon run` prints or `rubicon pair screen`), a fresh one each time it expires;
- a paired device invites one more of its side (`invite`): the code is shown on that device only;
- a browser asks to join a side (`ask`): it shows a six-digit number, the side's paired devices
  show the same number beside "let it join?", and a person who sees both screens approves it
  (`approve`); a declined address waits before it may ask again (doubling back-off);
- `rubicon pair SIDE` on the Pi prints one (it writes the code to the database directly).
No game action (Done or any other) mints, shows or consents to anything here.

Every code works once and expires (monotonic clock: a wall-clock step changes nothing); a side
may have several devices, none of which is unpaired by another pairing; revoking a device revokes
what it invited (`rubicon/pairings_store.py`). Wrong codes, asks and declines are rate limited per
client address in tables of bounded size (`BoundedTable`); the sides the Pi plays pair with nobody.
"""
from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine import SIDES
from rubicon.journal import StorageError
from rubicon.pairings_store import CODE_TTL_S, SCREEN, Device, PairingStore, monotonic, printable

from .bounded import BoundedTable
from .errors import WebUiError

log = logging.getLogger(__name__)

MAX_FAILURES = 10          # wrong codes per client address ...
FAILURE_WINDOW_S = 60.0    # ... within this many seconds, then 429 until the window passes
TABLE = "table"            # `issued_by` of the codes the table's screen shows
SCREEN_CODE_TTL_S = 3600.0  # the screen link `rubicon run` prints: the TV may be switched on later
ASK_TTL_S = 120.0          # an ask to join waits this long for an answer
ASKS_PER_SIDE = 4          # open asks per side (each from its own address)
BACKOFF_FIRST_S = 30.0     # a declined address may ask again after this, doubled at each decline ...
BACKOFF_MAX_S = 1800.0     # ... up to half an hour
PAIRABLE = (*SIDES, SCREEN)

class PairingRefused(WebUiError, ValueError):
    """A pairing request that is refused: `code` names it (docs/refusals.md), `status` is the HTTP
    status to answer with."""

    def __init__(self, code: str, message: str, status: int = 403):
        super().__init__(message)
        self.code = code
        self.status = status


@dataclass(frozen=True)
class ShownCode:
    """A pairing code as a screen shows it, and when it expires (monotonic seconds)."""
    code: str
    expires: float


@dataclass
class Ask:
    """A browser's ask to join `side`: the number both screens show; `id` names it to the side's
    devices, `secret` (in the asking browser's session) to the asking browser."""
    id: str
    secret: str
    side: str
    number: str
    label: str
    address: str
    expires: float
    code: str | None = None           # once approved: the one-time code the asking browser redeems
    approved_by: int | None = field(default=None)


def new_code() -> str:
    """A fresh pairing code: 72 random bits, URL-safe."""
    return secrets.token_urlsafe(9)


class Pairings:
    """Thread-safe: the web server's threads call it concurrently. `clock`: monotonic seconds (the
    codes' clock, rubicon/pairings_store.py); tests set their own."""

    def __init__(self, store: PairingStore, clock: Callable[[], float] = monotonic,
                 bot_sides: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._store = store
        self.clock = clock
        self._shown: dict[str, ShownCode] = {}       # the code the screen shows, per waiting side
        self._failures: BoundedTable[str, deque[float]] = BoundedTable()
        self._asks: dict[str, Ask] = {}              # by id
        self._backoff: BoundedTable[str, tuple[float, float]] = BoundedTable()   # address -> (until, next wait)
        self.bot_sides = frozenset(bot_sides)
        if not self.bot_sides <= set(SIDES):
            raise ValueError(f"unknown side among {sorted(self.bot_sides)} (sides: {', '.join(SIDES)})")

    def now(self) -> float:
        """The time by the pairings' clock (monotonic seconds; tests set their own)."""
        return self.clock()

    # --- what the table's screen shows -------------------------------------------------------
    def waiting(self) -> list[str]:
        """The sides a person plays that have no device (public: the TV says they wait)."""
        return [side for side in SIDES if side not in self.bot_sides and not self._store.devices(side)]

    def codes(self) -> dict[str, ShownCode]:
        """The code for each side waiting for a device (a fresh one once the last expired, or was
        used elsewhere): for the table's screen and the Pi's terminal only, never a public answer."""
        now = self.clock()
        waiting = set(self.waiting())
        out = {}
        with self._lock:
            for side in SIDES:
                if side not in waiting:
                    self._shown.pop(side, None)
                    continue
                shown = self._shown.get(side)
                if shown is None or shown.expires <= now:
                    shown = ShownCode(new_code(), now + CODE_TTL_S)
                    try:
                        self._store.add_code(side, shown.code, issued_by=TABLE, expires=shown.expires, now=now)
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
        """The code the screen shows for `side` now, or None (it is not waiting for a device)."""
        shown = self.codes().get(side)
        return None if shown is None else shown.code

    def screen_code(self) -> ShownCode:
        """A one-time code pairing a browser as the table's screen (for the terminal of `rubicon run`)."""
        now = self.clock()
        shown = ShownCode(new_code(), now + SCREEN_CODE_TTL_S)
        self._store.add_code(SCREEN, shown.code, issued_by="pi", expires=shown.expires, now=now)
        return shown

    def paired(self) -> dict[str, bool]:
        """For each side a person may pair (not one the Pi plays): whether a device is paired."""
        return {side: bool(self._store.devices(side)) for side in SIDES if side not in self.bot_sides}

    # --- pairing -----------------------------------------------------------------------------
    def pair(self, side: str, code: object, client: str, label: str = "") -> str:
        """Use a one-time code of `side` (or of the screen); returns the new device's token (its
        browser keeps it). The side's other devices stay paired."""
        self._pairable(side)
        with self._lock:
            self._check_rate(client)
        token = secrets.token_urlsafe(24)
        now = self.clock()
        device = None
        if isinstance(code, str) and 0 < len(code) <= 100:
            device = self._store.redeem(side, code, token, label=device_label(label), now=now)
        if device is None:
            with self._lock:
                recent = self._failures.get(client)
                if recent is None:
                    recent = deque(maxlen=MAX_FAILURES)
                    self._failures.put(client, recent)
                recent.append(now)
            raise PairingRefused("pairing.bad-code", "this pairing code is not valid (it is used once and expires: "
                                 "scan the code the table shows now)")
        with self._lock:
            self._shown.pop(side, None)     # paired: the side waits no more
        self._store.withdraw_codes(side, TABLE, now)
        return token

    def invite(self, token: object) -> tuple[str, ShownCode]:
        """A code for one more device of the side `token`'s device is paired with, shown on that
        device only (its consent)."""
        device = self.player_device(token)
        now = self.clock()
        shown = ShownCode(new_code(), now + CODE_TTL_S)
        self._store.add_code(device.side, shown.code, issued_by=f"device:{device.id}", expires=shown.expires, now=now)
        return device.side, shown

    # --- asking to join, with a number compared -----------------------------------------------
    def ask(self, side: str, client: str, label: str) -> Ask:
        """A browser at `client` asks to join `side`: its number, shown on it and on the side's
        devices. Refused while this address waits after a decline, has an ask open, or the side
        has `ASKS_PER_SIDE` open."""
        if side == SCREEN:
            raise PairingRefused("pairing.unknown-side", f"unknown side {side!r}", 404)
        self._pairable(side)
        if not self._store.devices(side):
            raise PairingRefused("pairing.nobody-to-ask", "this side has no device to ask: scan the code on the "
                                 "table's screen or the Pi's", 409)
        now = self.clock()
        with self._lock:
            self._expire_asks(now)
            waited = self._backoff.get(client)
            if waited is not None and waited[0] > now:
                raise PairingRefused("pairing.ask-later", "your last ask was declined: wait before asking again", 429)
            if any(a.address == client for a in self._asks.values()) or \
                    sum(1 for a in self._asks.values() if a.side == side) >= ASKS_PER_SIDE:
                raise PairingRefused("pairing.ask-busy", "an ask to join is open already: wait for its answer", 429)
            ask = Ask(secrets.token_hex(8), secrets.token_urlsafe(24), side, f"{secrets.randbelow(10**6):06d}",
                      device_label(label), client, now + ASK_TTL_S)
            self._asks[ask.id] = ask
            return ask

    def asks(self, side: str) -> list[dict[str, str]]:
        """The open asks to join `side`, as its devices show them: id, number, label."""
        now = self.clock()
        with self._lock:
            self._expire_asks(now)
            return [{"id": a.id, "number": a.number, "label": a.label}
                    for a in self._asks.values() if a.side == side and a.code is None]

    def asked(self, secret: object) -> Ask | None:
        """The open ask whose asking browser holds `secret`, or None (expired, declined, unknown)."""
        if not isinstance(secret, str) or not secret:
            return None
        with self._lock:
            self._expire_asks(self.clock())
            return next((a for a in self._asks.values() if secrets.compare_digest(a.secret, secret)), None)

    def approve(self, token: object, ask_id: object) -> None:
        """A device of the side approves the ask `ask_id` (its number matches the asking screen's):
        a code issued by that device is kept for the asking browser, which redeems it (`claim`)."""
        device = self.player_device(token)
        now = self.clock()
        with self._lock:
            self._expire_asks(now)
            ask = self._asks.get(ask_id) if isinstance(ask_id, str) else None
            if ask is None or ask.side != device.side or ask.code is not None:
                raise PairingRefused("pairing.no-ask", "no such ask to join is open", 409)
            ask.code, ask.approved_by = new_code(), device.id
            ask.expires = now + ASK_TTL_S
        self._store.add_code(ask.side, ask.code, issued_by=f"device:{device.id}", expires=now + ASK_TTL_S, now=now)

    def decline(self, token: object, ask_id: object) -> None:
        """A device of the side declines the ask: it is dropped, and its address waits before
        asking again (doubling at each decline)."""
        device = self.player_device(token)
        now = self.clock()
        with self._lock:
            ask = self._asks.get(ask_id) if isinstance(ask_id, str) else None
            if ask is None or ask.side != device.side or ask.code is not None:
                raise PairingRefused("pairing.no-ask", "no such ask to join is open", 409)
            del self._asks[ask.id]
            wait = (self._backoff.get(ask.address) or (0.0, BACKOFF_FIRST_S))[1]
            self._backoff.put(ask.address, (now + wait, min(wait * 2, BACKOFF_MAX_S)))

    def claim(self, secret: object, client: str) -> str | None:
        """The asking browser's ask, once approved: its device token (it is paired); None while
        the ask waits. PairingRefused once it was declined or expired."""
        ask = self.asked(secret)
        if ask is None:
            raise PairingRefused("pairing.no-ask", "no such ask to join is open", 409)
        if ask.code is None:
            return None
        with self._lock:
            self._asks.pop(ask.id, None)
        return self.pair(ask.side, ask.code, client, ask.label)

    def _expire_asks(self, now: float) -> None:
        for ask_id in [i for i, a in self._asks.items() if a.expires <= now]:
            del self._asks[ask_id]

    def _pairable(self, side: str) -> None:
        if side not in PAIRABLE:
            raise PairingRefused("pairing.unknown-side", f"unknown side {side!r}", 404)
        if side in self.bot_sides:
            raise PairingRefused("pairing.bot-side", f"the Pi plays {side}: no browser may pair with that side", 409)

    # --- devices -----------------------------------------------------------------------------
    def side_of(self, token: object) -> str | None:
        """The side a device token speaks for (a player's side, never the screen), or None."""
        if not isinstance(token, str) or not token:
            return None
        side = self._store.side_of(token)
        return side if side in SIDES else None

    def is_screen(self, token: object) -> bool:
        """Whether `token` is the table's screen's (paired from the Pi, not revoked)."""
        return isinstance(token, str) and bool(token) and self._store.side_of(token) == SCREEN

    def device_of(self, token: object) -> Device | None:
        """The paired device a session's `token` stands for, or None."""
        if not isinstance(token, str) or not token:
            return None
        return self._store.device_of(token)

    def player_device(self, token: object) -> Device:
        """The device of a player's side `token` stands for; PairingRefused (401) otherwise."""
        device = self.device_of(token)
        if device is None or device.side not in SIDES:
            raise PairingRefused("pairing.not-paired", "this device is not paired", 401)
        return device

    def devices(self, side: str) -> list[Device]:
        """The devices paired for `side` now."""
        return self._store.devices(side)

    def revoke(self, *, side: str | None = None, token: object = None) -> int:
        """Unpair every device of `side`, or the one device holding `token` (with what it invited)."""
        if token is not None:
            device = self.device_of(token)
            return 0 if device is None else self._store.revoke(device=device.id, now=wall_clock())
        return self._store.revoke(side=side, now=wall_clock())

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


def wall_clock() -> float:
    """Wall-clock seconds, for what is only shown (when a device was revoked)."""
    return time.time()


def device_label(user_agent: str) -> str:
    """A short printable name for a device from its User-Agent: "Pixel 7 (Chrome)", "iPhone (Safari)"."""
    ua = printable(user_agent, 400)
    model = None
    if m := re.search(r"Android[^;)]*;\s*(?:[a-z]{2}[-_][A-Za-z]{2};\s*)?([^;)]+?)(?:\s+Build/[^;)]*)?[;)]", ua):
        model = m.group(1).strip()
        if model in ("K", "wv"):
            model = "Android"
    else:
        for name in ("iPhone", "iPad", "Macintosh", "Windows", "CrOS", "Linux"):
            if name in ua:
                model = {"CrOS": "Chromebook", "Macintosh": "Mac"}.get(name, name)
                break
    browser = next((name for key, name in (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("FxiOS", "Firefox"),
                                           ("CriOS", "Chrome"), ("SamsungBrowser", "Samsung Internet"),
                                           ("Chrome/", "Chrome"), ("Safari/", "Safari")) if key in ua), None)
    if model and browser:
        return printable(f"{model} ({browser})")
    return printable(ua) or "?"

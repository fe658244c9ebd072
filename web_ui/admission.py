"""Players before guests, before Flask: who a request comes from, and how fast an unpaired client
may ask.

A WSGI middleware around the app (web_ui/__init__.py) looks at each request before Flask does:

- **Paired?** A request whose session cookie is correctly signed and names a device paired now
  (a side's or the table's screen) is *trusted*: it is never rate limited, and the server is
  told (`TRUST_KEY` in the environ, web_ui/server.py) so that its connection is served first by
  the workers and never closed to make room, and its address's next connections likewise. The
  check is an HMAC and, for a cookie that passes it, one indexed SQLite lookup; a cookie-less
  guest costs nothing.
- **Unpaired clients are rate limited**: each address `PER_ADDRESS_RATE` requests a second
  (bursts of `PER_ADDRESS_BURST`), and all of them together `GUESTS_RATE` (bursts of
  `GUESTS_BURST`), so a hundred flooding addresses cannot take the Pi's two cores from the
  players. Over a limit: 429 `web.slow-down` with `Retry-After`, answered here without
  building any page, and the server reads nothing more from that address for `PAUSE_S` (its
  next requests wait in the kernel, costing the Pi nothing: a flood of 429s cost a core).
  The buckets per address are a `BoundedTable` (1024 addresses).
- The Pi's own loopback address (127.0.0.1, ::1: a kiosk TV on the Pi itself) is not limited:
  no device on the Wi-Fi can send from it.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.http import parse_cookie

from .bounded import BoundedTable
from .i18n.messages import REFUSALS

TRUST_KEY = "rubicon.trusted"    # in the environ under web_ui/server.py: call it to trust the connection
PAUSE_KEY = "rubicon.pause"      # ... and this to read no more from the client's address for a while
PAUSE_S = 1.0                    # an address over its rate is not read from for this long
PER_ADDRESS_RATE = 8.0           # requests a second from one unpaired address ...
PER_ADDRESS_BURST = 40.0         # ... in bursts of up to (a page and its scripts, styles, state, stream)
GUESTS_RATE = 100.0              # all unpaired clients together ...
GUESTS_BURST = 300.0             # ... in bursts of up to (a crowd opening the TV page at once)
PI_ITSELF = frozenset({"127.0.0.1", "::1"})


class Bucket:
    """A token bucket on the monotonic clock."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, now

    def take(self, now: float) -> bool:
        """One request, if the bucket has a token for it."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Admission:
    """The middleware: trusted requests through and marked, unpaired ones within their rates."""

    def __init__(self, app: Flask, wsgi: Callable[..., Iterable[bytes]], *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.wsgi = wsgi
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: BoundedTable[str, Bucket] = BoundedTable()
        self._all: Bucket | None = None
        self.refused = 0

    def paired(self, environ: dict[str, Any]) -> bool:
        """Whether the request's session cookie names a device paired now."""
        raw = parse_cookie(environ.get("HTTP_COOKIE", "")).get(self.app.config.get("SESSION_COOKIE_NAME", "session"))
        if not raw:
            return False
        serializer = self.app.session_interface.get_signing_serializer(self.app)    # type: ignore[attr-defined]
        try:
            token = serializer.loads(raw).get("player_token")
        except Exception:       # a forged or foreign cookie: a guest's
            return False
        return self.app.extensions["rubicon.pairings"].device_of(token) is not None

    def admit(self, address: str) -> bool:
        """Whether an unpaired client at `address` may make a request now."""
        cfg = self.app.config
        now = self.clock()
        with self._lock:
            if self._all is None:
                self._all = Bucket(float(cfg.get("GUESTS_RATE", GUESTS_RATE)),
                                   float(cfg.get("GUESTS_BURST", GUESTS_BURST)), now)
            bucket = self._buckets.get(address)
            if bucket is None:
                bucket = Bucket(float(cfg.get("PER_ADDRESS_RATE", PER_ADDRESS_RATE)),
                                float(cfg.get("PER_ADDRESS_BURST", PER_ADDRESS_BURST)), now)
                self._buckets.put(address, bucket)
            if bucket.take(now) and self._all.take(now):
                return True
            self.refused += 1
            return False

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        address = environ.get("REMOTE_ADDR") or ""
        if self.paired(environ):
            trust = environ.get(TRUST_KEY)
            if trust is not None:
                trust()
        elif address not in PI_ITSELF and not self.admit(address):
            pause = environ.get(PAUSE_KEY)
            if pause is not None:
                pause(PAUSE_S)
            return slow_down(start_response)
        return self.wsgi(environ, start_response)


def slow_down(start_response: Callable[..., Any]) -> list[bytes]:
    """429 `web.slow-down`, built without Flask (the cheapest answer: this is what a flood gets)."""
    refusal: dict[str, Any] = {"code": "web.slow-down", "rule": None, "params": {},
                               "text": str(REFUSALS["web.slow-down"])}
    body = json.dumps({"ok": False, "refusal": refusal}).encode()
    start_response("429 Too Many Requests", [("Content-Type", "application/json"), ("Retry-After", "1"),
                                             ("Content-Length", str(len(body))), ("Cache-Control", "no-store")])
    return [body]

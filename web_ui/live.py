"""Live updates: Server-Sent Events streams of each viewer's part of the table's snapshots, and
the limits that keep guests from crowding out the players.

Each update carries the snapshot's version as its event id; a reconnecting browser sends
`Last-Event-ID` and gets the current snapshot at once if it missed one. A heartbeat comment goes
out while nothing changes, so a closed client is noticed.

Under the production server (web_ui/server.py) a stream holds no worker thread: its request is
answered like any other, then the server hands its connection to the app's `LiveHub`, one thread
that waits for the table's changes and writes each update to every stream, players' first (a
newer update overtakes the rest of the guests' deliveries). An update is rendered once per kind
of viewer (every TV with the same language and Host shares one rendering), so 200 streams cost
about as much as one. A stream whose reader falls behind is closed (its browser reconnects to the
current snapshot). Under another WSGI server (Flask's test client) a stream is a generator
holding its thread, as it was.

Limits (each refused with 503, `Retry-After` and an SSE `retry:`, code `web.live-busy`): guests
(streams with no paired phone behind them: the TV and anyone else on the Wi-Fi) in all and per
client address; a paired side's streams. A player's stream never competes with guests.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from flask import Flask, Response, current_app, request, stream_with_context
from flask.globals import request_ctx

from rubicon.pairings_store import SCREEN
from rubicon.table.session import Snapshot, TableSession

from .i18n.lang import lang
from .i18n.messages import render_refusal

log = logging.getLogger(__name__)

HEARTBEAT_S = 2.0
RETRY_MS = 1000                 # a dropped stream's browser reconnects after this
REFUSED_RETRY_S = 10            # ... and a refused one not before this
GUEST_STREAMS = 256             # config LIVE_GUEST_STREAMS
GUEST_STREAMS_PER_ADDRESS = 16  # config LIVE_GUEST_STREAMS_PER_ADDRESS
PLAYER_STREAMS_PER_SIDE = 8     # config LIVE_PLAYER_STREAMS_PER_SIDE (a phone, a tablet, a few tabs)
DETACH_KEY = "rubicon.live.detach"   # in the WSGI environ when the server can take a stream off its thread
UNPAIRED = b"event: unpaired\ndata: {}\n\n"
HEARTBEAT = b": hb\n\n"

Render = Callable[[Snapshot], "dict[str, Any] | None"]


class Writer(Protocol):
    """The server's side of a handed-over stream (web_ui.server.StreamWriter)."""

    def alive(self) -> bool:
        """Whether the client is still there."""

    def send(self, data: bytes) -> bool:
        """Queue `data` for the client; False once it is gone."""

    def close(self) -> None:
        """End the response."""


@dataclass(frozen=True)
class Viewer:
    """Who a stream is for. `side`: the paired side, None for a guest; `address`: the client's;
    `key`: streams with equal keys are sent the same rendering (it names everything the
    rendering depends on: side and phone token, language, host)."""
    side: str | None
    address: str
    key: Hashable


def guest_viewer() -> Viewer:
    """The viewer of a public stream (a TV, or anyone): its rendering depends on language and host."""
    return Viewer(None, request.remote_addr or "", ("guest", lang(), request.host))


def screen_viewer(token: str) -> Viewer:
    """The viewer of the table's screen's stream: a place of its own among the paired (never a
    guest's), its rendering with the waiting sides' codes."""
    return Viewer(SCREEN, request.remote_addr or "", ("screen", token, lang(), request.host))


def player_viewer(side: str, token: str) -> Viewer:
    """The viewer of a paired phone's stream: its side, address, and what its page shows (side, token, language)."""
    return Viewer(side, request.remote_addr or "", ("player", side, token, lang()))


def sse_event(version: int, data: dict[str, Any]) -> str:
    """One snapshot as a server-sent event, with its version as the event id."""
    return f"id: {version}\nevent: snapshot\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class LiveStream:
    """One open stream: whom it is for, how to render its view, the last version it was sent."""

    def __init__(self, hub: LiveHub, viewer: Viewer, render: Render, seen: int) -> None:
        self.hub = hub
        self.viewer = viewer
        self.render = render
        self.seen = seen
        self.writer: Writer | None = None     # None until the server hands the connection over
        self.ended = False
        self._lock = threading.Lock()          # the hub and the stream's own worker may both deliver
        self._ctx = request_ctx.copy()         # rendering uses the request (language, url_for)

    def counts(self) -> bool:
        """Whether the stream still counts against the limits: not ended, and its client still connected."""
        return not self.ended and (self.writer is None or self.writer.alive())

    def attach(self, writer: Writer) -> None:
        """The server has sent the response's headers: from now on the stream is written through
        `writer`. The current snapshot goes out at once if the browser has not seen it."""
        self.writer = writer
        if self.hub.session.stopped:
            self.end()
            return
        snap = self.hub.session.snapshot()
        self.deliver(snap, self.hub.cache_for(snap.version))

    def abandon(self) -> None:
        """End the stream without writing: its response never got out."""
        self.ended = True

    def end(self) -> None:
        """End the stream and close its response."""
        with self._lock:
            self.ended = True
            if self.writer is not None:
                self.writer.close()

    def deliver(self, snap: Snapshot, cache: dict[Hashable, bytes]) -> bool:
        """Send `snap` unless already sent; False once the stream is over."""
        with self._lock:
            if self.ended or self.writer is None:
                return not self.ended
            if snap.version <= self.seen:
                return True
            payload = cache.get(self.viewer.key)
            if payload is None:
                try:
                    with self._ctx:
                        data = self.render(snap)
                except Exception:   # one viewer's failure must not stop the hub: that stream ends
                    log.exception("rendering a live update failed; the stream is closed")
                    self.ended = True
                    self.writer.close()
                    return False
                payload = UNPAIRED if data is None else sse_event(snap.version, data).encode()
                cache[self.viewer.key] = payload
            self.seen = snap.version
            if payload is UNPAIRED:
                self.writer.send(payload)
                self.ended = True
                self.writer.close()
                return False
            if not self.writer.send(payload):
                self.ended = True
            return not self.ended

    def heartbeat(self) -> bool:
        """Send a keep-alive comment; False once the stream has ended or the client is gone."""
        with self._lock:
            if self.ended or self.writer is None:
                return not self.ended
            if not self.writer.send(HEARTBEAT):
                self.ended = True
            return not self.ended


class LiveHub:
    """The app's open streams and the one thread that writes the table's updates to them."""

    def __init__(self, session: TableSession, heartbeat: float = HEARTBEAT_S) -> None:
        self.session = session
        self.heartbeat_s = heartbeat
        self._streams: list[LiveStream] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._cache: tuple[int, dict[Hashable, bytes]] = (-1, {})

    def admit(self, viewer: Viewer, render: Render, seen: int, limits: dict[str, int]) -> LiveStream | None:
        """A new stream for `viewer`, or None when a limit is reached."""
        with self._lock:
            self._streams = [s for s in self._streams if s.counts()]
            if viewer.side is not None:
                mine = sum(1 for s in self._streams if s.viewer.side == viewer.side)
                if mine >= limits["side"]:
                    return None
            else:
                guests = [s for s in self._streams if s.viewer.side is None]
                if len(guests) >= limits["guests"] or \
                        sum(1 for s in guests if s.viewer.address == viewer.address) >= limits["address"]:
                    return None
            stream = LiveStream(self, viewer, render, seen)
            self._streams.append(stream)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="live-hub", daemon=True)
                self._thread.start()
            return stream

    def join(self, timeout: float) -> bool:
        """Wait for the hub's thread, which ends every stream and then itself once the session has
        stopped; True when none runs (web_ui.server.stop_server closes the server only then)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def count(self) -> dict[str, int]:
        """How many live streams players and guests hold now."""
        with self._lock:
            live = [s for s in self._streams if s.counts()]
        return {"players": sum(1 for s in live if s.viewer.side is not None),
                "guests": sum(1 for s in live if s.viewer.side is None)}

    def cache_for(self, version: int) -> dict[Hashable, bytes]:
        """The renderings of snapshot `version` so far, by viewer key (shared by the hub and the
        streams just opened: a reconnecting crowd costs one rendering, not one each)."""
        with self._lock:
            if self._cache[0] < version:
                self._cache = (version, {})
            return self._cache[1] if self._cache[0] == version else {}

    def _current(self) -> list[LiveStream]:
        with self._lock:
            self._streams = [s for s in self._streams if not s.ended]
            # Players first: theirs are the updates that must not wait behind guests'.
            return sorted(self._streams, key=lambda s: s.viewer.side is None)

    @staticmethod
    def _guarded(step: Callable[..., bool], *args: Any) -> None:
        """One stream's step; what goes wrong ends that stream, never the hub (the others' thread)."""
        try:
            step(*args)
        except Exception:
            log.exception("a live stream failed and is closed")
            step.__self__.abandon()     # type: ignore[attr-defined]

    def _run(self) -> None:
        version = self.session.snapshot().version
        beat = time.monotonic() + self.heartbeat_s
        while not self.session.stopped:
            snap = self.session.wait_for_change(version, timeout=max(0.0, beat - time.monotonic()))
            if snap.version > version:
                version = snap.version
                cache = self.cache_for(version)
                for stream in self._current():
                    if stream.viewer.side is None and self.session.snapshot().version != version:
                        # A newer update: the players get it before the other guests get this one
                        # (which they skip: every event is a whole view). Guests' renderings thus
                        # never hold back the players' updates by more than one.
                        break
                    self._guarded(stream.deliver, snap, cache)
            if time.monotonic() >= beat:
                beat = time.monotonic() + self.heartbeat_s
                for stream in self._current():
                    self._guarded(stream.heartbeat)
        for stream in self._current():
            stream.end()


_hub_lock = threading.Lock()


def hub_of(app: Flask, session: TableSession) -> LiveHub:
    """The app's live hub for `session` (a new one if the session changed, as in tests)."""
    with _hub_lock:
        hub = app.extensions.get("rubicon.live")
        if hub is None or hub.session is not session:
            hub = app.extensions["rubicon.live"] = LiveHub(session)
        return hub


def limits(app: Flask) -> dict[str, int]:
    """The stream limits in force: guest streams in all and per address, and streams per paired side."""
    return {"guests": int(app.config.get("LIVE_GUEST_STREAMS", GUEST_STREAMS)),
            "address": int(app.config.get("LIVE_GUEST_STREAMS_PER_ADDRESS", GUEST_STREAMS_PER_ADDRESS)),
            "side": int(app.config.get("LIVE_PLAYER_STREAMS_PER_SIDE", PLAYER_STREAMS_PER_SIDE))}


def refused() -> Response:
    """503: too many streams. EventSource gives up on a non-200 answer, so the page reopens it
    itself after `Retry-After`; the `retry:` line tells any other SSE client the same."""
    refusal: dict[str, Any] = {"code": "web.live-busy", "rule": None, "params": {}}
    body = {"ok": False, "refusal": {**refusal, "text": render_refusal(refusal)}}
    text = f"retry: {REFUSED_RETRY_S * 1000}\nevent: refused\ndata: {json.dumps(body, separators=(',', ':'))}\n\n"
    return Response(text, status=503, mimetype="text/event-stream",
                    headers={"Retry-After": str(REFUSED_RETRY_S), "Cache-Control": "no-store"})


def stream(session: TableSession, render: Render, last_event_id: str | None, viewer: Viewer,
           heartbeat: float = HEARTBEAT_S) -> Response:
    """`render(snapshot)` builds what this viewer may see, or None when the viewer lost its
    right to see it (an unpaired phone): the stream then ends."""
    try:
        seen = int(last_event_id) if last_event_id else -1
    except ValueError:
        seen = -1
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    detach = request.environ.get(DETACH_KEY)
    if detach is not None and request.method == "GET":
        app = current_app._get_current_object()    # type: ignore[attr-defined]
        live = hub_of(app, session).admit(viewer, render, seen, limits(app))
        if live is None:
            return refused()
        detach(live)
        # An iterable, not a string: no Content-Length, so the response is chunked and stays open.
        return Response(iter([f"retry: {RETRY_MS}\n\n"]), mimetype="text/event-stream", headers=headers)
    return Response(stream_with_context(_events(session, render, seen, heartbeat)),
                    mimetype="text/event-stream", headers=headers)


def _events(session: TableSession, render: Render, seen: int, heartbeat: float) -> Iterator[str]:
    """The stream on a thread of its own (a server without the hand-over)."""
    version = seen
    yield f"retry: {RETRY_MS}\n\n"
    while not session.stopped:
        snap = session.wait_for_change(version, timeout=heartbeat)
        if snap.version <= version:
            yield HEARTBEAT.decode()
            continue
        data = render(snap)
        if data is None:
            yield UNPAIRED.decode()
            return
        version = snap.version
        yield sse_event(version, data)

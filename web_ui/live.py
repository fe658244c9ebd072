"""Live updates: a Server-Sent Events stream of one viewer's part of the table's snapshots.

Each update carries the snapshot's version as its event id; a reconnecting browser sends
`Last-Event-ID` and gets the current snapshot at once if it missed one. A heartbeat comment
goes out while nothing changes, so a closed client is noticed and frees its server thread.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, stream_with_context

from rubicon.table.session import Snapshot, TableSession

HEARTBEAT_S = 2.0


def sse_event(version: int, data: dict[str, Any]) -> str:
    return f"id: {version}\nevent: snapshot\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def stream(session: TableSession, render: Callable[[Snapshot], dict[str, Any] | None],
           last_event_id: str | None, heartbeat: float = HEARTBEAT_S) -> Response:
    """`render(snapshot)` builds what this viewer may see, or None when the viewer lost its
    right to see it (an unpaired phone): the stream then ends."""
    try:
        seen = int(last_event_id) if last_event_id else -1
    except ValueError:
        seen = -1

    def events() -> Iterator[str]:
        version = seen
        yield "retry: 1000\n\n"
        while not session.stopped:
            snap = session.wait_for_change(version, timeout=heartbeat)
            if snap.version <= version:
                yield ": hb\n\n"
                continue
            data = render(snap)
            if data is None:
                yield "event: unpaired\ndata: {}\n\n"
                return
            version = snap.version
            yield sse_event(version, data)

    # The request context stays with the generator: rendering may use url_for and the app's state.
    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

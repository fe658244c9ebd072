"""What a live stream costs the server in memory: a stream never ends, so waitress's output
buffer of its connection must not keep what the client has already read (each kept
up to 16 MiB of old events, RSS +70 KB per action with two phones and the TV)."""
import http.client
import random
import threading

import pytest
from waitress.buffers import STRBUF_LIMIT
from waitress.channel import HTTPChannel

from web_ui.server import OUTBUF_HIGH_WATERMARK, make_server, stop_server


@pytest.fixture
def server(app, table):
    srv = make_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield srv
    table.stop()        # first: the live hub ends the open streams, so the server can close
    assert stop_server(srv, thread)


def read_event(resp) -> tuple[int, int]:
    """(the next snapshot event's id, the bytes read up to its end), heartbeats included."""
    event_id, size = None, 0
    while True:
        line = resp.readline()
        assert line, "the stream ended"
        size += len(line)
        if line.startswith(b"id: "):
            event_id = int(line[4:])
        elif line == b"\n" and event_id is not None:
            return event_id, size


def held_by(channel: HTTPChannel) -> int:
    """The bytes the connection's output buffers hold, read or not (waitress's buffers: a short
    string first, then an in-memory file that a read only moves through)."""
    held = 0
    for outbuf in channel.outbufs:
        held += len(outbuf.strbuf) if outbuf.buf is None else len(outbuf.buf.file.getvalue())
    return held


def test_a_long_stream_holds_no_more_than_two_buffers_of_what_it_sent(server, table):
    conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
    conn.request("GET", "/stream", headers={"Accept": "text/event-stream"})
    resp = conn.getresponse()
    try:
        _, sent = read_event(resp)
        largest = sent
        rng = random.Random(5)
        while sent < 8 * OUTBUF_HIGH_WATERMARK:      # every update read, as the TV's page reads them
            snap = table.snapshot()
            side = next(s for s in snap.waiting_for if s != "Chance")
            legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
            outcome = table.act(side, rng.choice(legal))
            assert outcome.ok and table.snapshot().result is None
            version = outcome.version
            event_id = -1
            while event_id < version:
                event_id, size = read_event(resp)
                sent += size
                largest = max(largest, size)
        channels = [d for d in list(server._map.values()) if isinstance(d, HTTPChannel)]
        assert len(channels) == 1
        assert largest > STRBUF_LIMIT        # events waitress no longer keeps as a short string
        assert held_by(channels[0]) <= 2 * OUTBUF_HIGH_WATERMARK + largest < sent
    finally:
        conn.close()

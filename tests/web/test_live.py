"""Live updates over Server-Sent Events under the production server (waitress, a real socket):
an event id per update, the next snapshot pushed when the game changes, a heartbeat while it
does not, and a reconnect with Last-Event-ID resumes."""
import http.client
import json
import threading

import pytest

from web_ui.server import make_server, stop_server


@pytest.fixture
def server(app, table):
    srv = make_server(app, host="127.0.0.1", port=0, threads=6)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield srv
    table.stop()        # first: an open live stream ends within a heartbeat, so the server can close
    assert stop_server(srv, thread)


def open_stream(srv, path="/stream", last_id=None):
    conn = http.client.HTTPConnection("127.0.0.1", srv.effective_port, timeout=30)
    headers = {"Accept": "text/event-stream"}
    if last_id is not None:
        headers["Last-Event-ID"] = str(last_id)
    conn.request("GET", path, headers=headers)
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
    return conn, resp


def next_event(resp) -> tuple[int, dict]:
    """Read up to the next snapshot event (skipping heartbeats and the retry hint)."""
    event_id, data = None, None
    while True:
        line = resp.readline().decode()
        assert line, "the stream ended"
        line = line.rstrip("\n")
        if line.startswith("id: "):
            event_id = int(line[4:])
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and data is not None:
            return event_id, data


def test_the_public_stream_pushes_each_change_with_its_id(server, table):
    conn, resp = open_stream(server)
    try:
        first_id, first = next_event(resp)
        assert first_id == table.snapshot().version and "hand" not in first["view"]
        snap = table.snapshot()
        side = snap.waiting_for[0]
        table.act(side, snap.side(side).options()[0]["line"])
        second_id, second = next_event(resp)
        assert second_id > first_id
        assert second["view"]["has_discarded"][side] is True
    finally:
        conn.close()


def test_a_reconnect_with_the_last_id_waits_for_the_next_change(server, table):
    current = table.snapshot().version
    conn, resp = open_stream(server, last_id=current)
    try:
        snap = table.snapshot()
        side = snap.waiting_for[0]
        table.act(side, snap.side(side).options()[0]["line"])
        event_id, _ = next_event(resp)
        assert event_id == current + 1
    finally:
        conn.close()


def test_while_nothing_changes_a_heartbeat_keeps_the_stream_alive(server, table):
    conn, resp = open_stream(server)
    try:
        next_event(resp)
        line = resp.readline().decode()
        while line.strip() == "":
            line = resp.readline().decode()
        assert line.startswith(": hb")
    finally:
        conn.close()

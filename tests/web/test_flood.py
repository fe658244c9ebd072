"""Guests on the Wi-Fi cannot crowd out the players. Under the production
server (waitress on a real socket, few worker threads), with guest streams and half-sent requests
held against it from other loopback addresses, the phones' requests and the updates to the TV
and both phones are still answered, and the guests over the limits get a clear 503.
(The latency under a full flood is measured by bench/flood.py.)"""
import http.client
import json
import re
import socket
import threading

import pytest

from web_ui import create_app
from web_ui.server import make_server, stop_server

from .conftest import pair

GUARD_S = 30        # a generous guard only: nothing here is timed
LIMITS = {"LIVE_GUEST_STREAMS": 8, "LIVE_GUEST_STREAMS_PER_ADDRESS": 4, "LIVE_PLAYER_STREAMS_PER_SIDE": 2}


@pytest.fixture
def served(table):
    """The app under the real server with 4 worker threads (a thread per stream would be gone
    after four) and the two phones paired: (server, app, {side: (cookie, csrf token)})."""
    app = create_app(table, {"TESTING": True, **LIMITS})
    phones = {}
    for side in ("Caesar", "Pompeius"):
        client = pair(app, side)
        page = client.get("/play/").get_data(as_text=True)
        token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
        phones[side] = (f"rubicon={client.get_cookie('rubicon').value}", token)
    server = make_server(app, host="127.0.0.1", port=0, threads=4, connections_per_address=40, request_deadline=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server, app, phones
    table.stop()        # first: the live hub ends the open streams, so the server can close
    assert stop_server(server, thread, GUARD_S)


class Stream:
    """A GET of an SSE stream from a given local address, kept open."""

    def __init__(self, server, path="/stream", cookie=None, source="127.0.0.1"):
        self.conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=GUARD_S,
                                               source_address=(source, 0))
        headers = {"Accept": "text/event-stream", **({"Cookie": cookie} if cookie else {})}
        self.conn.request("GET", path, headers=headers)
        self.resp = self.conn.getresponse()
        self.status = self.resp.status

    def next_id(self) -> int:
        """The id of the next snapshot event (heartbeats and hints skipped)."""
        event_id = None
        while True:
            line = self.resp.readline().decode()
            assert line, "the stream ended"
            if line.startswith("id: "):
                event_id = int(line[4:])
            elif line == "\n" and event_id is not None:
                return event_id

    def until(self, version: int) -> int:
        while (event_id := self.next_id()) < version:
            pass
        return event_id

    def close(self):
        self.resp.close()       # a stream's response says Connection: close, so it owns the socket
        self.conn.close()


def half_open(server, source: str) -> socket.socket:
    """A connection that sent part of a request's head and nothing more."""
    s = socket.create_connection(("127.0.0.1", server.effective_port), timeout=GUARD_S, source_address=(source, 0))
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
    return s


def request(server, method, path, cookie, token=None, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=GUARD_S)
    headers = {"Cookie": cookie, "Content-Type": "application/json", **({"X-CSRFToken": token} if token else {})}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    resp = conn.getresponse()
    answer = resp.status, json.loads(resp.read())
    conn.close()
    return answer


def test_with_guests_flooding_the_players_are_served_and_guests_refused(served, table):
    server, app, phones = served
    tv = Stream(server)
    caesar = Stream(server, "/play/stream", phones["Caesar"][0])
    pompeius = Stream(server, "/play/stream", phones["Pompeius"][0])
    viewers = (tv, caesar, pompeius)
    assert [v.status for v in viewers] == [200, 200, 200]
    for viewer in viewers:
        viewer.next_id()

    # The flood: guest streams from two other devices, beyond both the per-address and the total cap ...
    guests = [Stream(server, source="127.0.1.1") for _ in range(5)] + [Stream(server, source="127.0.1.2")
                                                                        for _ in range(4)]
    # ... and half-sent requests from a third.
    stalled = [half_open(server, "127.0.2.1") for _ in range(20)]
    try:
        statuses = [g.status for g in guests]
        # 127.0.1.1: four admitted, its fifth refused (per address); 127.0.1.2: three admitted, then
        # the eight guest streams (the TV's among them) are all there are.
        assert statuses == [200] * 4 + [503] + [200] * 3 + [503]
        refused = guests[4]
        assert refused.resp.getheader("Retry-After") == "10"
        assert refused.resp.getheader("Content-Type").startswith("text/event-stream")
        body = refused.resp.read().decode()
        assert body.startswith("retry: 10000\n")
        assert json.loads(body.split("data: ")[1])["refusal"]["code"] == "web.live-busy"

        # Every admitted stream holds no worker thread: the players act and read as usual.
        side = table.snapshot().waiting_for[0]
        cookie, token = phones[side]
        status, state = request(server, "GET", "/play/state", cookie)
        assert status == 200
        line = next(x for x in state["legal"] if "takes back" not in x)
        status, answer = request(server, "POST", "/play/act", cookie, token, {"line": line})
        assert status == 200 and answer["ok"], answer
        for viewer in viewers:
            assert viewer.until(answer["version"]) >= answer["version"]
        other = "Pompeius" if side == "Caesar" else "Caesar"
        status, state = request(server, "GET", "/play/state", phones[other][0])
        assert status == 200 and state["version"] >= answer["version"]
        # The guests' streams get the update too (they are served, not starved in turn).
        assert guests[0].until(answer["version"]) >= answer["version"]
    finally:
        for g in guests:
            g.close()
        for s in stalled:
            s.close()
        for viewer in viewers:
            viewer.close()


def test_a_side_has_its_own_streams_beside_the_guests(served):
    server, app, phones = served
    caesar = [Stream(server, "/play/stream", phones["Caesar"][0]) for _ in range(3)]
    pompeius = Stream(server, "/play/stream", phones["Pompeius"][0])
    try:
        assert [s.status for s in caesar] == [200, 200, 503]
        assert pompeius.status == 200
    finally:
        for s in caesar + [pompeius]:
            s.close()


def test_a_half_sent_request_is_closed_after_its_deadline_and_a_crowding_address_is_cut_off(served):
    server, app, phones = served
    slow = half_open(server, "127.0.3.1")
    assert slow.recv(1024) == b""       # closed by the server (request_deadline=2 s), not answered
    slow.close()
    held = [half_open(server, "127.0.3.2") for _ in range(40)]
    try:
        extra = socket.create_connection(("127.0.0.1", server.effective_port), timeout=GUARD_S,
                                         source_address=("127.0.3.2", 0))
        # The 41st connection of one address: refused at once, before it sends anything.
        assert extra.recv(1024).startswith(b"HTTP/1.1 503 ")
        extra.close()
        status, _ = request(server, "GET", "/play/state", phones["Caesar"][0])
        assert status == 200            # another device still gets in
    finally:
        for s in held:
            s.close()


def test_the_streams_end_when_the_table_stops(served, table):
    server, app, phones = served
    streams = [Stream(server), Stream(server, "/play/stream", phones["Caesar"][0])]
    for s in streams:
        s.next_id()
    table.stop()
    for s in streams:
        while s.resp.readline():
            pass                        # read to the end: the server closed the stream
        s.close()

"""Players before guests: under the production server, a phone's new
connection gets in when idle guests hold every connection (one of theirs is closed for it, not the
phone's left in the kernel's backlog until it times out); an unpaired client over its rate gets
429 `web.slow-down` while a paired phone from the same address never does; the workers take a
paired device's request first; every per-address table is bounded. The latencies under the full
floods are measured by bench/flood.py; nothing here is timed."""
import socket
import threading

import pytest

from web_ui import create_app
from web_ui.admission import PER_ADDRESS_BURST
from web_ui.bounded import ADDRESSES_KEPT
from web_ui.server import PlayersFirst, make_server, stop_server

from .conftest import pair
from .test_flood import GUARD_S, request


class FrozenClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def full(table):
    """The app under the real server with room for 12 connections, and Caesar's phone's cookie."""
    app = create_app(table, {"TESTING": True})
    cookie = f"rubicon={pair(app, 'Caesar').get_cookie('rubicon').value}"
    server = make_server(app, host="127.0.0.1", port=0, threads=4, connection_limit=12, connections_per_address=40)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server, cookie
    table.stop()
    assert stop_server(server, thread, GUARD_S)


def test_at_the_connection_limit_an_idle_guest_makes_room_for_a_phone(full):
    server, cookie = full
    idle = []
    for i in range(12):           # idle guests from three addresses fill the server
        idle.append(socket.create_connection(("127.0.0.1", server.effective_port), timeout=GUARD_S,
                                             source_address=(f"127.0.6.{1 + i % 3}", 0)))
    try:
        for _ in range(GUARD_S * 100):            # a guard: until the server has taken all twelve
            if len(server.active_channels) >= 12:
                break
            threading.Event().wait(0.01)
        assert len(server.active_channels) == 12
        status, state = request(server, "GET", "/play/state", cookie)
        assert status == 200 and state["view"]["side"] == "Caesar"
        assert server.evicted >= 1
        closed = 0
        for s in idle:
            s.settimeout(0.0)
            try:
                closed += s.recv(1) == b""
            except BlockingIOError:
                pass
        assert closed >= 1               # an idle guest's connection was closed for it
    finally:
        for s in idle:
            s.close()
    for _ in range(GUARD_S * 100):                # a guard: until the server has seen them close
        if not server.active_channels:
            break
        threading.Event().wait(0.01)
    assert server.active_channels == {} and server.held == {}      # the per-address counts kept true


def test_a_guest_over_its_rate_is_told_to_slow_down_and_a_paired_phone_never_is(app):
    clock = FrozenClock()
    app.wsgi_app.clock = clock
    phone = pair(app, "Caesar")
    guest = app.test_client()
    lan = {"REMOTE_ADDR": "192.168.1.50"}
    answers = [guest.get("/state", environ_base=lan).status_code for _ in range(int(PER_ADDRESS_BURST) + 10)]
    assert answers.count(200) == PER_ADDRESS_BURST and answers.count(429) == 10
    refused = guest.get("/state", environ_base=lan)
    assert refused.get_json()["refusal"]["code"] == "web.slow-down" and refused.headers["Retry-After"] == "1"
    assert all(phone.get("/play/state", environ_base=lan).status_code == 200 for _ in range(60))
    assert guest.get("/state", environ_base={"REMOTE_ADDR": "192.168.1.51"}).status_code == 200   # another guest
    clock.now += 1.0                   # a second later: eight more
    assert [guest.get("/state", environ_base=lan).status_code for _ in range(9)].count(200) == 8


def test_every_per_address_table_is_bounded(app):
    clock = FrozenClock()
    admission = app.wsgi_app
    admission.clock = clock
    pairings = app.extensions["rubicon.pairings"]
    for n in range(3 * ADDRESSES_KEPT):
        address = f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"
        admission.admit(address)
        try:
            pairings.pair("Caesar", "wrong", address)
        except ValueError:
            pass
        clock.now += 0.01
    assert len(admission._buckets) == ADDRESSES_KEPT and len(pairings._failures) == ADDRESSES_KEPT


def test_the_workers_take_a_paired_devices_request_first():
    class Task:
        def __init__(self, name, trusted):
            self.name, self.trusted = name, trusted
    workers = PlayersFirst()          # no thread started: the queue is read as it stands
    for task in (Task("guest 1", False), Task("guest 2", False), Task("phone", True), Task("guest 3", False)):
        workers.add_task(task)
    assert [t.name for t in workers.queue] == ["phone", "guest 1", "guest 2", "guest 3"]

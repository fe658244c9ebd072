"""A TV whose live stream is refused (the guests' streams are all taken: 503) opens it again by
itself once one is free, and goes live without a reload (EventSource alone gives up on a 503)."""
import http.client
import threading

import pytest
from playwright.sync_api import expect

from rubicon.journal import Journal
from rubicon.table.session import RandomChance, TableSession
from web_ui import create_app
from web_ui.server import make_server, stop_server

GUARD_MS = 60_000    # a guard only: the page retries after the table's Retry-After (10 s)


@pytest.fixture
def one_guest_stream(tmp_path):
    table = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3))
    table.start()
    app = create_app(table, {"LIVE_GUEST_STREAMS": 1})
    server = make_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server
    table.stop()
    assert stop_server(server, thread)


def test_a_refused_tv_goes_live_once_a_stream_is_free(browser, one_guest_stream):
    server = one_guest_stream
    guest = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
    guest.request("GET", "/stream", headers={"Accept": "text/event-stream"})
    held = guest.getresponse()
    assert held.status == 200          # the one guest stream is taken
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    with tv.expect_response(lambda r: r.url.endswith("/stream")) as refused:
        tv.goto(f"http://127.0.0.1:{server.effective_port}/")
    assert refused.value.status == 503
    expect(tv.locator("#conn")).not_to_have_text("live")
    held.close()                       # the guest goes (the response owns the socket: Connection: close)
    guest.close()
    expect(tv.locator("#conn")).to_have_text("live", timeout=GUARD_MS)

"""A full disk on the TV in Debian's chromium: the table's banner says it in the TV's language
while the disk is full (a real 2 MB tmpfs filled up), and the message goes once there is room."""
import threading

import pytest
from playwright.sync_api import expect

from rubicon.journal import Journal
from rubicon.table.session import RandomChance, TableSession
from tests.table.test_storage_trouble import _fill, small_disk  # noqa: F401  (a fixture)
from web_ui import create_app
from web_ui.server import make_server, stop_server


@pytest.fixture
def served_on_small_disk(small_disk):  # noqa: F811
    table = TableSession(Journal(small_disk / "journal.sqlite3"), chance=RandomChance(3))
    table.storage_retry_s = 0.2
    table.start()
    server = make_server(create_app(table), host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table, small_disk
    table.stop()
    assert stop_server(server, thread)
    table.journal.close()


def test_the_tv_says_the_disk_is_full_in_its_language_and_stops_saying_it_once_there_is_room(
        served_on_small_disk, browser):
    base, table, disk = served_on_small_disk
    context = browser.new_context(extra_http_headers={"Accept-Language": "pl"})
    try:
        tv = context.new_page()
        tv.goto(base + "/")
        snap = table.snapshot()
        side = next(s for s in snap.waiting_for if s != "Chance")
        filler = _fill(disk)
        assert table.act(side, snap.side(side).options()[0]["line"]).refusal["code"] == "storage.full"
        said = tv.locator("#banner .message", has_text="dysk z zapisem partii jest pełny")
        expect(said).to_be_visible(timeout=30000)
        filler.unlink()
        expect(said).to_have_count(0, timeout=30000)
        assert table.act(side, snap.side(side).options()[0]["line"]).ok
    finally:
        context.close()

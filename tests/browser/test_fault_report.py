"""What a recovery found, in Debian's chromium: the TV says it (in its language) and so does each
phone, through play, until a player taps "I have read it" on his phone; then it is gone from the
TV too."""
import threading

import pytest
from playwright.sync_api import expect

from rubicon.journal import Journal
from rubicon.table.session import RandomChance, TableSession
from tests.web.test_fault_report import _damaged
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_phones import pair_phone


@pytest.fixture
def served_after_damage(tmp_path):
    _damaged(tmp_path, 8)
    table = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3))
    table.start()
    app = create_app(table)
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table, app
    table.stop()
    assert stop_server(server, thread)
    table.journal.close()


def test_the_tv_and_a_phone_say_it_until_a_player_dismisses_it_on_his_phone(served_after_damage, browser, phone):
    base, table, app = served_after_damage
    tv_context = browser.new_context(extra_http_headers={"Accept-Language": "sv"})
    try:
        tv = tv_context.new_page()
        tv.goto(base + "/")
        said = tv.locator("#banner .message", has_text="partiets journal var skadad")
        expect(said).to_be_visible(timeout=30000)
        pompeius = pair_phone(browser, phone, base, app, "Pompeius")
        on_phone = pompeius.locator("#banner .message", has_text="the game's journal was damaged")
        expect(on_phone).to_be_visible()
        on_phone.get_by_role("button", name="I have read it: dismiss").tap()
        expect(on_phone).to_have_count(0, timeout=30000)
        expect(said).to_have_count(0, timeout=30000)
        assert table.journal.faults() == []
    finally:
        tv_context.close()

"""A refusal that appears, then clears: at the virtual table as `rubicon run`
serves it, Caesar's Done while both sides discard is refused on Caesar's phone alone (not on
Pompeius's phone, not on the TV), and goes away by itself once the game moves on."""
import threading

import pytest
from playwright.sync_api import expect

from rubicon.config import Config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import SeededChance
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_phones import pair_phone, tap_first

PRESS_DONE = """async () => {
    const csrf = document.querySelector('meta[name=csrf-token]').content;
    const r = await fetch('/play/done', {method: 'POST', headers: {'Content-Type': 'application/json',
        'X-CSRFToken': csrf}, body: '{}'});
    return [r.status, await r.json()];
}"""


@pytest.fixture
def virtual_table(tmp_path):
    table = assemble(Config(), Journal(tmp_path / "journal.sqlite3"), SeededChance(5))
    table.start()
    app = create_app(table.session, virtual=table.virtual)
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", app
    table.stop()
    assert stop_server(server, thread)


def test_a_refused_done_shows_on_its_phone_alone_then_clears(browser, phone, virtual_table):
    base, app = virtual_table
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    pompeius = pair_phone(browser, phone, base, app, "Pompeius")
    expect(caesar.locator("#hand li")).to_have_count(6)
    status, answer = caesar.evaluate(PRESS_DONE)
    assert status == 409 and answer["refusal"]["code"] == "table.done-not-yours" and answer["message"]
    said = caesar.locator(f'#banner .message[data-id="{answer["message"]}"]')
    expect(said).to_contain_text("nothing to confirm with Done")
    expect(pompeius.locator("#banner .message")).to_have_count(0)
    expect(tv.locator("#banner .message")).to_have_count(0)
    tap_first(caesar, "Discard")              # the game moves on: what was said of the deal is over
    expect(caesar.locator("#hand li")).to_have_count(5)
    expect(said).to_have_count(0)
    expect(caesar.locator("#banner .message")).to_have_count(0)
    for page in (tv, caesar, pompeius):
        page.context.close()

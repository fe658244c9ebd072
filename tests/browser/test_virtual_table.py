"""The virtual table in chromium on a phone: tap a block to lift it, tap a location to set it
down; the readers' events reach the sink and the page shows the block where it was put."""
import threading

import pytest
from playwright.sync_api import expect

from firmware_bridge.virtual_table import VirtualTable
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_phones import pair_phone


@pytest.fixture
def served_virtual(served):
    base, table, _ = served
    events = []
    virtual = VirtualTable(events.append, seed=4)
    virtual.set_up_705()
    app = create_app(table, virtual=virtual)
    server = make_server(app, host="127.0.0.1", port=0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", app, virtual, events
    table.stop()        # the session both servers serve: this server's live streams end too
    assert stop_server(server, thread)


def test_lift_a_block_and_set_it_down_elsewhere(browser, phone, served_virtual, artifacts):
    base, app, virtual, events = served_virtual
    page = pair_phone(browser, phone, base, app, "Caesar")
    page.goto(base + "/virtual/")
    # A block of Narbo (Caesar's at set-up, far from other locations' labels): tokens are random.
    token = virtual.tokens_at("Narbo")[0]
    block = virtual._block(token)
    narbo = page.locator(f'g.vblock[data-token="{token}"]')
    expect(narbo).to_be_visible()
    before = virtual.where(block)
    events.clear()
    narbo.tap()
    expect(page.locator(f'.tray[data-place="hand"] [data-token="{token}"]')).to_be_visible()
    page.locator('g.loc[data-name="Roma"] circle').tap()
    expect(page.locator(f'g.vblock[data-token="{token}"]')).to_be_visible()
    assert virtual.where(block) == "Roma" != before
    assert [e.kind for e in events] == ["tag_gone", "tag_seen"]
    page.get_by_role("button", name="Roll 3").tap()
    expect(page.locator("#faces")).to_contain_text("Rolled:")
    assert events[-1].kind == "dice_rolled" and len(events[-1].faces) == 3
    page.screenshot(path=str(artifacts / "virtual.png"), scale="css")
    page.context.close()     # no keep-alive connection left to hold the server at teardown

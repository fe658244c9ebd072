"""Every message has an end, on the pages: a request that never reached the table
("Not sent" on a phone, "the table does not answer" on the virtual table) is said until the table
is heard again, never beside "live" for good; the faces of a roll on the virtual table are said while
their battle goes on, not into the next one. (The board confirmation waiting for the other side:
tests/table/test_message_lifecycle.py; an invite code once used: tests/browser/test_pairing_devices.py.)"""
import random
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


def dice_asked(snap):
    """Whether the game waits for a battle's dice (what every page reads: a decision of the table's)."""
    return any(d["actor"] == "Chance" and d["kind"] == "dice" for d in snap.public.pending)


@pytest.fixture
def virtual_table(tmp_path):
    """The table as `rubicon run` serves it without hardware: the virtual table, its tray up."""
    table = assemble(Config(), Journal(tmp_path / "journal.sqlite3"), SeededChance(5))
    table.start()
    app = create_app(table.session, virtual=table.virtual)
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table.session, app
    table.stop()
    assert stop_server(server, thread)


def open_virtual(browser, playwright, base, app, side):
    page = pair_phone(browser, playwright.devices["iPad Mini"], base, app, side)
    page.goto(base + "/virtual/")
    expect(page.locator("#conn")).to_have_text("live")
    return page


def test_not_sent_on_a_phone_is_said_until_the_table_is_heard_again(browser, phone, virtual_table):
    base, session, app = virtual_table
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    expect(caesar.locator("#hand li")).to_have_count(6)
    caesar.route("**/play/act", lambda route: route.abort())      # the request never reaches the table
    tap_first(caesar, "Discard")
    expect(caesar.locator("#message")).to_contain_text("Not sent: the connection to the table is down")
    caesar.unroute("**/play/act")
    first = session.snapshot().side("Pompeius").options()[0]["line"]
    assert session.act("Pompeius", first).ok    # the table speaks again
    expect(caesar.locator("#message")).to_be_hidden()
    expect(caesar.locator("#conn")).to_have_text("live")


def test_the_virtual_tables_no_answer_ends_when_the_table_is_heard_again(browser, playwright, virtual_table):
    base, session, app = virtual_table
    tablet = open_virtual(browser, playwright, base, app, "Caesar")
    tablet.route("**/virtual/roll", lambda route: route.abort())
    tablet.locator("button.roll").first.click()
    expect(tablet.locator("#message")).to_contain_text("the table does not answer")
    tablet.unroute("**/virtual/roll")
    assert session.act("Pompeius", session.snapshot().side("Pompeius").options()[0]["line"]).ok
    expect(tablet.locator("#message")).to_be_hidden()
    expect(tablet.locator("#conn")).to_have_text("live")


def play_until(session, done, rng):
    for _ in range(3000):
        if done(session):
            return True
        snap = session.snapshot()
        if snap.result is not None:
            return False
        side = next(s for s in snap.waiting_for if s != "Chance")
        legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
        assert session.act(side, rng.choice(legal)).ok
    return False


def test_a_rolls_faces_are_said_until_the_next_roll_is_asked(browser, playwright, virtual_table):
    base, session, app = virtual_table
    rng = random.Random(4)
    assert play_until(session, lambda s: dice_asked(s.snapshot()), rng)
    count = session.snapshot().public.table["dice"]["count"]
    tablet = open_virtual(browser, playwright, base, app, "Caesar")
    tablet.locator(f'button.roll[data-count="{count}"]').click()
    expect(tablet.locator("#faces")).to_contain_text("Rolled: ")
    # The battle goes on to its next roll, or ends: the faces of before are no longer said.
    assert play_until(session, lambda s: dice_asked(s.snapshot()) or s.snapshot().public.view.get("fight") is None
                      or s.snapshot().result is not None, rng)
    expect(tablet.locator("#faces")).to_have_text("")

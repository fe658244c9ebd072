"""A restart of the table (a power cut) with both phones and the TV open in chromium: they carry on
by themselves, without a reload: the phones are still paired (their cookie and the CSRF token of
the open page still good), and the pages take the restarted server's snapshots, whose versions
count from the start again, as new (the table epoch), so the TV does not stay on the old state."""
from playwright.sync_api import expect

from rubicon.table.session import Refresh

from .tables import Table, pair_phone

GUARD_MS = 30_000       # a guard only: the pages reconnect within a few seconds


def tap_first(page, prefix):
    page.locator("button.choice", has_text=prefix).first.tap()


def test_phones_and_tv_carry_on_through_a_restart_without_a_reload(browser, phone, tmp_path):
    path = tmp_path / "journal.sqlite3"
    table = Table(path)
    again = None
    try:
        tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        tv.goto(table.base + "/")
        caesar = pair_phone(browser, phone, table, "Caesar")
        pompeius = pair_phone(browser, phone, table, "Pompeius")
        pages = (tv, caesar, pompeius)
        tap_first(caesar, "Discard")
        tap_first(pompeius, "Discard")
        expect(pompeius.locator("#hand li")).to_have_count(5)
        for _ in range(30):       # the old server's versions run well ahead of the new one's
            table.session.submit(Refresh()).result(10)
        expect(tv.locator("#log li")).to_have_count(3)     # the deal and the two discards
        old_version = table.session.snapshot().version
        for page in pages:
            page.evaluate("window.beforeRestart = true")    # gone if the page were reloaded

        port = table.port
        table.stop()
        table = None
        for page in pages:
            expect(page.locator("#conn")).to_have_text("reconnecting…", timeout=GUARD_MS)
        again = Table(path, port)
        for page in pages:
            expect(page.locator("#conn")).to_have_text("live", timeout=GUARD_MS)
        expect(tv.locator(".pair-code")).to_have_count(0)        # both still paired: no code on show

        # The phones act from the pages left open; the TV follows the new server's lower versions.
        tap_first(caesar, "Play")
        tap_first(pompeius, "Play")
        expect(tv.locator("#table")).to_contain_text("Turn 1: Caesar", timeout=GUARD_MS)
        expect(caesar.locator("#table")).to_contain_text("Turn 1: Caesar")
        expect(pompeius.locator("#hand li")).to_have_count(4)
        assert again.session.snapshot().version < old_version
        assert again.session.snapshot().lines == 5
        for page in pages:
            assert page.evaluate("window.beforeRestart") is True
    finally:
        for t in (table, again):
            if t is not None:
                t.stop()

"""Pairing more devices in chromium: a paired phone shows a one-time code for a tablet, which pairs
while the phone stays paired; the TV asks for a new code for a paired side and shows it only once
that side's phone consents; a used code is refused on the page."""
import re

from playwright.sync_api import expect

from .tables import Table, pair_phone


def test_a_phone_invites_a_tablet_and_consents_to_a_new_code_on_the_tv(browser, phone, playwright, tmp_path):
    table = Table(tmp_path / "journal.sqlite3")
    try:
        tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        tv.goto(table.base + "/")
        caesar = pair_phone(browser, phone, table, "Caesar")
        expect(tv.locator(".pair-code h2")).to_have_text(["Pair Pompeius"])
        expect(caesar.locator("#device-count")).to_have_text("Devices paired with your side: 1")

        caesar.locator("#invite-button").tap()
        link = caesar.locator("#invite .pair-code a")
        expect(link).to_have_attribute("href", re.compile(r"/pair/Caesar\?code="))
        invite = link.get_attribute("href")
        expect(tv.locator(".pair-code h2")).to_have_text(["Pair Pompeius"])      # shown on the phone only
        tablet = pair_phone(browser, playwright.devices["iPad Mini"], table, "Caesar", link=invite)
        expect(tablet.locator("h1")).to_have_text("Caesar")
        expect(caesar.locator("#device-count")).to_have_text("Devices paired with your side: 2")
        expect(caesar.locator("#invite")).to_be_hidden()          # the code was used: no longer shown
        expect(caesar.locator("#conn")).to_have_text("live")

        guest = browser.new_context(**phone).new_page()
        guest.goto(invite)                                    # the code worked once
        guest.get_by_role("button", name="Pair this device").tap()
        expect(guest.locator("main")).to_contain_text("works once and expires")

        tv.get_by_role("button", name="New pairing code for Caesar").click()
        expect(tv.locator("p.renewal")).to_contain_text("A new pairing code for Caesar")
        expect(tv.locator(".pair-code h2")).to_have_text(["Pair Pompeius"])      # not before Caesar consents
        caesar.get_by_role("button", name="Yes, show the code").tap()
        expect(tv.locator(".pair-code h2")).to_have_text(["Pair Caesar", "Pair Pompeius"])
        expect(caesar.locator("#pair-ask")).to_be_hidden()
    finally:
        table.stop()

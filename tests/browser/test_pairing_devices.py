"""Pairing more devices in chromium: the TV shows codes only once paired as the table's screen from
the Pi's link; a paired phone shows a one-time code for a tablet, which pairs while the phone stays
paired; a used code is refused on the page; a new phone asks to join, shows a number, and the
side's phone, showing the same number, lets it join; a declined ask cannot be asked again at once."""
import re

from playwright.sync_api import expect

from .tables import Table, pair_phone


def test_a_phone_invites_a_tablet_and_lets_an_asking_phone_join_by_its_number(browser, phone, playwright, tmp_path):
    table = Table(tmp_path / "journal.sqlite3")
    try:
        tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        tv.goto(table.base + "/")
        expect(tv.locator("p.waiting")).to_have_count(2)              # not the table's screen: no code
        expect(tv.locator(".pair-code")).to_have_count(0)
        tv.goto(f"{table.base}/pair/screen?code={table.app.extensions['rubicon.pairings'].screen_code().code}")
        tv.get_by_role("button", name="Pair this device").click()
        expect(tv.locator(".pair-code h2")).to_have_text(["Pair Caesar", "Pair Pompeius"])
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

        newcomer = browser.new_context(**phone).new_page()
        newcomer.goto(table.base + "/pair/Caesar")
        newcomer.get_by_role("button", name="Ask to join").tap()
        expect(newcomer.locator("#ask-number")).to_contain_text("Your number")
        number = re.search(r"(\d{3} \d{3})", newcomer.locator("#ask-number").inner_text()).group(1)
        expect(caesar.locator("#pair-ask")).to_contain_text(number)           # the same number on his phone
        caesar.get_by_role("button", name="Same number: let it join").tap()
        expect(newcomer.locator("h1")).to_have_text("Caesar")
        expect(caesar.locator("#device-count")).to_have_text("Devices paired with your side: 3")
        expect(caesar.locator("#pair-ask")).to_be_hidden()
    finally:
        table.stop()

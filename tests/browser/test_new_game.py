"""A new game in chromium: Caesar's phone offers it, the TV and Pompeius's phone show the offer
live, Pompeius accepts, and all three pages carry on with the new game's deal without a reload."""
from playwright.sync_api import expect

from .test_phones import pair_phone


def test_offered_on_one_phone_accepted_on_the_other_seen_on_the_tv(browser, phone, served):
    base, table, app = served
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    pompeius = pair_phone(browser, phone, base, app, "Pompeius")
    old = table.snapshot().game_id
    caesar.locator("button.choice", has_text="Discard").first.tap()
    expect(caesar.locator("#hand li")).to_have_count(5)

    caesar.get_by_role("button", name="Offer a new game (the other side must accept)").tap()
    expect(caesar.locator("#newgame")).to_contain_text("You offered a new game: waiting for Pompeius to accept")
    expect(tv.locator("#newgame")).to_contain_text("Caesar asks for a new game: waiting for Pompeius")
    expect(pompeius.locator("#newgame")).to_contain_text("Caesar offers a new game")
    assert table.snapshot().game_id == old

    pompeius.get_by_role("button", name="Accept: start a new game").tap()
    expect(caesar.locator("#hand li")).to_have_count(6)            # the new game's deal, live
    expect(tv.locator("#newgame")).to_be_hidden()
    expect(pompeius.get_by_role("button", name="Offer a new game (the other side must accept)")).to_be_visible()
    assert table.snapshot().game_id != old

"""A new game in chromium: Caesar's phone asks to end the game, is told it stays in the journal and
confirms; the TV and Pompeius's phone show the offer live (his Accept at the top of his page, his
status saying what is offered), Pompeius accepts, and all three pages carry on with the new game's
deal without a reload. The game left unfinished is taken up again from a phone, where it stood.
Against the Pi, ending the game still asks first."""
from playwright.sync_api import expect

from .test_phones import pair_phone

OFFER_NEW = "Yes: offer a new game (the other side must accept)"


def test_offered_on_one_phone_accepted_on_the_other_seen_on_the_tv(browser, phone, served, artifacts):
    base, table, app = served
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    pompeius = pair_phone(browser, phone, base, app, "Pompeius")
    old = table.snapshot().game_id
    caesar.locator("button.choice", has_text="Discard").first.tap()
    expect(caesar.locator("#hand li")).to_have_count(5)

    caesar.get_by_role("button", name="End this game…").tap()
    expect(caesar.locator("#newgame")).to_contain_text("This game stays in the journal")
    caesar.get_by_role("button", name="No, keep playing").tap()           # nothing was asked
    expect(caesar.locator("#newgame")).not_to_contain_text("This game stays in the journal")
    assert "new_game" not in table.snapshot().notes
    caesar.get_by_role("button", name="End this game…").tap()
    caesar.get_by_role("button", name=OFFER_NEW).tap()
    expect(caesar.locator("#newgame-ask")).to_contain_text("You offered a new game: waiting for Pompeius to accept")
    expect(tv.locator("#newgame")).to_contain_text("Caesar asks for a new game: waiting for Pompeius")
    expect(pompeius.locator("#newgame-ask")).to_contain_text("Caesar offers a new game (this one stays in the journal)")
    expect(pompeius.locator("#status")).to_contain_text("Caesar offers a new game: accept or decline at the top")
    accept = pompeius.get_by_role("button", name="Accept: start a new game")
    # Near the top: on the first screen of the phone, not under the map and the log.
    assert accept.bounding_box()["y"] < pompeius.viewport_size["height"]
    pompeius.screenshot(path=str(artifacts / "newgame-offer-phone.jpg"), scale="css", type="jpeg", quality=50)
    assert table.snapshot().game_id == old

    accept.tap()
    expect(caesar.locator("#hand li")).to_have_count(6)            # the new game's deal, live
    expect(tv.locator("#newgame")).to_be_hidden()
    expect(pompeius.locator("#newgame-ask")).to_be_hidden()
    expect(pompeius.get_by_role("button", name="End this game…")).to_be_visible()
    new = table.snapshot().game_id
    assert new != old

    # The first game, unfinished, is taken up again: offered from Pompeius's phone, accepted on Caesar's.
    pompeius.get_by_role("button", name="End this game…").tap()
    pompeius.get_by_role("button", name=f"Yes: offer to take up game {old} again").tap()
    expect(caesar.locator("#newgame-ask")).to_contain_text(f"Pompeius offers to take up game {old} again")
    caesar.get_by_role("button", name=f"Accept: take up game {old} again").tap()
    expect(caesar.locator("#hand li")).to_have_count(5)            # where it stood: his discard made
    assert table.snapshot().game_id == old


def test_against_the_pi_ending_the_game_asks_first(browser, phone, served):
    base, table, app = served
    app.extensions["rubicon.pairings"].bot_sides = frozenset({"Pompeius"})
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    old = table.snapshot().game_id
    caesar.get_by_role("button", name="End this game…").tap()
    expect(caesar.locator("#newgame")).to_contain_text("This game stays in the journal")
    assert table.snapshot().game_id == old                          # not ended at once
    caesar.get_by_role("button", name="Yes: start a new game").tap()
    expect(caesar.locator("#newgame")).not_to_contain_text("This game stays in the journal")
    assert table.snapshot().game_id != old

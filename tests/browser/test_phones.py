"""Two phones and a TV in chromium: pair both players from the TV's links, discard, play a card
each, see the reveal, make a move and see the public view update live."""
import re

from playwright.sync_api import expect


def pair_phone(browser, phone, base, app, side):
    context = browser.new_context(**phone)
    page = context.new_page()
    code = app.extensions["rubicon.pairings"].code(side)
    page.goto(f"{base}/pair/{side}?code={code}")
    page.get_by_role("button", name="Pair this phone").tap()
    expect(page.locator("#conn")).to_have_text("live")
    return page


def tap_first(page, verb_prefix):
    """Tap the first offered choice whose text starts with `verb_prefix` and return its line."""
    button = page.locator("button.choice", has_text=re.compile("^" + verb_prefix)).first
    line = button.get_attribute("data-line")
    button.tap()
    return line


def test_two_phones_and_the_tv_play_a_turn(browser, phone, served, artifacts):
    base, table, app = served
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")
    expect(tv.locator(".pair-code")).to_have_count(2)

    caesar = pair_phone(browser, phone, base, app, "Caesar")
    pompeius = pair_phone(browser, phone, base, app, "Pompeius")
    expect(tv.locator(".pair-code")).to_have_count(0)      # both paired: the codes are gone live
    expect(caesar.locator("#hand li")).to_have_count(6)

    tap_first(caesar, "discards")
    tap_first(pompeius, "discards")
    expect(caesar.locator("#hand li")).to_have_count(5)
    caesar.screenshot(path=str(artifacts / "phone-caesar.jpg"), scale="css", type="jpeg", quality=70, full_page=True)

    tap_first(caesar, "plays")
    tap_first(pompeius, "plays")
    expect(tv.locator("#table")).to_contain_text("Turn 1: Caesar")
    expect(caesar.locator("#table")).to_contain_text("Turn 1: Caesar")

    player1 = table.snapshot().public["player1"]
    page = caesar if player1 == "Caesar" else pompeius
    line = tap_first(page, "moves")
    dest = line.rsplit("-", 1)[1]
    expect(tv.locator("ul.locations li", has_text=dest + ":")).to_contain_text(player1)
    expect(page.locator("#message")).to_be_hidden()
    assert line in table.journal.lines(table.snapshot().game_id)[1]
    tv.screenshot(path=str(artifacts / "tv.jpg"), scale="css", type="jpeg", quality=70, full_page=True)


def test_a_refused_tap_shows_the_reason_on_the_phone(browser, phone, served):
    base, table, app = served
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    tap_first(caesar, "discards")
    # The page still offers nothing else now; a forged post from the page's own context is refused.
    result = caesar.evaluate("""async () => {
        const csrf = document.querySelector('meta[name=csrf-token]').content;
        const r = await fetch('/play/act', {method: 'POST', headers: {'Content-Type': 'application/json',
            'X-CSRFToken': csrf}, body: JSON.stringify({line: 'Caesar discards 3/1'})});
        return [r.status, await r.json()];
    }""")
    assert result[0] == 409 and result[1]["refusal"]["rule"] == "2.1"

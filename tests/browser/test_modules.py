"""The phone's and the TV's pages are ES modules (static/js/, no build step) under the same
Content-Security-Policy (scripts from the table only, no inline script): they load without an
error, and a snapshot re-renders only the panes whose part of the state changed."""
from playwright.sync_api import expect

from .tables import make_screen
from .test_phones import pair_phone, tap_first


def test_the_pages_are_modules_under_the_csp_and_load_without_an_error(browser, phone, served):
    base, table, app = served
    errors: list[str] = []
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.on("pageerror", lambda e: errors.append(str(e)))
    response = make_screen(tv, base, app)     # the table's screen (it shows the waiting side's code)
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    caesar.on("pageerror", lambda e: errors.append(str(e)))
    caesar.reload()
    expect(caesar.locator("#conn")).to_have_text("live")
    for page, entry in ((tv, "/static/js/tv.js"), (caesar, "/static/js/phone.js")):
        scripts = page.evaluate("""() => [...document.scripts].map((s) => [s.type, s.getAttribute('src')])""")
        assert ["module", entry] in scripts
        assert all(src or kind == "application/json" for kind, src in scripts), scripts   # nothing inline to run
    expect(caesar.locator("#hand li")).to_have_count(6)
    expect(tv.locator(".pair-code")).to_have_count(1)
    assert errors == []
    for page in (tv, caesar):
        page.context.close()


def test_a_snapshot_re_renders_only_the_panes_whose_part_changed(browser, phone, served):
    base, table, app = served
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    tap_first(caesar, "Discard")
    expect(caesar.locator("#hand li")).to_have_count(5)
    caesar.evaluate("() => { window.kept = [document.querySelector('#log li'), document.querySelector('#hand li')]; }")
    assert table.note("new_game", {"agreed": ["Pompeius"], "waiting": ["Caesar"]}).ok   # a new version: the offer
    expect(caesar.locator("#newgame-ask")).to_contain_text("new game")     # the offer at the top of the page
    assert caesar.evaluate("() => document.querySelector('#log li') === window.kept[0]"
                           " && document.querySelector('#hand li') === window.kept[1]")
    caesar.locator("#newgame-ask button", has_text="Decline").tap()      # the offer withdrawn: the pane again
    expect(caesar.locator("#newgame-ask p")).to_have_count(0)
    assert caesar.evaluate("() => document.querySelector('#log li') === window.kept[0]")
    caesar.context.close()

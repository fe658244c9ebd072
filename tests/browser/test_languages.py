"""The phone and the TV in each language in Debian's chromium at 360 px wide: nothing overflows
sideways (scrollWidth <= clientWidth), a JPEG screenshot per language and page goes to
$RUBICON_SCREENSHOTS; in the pseudo-locale every text the page scripts render is wrapped (nothing English
built in the page escapes the catalog)."""
import threading

import pytest
from playwright.sync_api import expect

from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.session import TableSession
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .tables import make_screen

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
OVERFLOW = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
# The visible text nodes the page scripts and the templates put on the page, but the map's SVG, the
# language menu's own names and the data printed as on the blocks (labels, strengths, card values;
# the page scripts and the templates mark such elements "printed").
UNWRAPPED = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const el = n.parentElement;
    if (!text || text === "…" || el.closest("svg, script, .lang-menu, #blocks, #pool, .printed")) continue;
    if (!el.getClientRects().length) continue;
    if (/^\\d\\/\\d$/.test(text)) continue;
    if (!text.includes("⟦")) out.push(text);
  }
  return out;
}"""


@pytest.fixture
def contexts(browser):
    """New browser contexts, closed at the end: an open page keeps its live stream (and a server
    thread) until it is closed, so a test asks for this fixture after the server's."""
    made = []

    def new(lang):
        made.append(browser.new_context(**PHONE, extra_http_headers={"Accept-Language": lang}))
        return made[-1].new_page()
    yield new
    for context in made:
        context.close()


@pytest.fixture
def served_pseudo(tmp_path):
    table = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3))
    table.start()
    app = create_app(table, {"I18N_PSEUDO": True})
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table, app
    table.stop()        # first: the open live streams end within a heartbeat, so the server can close
    assert stop_server(server, thread)


def open_phone(new, base, app, side, lang):
    page = new(lang)
    code = app.extensions["rubicon.pairings"].code(side)
    page.goto(f"{base}/pair/{side}?code={code}")
    page.locator("main.pair button[type=submit]").tap()
    expect(page.locator("#conn")).to_have_class("conn ok")
    return page


@pytest.mark.parametrize("lang", ["en", "es", "pl", "sv", "ja"])
def test_phone_and_tv_fit_360_px_in_each_language(served, contexts, artifacts, lang):
    base, table, app = served
    tv = contexts(lang)
    make_screen(tv, base, app)
    expect(tv.locator(".pair-code")).to_have_count(2)
    caesar = open_phone(contexts, base, app, "Caesar", lang)
    assert caesar.evaluate("document.documentElement.lang") == lang
    expect(caesar.locator("#hand li")).to_have_count(6)
    caesar.locator("button.choice").first.tap()
    expect(caesar.locator("#hand li")).to_have_count(5)
    expect(caesar.locator("#log li").first).to_be_visible()
    caesar.locator(".lang-menu summary").tap()          # the open menu must fit too
    for name, page in (("phone", caesar), ("tv", tv)):
        scroll, client = page.evaluate(OVERFLOW)
        assert scroll <= client, (lang, name, scroll, client)
        page.screenshot(path=str(artifacts / f"lang-{lang}-{name}.jpg"), type="jpeg", quality=70, full_page=True,
                        scale="css")


def test_the_pseudo_locale_leaves_no_unwrapped_text_on_the_pages(served_pseudo, contexts, artifacts):
    base, table, app = served_pseudo
    tv = contexts("xx")
    make_screen(tv, base, app)
    expect(tv.locator(".pair-code")).to_have_count(2)
    caesar = open_phone(contexts, base, app, "Caesar", "xx")
    pompeius = open_phone(contexts, base, app, "Pompeius", "xx")
    for page in (caesar, pompeius):
        page.locator("button.choice").first.tap()
        expect(page.locator("#hand li")).to_have_count(5)
    caesar.locator("button.choice").first.tap()          # plays a card: "chosen", the waiting line
    expect(caesar.locator("#chosen")).not_to_be_empty()
    assert caesar.evaluate(UNWRAPPED) == []
    assert pompeius.evaluate(UNWRAPPED) == []
    expect(tv.locator("#status")).to_contain_text("⟦")
    assert tv.evaluate(UNWRAPPED) == []
    pompeius.locator("button.choice").first.tap()        # both cards played: a command prompt for Player 1
    expect(tv.locator("#table .revealed")).to_have_count(1)
    player1 = table.snapshot().public.view.get("player1")
    page = caesar if player1 == "Caesar" else pompeius
    expect(page.locator(".prompt.kind-command")).to_be_visible()
    assert page.evaluate(UNWRAPPED) == []
    page.locator("button.choice.block").first.tap()      # the move prompt: a block, then its destinations
    expect(page.locator("button.choice.dest").first).to_be_visible()
    assert page.evaluate(UNWRAPPED) == []
    tv.locator("#large").tap()                           # the TV's large-text mode
    expect(tv.locator("body.large")).to_have_count(1)
    assert tv.evaluate(UNWRAPPED) == []
    for path in ("/reference/rules", "/reference/cards", "/reference/blocks"):
        page.goto(base + path)
        assert page.evaluate(UNWRAPPED) == [], path
    caesar.screenshot(path=str(artifacts / "lang-xx-phone.jpg"), type="jpeg", quality=70, full_page=True, scale="css")

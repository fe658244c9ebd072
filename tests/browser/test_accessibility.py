"""Accessibility: axe-core 4.14.1 (tests/browser/vendor, from the npm
registry) finds no serious or critical violation on any page in any language: the TV (before a
game, a turn, large text, a battle, the game over), the pairing page, both sides' phones (the
discard, the command, a move, waiting, a battle, the game over), the virtual table, the reference
pages, and the error pages (no such page, a phone not paired, a stale pairing code, a record
asked too early); and no accessible name is a place key or code ("in pool:Caesar").

Each page is checked as its reader gets it (Accept-Language), once it has rendered what the
live state brings. The findings of every run go to build/screenshots/axe-LANG.json (a CI
artifact, not committed), minor and moderate ones included."""
import json
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from firmware_bridge.virtual_table import VirtualTable
from tests.web.conftest import play_until
from web_ui import create_app
from web_ui.i18n.lang import LANGUAGES
from web_ui.server import make_server, stop_server

from .tables import make_screen

AXE = (Path(__file__).resolve().parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
PHONE = {"viewport": {"width": 412, "height": 839}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ["violations"]});
  return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html.slice(0, 200),
                                summary: n.failureSummary}))}));
}"""
BLOCKING = ("serious", "critical")


@pytest.fixture
def served_all(served):
    """The app with a virtual table beside it (both on the one session)."""
    base, table, _ = served
    virtual = VirtualTable(lambda event: None, seed=4)
    virtual.set_up_705()
    app = create_app(table, virtual=virtual)
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table, app
    table.stop()
    assert stop_server(server, thread)


# Accessible names in words: no place key ("pool:Caesar"), placeholder or code.
RAW_NAMES = """() => [...document.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label"))
  .filter((l) => /(pool|eliminated|hand|scan_pad):|%\\(|\\b(table|block)\\.[a-z]/.test(l))"""


def axe(page) -> list[dict]:
    assert page.evaluate(RAW_NAMES) == [], page.url
    page.evaluate(AXE + "\n;undefined")
    return page.evaluate(RUN)


def paired(browser, base, app, side, lang):
    context = browser.new_context(**PHONE, extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    code = app.extensions["rubicon.pairings"].code(side)
    page.goto(f"{base}/pair/{side}?code={code}")
    found = {"pairing page": axe(page)}
    page.locator("main.pair button[type=submit]").tap()
    expect(page.locator("#conn")).to_have_class("conn ok")
    return page, found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_or_critical_violation_on_any_page(browser, served_all, artifacts, lang):
    base, table, app = served_all
    found: dict[str, list[dict]] = {}
    tv_context = browser.new_context(viewport={"width": 1920, "height": 1080},
                                     extra_http_headers={"Accept-Language": lang})
    tv = tv_context.new_page()
    make_screen(tv, base, app)
    expect(tv.locator(".pair-code")).to_have_count(2)
    found["TV, pairing codes"] = axe(tv)
    caesar, more = paired(browser, base, app, "Caesar", lang)
    found.update(more)
    pompeius, _ = paired(browser, base, app, "Pompeius", lang)
    expect(caesar.locator("#hand li")).to_have_count(6)
    found["Caesar's phone, the discard"] = axe(caesar)
    for page in (caesar, pompeius):
        page.locator("button.choice").first.tap()
        expect(page.locator("#hand li")).to_have_count(5)
    for page in (caesar, pompeius):
        page.locator("button.choice").first.tap()        # each plays a card
    expect(tv.locator("#table .revealed")).to_have_count(1)
    player1 = table.snapshot().public.view.get("player1")
    first = caesar if player1 == "Caesar" else pompeius
    expect(first.locator(".prompt.kind-command")).to_be_visible()
    found[f"{player1}'s phone, the command"] = axe(first)
    first.locator("button.choice.block").first.tap()
    expect(first.locator("button.choice.dest").first).to_be_visible()
    found[f"{player1}'s phone, a move's destinations"] = axe(first)
    other = pompeius if first is caesar else caesar
    found["the other phone, waiting"] = axe(other)
    found["TV, a game turn"] = axe(tv)
    tv.locator("#large").click()
    expect(tv.locator("body.large")).to_have_count(1)
    found["TV, large text"] = axe(tv)
    caesar.goto(base + "/virtual/")
    expect(caesar.locator("button.vblock").first).to_be_visible()
    found["the virtual table"] = axe(caesar)
    for path in ("/reference/rules", "/reference/cards", "/reference/blocks"):
        caesar.goto(base + path)
        found[path] = axe(caesar)
    stranger = browser.new_context(**PHONE, extra_http_headers={"Accept-Language": lang}).new_page()
    for name, path in (("no such page", "/no-such-page"), ("a phone not paired", "/play/"),
                       ("a stale pairing code", "/pair/Caesar?code=00000000"),
                       ("the record before the end", "/record.txt")):
        stranger.goto(base + path)
        found[name] = axe(stranger)
    stranger.goto(base + "/pair/Caesar")
    stranger.locator("#ask-button").tap()
    expect(stranger.locator("#ask-number")).to_be_visible()
    found["a phone asking to join, its number"] = axe(stranger)
    caesar.goto(base + "/play/")
    expect(caesar.locator("#pair-ask button.approve")).to_be_visible()
    found["Caesar's phone, an ask to join"] = axe(caesar)
    caesar.locator("#pair-ask button.decline").tap()
    expect(caesar.locator("#pair-ask")).to_be_hidden()
    # A battle, then the end of the game (the final reveal and the records on the TV).
    caesar.goto(base + "/play/")
    expect(caesar.locator("#conn")).to_have_class("conn ok")
    # Random play may end a game without a battle fought: another game then (the pages follow it).
    battle = lambda snap: any(d["kind"] == "battle-turn" for d in snap.public.pending)  # noqa: E731
    assert any(play_until(table, battle, seed=seed) or not table.new_game().ok for seed in range(8))
    expect(tv.locator("#battle")).to_be_visible()
    found["TV, a battle"] = axe(tv)
    found["Caesar's phone, a battle"] = axe(caesar)
    assert play_until(table, lambda snap: snap.result is not None, steps=20000)
    expect(tv.locator("#final")).to_be_visible()
    found["TV, the game over"] = axe(tv)
    found["Caesar's phone, the game over"] = axe(caesar)
    for page in (tv, caesar, pompeius, stranger):
        page.context.close()
    (artifacts / f"axe-{lang}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False), encoding="utf-8")
    blocking = {where: [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:5]) for v in found_here
                        if v["impact"] in BLOCKING]
                for where, found_here in found.items()}
    assert not {k: v for k, v in blocking.items() if v}, blocking


def test_the_phone_says_a_card_and_the_direct_road_in_words(browser, served_all):
    """Defect 3 on the page: the other side's card is "a card" (not "A card") and the direct road is
    "by the direct road" beside "via Genua" (not a bare "via")."""
    base, table, app = served_all
    caesar, _ = paired(browser, base, app, "Caesar", "en")
    pompeius, _ = paired(browser, base, app, "Pompeius", "en")
    for page in (caesar, pompeius):
        page.locator("button.choice").first.tap()
        expect(page.locator("#hand li")).to_have_count(5)
    caesar.locator("button.choice").first.tap()
    expect(caesar.locator("#chosen")).not_to_be_empty()
    expect(pompeius.locator("body")).not_to_contain_text("A card")
    pompeius.locator("button.choice").first.tap()
    player1 = table.snapshot().public.view.get("player1")
    first = caesar if player1 == "Caesar" else pompeius
    expect(first.locator(".prompt.kind-command")).to_be_visible()
    paths = 0
    for block in range(first.locator("button.choice.block").count()):
        first.locator("button.choice.block").nth(block).tap()
        expect(first.locator("button.choice.dest").first).to_be_visible()
        several = first.locator("button.choice.dest", has_text="…")
        if several.count():
            several.first.tap()
            texts = [t.strip() for t in first.locator("button.choice.path").all_inner_texts()]
            assert texts and all(t not in ("via", "") for t in texts), texts
            paths += len(texts)
        first.locator("button.choice.back").tap()
        if paths:
            break
    assert paths, "no destination with several roads among the first command's blocks"
    for page in (caesar, pompeius):
        page.context.close()

"""The virtual table in each language on a phone (Pixel 7) in chromium: nothing overflows sideways,
no block's label overflows its block, the hand and the pools stay in view; in the pseudo-locale
every text the page renders is wrapped (nothing English built in virtual.js escapes the catalog)
but what is printed on the blocks and the map's own names. A screenshot per language goes to
$RUBICON_SCREENSHOTS (or a temporary directory)."""
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .test_languages import UNWRAPPED
from .test_virtual_table import in_view
from .test_virtual_table_play import VirtualRig


@pytest.fixture
def screenshots(tmp_path_factory):
    path = Path(os.environ.get("RUBICON_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def open_in(browser, playwright, rig, side, lang):
    context = browser.new_context(**playwright.devices["Pixel 7"], extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    code = rig.app.extensions["rubicon.pairings"].code(side)
    page.goto(f"{rig.base}/pair/{side}?code={code}")
    page.locator("main.pair button[type=submit]").tap()
    expect(page.locator("#conn")).to_have_class("conn ok")        # paired: the phone's page, live
    page.goto(rig.base + "/virtual/")
    expect(page.locator("#conn")).to_have_class("conn ok")
    expect(page.locator("#pools .tray")).to_have_count(2)
    return page


@pytest.mark.parametrize("lang", ["en", "es", "pl", "sv", "ja"])
def test_the_virtual_table_fits_a_phone_in_each_language(browser, playwright, tmp_path, screenshots, lang):
    rig = VirtualRig(tmp_path / "journal.sqlite3")
    try:
        page = open_in(browser, playwright, rig, "Caesar", lang)
        assert page.evaluate("document.documentElement.lang") == lang
        page.locator('g.loc[data-name="Genua"] circle.hit').tap()      # the blocks of a place, listed
        expect(page.locator("#here button.vblock")).to_have_count(3)
        panel = page.locator(".vt-panel").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert panel[0] <= panel[1], panel
        overflow = page.eval_on_selector_all(
            "button, .tray h2", "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
        assert not overflow, overflow
        in_view(page)
        page.screenshot(path=str(screenshots / f"virtual-lang-{lang}.png"))
        page.context.close()
    finally:
        rig.stop()


def test_the_pseudo_locale_leaves_no_unwrapped_text_on_the_virtual_table(browser, playwright, tmp_path):
    rig = VirtualRig(tmp_path / "journal.sqlite3", config={"I18N_PSEUDO": True})
    try:
        page = open_in(browser, playwright, rig, "Caesar", "xx")
        page.locator('g.loc[data-name="Genua"] circle.hit').tap()
        expect(page.locator("#here button.vblock")).to_have_count(3)
        page.locator("#here button.vblock").first.tap()                # held: the hint names it
        expect(page.locator('.tray.hand button.vblock[aria-pressed="true"]')).to_have_count(1)
        assert page.evaluate(UNWRAPPED) == []
        labels = page.eval_on_selector_all("[aria-label]", "els => els.map(e => e.getAttribute('aria-label'))")
        assert labels and all("⟦" in x for x in labels), [x for x in labels if "⟦" not in x][:5]
        page.context.close()
    finally:
        rig.stop()

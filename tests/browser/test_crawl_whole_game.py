"""No notation and no code ever reaches a page: a whole game played at the
table as `rubicon run` serves it without hardware (the virtual table, its tray), in the
pseudo-locale, with both phones, the TV and a tablet's virtual table open on their live streams; after
every action each page's visible text is read as a person reads it (innerText) and must hold no
block key of the notation ("P Legio 5"), no notation line ("Chance rolls 5 5"), no code
("table.place", "dice.not-asked"), no placeholder, and, on the phones and the TV, no text that came
from no catalog. The dice are rolled where the pages say: in the virtual table's tray."""
import random
import re
import threading

import pytest
from playwright.sync_api import expect

from rubicon.config import Config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import SeededChance
from tests.i18n.test_no_raw_codes import CODE
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_languages import UNWRAPPED

KEY = re.compile(r"\b[CP] (?:Legio|Equitatus|Auxilia|Navis|Ballista|Elephant|Sagittarii|Antonius|Octavian|"
                 r"Scipio|Brutus|Pompeius|Caesar|Cleopatra)\b")
# A param left unfilled: "%(name)s", or the "…" a missing one prints as, standing for a word between
# words (a word's own ellipsis, "Connecting…", or a button's that opens a choice, "Levy Scipio …", is the
# text's).
PLACEHOLDER = re.compile(r"%\(\w+\)s|%s|\{\w*\}|(?<!\w)…(?= *\w)")
LINE = re.compile(r"\b(?:Chance|Caesar|Pompeius) (?:rolls|moves|levies|discards|plays|fires|retreats) ")
TABLET = {"viewport": {"width": 1024, "height": 768}, "is_mobile": True, "has_touch": True}
PHONE = {"viewport": {"width": 412, "height": 915}, "is_mobile": True, "has_touch": True}


def dice_asked(snap):
    """Whether the game waits for a battle's dice (what every page reads: a decision of the table's)."""
    return any(d["actor"] == "Chance" and d["kind"] == "dice" for d in snap.public.pending)


@pytest.fixture
def pseudo_table(tmp_path):
    table = assemble(Config(), Journal(tmp_path / "journal.sqlite3"), SeededChance(5))
    table.start()
    app = create_app(table.session, {"I18N_PSEUDO": True}, virtual=table.virtual)
    server = make_server(app, host="127.0.0.1", port=0, threads=16)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table.session, app
    table.stop()
    assert stop_server(server, thread)


def paired(browser, base, app, side, device):
    context = browser.new_context(**device, extra_http_headers={"Accept-Language": "xx"})
    page = context.new_page()
    page.goto(f"{base}/pair/{side}?code={app.extensions['rubicon.pairings'].code(side)}")
    page.locator("main.pair button[type=submit]").tap()
    expect(page.locator("#conn")).to_have_class("conn ok")
    return page


def faults(text, name, found):
    """Each notation, code or placeholder in `text`, with the words around it, by page and kind."""
    for kind, pattern in (("key", KEY), ("line", LINE), ("code", CODE), ("placeholder", PLACEHOLDER)):
        for hit in pattern.finditer(text):
            found.setdefault((name, kind), set()).add(text[max(0, hit.start() - 40):hit.end() + 20])


def read(page, name, lines, found, catalog_only):
    """What a person reads on `page` once it shows action `lines`: every fault found, by kind."""
    expect(page.locator("#log li").first).to_have_attribute("value", str(lines))
    text = page.locator("body").inner_text()
    faults(text, name, found)
    if catalog_only:
        for hit in page.evaluate(UNWRAPPED):
            found.setdefault((name, "uncatalogued"), set()).add(hit)


def test_a_whole_game_shows_no_notation_and_no_code_on_any_page(browser, pseudo_table):
    base, session, app = pseudo_table
    caesar = paired(browser, base, app, "Caesar", PHONE)
    pompeius = paired(browser, base, app, "Pompeius", PHONE)
    tv = browser.new_context(viewport={"width": 1280, "height": 720},
                             extra_http_headers={"Accept-Language": "xx"}).new_page()
    tv.goto(base + "/")
    tablet = caesar.context.new_page()        # the same browser, paired with Caesar: his virtual table
    tablet.set_viewport_size(TABLET["viewport"])
    tablet.goto(base + "/virtual/")
    expect(tablet.locator("#conn")).to_have_class("conn ok")
    rng = random.Random(4)
    found: dict = {}
    rolls = kinds = 0
    seen_kinds = set()
    for _ in range(1500):
        snap = session.snapshot()
        if snap.result is not None:
            break
        for name, page, catalog_only in (("Caesar", caesar, True), ("Pompeius", pompeius, True), ("TV", tv, True)):
            read(page, name, snap.lines, found, catalog_only)
        seen_kinds |= {d["kind"] for d in snap.public.pending}
        if dice_asked(snap):     # rolled where the pages say: the tray
            count = snap.public.table["dice"]["count"]
            tablet.locator(f'button.roll[data-count="{count}"]').click()
            expect(tablet.locator("#faces")).not_to_have_text("")
            faults(tablet.locator("body").inner_text(), "tablet", found)
            rolls += 1
            continue
        side = next(s for s in snap.waiting_for if s != "Chance")
        legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
        assert session.act(side, rng.choice(legal)).ok
    kinds = len(seen_kinds)
    assert session.snapshot().result is not None, "the game did not end"
    assert rolls >= 3 and kinds >= 8, (rolls, sorted(seen_kinds))
    assert not found, {k: sorted(v)[:8] for k, v in found.items()}

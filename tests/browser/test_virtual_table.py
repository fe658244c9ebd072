"""The virtual table in chromium on a tablet (iPad Mini, 1024 x 768) and a phone (Pixel 7), against
a table session fed by it and served by waitress: every target at least 44 px (measured from the
rendered boxes), the hand and the pools inside the viewport, a block's strength shown to its owner
and absent from the other side's page, a move drawn provisionally until Done, a move made with the
keyboard alone, and turns played through the page with screenshots (to $RUBICON_SCREENSHOTS, or a
temporary directory)."""
import os
import re
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine import BOARD, Move
from firmware_bridge.virtual_table import VirtualTable, layout_from_views
from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.physical import PhysicalTable
from rubicon.table.session import TableSession
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_phones import pair_phone

MIN_TARGET = 44
DEVICES = ("iPad Mini landscape", "Pixel 7")


@pytest.fixture
def screenshots(tmp_path_factory):
    path = Path(os.environ.get("RUBICON_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def table(tmp_path):
    """A session fed by a virtual table laid out as its game stands, served on a real socket:
    (base URL, session, virtual table, app)."""
    holder = {}
    virtual = VirtualTable(sink=lambda event: holder["session"].sense(event), seed=5)
    physical = PhysicalTable(virtual.reader_map, virtual.registry().block_of)
    session = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3), physical=physical)
    holder["session"] = session
    session.start()
    virtual.arrange(layout_from_views(session.snapshot().side_views(), virtual.catalog))
    app = create_app(session, virtual=virtual)
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", session, virtual, app
    session.stop()       # first: the open live streams end, so the server can close
    assert stop_server(server, thread)


def open_virtual(browser, playwright, table, side, device):
    base, _, _, app = table
    page = pair_phone(browser, playwright.devices[device], base, app, side)
    page.goto(base + "/virtual/")
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator(".tray.hand")).to_be_visible()
    return page


def card_phase(session):
    """Discard, then play, one card each (on the phones): the first command is then awaited."""
    for _ in range(2):
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    return session.snapshot()


def a_one_step_move(snap, side):
    move = next(m for m in snap.side(side).legal if isinstance(m, Move) and len(m.path) == 2)
    return move, BOARD.blocks[move.block].name, BOARD.loc_names[move.path[0]], BOARD.loc_names[move.path[1]]


def boxes(page, selector):
    return page.eval_on_selector_all(selector, """els => els.filter(e => e.getClientRects().length)
        .map(e => { const r = e.getBoundingClientRect();
                    return {w: r.width, h: r.height, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                            name: e.getAttribute('aria-label') || e.textContent}; })""")


def in_view(page):
    """The hand and both levy pools (their heading and first row) inside the viewport, and the page
    itself not scrolling (the map and the panel scroll inside their boxes)."""
    view = viewport(page)
    for selector in (".tray.hand", "#pools .tray"):
        for box in boxes(page, selector):
            assert box["top"] >= 0 and box["left"] >= 0 and box["right"] <= view["w"] + 0.5, (selector, box)
            assert box["top"] + MIN_TARGET + 20 <= view["h"], (selector, box, view)
    assert page.evaluate("document.scrollingElement.scrollHeight") <= view["h"] + 1


def viewport(page):
    return page.evaluate("({w: window.innerWidth, h: window.innerHeight})")


@pytest.mark.parametrize("device", DEVICES)
def test_targets_are_44_px_and_the_hand_and_pools_are_in_view(browser, playwright, table, device, screenshots):
    _, session, virtual, _ = table
    page = open_virtual(browser, playwright, table, "Caesar", device)
    expect(page.locator("#pools .tray")).to_have_count(2)
    targets = {
        "locations": boxes(page, "svg.map g.loc circle.hit"),
        "blocks": boxes(page, "button.vblock"),
        "buttons": boxes(page, ".vt-panel button, .vt-panel select, .vt-panel summary"),
    }
    assert len(targets["locations"]) == len(BOARD.map_xy) - BOARD.map_xy.count(None)
    assert len(targets["blocks"]) >= 17       # Caesar's levy pool at least
    small = [(kind, b) for kind, found in targets.items() for b in found
             if min(b["w"], b["h"]) < MIN_TARGET - 0.5]
    assert not small, small[:5]
    sizes = {kind: round(min(min(b["w"], b["h"]) for b in found), 1) for kind, found in targets.items()}
    print(f"\n{device}: smallest target px {sizes}")
    # Labels inside their blocks: no block button's text overflows it.
    overflow = page.eval_on_selector_all("button.vblock", "els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
                                                          ".map(e => e.textContent)")
    assert not overflow, overflow
    in_view(page)
    # The own pool sorted by name (numbers as numbers); Caesar's blocks before Pompeius's.
    names = page.locator('#pools .tray[data-place="pool:Caesar"] button.vblock .name').all_text_contents()
    expected = sorted((virtual.catalog.blocks[b].name for b in session.snapshot().side("Caesar").view["own_levy_pool"]),
                      key=lambda n: [int(p) if p.isdigit() else p for p in n.split()])
    assert names == expected
    assert page.locator("#pools .tray").first.get_attribute("data-place") == "pool:Caesar"
    page.screenshot(path=str(screenshots / f"virtual-{device.replace(' ', '-')}.png"))


def test_blocks_are_drawn_on_their_own_city(browser, playwright, table):
    page = open_virtual(browser, playwright, table, "Pompeius", DEVICES[0])
    # Alexandria and Memphis (neighbours): each one's blocks lie inside its own target, not the other's.
    for city in ("Alexandria", "Antiochia"):
        hit = page.locator(f'g.loc[data-name="{city}"] circle.hit').bounding_box()
        label = page.locator(f'g.loc[data-name="{city}"]').get_attribute("aria-label")
        assert label.startswith(city + ":") and "Pompeius" in label, label
        cx, cy = hit["x"] + hit["width"] / 2, hit["y"] + hit["height"] / 2
        glyphs = page.eval_on_selector_all("g.vblocks .glyph rect", """(els, c) => els.map(e => {
            const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })""", [cx, cy])
        near = [g for g in glyphs if abs(g[0] - cx) < hit["width"] / 2 and abs(g[1] - cy) < hit["height"] / 2]
        assert near, city


@pytest.mark.parametrize("device", DEVICES)
def test_strength_for_the_owner_only_and_a_move_drawn_until_done(browser, playwright, table, device, screenshots):
    _, session, virtual, _ = table
    snap = card_phase(session)
    side = snap.waiting_for[0]
    other = "Pompeius" if side == "Caesar" else "Caesar"
    move, name, origin, dest = a_one_step_move(snap, side)
    strength = next(b["strength"] for b in snap.side(side).view["own_blocks"]
                    if b["location"] == origin and b["block"] in (name, f"{side[0]} {name}"))
    mine = open_virtual(browser, playwright, table, side, device)
    theirs = open_virtual(browser, playwright, table, other, device)
    # The owner reads the block's strength on its city's target and in its tray; the other side nowhere.
    mine.locator(f'g.loc[data-name="{origin}"]').tap()
    block = mine.locator("#here button.vblock", has=mine.locator(".name", has_text=name))
    expect(block.locator(".strength")).to_have_text(str(strength))
    assert f"strength {strength}" in mine.locator(f'g.loc[data-name="{origin}"]').get_attribute("aria-label")
    theirs.locator(f'g.loc[data-name="{origin}"]').tap()
    expect(theirs.locator("#here")).to_be_visible()
    assert theirs.locator("#here .strength").count() == 0 and theirs.locator("#here button.vblock").count() == 0
    said = theirs.locator(f'g.loc[data-name="{origin}"]').get_attribute("aria-label")
    assert "strength" not in said and name not in said and side in said, said
    # Nowhere in the rendered page (the language catalog aside, which holds every page's words) is
    # one of the mover's blocks named or given a strength: the other side's only are.
    text = theirs.locator(".vt").evaluate("e => e.outerHTML")
    assert not re.search(rf"{side} [A-Z][a-z]+( \d+)?, strength", text)
    assert theirs.locator(f".vblock.{side.lower()} .strength, .vblock.{side.lower()} .name").count() == 0
    state = theirs.evaluate("fetch('/virtual/state').then(r => r.json())")
    assert all(set(b) <= {"token", "side", "at", "movable"} for b in state["blocks"] if b["side"] == side)
    # Lift it, set it down one step on: drawn provisional (dashed, a ghost where it stood), the
    # phone's count of moves lowered, and nothing played until Done.
    block.tap()
    expect(mine.locator('.tray.hand button.vblock[aria-pressed="true"]')).to_have_count(1)
    mine.locator(f'g.loc[data-name="{dest}"] circle.hit').tap()
    expect(mine.locator("#planned")).to_contain_text(f"{origin} → {dest}")
    expect(mine.locator("#planned")).to_contain_text("After Done, moves left")
    expect(mine.locator("g.vblocks .glyph.provisional")).to_have_count(1)
    expect(mine.locator("g.vblocks .ghost")).to_have_count(1)
    assert "moved from" in mine.locator(f'g.loc[data-name="{dest}"]').get_attribute("aria-label")
    in_view(mine)       # the list of placements takes room: the hand and the pools are still in view
    assert session.snapshot().lines == snap.lines
    expect(theirs.locator("#planned")).to_be_hidden()
    expect(theirs.locator("g.vblocks .glyph.provisional")).to_have_count(0)
    mine.screenshot(path=str(screenshots / f"virtual-provisional-{device.replace(' ', '-')}.png"))
    mine.get_by_role("button", name="Done").tap()
    expect(mine.locator("g.vblocks .glyph.provisional")).to_have_count(0)
    expect(mine.locator("#planned")).to_be_hidden()
    _, journal = session.journal.lines(session.snapshot().game_id)
    assert str(move) in journal[snap.lines:]
    for page in (mine, theirs):
        page.context.close()


def focused(page):
    return page.evaluate("""(() => { const e = document.activeElement;
        return {id: e.id, label: e.getAttribute('aria-label') || e.textContent.trim(), tag: e.tagName,
                loc: e.dataset ? e.dataset.name || null : null, here: !!e.closest('#here')}; })()""")


def tab_until(page, wanted, limit=400, back=False):
    """Tab (or Shift+Tab) until `wanted(focused)`; the focus order is the page's own."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        now = focused(page)
        if wanted(now):
            return now
    raise AssertionError(f"the focus never reached it (last: {now})")


def test_a_move_made_with_the_keyboard_alone(browser, playwright, table):
    _, session, virtual, _ = table
    snap = card_phase(session)
    side = snap.waiting_for[0]
    move, name, origin, dest = a_one_step_move(snap, side)
    page = open_virtual(browser, playwright, table, side, DEVICES[0])
    # Every location of the map is in the focus order, named in words with what stands there.
    loc = tab_until(page, lambda f: f["loc"] == origin)
    assert loc["label"].startswith(f"{origin}: ") and name in loc["label"]
    page.keyboard.press("Enter")                     # its blocks, listed in the panel; focus on the first
    expect(page.locator("#here")).to_be_visible()
    now = focused(page)
    while name not in now["label"]:
        assert now["here"], now
        page.keyboard.press("Tab")
        now = focused(page)
    assert f" in {origin}" in now["label"], now
    page.keyboard.press("Space")                     # lifted: in hand, and still focused
    expect(page.locator('.tray.hand button.vblock[aria-pressed="true"]')).to_have_count(1)
    assert name in focused(page)["label"] and "in hand" in focused(page)["label"]
    # Set down through the place picker: the select, a few letters of the place, then its button.
    tab_until(page, lambda f: f["id"] == "place-pick")
    page.keyboard.type(dest)
    assert page.locator("#place-pick").input_value() == dest
    tab_until(page, lambda f: f["id"] == "pick-set")
    page.keyboard.press("Enter")
    expect(page.locator("#planned")).to_contain_text(f"{origin} → {dest}")
    tab_until(page, lambda f: f["tag"] == "BUTTON" and f["label"] == "Done")
    page.keyboard.press("Enter")
    expect(page.locator("#planned")).to_be_hidden()
    _, journal = session.journal.lines(session.snapshot().game_id)
    assert str(move) in journal[snap.lines:]
    # Every accessible name on the page is words: no place key ("pool:Caesar"), no raw placeholder.
    labels = page.eval_on_selector_all("[aria-label]", "els => els.map(e => e.getAttribute('aria-label'))")
    bad = [x for x in labels if re.search(r"pool:|eliminated:|scan_pad|%\(|undefined|null", x)]
    assert len(labels) > 80 and not bad, bad[:5]
    page.context.close()

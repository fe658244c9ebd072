"""One flow per roll: the dice the game waits for are rolled on one page, and
every other page says who rolls where, in the same words. With no tray up the rolling side's phone
has the Roll button (the other phone, the TV and the status say "… rolls … on the phone"); with the
virtual table's tray up, no phone has a Roll button and every page says "in the tray". No page
shows the notation's block keys ("P Legio 5"), and the dice log keeps each die apart ("5 5")."""
import random
import re
import threading

import pytest
from playwright.sync_api import expect

from firmware_bridge.events import DeviceUp
from rubicon.journal import Journal
from rubicon.table.chance import SeededChance, TableChance
from rubicon.table.session import TableSession
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_phones import pair_phone

# The notation's key of a block ("P Legio 5", "C Equitatus 1"): never on a page.
KEY = re.compile(r"\b[CP] (?:Legio|Equitatus|Auxilia|Navis|Ballista|Elephant|Sagittarii|Antonius|Octavian|"
                 r"Scipio|Brutus|Pompeius|Caesar)\b")


def dice_asked(snap):
    """Whether the game waits for a battle's dice (what every page reads: a decision of the table's)."""
    return any(d["actor"] == "Chance" and d["kind"] == "dice" for d in snap.public.pending)


@pytest.fixture
def dice_table(tmp_path):
    yield from served_at_a_roll(tmp_path)


@pytest.fixture
def typed_table(tmp_path):
    yield from served_at_a_roll(tmp_path, dice_source="typed")


def served_at_a_roll(tmp_path, **options):
    """A table whose battle dice wait for the table (a tray, or a phone's Roll button), played on
    at random until a battle's dice are asked."""
    table = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=TableChance(SeededChance(4)), **options)
    table.start()
    rng = random.Random(4)
    for _ in range(3000):
        snap = table.snapshot()
        if dice_asked(snap):
            break
        side = next(s for s in snap.waiting_for if s != "Chance")
        legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
        assert table.act(side, rng.choice(legal)).ok
    else:
        pytest.fail("no battle's dice were asked")
    app = create_app(table)
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table, app
    table.stop()
    assert stop_server(server, thread)


def roller_of(table):
    return table.snapshot().public.table["dice"]["by"]


def no_keys(*pages):
    for page in pages:
        text = page.locator("body").inner_text()
        assert not KEY.search(text), KEY.search(text).group(0)


def test_the_phone_that_rolls_has_the_roll_button_and_every_other_page_says_so(browser, phone, dice_table, artifacts):
    base, table, app = dice_table
    by = roller_of(table)
    other = "Pompeius" if by == "Caesar" else "Caesar"
    count = table.snapshot().public.table["dice"]["count"]
    roller = pair_phone(browser, phone, base, app, by)
    watcher = pair_phone(browser, phone, base, app, other)
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")

    dice_word = "die" if count == 1 else "dice"
    roll = roller.locator("#actions button.roll")
    expect(roll).to_have_text(f"Roll {count} {dice_word}")
    expect(roller.locator("#actions")).not_to_contain_text("Nothing to do now")
    for page in (watcher, tv):
        expect(page.locator("#banner .dice")).to_contain_text(f"{by} rolls {count} {dice_word} for ")
        expect(page.locator("#banner .dice")).to_contain_text("on the phone")
        expect(page.locator("#status")).to_contain_text(page.locator("#banner .dice").inner_text())
        expect(page.locator("button.roll")).to_have_count(0)
    expect(roller.locator("#status")).to_contain_text(roller.locator("#banner .dice").inner_text())
    expect(roller.locator("#banner .dice")).not_to_contain_text("tray")
    no_keys(roller, watcher, tv)
    roller.screenshot(path=str(artifacts / "dice-phone-roll.jpg"), scale="css", type="jpeg", quality=50)

    before = len(table.journal.lines(table.snapshot().game_id)[1])
    roll.tap()
    expect(roller.locator("#actions button.roll")).to_have_count(0)
    lines = table.journal.lines(table.snapshot().game_id)[1]
    assert lines[before].startswith("Chance rolls")
    faces = lines[before].split()[2:]
    if table.snapshot().public.view.get("fight") and len(faces) > 1:   # the battle goes on: its dice, each apart
        expect(tv.locator("#battle .dice-log li").first).to_contain_text(" ".join(faces))
    no_keys(roller, watcher, tv)


def test_with_the_tray_up_every_page_says_in_the_tray_and_no_phone_rolls(browser, phone, dice_table):
    base, table, app = dice_table
    table.sense(DeviceUp("virtual-tray", device_kind="dice", firmware="virtual"))
    by = roller_of(table)
    other = "Pompeius" if by == "Caesar" else "Caesar"
    roller = pair_phone(browser, phone, base, app, by)
    watcher = pair_phone(browser, phone, base, app, other)
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")
    expect(roller.locator("#actions")).to_contain_text("in the tray for")
    expect(roller.locator("#actions")).to_contain_text("Roll ")
    for page in (roller, watcher, tv):
        expect(page.locator("button.roll")).to_have_count(0)
        expect(page.locator("#banner .dice")).to_contain_text("in the tray")
        expect(page.locator("#status")).to_contain_text("in the tray")
        expect(page.locator("#status")).not_to_contain_text("on the phone")
    no_keys(roller, watcher, tv)


def test_with_typed_faces_the_phone_that_rolls_takes_them_die_by_die(browser, phone, typed_table):
    base, table, app = typed_table
    by = roller_of(table)
    count = table.snapshot().public.table["dice"]["count"]
    roller = pair_phone(browser, phone, base, app, by)
    expect(roller.locator("#actions")).to_contain_text("by hand and type")
    expect(roller.locator("#actions input.face")).to_have_count(count)
    expect(roller.locator("#actions button.roll")).to_have_text("Send the faces")
    before = len(table.journal.lines(table.snapshot().game_id)[1])
    faces = [6, 1, 3, 4][:count]
    for field, face in zip(roller.locator("#actions input.face").all(), faces, strict=True):
        field.fill(str(face))
    roller.locator("#actions button.roll").tap()
    expect(roller.locator("#actions input.face")).to_have_count(0)
    assert table.journal.lines(table.snapshot().game_id)[1][before] == "Chance rolls " + " ".join(map(str, faces))

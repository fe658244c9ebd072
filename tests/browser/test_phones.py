"""Two phones and a TV in chromium: pair both players from the TV's links, discard, play a card
each, see the reveal, make a move (block, then destination) and see the public view update
live; answer a battle prompt (fire); the end-of-game reveal on the TV; the phone's page loads
nothing from anywhere but the table's own server."""
import re

from playwright.sync_api import expect

from tests.web.conftest import play_until

from .tables import table_screen


def pair_phone(browser, phone, base, app, side):
    context = browser.new_context(**phone)
    page = context.new_page()
    code = app.extensions["rubicon.pairings"].code(side)
    page.goto(f"{base}/pair/{side}?code={code}")
    page.get_by_role("button", name="Pair this device").tap()
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
    tv = table_screen(browser, base, app)      # the TV, paired once as the table's screen
    expect(tv.locator(".pair-code")).to_have_count(2)

    caesar = pair_phone(browser, phone, base, app, "Caesar")
    pompeius = pair_phone(browser, phone, base, app, "Pompeius")
    expect(tv.locator(".pair-code")).to_have_count(0)      # both paired: the codes are gone live
    expect(caesar.locator("#hand li")).to_have_count(6)

    tap_first(caesar, "Discard")
    tap_first(pompeius, "Discard")
    expect(caesar.locator("#hand li")).to_have_count(5)
    caesar.screenshot(path=str(artifacts / "phone-caesar.jpg"), scale="css", type="jpeg", quality=70, full_page=True)

    tap_first(caesar, "Play")
    tap_first(pompeius, "Play")
    expect(tv.locator("#table")).to_contain_text("Turn 1: Caesar")
    expect(caesar.locator("#table")).to_contain_text("Turn 1: Caesar")

    player1 = table.snapshot().public.view["player1"]
    page = caesar if player1 == "Caesar" else pompeius
    # A move: the block first, then where it goes (then the path, when several lead there).
    page.locator("button.block").first.tap()
    expect(page.locator("p.picked")).to_be_visible()
    page.screenshot(path=str(artifacts / "phone.jpg"), scale="css", type="jpeg", quality=60)
    dest = page.locator("button.dest").first
    place = re.sub(r"^to | …$", "", dest.text_content())      # "to Roma" (or "to Roma …": several paths)
    dest.tap()
    if page.locator("button.path").count():
        page.locator("button.path").first.tap()
    expect(tv.locator("ul.locations li", has_text=place + ":")).to_contain_text(player1)
    expect(page.locator("#message")).to_be_hidden()
    assert any(" moves " in x and x.endswith("-" + place) for x in table.journal.lines(table.snapshot().game_id)[1])
    tv.screenshot(path=str(artifacts / "tv.jpg"), scale="css", type="jpeg", quality=55, full_page=True)


def test_a_refused_tap_shows_the_reason_on_the_phone(browser, phone, served):
    base, table, app = served
    caesar = pair_phone(browser, phone, base, app, "Caesar")
    line = tap_first(caesar, "Discard")
    # Once the discard is in the game (the tap's request is asynchronous), a second one is refused.
    expect(caesar.locator("button.choice", has_text=re.compile("^Discard"))).to_have_count(0)
    assert line in table.journal.lines(table.snapshot().game_id)[1]
    # The page still offers nothing else now; a forged post from the page's own context is refused.
    result = caesar.evaluate("""async () => {
        const csrf = document.querySelector('meta[name=csrf-token]').content;
        const r = await fetch('/play/act', {method: 'POST', headers: {'Content-Type': 'application/json',
            'X-CSRFToken': csrf}, body: JSON.stringify({line: 'Caesar discards 3/1'})});
        return [r.status, await r.json()];
    }""")
    assert result[0] == 409 and result[1]["refusal"]["rule"] == "2.1"


def test_a_battle_prompt_is_answered_by_firing_and_every_die_is_shown(browser, phone, served, artifacts):
    base, table, app = served

    def may_fire(s):
        return s.public.view.get("fight") and any(d["kind"] == "battle-turn"
                                             and any(o["type"] == "fire" for o in d["options"])
                                             for side in ("Caesar", "Pompeius") for d in s.side(side).pending)
    assert play_until(table, may_fire, seed=4)
    snap = table.snapshot()
    side = next(d["actor"] for d in snap.public.pending if d["kind"] == "battle-turn")
    page = pair_phone(browser, phone, base, app, side)
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")
    expect(tv.locator("#battle .battle-grid")).to_be_visible()
    before = len(table.journal.lines(snap.game_id)[1])
    page.locator("button.fire").first.tap()
    expect(page.locator("#battle .dice-log li").first).to_be_visible()
    expect(tv.locator("#battle .dice-log li .die").first).to_be_visible()
    lines = table.journal.lines(snap.game_id)[1]
    assert " fires " in lines[before] and lines[before + 1].startswith("Chance rolls")
    faces = lines[before + 1].split()[2:]
    if table.snapshot().public.view.get("fight"):          # the battle goes on: its dice are on the TV
        expect(tv.locator("#battle .dice-log")).to_contain_text(" ".join(faces))
    page.screenshot(path=str(artifacts / "phone-battle.jpg"), scale="css", type="jpeg", quality=60)


def test_at_the_end_every_block_is_revealed_and_the_record_downloads(browser, served, artifacts):
    base, table, app = served
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")
    assert tv.request.get(base + "/record.txt").status == 404
    assert play_until(table, lambda s: s.result is not None, seed=2, steps=4000)    # a short game
    expect(tv.locator("#final")).to_be_visible()
    expect(tv.locator("#final ul li").first).to_be_visible()
    href = tv.locator("#final .downloads a").first.get_attribute("href")
    record = tv.request.get(base + "/" + href)
    assert record.status == 200 and "Chance deals" in record.text()
    tv.screenshot(path=str(artifacts / "tv-final.jpg"), scale="css", type="jpeg", quality=60)
    tv.context.close()      # its keep-alive connection would hold the server open


def test_the_large_text_mode_is_kept_in_the_url_and_across_reloads(browser, served):
    base, _, _ = served
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv.goto(base + "/")
    expect(tv.locator("body")).not_to_have_class(re.compile("large"))
    tv.locator("#large").click()
    expect(tv.locator("body")).to_have_class(re.compile("large"))
    assert "large=1" in tv.url
    tv.goto(base + "/")                           # no parameter: localStorage remembers
    expect(tv.locator("body")).to_have_class(re.compile("large"))
    tv.goto(base + "/?large=0")
    expect(tv.locator("body")).not_to_have_class(re.compile("large"))


def body_size(request) -> int:
    """Bytes of a finished request's response body (the live stream's are not the page's)."""
    response = request.response()
    if response is None or request.url.endswith("/stream") or 300 <= response.status < 400:
        return 0
    return len(response.body())


def test_the_phone_page_loads_only_from_the_table_and_weighs_little(browser, phone, served):
    base, table, app = served
    pair_phone(browser, phone, base, app, "Caesar")
    paired = browser.contexts[-1].storage_state()
    page = browser.new_context(**phone, storage_state=paired).new_page()     # a cold cache
    urls, sizes = [], []
    page.on("request", lambda r: urls.append(r.url))
    page.on("requestfinished", lambda r: sizes.append(body_size(r)))
    page.goto(f"{base}/play/")
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#hand li")).to_have_count(6)
    assert len(urls) >= 4 and all(u.startswith(base + "/") or u.startswith("data:") for u in urls), urls
    assert 20 * 1024 < sum(sizes) <= 150 * 1024, sum(sizes)


def test_the_tables_waiting_line_instructions_messages_and_question_are_shown(browser, phone, served):
    """The table part of a snapshot (waiting, instructions, messages, ask) as the physical table
    sends it: served here by intercepting the page's first state; the answer goes to the session."""
    base, table, app = served
    page = pair_phone(browser, phone, base, app, "Caesar")
    state = page.request.get(base + "/play/state").json()
    state["version"] += 1000            # newer than anything the stream sends during the test
    state["table"] = {
        "waiting": "Caesar: put Legio 8 back in Ravenna", "devices": {"board": "up"}, "dice": None,
        "waiting_text": "Caesar: put Legio 8 back in Ravenna",      # the reader's words (web_ui/i18n/localize.py)
        "instructions": [{"code": "table.put-back", "params": {}, "text": "Put Legio 8 back in Ravenna"},
                         {"code": "table.put-back", "params": {}, "text": "Put Navis 1 back in Massilia"}],
        "messages": [{"code": "movement.road-limit", "rule": "6.2", "params": {},
                      "text": "Two blocks already crossed (6.2)"}],
        "ask": {"kind": "path", "prompt": "Which way did Legio 8 go?", "options": ["via Roma", "via Asculum"]},
    }
    page.route("**/play/state", lambda route: route.fulfill(json=state))
    page.reload()
    expect(page.locator("#status")).to_contain_text("Caesar: put Legio 8 back in Ravenna")
    expect(page.locator("#banner .instruction.current")).to_have_text("Put Legio 8 back in Ravenna")
    expect(page.locator("#banner")).to_contain_text("Two blocks already crossed (6.2)")
    expect(page.locator("#ask h2")).to_have_text("Which way did Legio 8 go?")
    expect(page.locator("#ask button")).to_have_count(2)
    page.locator("#ask button").first.tap()     # posted to /play/answer: this session has no physical table
    expect(page.locator("#message")).to_contain_text("no physical table")
    page.context.close()      # its keep-alive connection would hold the server open

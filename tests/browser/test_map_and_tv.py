"""The drawn map and the TV in Debian's chromium, in a battle with blocks all over the map.

The label-overlap checker works on the rendered boxes (getBoundingClientRect): no location name
(with its stars) overlaps another name, a block, a dot or a road ending, in every language and in
normal and Large text, on a Pixel 7 (the phone's page), an iPad (the phone's page and the TV's)
and a 1920x1080 TV. The blocks are hidden information: the TV draws only backs, Caesar's phone
labels only Caesar's blocks. The TV at 1920x1080 and 1280x720, in English and in Japanese (its
lines run longest there), normal and Large text, with the cards revealed, a battle and the
table's instructions: nothing to scroll, and the map, the turn, the VP, Player 1, every revealed
card, the battle and the instructions inside the screen (and not cut off by their column); the
Large-text button covers neither the banner nor the status line.
Screenshots go to RUBICON_SCREENSHOTS (tests/browser/conftest.py)."""
import pytest
from playwright.sync_api import expect

from tests.web.conftest import play_until
from web_ui.i18n.lang import LANGUAGES
from web_ui.map_layout import CITY_R, END_LEN

# Every overlap among the rendered boxes of the names shown, the blocks, the dots and the road
# endings (the first END_LEN units of each road and sea lane beyond a dot's edge), in CSS pixels.
OVERLAPS = """([cityR, endLen]) => {
  const svg = document.querySelector("svg.map");
  const size = document.body.classList.contains("large") ? "large" : "normal";
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const hit = (a, b) => a[0] < b[2] - 0.01 && b[0] < a[2] - 0.01 && a[1] < b[3] - 0.01 && b[1] < a[3] - 0.01;
  const labels = [...svg.querySelectorAll(`g.labels.${size} g.label`)].map((g) => [g.textContent, box(g)]);
  const blocks = [...svg.querySelectorAll("g.map-layer rect")].map(box);
  const dots = [...svg.querySelectorAll("g.loc circle")].map((c) => [c.closest("g.loc").dataset.name, box(c)]);
  const ctm = svg.getScreenCTM();
  const at = (x, y) => { const p = new DOMPoint(x, y).matrixTransform(ctm); return [p.x, p.y]; };
  const ends = [];
  svg.querySelectorAll("path.road, path.lane").forEach((p) => {
    const n = p.getAttribute("d").match(/-?[\\d.]+/g).map(Number);
    for (let i = 0; i + 3 < n.length; i += 4) {
      const [ax, ay, bx, by] = n.slice(i, i + 4);
      const len = Math.hypot(bx - ax, by - ay), ux = (bx - ax) / len, uy = (by - ay) / len;
      const reach = Math.min(cityR + endLen, len / 2);
      ends.push([at(ax + ux * cityR, ay + uy * cityR), at(ax + ux * reach, ay + uy * reach)]);
      ends.push([at(bx - ux * cityR, by - uy * cityR), at(bx - ux * reach, by - uy * reach)]);
    }
  });
  const crosses = (b, [[x0, y0], [x1, y1]]) => {
    const steps = Math.ceil(Math.hypot(x1 - x0, y1 - y0) * 2) + 1;
    for (let s = 0; s <= steps; s++) {
      const x = x0 + (x1 - x0) * s / steps, y = y0 + (y1 - y0) * s / steps;
      if (x > b[0] + 0.01 && x < b[2] - 0.01 && y > b[1] + 0.01 && y < b[3] - 0.01) return true;
    }
    return false;
  };
  const out = [];
  labels.forEach(([name, b], i) => {
    if (!(b[2] > b[0])) out.push(name + ": not drawn");
    labels.slice(i + 1).forEach(([other, c]) => { if (hit(b, c)) out.push(name + " / label " + other); });
    blocks.forEach((c) => { if (hit(b, c)) out.push(name + " / a block"); });
    dots.forEach(([other, c]) => { if (hit(b, c)) out.push(name + " / dot " + other); });
    ends.forEach((e) => { if (crosses(b, e)) out.push(name + " / a road ending"); });
  });
  return {overlaps: out, labels: labels.length, blocks: blocks.length};
}"""

PARTS_INSIDE = """(names) => {
  const out = {};
  const inside = (r, o) => r.left >= o.left - 0.5 && r.top >= o.top - 0.5 && r.right <= o.right + 0.5
    && r.bottom <= o.bottom + 0.5;
  const screen = {left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight};
  for (const [name, selector, text] of names) {
    const found = [...document.querySelectorAll(selector)].filter((e) => !text || e.textContent.includes(text));
    out[name] = found.length ? found.every((e) => {
      const r = e.getBoundingClientRect();
      const column = e.closest(".tv-board, .tv-panel, header");
      return r.width > 0 && r.height > 0 && inside(r, screen) && (!column || inside(r, column.getBoundingClientRect()));
    }) : "missing";
  }
  return out;
}"""
SCROLL = """() => [document.documentElement.scrollHeight, window.innerHeight,
  document.documentElement.scrollWidth, window.innerWidth]"""
PLAYER_1 = {"en": "Player 1", "ja": "プレイヤー１"}    # the line's words in each language tested


def tv_parts(lang):
    return [("map", "svg.map", None), ("turn", "#status", None), ("VP", "#table .vp", None),
            ("Player 1", "#table p", PLAYER_1[lang]), ("cards", "#table .revealed", None), ("battle", "#battle", None),
            ("instructions", "#banner", None)]


def in_battle_with_cards(snap):
    return bool(snap.public.view.get("fight")) and len(snap.public.view.get("revealed", [])) >= 3


@pytest.fixture
def battle(served):
    base, table, app = served
    assert play_until(table, in_battle_with_cards, seed=4, steps=4000)
    return served


def paired_state(browser, base, app, side):
    context = browser.new_context()
    page = context.new_page()
    code = app.extensions["rubicon.pairings"].code(side)
    page.goto(f"{base}/pair/{side}?code={code}")
    page.get_by_role("button", name="Pair this device").click()
    expect(page.locator("#conn")).to_have_text("live")
    state = context.storage_state()
    context.close()
    return state


def overlaps_in(page, large):
    page.evaluate("(on) => { document.body.classList.toggle('large', on); "
                  "document.documentElement.classList.toggle('large', on); }", large)
    return page.evaluate(OVERLAPS, [CITY_R, END_LEN])


def test_no_map_label_overlaps_in_any_language_size_or_screen(browser, playwright, battle, artifacts):
    base, table, app = battle
    caesar = paired_state(browser, base, app, "Caesar")
    ipad = playwright.devices["iPad (gen 7)"]
    screens = [("pixel7", playwright.devices["Pixel 7"], "/play/"), ("ipad", ipad, "/play/"), ("ipad", ipad, "/"),
               ("tv", {"viewport": {"width": 1920, "height": 1080}}, "/")]
    found, figures = {}, {}
    for lang in LANGUAGES:
        for name, device, path in screens:
            context = browser.new_context(**device, storage_state=caesar, extra_http_headers={"Accept-Language": lang})
            page = context.new_page()
            page.goto(base + path)
            expect(page.locator("svg.map g.map-layer .block").first).to_be_attached()
            assert page.locator("html").get_attribute("lang") == lang
            for large in (False, True):
                result = overlaps_in(page, large)
                key = f"{lang} {name}{path} {'large' if large else 'normal'}"
                figures[key] = len(result["overlaps"])
                assert result["labels"] > 60 and result["blocks"] > 10, key
                if result["overlaps"]:
                    found[key] = result["overlaps"]
            if lang == "en":
                page.screenshot(path=str(artifacts / f"map-{name}{path.strip('/').replace('/', '-')}.jpg"),
                                type="jpeg", quality=60)
            context.close()
    print("label overlaps per language, screen and size:", figures)
    assert found == {}


def test_the_tv_shows_only_backs_and_a_phone_labels_only_its_own_blocks(browser, playwright, battle):
    base, table, app = battle
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(base + "/")
    expect(tv.locator("svg.map g.map-layer .block").first).to_be_attached()
    assert tv.locator("svg.map g.map-layer .block:not(.back)").count() == 0
    assert tv.locator("svg.map g.map-layer text.blabel, svg.map g.map-layer text.strength").count() == 0
    caesar = paired_state(browser, base, app, "Caesar")
    phone = browser.new_context(**playwright.devices["Pixel 7"], storage_state=caesar)
    page = phone.new_page()
    page.goto(base + "/play/")
    expect(page.locator("svg.map g.map-layer .block.caesar text.blabel").first).to_be_attached()
    assert page.locator("svg.map g.map-layer .block.pompeius:not(.back)").count() == 0
    assert page.locator("svg.map g.map-layer .block.pompeius text").count() == 0
    assert page.locator("svg.map g.map-layer .block.pompeius").count() > 0
    tv.context.close()
    phone.close()


@pytest.mark.parametrize("width,height,lang", [(1920, 1080, "en"), (1280, 720, "en"), (1920, 1080, "ja"),
                                               (1280, 720, "ja")])
def test_the_tv_shows_everything_at_once_with_nothing_to_scroll(browser, battle, artifacts, width, height, lang):
    """Both phones paired (no pairing codes), and the physical table's instructions and a message
    (served by intercepting the page's state, as in test_phones). Japanese: its lines run longest
    on the TV."""
    base, table, app = battle
    for large in (0, 1):
        page = browser.new_context(viewport={"width": width, "height": height},
                                   extra_http_headers={"Accept-Language": lang}).new_page()
        state = page.request.get(base + "/state").json()
        state["version"] += 1000
        state["pairing"], state["waiting"] = {}, []
        state["table"] = {
            "waiting": "x", "waiting_text": state["table"]["waiting_text"] if state.get("table") else None,
            "devices": {"board": "up"}, "dice": {"count": 3, "block": "Legio 8"},
            "instructions": [{"code": "table.put-back", "params": {}, "text": "Put Legio 8 back in Ravenna"},
                             {"code": "table.put-back", "params": {}, "text": "Put Navis 1 back in Massilia"}],
            "messages": [{"code": "movement.road-limit", "rule": "6.2", "params": {},
                          "text": "Two blocks already crossed (6.2)"}]}
        page.route("**/state", lambda route, _request, s=state: route.fulfill(json=s))
        page.goto(f"{base}/?large={large}")
        expect(page.locator("#banner .instruction.current")).to_have_text("Put Legio 8 back in Ravenna")
        expect(page.locator("#battle .battle-grid")).to_be_visible()
        revealed = len(state["view"]["revealed"])
        assert revealed >= 3 and page.locator("#table .revealed").count() == revealed
        what = f"{width}x{height} {lang} {'large' if large else 'normal'}"
        sh, ih, sw, iw = page.evaluate(SCROLL)
        assert sh <= ih and sw <= iw, (what, sh, ih, sw, iw)
        parts = page.evaluate(PARTS_INSIDE, tv_parts(lang))
        assert parts == {name: True for name, _, _ in tv_parts(lang)}, (what, parts)
        button = page.locator("#large").bounding_box()
        for other in ("#banner", "#status"):
            b = page.locator(other).bounding_box()
            assert (button["x"] + button["width"] <= b["x"] or b["x"] + b["width"] <= button["x"]
                    or button["y"] + button["height"] <= b["y"] or b["y"] + b["height"] <= button["y"]), (what, other)
        page.screenshot(path=str(artifacts / f"tv-{width}x{height}-{lang}{'-large' if large else ''}.jpg"),
                        type="jpeg", quality=60)
        page.context.close()

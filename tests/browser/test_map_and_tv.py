"""The drawn map and the TV in Debian's chromium, in a battle with blocks all over the map.

On the rendered boxes (getBoundingClientRect): every place's name (with its stars) and every
stack of blocks is nearer its own place's dot than any other dot, and no name overlaps another
name, a block, a dot or a road ending (but those the layout could not avoid), in every language
and in normal and Large text, on a Pixel 7 (the phone's page), an iPad (the phone's page and the
TV's) and TVs at 1280x720 and 1920x1080; the figures (worst margins in CSS px) are printed. The
blocks are hidden information: the TV draws only backs, Caesar's phone labels only Caesar's
blocks, and lists them under its map with label and strength at 12 CSS px or more. The TV at
1920x1080 and 1280x720, in English and in Japanese (its lines run longest there), normal and
Large text, with the cards revealed, a battle and the table's instructions: nothing to scroll,
the map, the turn, the VP, Player 1, every revealed card, the battle and the instructions inside
the screen (and not cut off by their column), the Large-text button covering neither the banner
nor the status line; the names' size (16 CSS px or more at 1920x1080, in both text sizes),
nothing left blank in the map's column and no log entry cut at its bottom.
Screenshots go to RUBICON_SCREENSHOTS (tests/browser/conftest.py)."""
import re

import pytest
from playwright.sync_api import expect

from engine import BOARD
from tests.web.conftest import play_until
from web_ui.i18n.lang import LANGUAGES
from web_ui.map_layout import CITY_R, END_LEN, layout

# Every overlap among the rendered boxes of the names shown, the blocks, the dots and the road
# endings (the first END_LEN units of each road and sea lane beyond a dot's edge), in CSS pixels.
OVERLAPS = """([cityR, endLen]) => {
  const svg = document.querySelector("svg.map");
  const size = getComputedStyle(svg.querySelector("g.labels.large")).display === "none" ? "normal" : "large";
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
  return {overlaps: out, labels: labels.length, blocks: blocks.length, size};
}"""

# Each name shown (with its stars) and each stack of blocks drawn: the distance in CSS pixels from
# its rendered box to its own place's dot (the dot's centre) and to the nearest other dot; and the
# size the names are drawn at (CSS px).
NEAREST = """() => {
  const svg = document.querySelector("svg.map");
  const size = getComputedStyle(svg.querySelector("g.labels.large")).display === "none" ? "normal" : "large";
  const centre = (e) => {
    const r = e.getBoundingClientRect();
    return [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
  };
  const dots = [...svg.querySelectorAll("g.loc")].map((g) => [g.dataset.name, centre(g.querySelector("circle"))]);
  const distance = (r, [x, y]) => Math.hypot(Math.max(r.left - x, 0, x - r.right),
    Math.max(r.top - y, 0, y - r.bottom));
  const margin = (name, r) => {
    const own = dots.find(([n]) => n === name);
    const [other, d] = dots.filter(([n]) => n !== name).map(([n, c]) => [n, distance(r, c)])
      .reduce((a, b) => (b[1] < a[1] ? b : a));
    return {name, other, margin: d - distance(r, own[1])};
  };
  const labels = [...svg.querySelectorAll(`g.labels.${size} g.label`)].map((g) =>
    margin(g.querySelector("text").textContent, g.getBoundingClientRect()));
  const stacks = [...svg.querySelectorAll("g.map-layer g.stack")].map((g) => {
    const r = [...g.querySelectorAll("g.block rect")].map((e) => e.getBoundingClientRect());
    const box = {left: Math.min(...r.map((b) => b.left)), top: Math.min(...r.map((b) => b.top)),
                 right: Math.max(...r.map((b) => b.right)), bottom: Math.max(...r.map((b) => b.bottom))};
    return margin(g.dataset.loc, box);
  });
  const scale = svg.getScreenCTM().a;
  const px = Math.min(...[...svg.querySelectorAll(`g.labels.${size} text`)].map((e) =>
    parseFloat(e.getAttribute("font-size")) * scale));
  return {labels, stacks, px};
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
# The TV's room: the size its names are drawn at (CSS px), the map's share of the screen, the
# height left blank in the map's column (under and between the map, the battle and the log), and
# any log entry shown cut at the bottom of its box.
TV_ROOM = """() => {
  const svg = document.querySelector("svg.map");
  const shown = [...svg.querySelectorAll("g.labels")].find((g) => getComputedStyle(g).display !== "none");
  const names = Math.min(...[...shown.querySelectorAll("text")].map((e) =>
    parseFloat(e.getAttribute("font-size")) * svg.getScreenCTM().a));
  const map = svg.getBoundingClientRect();
  const column = document.querySelector(".tv-board");
  const parts = [...column.children].filter((e) => !e.hidden).map((e) => e.getBoundingClientRect());
  const used = parts.reduce((sum, r) => sum + r.height, 0);
  const log = document.querySelector(".log-box").getBoundingClientRect();
  const cut = [...document.querySelectorAll("#log li")].filter((li) => !li.hidden)
    .filter((li) => li.getBoundingClientRect().bottom > log.bottom + 0.5).map((li) => li.textContent);
  const gaps = (parts.length - 1) * parseFloat(getComputedStyle(column).rowGap || "0");
  const share = Math.round(100 * map.width * map.height / (innerWidth * innerHeight));
  return {names: Math.round(names * 10) / 10, map: share,
    blank: Math.round(column.getBoundingClientRect().height - used - gaps), cut};
}"""
# Two frames drawn: a ResizeObserver's callbacks (the log's fit to whole entries) have run.
NEXT_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
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


def test_every_map_name_overlaps_nothing_and_stands_nearest_its_own_place(browser, playwright, battle, artifacts):
    """Every name (with its stars) is nearer its own place's dot than any other dot, and every
    stack of blocks is nearer its own place's dot, on the rendered boxes: in every language, in
    normal and Large text, on a Pixel 7, an iPad (phone and TV pages) and a TV at 1280x720 and
    1920x1080; and no name overlaps another, a block, a dot or a road ending the layout did
    not have to cross. The figures (worst margin in CSS pixels, counts) are printed."""
    base, table, app = battle
    caesar = paired_state(browser, base, app, "Caesar")
    ipad = playwright.devices["iPad (gen 7)"]
    screens = [("pixel7", playwright.devices["Pixel 7"], "/play/"), ("ipad", ipad, "/play/"), ("ipad", ipad, "/"),
               ("tv720", {"viewport": {"width": 1280, "height": 720}}, "/"),
               ("tv", {"viewport": {"width": 1920, "height": 1080}}, "/")]
    crossing = {size: {BOARD.loc_names[lab.loc] for lab in labs if any(s.crosses(lab.box) for s in layout().road_ends)}
                for size, labs in layout().labels.items()}
    found, wrong, figures = {}, {}, {}
    for lang in LANGUAGES:
        for name, device, path in screens:
            context = browser.new_context(**device, storage_state=caesar, extra_http_headers={"Accept-Language": lang})
            page = context.new_page()
            page.goto(base + path)
            expect(page.locator("svg.map g.map-layer .block").first).to_be_attached()
            assert page.locator("html").get_attribute("lang") == lang
            for large in (False, True):
                result = overlaps_in(page, large)
                size = result["size"]            # the names shown: the TV's are always large
                key = f"{lang} {name}{path} {'large' if large else 'normal'}"
                overlaps = [o for o in result["overlaps"]
                            if not (o.endswith("/ a road ending") and o.split(" / ")[0] in crossing[size])]
                assert result["labels"] > 60 and result["blocks"] > 10, key
                if overlaps:
                    found[key] = overlaps
                near = page.evaluate(NEAREST)
                assert len(near["labels"]) == BOARD.n_locs and len(near["stacks"]) > 5, key
                bad = [f"{m['name']} nearer {m['other']}" for m in near["labels"] + near["stacks"] if m["margin"] <= 0]
                if bad:
                    wrong[key] = bad
                figures[key] = (round(min(m["margin"] for m in near["labels"]), 1),
                                round(min(m["margin"] for m in near["stacks"]), 1), len(bad), len(overlaps),
                                round(near["px"], 1))
            if lang == "en":
                page.screenshot(path=str(artifacts / f"map-{name}{path.strip('/').replace('/', '-')}.jpg"),
                                type="jpeg", quality=60)
            context.close()
    print("worst margin of a name and of a stack (CSS px), names or stacks nearer another place, overlaps, "
          "the names' size (CSS px):")
    for key, figure in figures.items():
        print(f"  {key}: {figure}")
    assert wrong == {} and found == {}


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
    figures = {}
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
        page.evaluate(NEXT_FRAMES)      # the log's whole-lines fit runs when its box is laid out anew
        room = page.evaluate(TV_ROOM)
        figures[what] = room
        assert room["cut"] == [] and room["blank"] < 0.02 * height, (what, room)
        if width >= 1920:
            assert room["names"] >= 16, (what, room)
        button = page.locator("#large").bounding_box()
        for other in ("#banner", "#status"):
            b = page.locator(other).bounding_box()
            assert (button["x"] + button["width"] <= b["x"] or b["x"] + b["width"] <= button["x"]
                    or button["y"] + button["height"] <= b["y"] or b["y"] + b["height"] <= button["y"]), (what, other)
        page.screenshot(path=str(artifacts / f"tv-{width}x{height}-{lang}{'-large' if large else ''}.jpg"),
                        type="jpeg", quality=60)
        page.context.close()
    print("the TV: names' size (CSS px), the map's share of the screen, blank under the map's column (px):", figures)


# Every own block listed beside the phone's map: its label's and strength's text, the font size
# they are drawn at and the height of their rendered boxes (CSS px); and how far the list starts
# below the map.
OWN_BLOCKS = """() => {
  const size = (e) => [parseFloat(getComputedStyle(e).fontSize), e.getBoundingClientRect().height];
  const chips = [...document.querySelectorAll("#blocks .own-loc")].flatMap((p) =>
    [...p.querySelectorAll(".chip")].map((c) => ({
      location: p.querySelector("strong").textContent, label: c.querySelector(".blabel").textContent,
      strength: c.querySelector(".strength").textContent, sizes: [...size(c.querySelector(".blabel")),
        ...size(c.querySelector(".strength"))]})));
  const gap = document.querySelector("#blocks").getBoundingClientRect().top
    - document.querySelector("section .map-box").getBoundingClientRect().bottom;
  return {chips, gap};
}"""


def test_a_phone_lists_its_blocks_beside_the_map_with_label_and_strength_read_at_arms_length(
        browser, playwright, battle, artifacts):
    """On a Pixel 7, in every language, normal and Large text: each of the side's blocks, and no
    other, is listed right under the map at its place, its label and its strength drawn at 12
    CSS px or more (the blocks on the map itself are a few pixels wide on a phone)."""
    base, table, app = battle
    caesar = paired_state(browser, base, app, "Caesar")
    figures = {}
    for lang in LANGUAGES:
        context = browser.new_context(**playwright.devices["Pixel 7"], storage_state=caesar,
                                      extra_http_headers={"Accept-Language": lang})
        page = context.new_page()
        page.goto(base + "/play/")
        own = page.request.get(base + "/play/state").json()["view"]["own_blocks"]
        expect(page.locator("#blocks .chip")).to_have_count(len(own))
        for large in (False, True):
            page.evaluate("(on) => { document.body.classList.toggle('large', on); "
                          "document.documentElement.classList.toggle('large', on); }", large)
            listed = page.evaluate(OWN_BLOCKS)
            said = sorted((c["location"], c["label"], c["strength"]) for c in listed["chips"])
            assert said == sorted((b["location"], re.sub(r"^[CP] ", "", b["block"]), str(b["strength"])) for b in own)
            smallest = min(min(c["sizes"]) for c in listed["chips"])
            figures[f"{lang} {'large' if large else 'normal'}"] = round(smallest, 1)
            assert smallest >= 12 and 0 <= listed["gap"] < 40, (lang, large, smallest, listed["gap"])
        if lang == "en":
            page.locator("#blocks").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / "phone-own-blocks.jpg"), type="jpeg", quality=60)
        context.close()
    print("smallest label or strength beside the phone's map (CSS px):", figures)

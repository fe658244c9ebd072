"""The virtual table's map read at arm's length: at a contested place (both sides' blocks) every
block drawn is a square at least 15 CSS px across, measured from the rendered boxes in chromium,
on a tablet and a phone. The place is made contested by serving the page a state with blocks of
both sides moved there (its version ahead of the live stream's, as in test_map_and_tv)."""
import pytest
from playwright.sync_api import expect

from .test_virtual_table import DEVICES, open_virtual, table  # noqa: F401  (the fixture)

GLYPHS = """(place) => {
  const g = [...document.querySelectorAll("svg.map g.loc")].find((e) => e.dataset.name === place);
  const c = g.querySelector("circle.hit").getBoundingClientRect();
  const near = (r) => Math.abs((r.left + r.right) / 2 - (c.left + c.right) / 2) < c.width
    && Math.abs((r.top + r.bottom) / 2 - (c.top + c.bottom) / 2) < c.height;
  return [...document.querySelectorAll("svg.map g.vblocks .glyph rect")].map((e) => e.getBoundingClientRect())
    .filter(near).map((r) => Math.round(Math.min(r.width, r.height) * 10) / 10);
}"""


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("counts", [(1, 1), (2, 2), (4, 3)])
def test_blocks_at_a_contested_place_are_not_specks(browser, playwright, table, device, counts, artifacts):  # noqa: F811
    base, session, virtual, app = table
    page = open_virtual(browser, playwright, table, "Caesar", device)
    state = page.request.get(base + "/virtual/state").json()
    place = "Roma"
    mine = [b for b in state["blocks"] if b.get("label") and b["side"] == "Caesar"][:counts[0]]
    theirs = [b for b in state["blocks"] if b["side"] == "Pompeius"][:counts[1]]
    assert len(mine) == counts[0] and len(theirs) == counts[1]
    for b in state["blocks"]:
        if b["at"] == place:
            b["at"] = "hand"
    for b in mine + theirs:
        b["at"] = place
    state["version"] += 1000
    page.route("**/virtual/state", lambda route, _request: route.fulfill(json=state))
    page.reload()
    expect(page.locator("svg.map g.vblocks .glyph").first).to_be_attached()
    sizes = page.evaluate(GLYPHS, place)
    print(f"{device} {counts}: squares at a contested place (CSS px): {sizes}")
    assert sizes and min(sizes) >= 15, sizes
    if counts == (2, 2):
        page.locator("svg.map g.loc[data-name='Roma']").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"virtual-contested-{device.replace(' ', '-')}.jpg"), type="jpeg",
                        quality=60)
    page.context.close()

"""The Language button on the tablet's virtual table covers nothing: the panel
beside the map (the hint first) starts below it, so neither the hint nor anything scrolled up in the
panel ever passes under it."""
from playwright.sync_api import expect

from .test_messages_end import virtual_table  # noqa: F401 (the fixture)
from .test_phones import pair_phone

MEASURE = """() => {
  const button = document.querySelector('.lang-menu summary').getBoundingClientRect();
  const panel = document.querySelector('.vt-panel').getBoundingClientRect();
  const hint = document.querySelector('#hint').getBoundingClientRect();
  return {button: button.bottom, panel: panel.top, hint: hint.top, left: button.left, right: panel.right};
}"""


def test_the_language_button_is_over_no_part_of_the_tablets_panel(browser, playwright, virtual_table):  # noqa: F811
    base, _, app = virtual_table
    tablet = pair_phone(browser, playwright.devices["iPad Mini landscape"], base, app, "Caesar")
    tablet.goto(base + "/virtual/")
    expect(tablet.locator("#conn")).to_have_text("live")
    at_top = tablet.evaluate(MEASURE)
    assert at_top["hint"] >= at_top["button"] and at_top["panel"] >= at_top["button"], at_top
    tablet.evaluate("document.querySelector('.vt-panel').scrollTop = 30")     # the panel scrolled a little
    scrolled = tablet.evaluate(MEASURE)
    assert scrolled["panel"] >= scrolled["button"], scrolled      # what scrolls up is clipped below the button

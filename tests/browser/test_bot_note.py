"""The Pi's explained turn on the TV and on the human's phone, in each reader's
language, naming none of the Pi's blocks."""
from playwright.sync_api import expect

from rubicon.table.bot_player import BotPlayer

from .test_phones import pair_phone, tap_first


def test_the_tv_and_the_phone_show_what_the_pi_did(browser, phone, served):
    base, table, app = served
    bot = BotPlayer(table, "Pompeius", level="medium", seed=3)
    bot.start()
    try:
        tv = browser.new_context(viewport={"width": 1280, "height": 720}, locale="es-ES").new_page()
        tv.goto(base + "/")
        caesar = pair_phone(browser, phone, base, app, "Caesar")
        tap_first(caesar, "Discard")
        tap_first(caesar, "Play")
        expect(tv.locator("#table")).to_contain_text("Turno 1")    # both cards revealed: the turn began
        note = tv.locator("#bot")
        expect(note).to_be_visible()
        expect(note.locator("h2")).to_contain_text("(la Pi), su último turno")
        expect(caesar.locator("#bot h2")).to_contain_text("(the Pi), its last turn")
        expect(caesar.locator("#bot li").first).to_be_visible()
        for page in (tv, caesar):
            text = page.locator("#bot").inner_text()
            assert "Legio" not in text and "Navis" not in text, text   # its blocks stay hidden
    finally:
        bot.stop()

"""The table served as `rubicon run` serves it, in-process, for the browser tests of pairing and
restarts (kept apart from conftest.py's `served`: these tables are stopped and started again on
the same journal and port)."""
import threading

from playwright.sync_api import expect

from rubicon.journal import Journal
from rubicon.table.session import RandomChance, TableSession
from web_ui import create_app
from web_ui.server import make_server, stop_server


class Table:
    """`rubicon run` in-process: journal, session, app and waitress on 127.0.0.1:`port`."""

    def __init__(self, path, port=0):
        self.journal = Journal(path)
        self.session = TableSession(self.journal, chance=RandomChance(3))
        self.session.start()
        self.app = create_app(self.session)
        self.server = make_server(self.app, host="127.0.0.1", port=port, threads=12)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.port = self.server.effective_port
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.session.stop()          # first: the open live streams end, so waitress's threads are free
        assert stop_server(self.server, self.thread)
        self.journal.close()


def pair_phone(browser, phone, table, side, link=None):
    """A new browser (phone-sized) paired with `side` from `link` (default: the code the TV shows)."""
    page = browser.new_context(**phone).new_page()
    code = table.app.extensions["rubicon.pairings"].code(side)
    page.goto(link or f"{table.base}/pair/{side}?code={code}")
    page.get_by_role("button", name="Pair this device").tap()
    expect(page.locator("#conn")).to_have_text("live")
    return page


def make_screen(page, base, app):
    """Pair `page` as the table's screen with the link `rubicon run` prints; it lands on the TV's page."""
    response = page.goto(f"{base}/pair/screen?code={app.extensions['rubicon.pairings'].screen_code().code}")
    page.locator("main.pair button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    return response


def table_screen(browser, base, app, **context):
    """A TV-sized browser paired as the table's screen, on its page."""
    page = browser.new_context(viewport={"width": 1280, "height": 720}, **context).new_page()
    make_screen(page, base, app)
    expect(page.locator("#conn")).to_have_text("live")
    return page

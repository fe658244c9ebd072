"""Browser tests: Playwright driving Debian's chromium (`.ci/run` installs it; Playwright's own
browser download cannot work here), phone-sized touch viewports, against the app served by
waitress on a real socket."""
import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.session import TableSession
from web_ui import create_app
from web_ui.map_layout import layout
from web_ui.server import make_server, stop_server

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
# Screenshots the tests take: kept by CI as artifacts (RUBICON_SCREENSHOTS), never committed.
ARTIFACTS = Path(os.environ.get("RUBICON_SCREENSHOTS") or os.environ.get("RUBICON_ARTIFACTS")
                 or Path(tempfile.gettempdir()) / "rubicon-screenshots")


@pytest.fixture(scope="session", autouse=True)
def map_laid_out():
    """The map's layout is read once per process (a shipped file, web_ui/map_layout_file.py): done
    first here all the same, so no test's first page waits for it under a browser's timeout."""
    layout()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture
def phone(playwright):
    return playwright.devices["Pixel 7"]


@pytest.fixture
def served(tmp_path):
    table = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3))
    table.start()
    app = create_app(table)
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table, app
    table.stop()        # first: the open live streams end within a heartbeat, so the server can close
    assert stop_server(server, thread)


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS

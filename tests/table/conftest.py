"""The session most table tests start from: seeded chance (tests/table/driver.py's SEED), a fresh
journal, started and stopped around the test."""
import pytest

from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.session import TableSession

from .driver import SEED


@pytest.fixture
def session(tmp_path):
    s = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(SEED))
    s.start()
    yield s
    s.stop()

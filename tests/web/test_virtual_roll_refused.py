"""A roll of the virtual tray the table refuses (no dice are wanted now) is answered as refused on
the page that rolled — not `200 ok` with faces the journal does not hold."""
from rubicon.config import Config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import SeededChance
from web_ui import create_app

from .conftest import csrf_of, pair


def test_a_roll_the_table_refuses_is_refused_on_the_page_that_rolled(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    table = assemble(Config(), journal, SeededChance(5))
    table.start()
    try:
        app = create_app(table.session, {"TESTING": True}, virtual=table.virtual)
        caesar = pair(app, "Caesar")
        before = table.session.snapshot()
        assert before.public.table.get("dice") is None        # the card phase: no die is wanted
        resp = caesar.post("/virtual/roll", json={"count": 2}, headers={"X-CSRFToken": csrf_of(caesar, "/virtual/")})
        body = resp.get_json()
        assert resp.status_code == 409 and body["ok"] is False and "faces" not in body
        assert body["refusal"]["code"].startswith("dice.") and body["refusal"]["text"]
        assert journal.lines(before.game_id)[1] == journal.lines(before.game_id)[1][:before.lines]
        assert table.session.snapshot().lines == before.lines
    finally:
        table.stop()
        journal.close()

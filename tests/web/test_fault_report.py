"""What a recovery found is said on the TV and both phones until a player dismisses it on his
phone — not merely until the next action, and not forgotten by a restart (a real SIGKILL of
`rubicon run` right after the recovery) or by `--new-game`."""
from __future__ import annotations

import json
import re
import signal
import urllib.request
from pathlib import Path

from rubicon.journal import Journal
from rubicon.table.session import RandomChance, TableSession
from tests.table.driver import SEED, play
from tests.table.test_journal_faults import _lose_wal, as_killed
from tests.test_run_cli import start, stop
from web_ui import create_app

from .conftest import csrf_of, pair, play_until


def _damaged(state: Path, lines: int = 8) -> None:
    """A real game of `lines` lines whose -wal (all of them) is lost: the copy holds them."""
    state.mkdir(exist_ok=True)
    journal = Journal(state / "journal.sqlite3")
    session = TableSession(journal, chance=RandomChance(SEED))
    session.start()
    journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    play(session, 400, max_lines=lines)
    assert session.snapshot().lines == lines
    session.stop()
    as_killed(journal)
    _lose_wal(state / "journal.sqlite3")


def _said(state_json: dict) -> list[dict]:
    return [m for m in (state_json.get("table") or {}).get("messages", []) if m["code"].startswith("journal.")]


def test_the_tv_and_both_phones_say_it_through_play_until_a_player_dismisses_it(tmp_path):
    _damaged(tmp_path)
    session = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3))
    session.start()
    try:
        app = create_app(session, {"TESTING": True})
        caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
        tv = app.test_client()
        start_lines = session.snapshot().lines
        assert play_until(session, lambda s: s.lines >= start_lines + 3)   # play goes on: still said
        views = [tv.get("/state", headers={"Accept-Language": "pl"}).get_json(),
                 caesar.get("/play/state").get_json(), pompeius.get("/play/state").get_json()]
        for view in views:
            (said,) = _said(view)
            assert said["code"] == "journal.recovered" and said["params"]["lines"] == 8 and said["dismiss"] == 1
        assert "journal" in views[0]["table"]["messages"][-1]["text"] or views[0]["table"]["messages"]
        token = csrf_of(pompeius, "/play/")
        assert "data-dismiss=" in pompeius.get("/play/").get_data(as_text=True)
        refused = pompeius.post("/play/dismiss", json={"fault": 7}, headers={"X-CSRFToken": token})
        assert refused.status_code == 409 and refused.get_json()["refusal"]["code"] == "journal.no-fault"
        assert tv.post("/play/dismiss", json={"fault": 1}).status_code in (400, 401, 403)   # not a player
        done = pompeius.post("/play/dismiss", json={"fault": 1}, headers={"X-CSRFToken": token})
        assert done.status_code == 200, done.get_json()
        assert not _said(tv.get("/state").get_json()) and not _said(caesar.get("/play/state").get_json())
    finally:
        session.stop()
        session.journal.close()
    again = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3))
    again.start()
    try:
        assert not [m for m in again.snapshot().public.table["messages"] if m["code"].startswith("journal.")]
    finally:
        again.stop()
        again.journal.close()


def _tv_state(banner: str) -> dict:
    base = re.search(r"the table \(TV\):\s+(\S+)", banner).group(1)
    return json.loads(urllib.request.urlopen(base + "state", timeout=30).read().decode())


def test_a_real_kill_after_the_recovery_and_a_new_game_keep_it_said_on_the_tv(tmp_path):
    _damaged(tmp_path, 6)
    proc, banner = start(tmp_path)
    assert "was damaged" in banner
    proc.send_signal(signal.SIGKILL)        # killed once the recovery is done, before anyone read it
    proc.communicate(timeout=60)
    proc, banner = start(tmp_path, "--new-game")
    try:
        assert "not yet dismissed" in banner
        (said,) = _said(_tv_state(banner))
        assert said["params"]["lines"] == 6
    finally:
        code, _, err = stop(proc)
    assert code == 0, err


def test_new_game_on_a_journal_nothing_of_which_is_verified_says_so_once_and_begins_one_game(tmp_path):
    (tmp_path / "journal.sqlite3").write_bytes(b"not a journal" * 400)
    proc, banner = start(tmp_path, "--new-game")
    try:
        assert "nothing of it could be verified" in banner and "longest verified record is resumed" not in banner
        (said,) = _said(_tv_state(banner))
        assert said["code"] == "journal.recovered-nothing"
    finally:
        code, _, err = stop(proc)
    assert code == 0, err
    j = Journal(tmp_path / "journal.sqlite3")
    try:
        assert [g.id for g in j.games()] == [1]
    finally:
        j.close()

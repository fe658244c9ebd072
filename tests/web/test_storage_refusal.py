"""A full disk as the phones and the TV see it: the phone's action is refused with `storage.full`
and a sentence in its language (not "refused (http.500)"), the TV shows the same message, nothing
changes, and the same action goes through once there is room again."""
from rubicon.journal import Journal
from rubicon.table.session import RandomChance, TableSession
from tests.table.test_storage_trouble import _fill, _storage_said, small_disk  # noqa: F401  (a fixture)
from web_ui import create_app

from .conftest import csrf_of, pair


def test_a_full_disk_is_said_on_the_phone_in_its_language_and_on_the_tv(small_disk):  # noqa: F811
    session = TableSession(Journal(small_disk / "journal.sqlite3"), chance=RandomChance(3))
    session.storage_retry_s = 0.1
    session.start()
    try:
        app = create_app(session, {"TESTING": True})
        before = session.snapshot()
        side = next(s for s in before.waiting_for if s != "Chance")
        line = before.side(side).options()[0]["line"]
        phone = pair(app, side)
        token = csrf_of(phone, "/play/")
        filler = _fill(small_disk)
        resp = phone.post("/play/act", json={"line": line}, headers={"X-CSRFToken": token, "Accept-Language": "es"})
        assert resp.status_code == 409
        refusal = resp.get_json()["refusal"]
        assert refusal["code"] == "storage.full" and "está lleno" in refusal["text"]
        tv = app.test_client().get("/state", headers={"Accept-Language": "sv"}).get_json()
        said = [m for m in tv["table"]["messages"] if m["code"] == "storage.full"]
        assert said and "disken med partiets journal är full" in said[0]["text"]
        assert session.snapshot().lines == before.lines
        filler.unlink()
        snap = session.snapshot()
        while _storage_said(snap):
            snap = session.wait_for_change(snap.version, timeout=60)
        resp = phone.post("/play/act", json={"line": line}, headers={"X-CSRFToken": token})
        assert resp.status_code == 200, resp.get_json()
        assert session.snapshot().lines > before.lines
    finally:
        session.stop()
        session.journal.close()

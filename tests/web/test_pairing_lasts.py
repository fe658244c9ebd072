"""Pairings that last and are renewed only with someone of that side at the table:
kept hashed in the journal's database across a restart, one-time expiring codes shown on the
table's screen only, a second device only with the consent of a paired one (an invite, or an ask
whose number it approves), a new code for a paired side from `rubicon pair` on the Pi, and
requests naming another Host refused (DNS rebinding)."""
import re
import sqlite3

from rubicon.cli import main as rubicon
from rubicon.journal import Journal, StorageError
from rubicon.pairings_store import CODE_TTL_S
from rubicon.table.session import RandomChance, TableSession
from web_ui import create_app

from .conftest import csrf_of, pair, screen


def post_json(client, path, body=None, page="/"):
    return client.post(path, json=body or {}, headers={"X-CSRFToken": csrf_of(client, page)})


def redeem(app, side, code):
    """A fresh browser opening `code`'s link and confirming: (client, response)."""
    client = app.test_client()
    page = client.get(f"/pair/{side}?code={code}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client, client.post(f"/pair/{side}", data={"code": code, "csrf_token": token})


class Clock:
    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


def test_a_code_works_once(app):
    code = app.extensions["rubicon.pairings"].code("Pompeius")
    first, resp = redeem(app, "Pompeius", code)
    assert resp.status_code == 302 and first.get("/play/state").status_code == 200
    second, resp = redeem(app, "Pompeius", code)
    assert resp.status_code == 403 and "works once and expires" in resp.get_data(as_text=True)
    assert second.get("/play/state").status_code == 401


def test_a_code_expires_and_the_tv_then_shows_a_fresh_one(app):
    pairings = app.extensions["rubicon.pairings"]
    clock = Clock(pairings.clock())
    pairings.clock = clock
    old = pairings.code("Caesar")
    tv = screen(app)
    assert tv.get("/state").get_json()["pairing"]["Caesar"]["expires_in"] == round(CODE_TTL_S)
    clock.now += CODE_TTL_S + 1
    client, resp = redeem(app, "Caesar", old)
    assert resp.status_code == 403 and client.get("/play/state").status_code == 401
    fresh = tv.get("/state").get_json()["pairing"]["Caesar"]["link"]
    assert old not in fresh
    _, resp = redeem(app, "Caesar", fresh.split("code=")[1])
    assert resp.status_code == 302


def test_a_code_of_one_side_does_not_pair_the_other(app):
    code = app.extensions["rubicon.pairings"].code("Caesar")
    client, resp = redeem(app, "Pompeius", code)
    assert resp.status_code == 403 and client.get("/play/state").status_code == 401


def test_the_pairing_outlasts_a_restart_and_is_kept_hashed(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    first = TableSession(journal, chance=RandomChance(3))
    first.start()
    app = create_app(first, {"TESTING": True})
    phone = pair(app, "Caesar")
    line = phone.get("/play/state").get_json()["legal"][0]
    token = csrf_of(phone, "/play/")
    cookie = phone.get_cookie("rubicon").value
    epoch = app.test_client().get("/state").get_json()["epoch"]
    first.stop()
    journal.close()          # the power cut: a new process, a new app, the same journal file
    journal = Journal(path)
    second = TableSession(journal, chance=RandomChance(3))
    second.start()
    try:
        again = create_app(second, {"TESTING": True})
        client = again.test_client()
        client.set_cookie("rubicon", cookie)
        state = client.get("/play/state")
        assert state.status_code == 200 and state.get_json()["view"]["side"] == "Caesar"
        assert state.get_json()["epoch"] != epoch
        # the CSRF token of the page left open is still good: the phone acts without a reload
        resp = client.post("/play/act", json={"line": line}, headers={"X-CSRFToken": token})
        assert resp.status_code == 200 and resp.get_json()["accepted"] == [line]
        assert set(screen(again).get("/state").get_json()["pairing"]) == {"Pompeius"}
        assert again.test_client().get("/state").get_json()["pairing"] == {}
    finally:
        second.stop()
        journal.close()
    db = sqlite3.connect(path)
    stored = " ".join(str(v) for table in ("paired_devices", "pairing_codes")
                      for row in db.execute(f"SELECT * FROM {table}") for v in row)     # noqa: S608
    db.close()
    session_token = again.session_interface.get_signing_serializer(again).loads(cookie)["player_token"]
    assert session_token not in stored and len(stored) > 100


def test_a_paired_phone_invites_a_second_device_and_both_stay_paired(app):
    phone = pair(app, "Caesar")
    outsider = app.test_client()
    resp = post_json(outsider, "/pair/invite")
    assert resp.status_code == 401 and resp.get_json()["refusal"]["code"] == "pairing.not-paired"
    invite = post_json(phone, "/pair/invite", page="/play/").get_json()
    assert invite["ok"] and invite["side"] == "Caesar" and invite["qr"].startswith("data:image/svg+xml")
    assert "Caesar" not in app.test_client().get("/state").get_json()["pairing"]    # shown on the phone only
    tablet, resp = redeem(app, "Caesar", invite["link"].split("code=")[1])
    assert resp.status_code == 302
    assert tablet.get("/play/state").status_code == 200 and phone.get("/play/state").status_code == 200
    assert phone.get("/play/state").get_json()["pairing"]["devices"] == 2
    assert post_json(tablet, "/pair/forget", page="/play/").get_json()["ok"]     # the tablet unpairs itself
    assert tablet.get("/play/state").status_code == 401 and phone.get("/play/state").status_code == 200


def test_rubicon_pair_on_the_pi_prints_a_code_and_revokes(tmp_path, capsys):
    journal = Journal(tmp_path / "journal.sqlite3")
    session = TableSession(journal, chance=RandomChance(3))
    session.start()
    try:
        app = create_app(session, {"TESTING": True})
        phone = pair(app, "Caesar")
        assert rubicon(["pair", "caesar", "--state-dir", str(tmp_path), "--address", "pi.local"]) == 0
        link = re.search(r"pair Caesar: (\S+)", capsys.readouterr().out).group(1)
        assert link.startswith("http://pi.local:8080/pair/Caesar?code=")
        tablet, resp = redeem(app, "Caesar", link.split("code=")[1])
        assert resp.status_code == 302 and tablet.get("/play/state").status_code == 200
        assert rubicon(["pair", "--list", "--state-dir", str(tmp_path)]) == 0
        listed = capsys.readouterr().out
        assert listed.count("Caesar") == 2 and "invited by the Pi" in listed and "invited by the table" in listed
        tv = screen(app)
        assert rubicon(["pair", "Caesar", "--revoke", "--state-dir", str(tmp_path)]) == 0
        assert phone.get("/play/state").status_code == 401 and tablet.get("/play/state").status_code == 401
        assert "Caesar" in tv.get("/state").get_json()["pairing"]     # waiting again: on the screen ...
        assert app.test_client().get("/state").get_json()["pairing"] == {}   # ... only
    finally:
        session.stop()
        journal.close()


def test_a_forged_host_is_refused_and_the_pis_own_names_are_served(table):
    app = create_app(table, {"TESTING": True}, host_names=("rubicon.home",))
    client = app.test_client()
    for host in ("evil.example", "evil.example:8080", "rubicon.home.evil.example", "8.8.8.8", "[2001:db8::1]"):
        resp = client.get("/state", headers={"Host": host})
        assert resp.status_code == 421 and resp.get_json()["refusal"]["code"] == "web.other-host", host
        assert client.get("/", headers={"Host": host}).status_code == 421
    code = app.extensions["rubicon.pairings"].code("Caesar")
    resp = client.post(f"/pair/Caesar?code={code}", data={"code": code}, headers={"Host": "evil.example"})
    assert resp.status_code == 421 and app.extensions["rubicon.pairings"].code("Caesar") == code
    for host in ("localhost", "127.0.0.1:8080", "[::1]:8080", "raspberrypi.local", "rubicon.home:8080"):
        assert client.get("/state", headers={"Host": host}).status_code == 200, host


def test_no_page_may_be_framed(app):
    for path in ("/", "/state", "/pair/Caesar", "/play/"):
        resp = app.test_client().get(path)
        assert "frame-ancestors 'none'" in resp.headers["Content-Security-Policy"], path
        assert resp.headers["X-Frame-Options"] == "DENY", path


def test_a_full_disk_shows_no_code_and_the_tv_page_still_answers(app, monkeypatch):
    """A code the journal cannot hold could never be redeemed: none is shown (the TV says what the
    disk refuses) and /state answers instead of a 500; once the disk takes writes a code is back."""
    store = app.extensions["rubicon.pairings"]._store

    def refused(*args, **kwargs):
        raise StorageError("storage.full", store.journal.path, "No space left on device")
    real = store.add_code
    monkeypatch.setattr(store, "add_code", refused)
    tv = app.test_client()
    resp = tv.get("/state")
    assert resp.status_code == 200 and app.extensions["rubicon.pairings"].code("Caesar") is None
    monkeypatch.setattr(store, "add_code", real)
    assert app.extensions["rubicon.pairings"].code("Caesar") is not None

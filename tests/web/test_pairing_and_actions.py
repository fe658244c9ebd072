"""Pairing, per-side state and actions through the Flask test client; every forged, misaddressed
or stale request refused with a clear message and the game unchanged."""
from web_ui import create_app
from web_ui.pairing import MAX_FAILURES

from .conftest import act, csrf_of, pair, screen


def test_the_tables_screen_offers_a_pairing_code_per_side_until_paired_and_no_one_else_does(app):
    tv, public = screen(app), app.test_client()
    state = tv.get("/state").get_json()
    assert set(state["pairing"]) == {"Caesar", "Pompeius"} and state["screen"] is True
    assert state["pairing"]["Caesar"]["qr"].startswith("data:image/svg+xml")
    guest = public.get("/state").get_json()
    assert guest["pairing"] == {} and guest["waiting"] == ["Caesar", "Pompeius"] and guest["screen"] is False
    pair(app, "Caesar")
    assert set(tv.get("/state").get_json()["pairing"]) == {"Pompeius"}
    assert public.get("/state").get_json()["waiting"] == ["Pompeius"]


def test_opening_the_link_does_not_pair_until_confirmed(app):
    client = app.test_client()
    code = app.extensions["rubicon.pairings"].code("Caesar")
    assert client.get(f"/pair/Caesar?code={code}").status_code == 200
    assert client.get("/play/state").status_code == 401
    assert app.extensions["rubicon.pairings"].code("Caesar") == code


def test_a_code_is_used_once_and_a_paired_side_gets_no_new_code_from_the_tv(app):
    code = app.extensions["rubicon.pairings"].code("Caesar")
    first = pair(app, "Caesar")
    assert first.get("/play/state").status_code == 200
    assert app.extensions["rubicon.pairings"].code("Caesar") is None     # paired: the TV shows no code
    other = app.test_client()
    resp = other.post("/pair/Caesar", data={"code": code, "csrf_token": csrf_of(other)})
    assert resp.status_code == 403 and "works once" in resp.get_data(as_text=True)
    assert other.get("/play/state").status_code == 401
    assert first.get("/play/state").status_code == 200       # the paired phone stays paired


def test_a_used_or_wrong_code_is_refused_and_too_many_are_rate_limited(app):
    client = app.test_client()
    token = csrf_of(client)
    for _ in range(MAX_FAILURES):
        resp = client.post("/pair/Caesar", data={"code": "guess", "csrf_token": token})
        assert resp.status_code == 403 and "not valid" in resp.get_data(as_text=True)
    good = app.extensions["rubicon.pairings"].code("Caesar")
    resp = client.post("/pair/Caesar", data={"code": good, "csrf_token": token})
    assert resp.status_code == 429


def test_each_side_sees_its_own_hand_and_legal_lines_only(app):
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    c, p = caesar.get("/play/state").get_json(), pompeius.get("/play/state").get_json()
    assert c["view"]["side"] == "Caesar" and p["view"]["side"] == "Pompeius"
    assert all(line.startswith("Caesar ") for line in c["legal"])
    assert all(line.startswith("Pompeius ") for line in p["legal"])
    assert all(b["block"].startswith("C ") or b["block"] == "Cleopatra" for b in c["view"]["own_blocks"])


def test_an_action_is_applied_for_the_paired_side_only(app, table):
    caesar = pair(app, "Caesar")
    line = caesar.get("/play/state").get_json()["legal"][0]
    resp = act(caesar, line)
    assert resp.status_code == 200 and resp.get_json()["accepted"] == [line]
    before = table.snapshot().lines
    resp = act(caesar, "Pompeius discards 3/1")
    assert resp.status_code == 409 and resp.get_json()["refusal"]["code"] == "table.not-your-action"
    assert table.snapshot().lines == before


def test_a_stale_prompt_answered_twice_is_refused_the_second_time(app, table):
    caesar = pair(app, "Caesar")
    line = caesar.get("/play/state").get_json()["legal"][0]
    assert act(caesar, line).status_code == 200
    before = table.snapshot().lines
    again = act(caesar, line)
    assert again.status_code == 409 and again.get_json()["refusal"]["rule"] == "2.1"
    assert table.snapshot().lines == before


def test_without_csrf_token_or_from_another_origin_nothing_changes(app, table):
    caesar = pair(app, "Caesar")
    line = caesar.get("/play/state").get_json()["legal"][0]
    before = table.snapshot().lines
    resp = caesar.post("/play/act", json={"line": line})
    assert resp.status_code == 400 and "CSRF" in resp.get_json()["refusal"]["text"]
    token = csrf_of(caesar, "/play/")
    resp = caesar.post("/play/act", json={"line": line},
                       headers={"X-CSRFToken": token, "Origin": "http://evil.example"})
    assert resp.status_code == 403 and "another site" in resp.get_json()["refusal"]["text"]
    assert table.snapshot().lines == before


def test_a_request_without_the_session_cookie_is_refused(app, table):
    stranger = app.test_client()
    token = csrf_of(stranger)
    resp = stranger.post("/play/act", json={"line": "Caesar discards 3/1"}, headers={"X-CSRFToken": token})
    assert resp.status_code == 401
    assert stranger.get("/play/").status_code == 401


def test_a_malformed_request_names_the_field(app):
    caesar = pair(app, "Caesar")
    token = csrf_of(caesar, "/play/")
    resp = caesar.post("/play/act", data="not json", headers={"X-CSRFToken": token})
    assert resp.status_code == 400 and resp.get_json()["refusal"]["code"] == "web.not-json"
    resp = caesar.post("/play/act", json={"line": ["Caesar discards 3/1"]}, headers={"X-CSRFToken": token})
    assert resp.status_code == 400 and "'line'" in resp.get_json()["refusal"]["text"]


def test_the_session_cookie_is_httponly_and_samesite(app):
    client = app.test_client()
    code = app.extensions["rubicon.pairings"].code("Caesar")
    token = csrf_of(client, f"/pair/Caesar?code={code}")
    resp = client.post("/pair/Caesar", data={"code": code, "csrf_token": token})
    cookie = resp.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_a_phone_takes_back_its_own_last_action_until_something_is_revealed(app, table):
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    line = caesar.get("/play/state").get_json()["legal"][0]
    assert act(caesar, line).status_code == 200
    assert caesar.get("/play/state").get_json()["can_undo"] is True
    token = csrf_of(pompeius, "/play/")
    refused = pompeius.post("/play/undo", headers={"X-CSRFToken": token})
    assert refused.status_code == 409 and refused.get_json()["refusal"]["code"] == "undo.other-side"
    token = csrf_of(caesar, "/play/")
    assert caesar.post("/play/undo", headers={"X-CSRFToken": token}).status_code == 200
    state = caesar.get("/play/state").get_json()
    assert state["lines"] == 1 and line in state["legal"]
    assert table.journal.lines(table.snapshot().game_id)[1] == [table.journal.lines(table.snapshot().game_id)[1][0]]


def test_the_log_is_as_each_side_saw_it(app, table):
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    line = caesar.get("/play/state").get_json()["legal"][0]
    act(caesar, line)
    mine = [e["text"] for e in caesar.get("/play/state").get_json()["log"]]
    theirs = [e["text"] for e in pompeius.get("/play/state").get_json()["log"]]
    public = [e["text"] for e in app.test_client().get("/state").get_json()["log"]]
    assert mine[-1] == line
    assert theirs[-1] == public[-1] == "Caesar discards a card"


def test_no_browser_pairs_with_the_side_the_pi_plays(table):
    """With the Pi as Pompeius, the table's screen offers Caesar's code only; Pompeius's link, even
    with his valid code, shows the reason and pairs nothing, so the bot's hand and blocks reach no
    person's page."""
    app = create_app(table, {"TESTING": True}, bot_sides=("Pompeius",))
    public = app.test_client()
    assert set(screen(app).get("/state").get_json()["pairing"]) == {"Caesar"}
    assert "/pair/Pompeius" not in public.get("/").get_data(as_text=True)
    client = app.test_client()
    page = client.get("/pair/Pompeius")
    assert page.status_code == 409 and "the Pi plays this side" in page.get_data(as_text=True)
    code = app.extensions["rubicon.pairings"].code("Pompeius")
    resp = client.post("/pair/Pompeius", data={"code": code, "csrf_token": csrf_of(client)})
    assert resp.status_code == 409 and "the Pi plays this side" in resp.get_data(as_text=True)
    assert client.get("/play/state").status_code == 401
    assert pair(app, "Caesar").get("/play/state").get_json()["view"]["side"] == "Caesar"

"""The phone's part of the physical table: Done (the same as the panel's button), the answer to
the table's question and the confirmation of the board as sensed, through the Flask test
client, on the virtual table (no hardware)."""
from .conftest import csrf_of, pair, place_a_one_step_move


def post(client, path, body=None):
    return client.post(path, json=body or {}, headers={"X-CSRFToken": csrf_of(client, "/play/")})


def test_done_on_the_phone_turns_the_placement_into_the_move(played):
    session, virtual, app = played
    snap, move, phone = place_a_one_step_move(session, app)
    assert "waiting" in phone.get("/play/state").get_json()["table"]
    assert session.snapshot().lines == snap.lines
    resp = post(phone, "/play/done")
    assert resp.status_code == 200, resp.get_json()
    assert str(move) in session.journal.lines(session.snapshot().game_id)[1][snap.lines:]


def test_an_answer_with_no_question_open_or_no_option_is_refused(played):
    session, _, app = played
    phone = pair(app, "Caesar")
    before = session.snapshot().lines
    resp = post(phone, "/play/answer", {"option": "via Roma"})
    assert resp.status_code == 409 and resp.get_json()["refusal"]["code"] == "table.stale-answer"
    resp = post(phone, "/play/answer", {})
    assert resp.status_code == 400 and "'option'" in resp.get_json()["refusal"]["text"]
    resp = post(phone, "/play/confirm")
    assert resp.status_code == 409 and resp.get_json()["refusal"]["code"] == "table.nothing-to-override"
    assert session.snapshot().lines == before


def test_the_table_endpoints_need_a_paired_phone_and_a_csrf_token(played):
    session, _, app = played
    stranger = app.test_client()
    for path in ("/play/done", "/play/answer", "/play/confirm"):
        assert post(stranger, path, {"option": "x"}).status_code == 401
    phone = pair(app, "Caesar")
    assert phone.post("/play/done", json={}).status_code == 400      # no CSRF token


def test_without_a_physical_table_the_phone_is_told_so(app):
    phone = pair(app, "Caesar")
    resp = post(phone, "/play/done")
    assert resp.status_code == 409 and resp.get_json()["refusal"]["code"] == "table.no-table"

"""The virtual table's page and endpoints: absent when there is hardware, only a paired browser
touches the board, each browser reads only its side's labels, bad requests name the field."""
import pytest

from firmware_bridge.virtual_table import VirtualTable
from web_ui import create_app

from .conftest import csrf_of, pair


@pytest.fixture
def events():
    return []


@pytest.fixture
def vapp(table, events):
    virtual = VirtualTable(events.append, seed=2)
    virtual.set_up_705()
    return create_app(table, {"TESTING": True}, virtual=virtual)


def post(client, path, body):
    return client.post(path, json=body, headers={"X-CSRFToken": csrf_of(client, "/virtual/")})


def test_no_virtual_table_when_the_table_has_hardware(app):
    resp = app.test_client().get("/virtual/state", headers={"Accept": "application/json"})
    assert resp.status_code == 404 and "real readers" in resp.get_json()["refusal"]["text"]


def test_a_paired_browser_moves_a_block_and_the_session_is_told(vapp, events):
    caesar = pair(vapp, "Caesar")
    state = caesar.get("/virtual/state").get_json()
    mine = next(b for b in state["blocks"] if b["at"] == "Genua")
    assert mine["label"]
    events.clear()
    resp = post(caesar, "/virtual/move", {"token": mine["token"], "to": "Roma"})
    assert resp.status_code == 200 and resp.get_json()["ok"]
    assert [e.kind for e in events] == ["tag_gone", "tag_seen"]
    assert any(b["token"] == mine["token"] and b["at"] == "Roma" for b in resp.get_json()["state"]["blocks"])
    resp = post(caesar, "/virtual/roll", {"count": 2})
    assert len(resp.get_json()["faces"]) == 2 and events[-1].kind == "dice_rolled"
    assert post(caesar, "/virtual/press", {"button": "done"}).status_code == 200
    assert events[-1].kind == "panel_pressed" and events[-1].side == "Caesar"


def test_each_browser_reads_its_own_labels_only(vapp):
    for side in ("Caesar", "Pompeius"):
        state = pair(vapp, side).get("/virtual/state").get_json()
        assert all(("label" in b) == (b["side"] == side) for b in state["blocks"])
    spectator = vapp.test_client().get("/virtual/state").get_json()
    assert not any("label" in b for b in spectator["blocks"])


def test_unpaired_forged_and_bad_requests_are_refused(vapp, events):
    spectator = vapp.test_client()
    token = spectator.get("/virtual/state").get_json()["blocks"][0]["token"]
    events.clear()
    resp = post(spectator, "/virtual/move", {"token": token, "to": "Roma"})
    assert resp.status_code == 401 and "pair this browser" in resp.get_json()["refusal"]["text"]
    caesar = pair(vapp, "Caesar")
    assert caesar.post("/virtual/move", json={"token": token, "to": "Roma"}).status_code == 400   # no CSRF token
    resp = post(caesar, "/virtual/move", {"token": token, "to": "Atlantis"})
    refusal = resp.get_json()["refusal"]
    assert resp.status_code == 400 and refusal["code"] == "virtual.bad-field" and refusal["params"] == {"field": "to"}
    assert "request's to" in refusal["text"]
    resp = post(caesar, "/virtual/roll", {"count": 9})
    assert resp.status_code == 400 and resp.get_json()["refusal"]["params"] == {"field": "count"}
    assert events == []

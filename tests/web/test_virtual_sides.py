"""Each browser acts only for its own side on the virtual table.

Caesar's cookie probes Pompeius's levy pool tokens and map blocks during Pompeius's command: every
probe is refused with the same answer whichever block the token is, and nothing changes (the
board, the session, what either side reads). A blank Pompeius navis moved by Caesar's browser
cannot become part of Pompeius's Done. The Pi's blocks stay the human's to handle blind."""
import json
from types import SimpleNamespace

import pytest

from rubicon.table.handling import handled_by
from web_ui import create_app

from .conftest import csrf_of, pair

CITIES = ("Roma", "Neapolis", "Catabathmus", "Alexandria", "Genua", "Athenae", "pool:Pompeius", "hand")


def post(client, path, body):
    return client.post(path, json=body, headers={"X-CSRFToken": csrf_of(client, "/virtual/")})


def to_pompeius_command(session):
    """The card phase played on the phones: with this seed Pompeius commands first."""
    for _ in range(2):
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    snap = session.snapshot()
    assert snap.side("Pompeius").pending[0]["kind"] == "command" and snap.waiting_for == ("Pompeius",)
    return snap


def seen_by(client) -> str:
    """What a browser reads of the table, as text (the snapshot's version aside)."""
    state = client.get("/virtual/state").get_json()
    return json.dumps(state, sort_keys=True)


def test_caesar_probing_pompeius_blocks_gets_one_answer_and_changes_nothing(played):
    session, virtual, app = played
    to_pompeius_command(session)
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    blocks = caesar.get("/virtual/state").get_json()["blocks"]
    assert all(b["movable"] == (b["side"] == "Caesar") for b in blocks)     # what the page may offer to move
    tokens = [b["token"] for b in blocks if b["side"] == "Pompeius"]
    pool = set(virtual.tokens_at("pool:Pompeius"))
    assert len(tokens) > 20 and pool and pool < set(tokens)
    before = (session.snapshot().version, seen_by(caesar), seen_by(pompeius),
              {b: virtual.where(b) for b in virtual.catalog.blocks})
    answers = set()
    for token in tokens:
        for to in CITIES:
            resp = post(caesar, "/virtual/move", {"token": token, "to": to})
            answers.add((resp.status_code, resp.get_data()))
    # One answer for every block and destination: the refusal names neither.
    assert len(answers) == 1, answers
    status, body = answers.pop()
    refusal = json.loads(body)["refusal"]
    assert status == 403 and refusal["code"] == "virtual.not-your-block" and refusal["params"] == {}
    after = (session.snapshot().version, seen_by(caesar), seen_by(pompeius),
             {b: virtual.where(b) for b in virtual.catalog.blocks})
    assert after == before


def test_a_blank_opponent_navis_cannot_be_folded_into_his_done(played):
    session, virtual, app = played
    to_pompeius_command(session)
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    navis = virtual.tokens_at("Alexandria")
    assert navis and all(b["side"] == "Pompeius" for b in caesar.get("/virtual/state").get_json()["blocks"]
                         if b["token"] in navis)
    for token in navis:
        assert post(caesar, "/virtual/move", {"token": token, "to": "Catabathmus"}).status_code == 403
    assert not set(navis) & set(virtual.tokens_at("Catabathmus"))
    resp = pompeius.post("/play/done", headers={"X-CSRFToken": csrf_of(pompeius, "/play/")})
    assert resp.get_json()["accepted"] == ["Pompeius ends command"]
    _, journal = session.journal.lines(session.snapshot().game_id)
    assert not any("moves" in line for line in journal)


def test_a_placement_is_credited_to_the_browser_that_made_it(played):
    """Caesar's own block moved by his browser during Pompeius's command is Caesar's doing: his
    message, never a line of Pompeius's Done."""
    session, virtual, app = played
    to_pompeius_command(session)
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    mine = next(b for b in caesar.get("/virtual/state").get_json()["blocks"] if b.get("label") and
                b["at"] not in ("pool:Caesar", "eliminated:Caesar"))
    assert post(caesar, "/virtual/move", {"token": mine["token"], "to": "Roma" if mine["at"] != "Roma"
                                          else "Genua"}).get_json()["ok"]
    assert session.snapshot().side("Caesar").table["messages"][0]["code"] == "table.not-your-turn"
    assert session.snapshot().side("Pompeius").table["messages"] == []
    resp = pompeius.post("/play/done", headers={"X-CSRFToken": csrf_of(pompeius, "/play/")})
    assert resp.status_code == 409 and resp.get_json()["refusal"]["code"] == "table.board-not-right"
    assert post(caesar, "/virtual/move", {"token": mine["token"], "to": mine["at"]}).get_json()["ok"]
    resp = pompeius.post("/play/done", headers={"X-CSRFToken": csrf_of(pompeius, "/play/")})
    assert resp.get_json()["accepted"] == ["Pompeius ends command"]


@pytest.fixture
def against_the_pi(played):
    """The same table with the Pi playing Pompeius: Caesar's browser handles its blocks blind."""
    session, virtual, _ = played
    session.physical.automated.add("Pompeius")
    return session, virtual, create_app(session, {"TESTING": True}, virtual=virtual, bot_sides=("Pompeius",))


def test_the_human_handles_the_pis_blocks(against_the_pi):
    session, virtual, app = against_the_pi
    caesar = pair(app, "Caesar")
    token = virtual.tokens_at("pool:Pompeius")[0]
    assert post(caesar, "/virtual/move", {"token": token, "to": "Roma"}).get_json()["ok"]
    assert token in virtual.tokens_at("Roma")
    steps = session.snapshot().side("Caesar").table["instructions"]
    assert steps and "label" not in json.dumps(steps) and steps[0]["params"].get("block") is None


def test_hands_follow_ownership_and_jupiters_defector():
    class Snap:
        parts = {"Caesar": SimpleNamespace(view={"own_blocks": [{"block": "P Legio 38", "location": "Roma"}]},
                                           pending=({"kind": "jupiter-send", "actor": "Caesar",
                                                     "params": {"block": "P Navis 1"}},)),
                 "Pompeius": SimpleNamespace(view={}, pending=())}

        @classmethod
        def side(cls, side):
            return cls.parts[side]
    printed = {"C Legio 8": "Caesar", "P Legio 38": "Pompeius", "P Navis 1": "Pompeius", "P Legio 1": "Pompeius"}
    assert handled_by(Snap, "Caesar", bot_sides=(), printed=printed) == {"C Legio 8", "P Legio 38", "P Navis 1"}
    assert handled_by(Snap, "Pompeius", bot_sides=(), printed=printed) == {"P Navis 1", "P Legio 1"}
    assert handled_by(Snap, "Pompeius", bot_sides=("Caesar",), printed=printed) == set(printed)
    assert handled_by(Snap, "Caesar", bot_sides=("Caesar",), printed=printed) == frozenset()


def test_deep_and_mistyped_bodies_are_refused_with_a_code(played):
    session, virtual, app = played
    caesar = pair(app, "Caesar")
    token = next(b["token"] for b in caesar.get("/virtual/state").get_json()["blocks"] if b.get("label"))
    deep = "[" * 3000 + "]" * 3000
    version = session.snapshot().version
    for path in ("/play/act", "/play/answer", "/virtual/move", "/virtual/roll", "/virtual/press"):
        page = "/virtual/" if path.startswith("/virtual") else "/play/"
        resp = caesar.post(path, data=deep, content_type="application/json",
                           headers={"X-CSRFToken": csrf_of(caesar, page)})
        assert resp.status_code == 400 and resp.get_json()["refusal"]["code"] == "web.not-json", path
    for to in ([], {}, 3, None, True, ["Roma"]):
        resp = post(caesar, "/virtual/move", {"token": token, "to": to})
        assert resp.status_code == 400 and resp.get_json()["refusal"]["params"] == {"field": "to"}, to
    for bad in ([], {}, 3, None, "x" * 5000):
        resp = post(caesar, "/virtual/move", {"token": bad, "to": "Roma"})
        assert resp.status_code == 400 and resp.get_json()["refusal"]["params"] == {"field": "token"}, bad
    assert session.snapshot().version == version



def test_the_defector_being_sent_is_named_and_movable_for_its_sender(played):
    _, virtual, _ = played
    defector = next(b for b, info in virtual.catalog.blocks.items() if info.side == "Pompeius")
    board = virtual.for_viewer("Caesar", hands={defector}, known={defector})
    named = [b for b in board["blocks"] if b["side"] == "Pompeius" and "label" in b]
    assert len(named) == 1 and named[0]["label"] == virtual.catalog.blocks[defector].name
    assert virtual._block(named[0]["token"]) == defector and named[0]["movable"]
    assert [b["movable"] for b in board["blocks"]].count(True) == 1

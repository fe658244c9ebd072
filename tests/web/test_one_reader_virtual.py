"""The one-reader build on the virtual table: `one_reader = "virtual"`
assembled by the composition root, the virtual table's scan pad as the reader. A player sets his
block on the scan pad from his browser, only his phone is asked what it does, he picks the move
there (the localized question, the existing ask and answer), sets the block down on the map, and
the move is journaled; the TV and the other phone learn nothing of the tap, and a forged or stale
answer changes nothing."""
from __future__ import annotations

import pytest

from engine import BOARD, Move
from rubicon.config import parse_config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import SeededChance
from rubicon.table.one_reader import OneReaderTable
from web_ui import create_app

from .conftest import csrf_of, pair


@pytest.fixture
def one_reader(tmp_path):
    config = parse_config('[devices]\none_reader = "virtual"\n', "rubicon.toml")
    journal = Journal(tmp_path / "journal.sqlite3")
    table = assemble(config, journal, chance=SeededChance(3), virtual=True)
    table.start()
    try:
        yield table, create_app(table.session, {"TESTING": True}, virtual=table.virtual)
    finally:
        table.stop()
        journal.close()


def post(client, path, body, page="/play/"):
    return client.post(path, json=body, headers={"X-CSRFToken": csrf_of(client, page)})


def views(app, clients):
    """What the TV and each phone are given now (the version aside)."""
    tv = app.test_client().get("/state").get_json()
    out = {"tv": tv, **{side: c.get("/play/state").get_json() for side, c in clients.items()}}
    for view in out.values():
        view.pop("version", None)
    return out


def test_a_tapped_block_is_asked_on_its_owners_phone_alone_and_its_move_is_played(one_reader):
    table, app = one_reader
    session = table.session
    assert table.kind == "virtual" and isinstance(session.physical, OneReaderTable)
    assert "scan pad the one reader" in table.describe()
    for _ in range(2):      # the card phase on the phones
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    snap = session.snapshot()
    side = snap.waiting_for[0]
    other = "Pompeius" if side == "Caesar" else "Caesar"
    move = next(m for m in snap.side(side).legal if isinstance(m, Move) and len(m.path) == 2)
    block = BOARD.blocks[move.block]
    origin, dest = BOARD.loc_names[move.path[0]], BOARD.loc_names[move.path[1]]
    clients = {side: pair(app, side), other: pair(app, other)}
    before = views(app, clients)

    state = clients[side].get("/virtual/state").get_json()
    token = next(b["token"] for b in state["blocks"] if b.get("label") == block.name and b["at"] == origin)
    assert post(clients[side], "/virtual/move", {"token": token, "to": "scan_pad"}, "/virtual/").get_json()["ok"]

    after = views(app, clients)
    ask = after[side]["table"]["ask"]
    assert ask["kind"] == "tap" and ask["at"] == origin and ask["prompt"]
    option = next(o for o in ask["options"] if o["lines"] == [str(move)])
    assert after["tv"] == before["tv"] and after[other] == before[other]     # nothing of the tap

    refused = post(clients[other], "/play/answer", {"option": option["value"]}).get_json()
    assert not refused["ok"] and refused["refusal"]["code"] == "table.stale-answer"
    refused = post(clients[side], "/play/answer", {"option": "Roma-Roma"}).get_json()
    assert not refused["ok"] and refused["refusal"]["code"] == "table.unknown-option"
    assert session.snapshot().lines == snap.lines

    assert post(clients[side], "/virtual/move", {"token": token, "to": dest}, "/virtual/").get_json()["ok"]
    answered = post(clients[side], "/play/answer", {"option": option["value"]}).get_json()
    assert answered["ok"], answered
    _, journal = session.journal.lines(session.snapshot().game_id)
    assert journal[snap.lines] == str(move)
    assert clients[side].get("/play/state").get_json()["table"]["ask"] is None
    stale = post(clients[side], "/play/answer", {"option": option["value"]}).get_json()
    assert not stale["ok"] and stale["refusal"]["code"] == "table.stale-answer"

"""The whole path without hardware: a block lifted and set down on the virtual table's page
becomes sensor events, the physical table judges them, the player's Done on the panel turns
the placement into the engine's move, journaled before it is acknowledged."""

from engine.actions import Move, parse_action
from engine.board import BOARD

from .conftest import csrf_of, pair


def post(client, path, body):
    return client.post(path, json=body, headers={"X-CSRFToken": csrf_of(client, "/virtual/")})


def test_a_move_made_on_the_virtual_table_is_played(played):
    session, virtual, app = played
    assert session.snapshot().table["public"]["instructions"] == []     # the board matches the game
    for _ in range(2):          # discard, then play, one card each (on the phones)
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().legal[side][0]).ok
    snap = session.snapshot()
    side = snap.waiting_for[0]
    move = next(m for m in map(parse_action, snap.legal[side]) if isinstance(m, Move) and len(m.path) == 2)
    block, origin, dest = BOARD.blocks[move.block], BOARD.loc_names[move.path[0]], BOARD.loc_names[move.path[1]]
    client = pair(app, side)
    state = client.get("/virtual/state").get_json()
    token = next(b["token"] for b in state["blocks"] if b.get("label") == block.name and b["at"] == origin)
    assert post(client, "/virtual/move", {"token": token, "to": dest}).get_json()["ok"]
    assert session.snapshot().lines == snap.lines                         # provisional until Done
    assert post(client, "/virtual/press", {"button": "done"}).get_json()["ok"]
    _, journal = session.journal.lines(session.snapshot().game_id)
    assert str(move) in journal[snap.lines:], (str(move), journal[snap.lines:])

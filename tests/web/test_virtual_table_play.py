"""The whole path without hardware: a block lifted and set down on the virtual table's page
becomes sensor events, the physical table judges them, the player's Done on the panel turns
the placement into the engine's move, journaled before it is acknowledged."""
from .conftest import csrf_of, place_a_one_step_move


def post(client, path, body):
    return client.post(path, json=body, headers={"X-CSRFToken": csrf_of(client, "/virtual/")})


def test_a_move_made_on_the_virtual_table_is_played(played):
    session, virtual, app = played
    assert session.snapshot().public.table["instructions"] == []     # the board matches the game
    snap, move, client = place_a_one_step_move(session, app)
    assert session.snapshot().lines == snap.lines                         # provisional until Done
    assert post(client, "/virtual/press", {"button": "done"}).get_json()["ok"]
    _, journal = session.journal.lines(session.snapshot().game_id)
    assert str(move) in journal[snap.lines:], (str(move), journal[snap.lines:])

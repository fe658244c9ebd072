"""What each browser reads of the virtual table: its own blocks' strength and where the game has
them (a block set down elsewhere is a placement not yet played), nothing of the other side's
(in the state, the page and the live stream); the phone counts placed blocks as moves used; the
stream pushes a block moved on another browser."""
import http.client
import json
import threading

import pytest

from web_ui.server import make_server, stop_server

from .conftest import csrf_of, pair, place_a_one_step_move
from .test_live import next_event

PUBLIC_KEYS = {"token", "side", "at", "movable"}


def entries(client):
    return client.get("/virtual/state").get_json()["blocks"]


def test_a_block_strength_is_read_by_its_owner_only(played):
    session, virtual, app = played
    for side, other in (("Caesar", "Pompeius"), ("Pompeius", "Caesar")):
        client = pair(app, side)
        blocks = entries(client)
        view = session.snapshot().side(side).view
        on_map = {e["block"]: e for e in view["own_blocks"]}
        mine = {virtual._block(b["token"]): b for b in blocks if b["side"] == side}
        assert on_map and all(mine[k]["strength"] == e["strength"] and mine[k]["game"] == e["location"]
                              for k, e in on_map.items())
        pooled = [mine[k] for k in view["own_levy_pool"]]
        assert pooled and all(b["game"] == f"pool:{side}" and "strength" not in b for b in pooled)
        # The other side's blocks: colour, place, and whether this browser may move them; nothing else.
        assert all(set(b) <= PUBLIC_KEYS for b in blocks if b["side"] == other)
    spectator = entries(app.test_client())
    assert all(set(b) <= PUBLIC_KEYS for b in spectator)


def test_a_placement_is_shown_provisional_and_counted_until_done(played):
    session, virtual, app = played
    snap, move, client = place_a_one_step_move(session, app)
    side = snap.waiting_for[0]
    other = "Pompeius" if side == "Caesar" else "Caesar"
    moved = [b for b in entries(client) if b.get("game") not in (None, b["at"])]
    assert len(moved) == 1 and moved[0]["side"] == side
    command = next(d for d in snap.side(side).pending if d["kind"] == "command")
    phone = client.get("/play/state").get_json()
    counted = next(d for d in phone["pending"] if d["kind"] == "command")
    assert counted["params"]["mp_left"] == command["params"]["mp_left"] - 1
    assert phone["table"]["left"]["mp_left"] == counted["params"]["mp_left"]
    # The other side sees the block moved (the board is public), not that it is a move, nor the count.
    them = pair(app, other)
    assert all(set(b) <= PUBLIC_KEYS for b in entries(them) if b["side"] == side)
    assert them.get("/play/state").get_json()["table"]["left"] is None
    assert client.post("/virtual/press", json={"button": "done"},
                       headers={"X-CSRFToken": csrf_of(client, "/virtual/")}).get_json()["ok"]
    assert not [b for b in entries(client) if b.get("game") not in (None, b["at"])]
    assert client.get("/play/state").get_json()["table"]["left"] is None


@pytest.fixture
def served_played(played):
    session, virtual, app = played
    server = make_server(app, host="127.0.0.1", port=0, threads=6)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield session, virtual, app, server.effective_port
    session.stop()          # first: the open live streams end, so the server can close
    assert stop_server(server, thread)


def open_stream(port, client):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Accept": "text/event-stream"}
    cookie = client.get_cookie("rubicon")
    if cookie is not None:
        headers["Cookie"] = f"rubicon={cookie.value}"
    conn.request("GET", "/virtual/stream", headers=headers)
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
    return conn, resp


def test_the_stream_pushes_a_move_made_on_another_browser_and_hides_the_other_side(served_played):
    session, virtual, app, port = served_played
    viewers = {"Caesar": pair(app, "Caesar"), "Pompeius": pair(app, "Pompeius"), None: app.test_client()}
    streams = {side: open_stream(port, client) for side, client in viewers.items()}
    try:
        firsts = {side: next_event(resp)[1] for side, (_, resp) in streams.items()}
        for side, state in firsts.items():
            assert state["side"] == side and state["epoch"] and state["version"] == session.snapshot().version
            assert all(("label" in b) == (b["side"] == side) for b in state["blocks"])
            assert all(set(b) <= PUBLIC_KEYS for b in state["blocks"] if b["side"] != side)
        caesar = viewers["Caesar"]
        mine = next(b for b in firsts["Caesar"]["blocks"] if b.get("strength") and b["at"] == "Genua")
        assert caesar.post("/virtual/move", json={"token": mine["token"], "to": "hand"},
                           headers={"X-CSRFToken": csrf_of(caesar, "/virtual/")}).get_json()["ok"]
        for side, (_, resp) in streams.items():
            while True:     # an update per sensor event: read until the block is seen lifted
                _, state = next_event(resp)
                block = next(b for b in state["blocks"] if b["token"] == mine["token"])
                if block["at"] == "hand":
                    break
            text = json.dumps(block)
            assert ("strength" in block) == (side == "Caesar"), text
            assert (mine["label"] in text) == (side == "Caesar"), text
    finally:
        for conn, _ in streams.values():
            conn.close()

import re

import pytest

from engine import BOARD, Move
from firmware_bridge.virtual_table import VirtualTable, layout_from_views
from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.physical import PhysicalTable
from rubicon.table.session import TableSession
from web_ui import create_app


@pytest.fixture
def table(tmp_path):
    s = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3))
    s.start()
    yield s
    s.stop()


@pytest.fixture
def app(table):
    return create_app(table, {"TESTING": True})


@pytest.fixture
def played(tmp_path):
    """A session on the virtual table (its board laid out as the game stands) and the app serving
    both: (session, virtual table, app)."""
    holder = {}
    virtual = VirtualTable(sink=lambda event: holder["session"].sense(event), seed=1)
    physical = PhysicalTable(virtual.reader_map, virtual.registry().block_of)
    session = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3), physical=physical)
    holder["session"] = session
    session.start()
    virtual.arrange(layout_from_views(session.snapshot().side_views(), virtual.catalog))
    yield session, virtual, create_app(session, {"TESTING": True}, virtual=virtual)
    session.stop()


def csrf_of(client, path="/") -> str:
    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


def pair(app, side: str):
    """A test client paired with `side` the way a phone is: open the link, confirm."""
    client = app.test_client()
    code = app.extensions["rubicon.pairings"].code(side)
    page = client.get(f"/pair/{side}?code={code}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = client.post(f"/pair/{side}", data={"code": code, "csrf_token": token})
    assert resp.status_code == 302, resp.get_data(as_text=True)
    return client


def screen(app):
    """A test client paired as the table's screen, with the link `rubicon run` prints on its terminal."""
    client = app.test_client()
    code = app.extensions["rubicon.pairings"].screen_code().code
    page = client.get(f"/pair/screen?code={code}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = client.post("/pair/screen", data={"code": code, "csrf_token": token})
    assert resp.status_code == 302, resp.get_data(as_text=True)
    return client


def act(client, line: str):
    token = csrf_of(client, "/play/")
    return client.post("/play/act", json={"line": line}, headers={"X-CSRFToken": token})


def play_until(table, done, seed: int = 0, steps: int = 3000) -> bool:
    """Random legal lines (no take-backs) until `done(snapshot)`; False if it never came."""
    import random
    rng = random.Random(seed)
    for _ in range(steps):
        snap = table.snapshot()
        if done(snap):
            return True
        if snap.result is not None:
            return False
        side = next(s for s in snap.waiting_for if s != "Chance")
        legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
        assert table.act(side, rng.choice(legal)).ok
    return False


def place_a_one_step_move(session, app):
    """Play the card phase on the phones (discard, then play, one card each), then lift a block of
    the side to act and set it down one step away on the virtual table, as its paired phone's
    browser would: (snapshot before the move, the Move, that side's paired client)."""
    for _ in range(2):
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    snap = session.snapshot()
    side = snap.waiting_for[0]
    move = next(m for m in snap.side(side).legal if isinstance(m, Move) and len(m.path) == 2)
    block, origin, dest = BOARD.blocks[move.block], BOARD.loc_names[move.path[0]], BOARD.loc_names[move.path[1]]
    client = pair(app, side)
    state = client.get("/virtual/state").get_json()
    token = next(b["token"] for b in state["blocks"] if b.get("label") == block.name and b["at"] == origin)
    resp = client.post("/virtual/move", json={"token": token, "to": dest},
                       headers={"X-CSRFToken": csrf_of(client, "/virtual/")})
    assert resp.get_json()["ok"], resp.get_json()
    return snap, move, client

import re

import pytest

from rubicon.journal import Journal
from rubicon.table.session import RandomChance, TableSession
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
        side = next(s for s in snap.waiting_for if s != "chance")
        legal = [x for x in snap.legal[side] if not x.endswith("takes back")]
        assert table.act(side, rng.choice(legal)).ok
    return False

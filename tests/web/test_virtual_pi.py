"""The virtual table for a family: a new game set out in one step, a
move made on a phone told the right way round, no instruction the virtual table cannot carry out,
no "accept the board as sensed" where readers never miss, and /virtual/ reachable from the phone's
page."""
import pytest

from engine import BOARD, Move
from firmware_bridge.virtual_table import VirtualTable
from rubicon.config import Config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import RandomChance, SeededChance
from rubicon.table.dice import DRAWN_FROM_GAME, PLACES_SENSED
from rubicon.table.physical import PhysicalTable
from rubicon.table.session import TableSession
from web_ui import create_app

from .conftest import csrf_of, pair, place_a_one_step_move


@pytest.fixture
def unset(tmp_path):
    """A new game on a virtual table whose blocks are not set out yet (all in hand, as after a game
    ended): (session, virtual table, app)."""
    holder = {}
    virtual = VirtualTable(sink=lambda event: holder["session"].sense(event), seed=1)
    physical = PhysicalTable(virtual.reader_map, virtual.registry().block_of)
    session = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3), physical=physical)
    holder["session"] = session
    session.start()
    yield session, virtual, create_app(session, {"TESTING": True}, virtual=virtual)
    session.stop()


def post(client, path, body=None):
    return client.post(path, json=body or {}, headers={"X-CSRFToken": csrf_of(client, "/virtual/")})


def test_a_new_game_is_set_out_in_one_step_and_only_then(unset):
    session, virtual, app = unset
    client = pair(app, "Caesar")
    state = client.get("/virtual/state").get_json()
    assert state["set_out"] is True and len(state["table"]["instructions"]) > 20     # one a block, before
    answer = post(client, "/virtual/set-out").get_json()
    assert answer["ok"]
    assert answer["state"]["table"]["instructions"] == [] and answer["state"]["set_out"] is False
    assert all(b["at"] != "hand" for b in answer["state"]["blocks"])
    # Once the game is under way every block is moved by hand (the Pi's blind): no set-out.
    for _ in range(2):
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    side = session.snapshot().waiting_for[0]
    assert session.act(side, f"{side} ends command").ok
    lifted = virtual.tokens_at("Genua")[0]
    virtual.lift(lifted)
    refused = post(client, "/virtual/set-out")
    assert refused.status_code == 400 and refused.get_json()["refusal"]["code"] == "virtual.set-out-now"
    assert virtual.where(virtual._block(lifted)) == "hand"             # refused: nothing moved


def test_a_move_made_on_the_phone_is_not_a_placement_of_the_virtual_table(played):
    session, virtual, app = played
    for _ in range(2):
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    snap = session.snapshot()
    side = snap.waiting_for[0]
    move = next(m for m in snap.side(side).legal if isinstance(m, Move) and len(m.path) == 2)
    assert session.act(side, str(move)).ok                     # on the phone
    key = BOARD.blocks[move.block].key
    client = pair(app, side)
    block = next(b for b in client.get("/virtual/state").get_json()["blocks"] if b["token"] == virtual._token[key])
    # It stands in its origin and the game has it at its destination: to be carried there, not a
    # placement Done would play ("destination → origin", the wrong way round, before).
    assert (block["at"], block["game"]) == (BOARD.loc_names[move.path[0]], BOARD.loc_names[move.path[1]])
    assert "planned" not in block


def test_a_block_set_down_on_the_virtual_table_is_a_placement(played):
    session, virtual, app = played
    snap, move, client = place_a_one_step_move(session, app)
    key = BOARD.blocks[move.block].key
    block = next(b for b in client.get("/virtual/state").get_json()["blocks"] if b["token"] == virtual._token[key])
    assert block["planned"] is True and block["at"] == BOARD.loc_names[move.path[1]]


def test_the_phone_page_leads_to_the_virtual_table_and_offers_no_override_there(played):
    _, _, with_virtual = played
    html = pair(with_virtual, "Caesar").get("/play/").get_data(as_text=True)
    assert 'href="/virtual/"' in html and "data-confirm=" not in html


def test_without_a_virtual_table_the_phone_page_offers_the_override(app):
    html = pair(app, "Caesar").get("/play/").get_data(as_text=True)       # real readers: no virtual table
    assert 'href="/virtual/"' not in html and "data-confirm=" in html


def test_the_virtual_table_is_told_no_step_it_cannot_carry_out(tmp_path):
    table = assemble(Config(), Journal(tmp_path / "j.sqlite3"), SeededChance(1), virtual=True)
    assert table.session.physical.shown_by_itself == DRAWN_FROM_GAME
    desk = table.session.dice
    steps = [{"code": code, "params": {}, "text": code} for code in (*sorted(DRAWN_FROM_GAME), "block.moved")]
    for viewer in ("public", "Caesar", "Pompeius"):
        desk.instructions[viewer] = list(steps)
    merged = desk.merge({}, None, board_sensed=True, shown_by_board=table.session.physical.shown_by_itself)
    assert all(part["instructions"] == [] for part in merged.values())   # the move: the readers say it
    plain = desk.merge({}, None, board_sensed=True)
    assert [i["code"] for i in plain["Caesar"]["instructions"]] == sorted(DRAWN_FROM_GAME - PLACES_SENSED)
    table.session.close()


def test_a_move_back_to_where_the_block_stands_is_not_offered():
    from web_ui.prompts import prompt
    options = [{"line": f"Pompeius moves Cleopatra {'-'.join(path)}", "type": "move", "actor": "Pompeius",
                "params": {"block": "Cleopatra", "key": "P Cleopatra", "path": path}}
               for path in (["Alexandria", "Pelusium"], ["Alexandria", "Pelusium", "Alexandria"],
                            ["Alexandria", "Memphis", "Alexandria"])]
    (block,) = prompt({"kind": "command", "rule": "5.1", "params": {}, "options": options})["moves"]
    assert [d["place"] for d in block["to"]] == ["Pelusium"]


def test_jupiter_with_no_city_to_pick_says_so(app):
    from web_ui.i18n.localize import localize_prompts
    with app.test_request_context("/"):
        (none,) = localize_prompts([{"kind": "jupiter-target", "params": {"targets": []}, "choices": []}])
        (some,) = localize_prompts([{"kind": "jupiter-target", "params": {"targets": ["Roma"]}, "choices": []}])
    assert none["title"] == "Jupiter: no enemy city is next to a friendly one, so no block can defect"
    assert some["title"] == "Jupiter: pick a city"

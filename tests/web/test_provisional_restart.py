"""What the table holds between two actions survives a restart: a block set down on the virtual
table but not yet Done, a block held in a hand, and an open new-game offer (the journal's files as
a kill leaves them: no clean close)."""
from engine import BOARD
from rubicon.config import Config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import SeededChance
from rubicon.table.session import Ping, RandomChance, TableSession
from tests.table.test_journal_faults import as_killed
from web_ui import create_app

from .conftest import csrf_of, place_a_one_step_move


def _table(path):
    journal = Journal(path)
    table = assemble(Config(), journal, SeededChance(7))
    table.start()
    return table, journal, create_app(table.session, {"TESTING": True}, virtual=table.virtual)


def test_blocks_set_down_not_done_and_a_block_in_hand_are_where_they_were_after_a_restart(tmp_path):
    path = tmp_path / "journal.sqlite3"
    table, journal, app = _table(path)
    try:
        snap, move, client = place_a_one_step_move(table.session, app)
        moved = BOARD.blocks[move.block].name
        dest = BOARD.loc_names[move.path[1]]
        planned = table.session.snapshot().public.table.get("placements")
        state = client.get("/virtual/state").get_json()
        held = next(b for b in state["blocks"] if b.get("movable") and b["at"] not in (dest,)
                    and b.get("label") != moved)
        before = {b: table.virtual.where(b) for b in table.virtual.catalog.blocks}
        resp = client.post("/virtual/move", json={"token": held["token"], "to": "hand"},
                           headers={"X-CSRFToken": csrf_of(client, "/virtual/")})
        assert resp.get_json()["ok"]
        board = {b: table.virtual.where(b) for b in table.virtual.catalog.blocks}
        assert "hand" in board.values()
        lines = table.session.snapshot().lines
    finally:
        table.stop()
        as_killed(journal)
    table, journal, app = _table(path)
    try:
        assert {b: table.virtual.where(b) for b in table.virtual.catalog.blocks} == board
        after = table.session.snapshot()
        assert after.lines == lines                                   # still provisional: nothing played
        assert after.public.table.get("placements") == planned      # Done would play the same move
        in_hand = next(b for b, at in board.items() if at == "hand")
        token = next(e["token"] for e in table.virtual.for_viewer(None)["blocks"] if e["at"] == "hand")
        table.virtual.move(token, before[in_hand])             # set down where it was first: Done is taken

        table.virtual.press(snap.waiting_for[0], "done")       # the side's Done on the panel
        table.session.submit(Ping()).result(60)                 # queued after it: the Done is carried out
        assert str(move) in journal.lines(after.game_id)[1][lines:]
    finally:
        table.stop()
        journal.close()


def test_an_open_new_game_offer_survives_a_restart(tmp_path):
    path = tmp_path / "journal.sqlite3"
    session = TableSession(Journal(path), chance=RandomChance(3))
    session.start()
    game = session.snapshot().game_id
    assert session.vote_new_game("Caesar", True).ok
    session.stop()
    as_killed(session.journal)
    again = TableSession(Journal(path), chance=RandomChance(3))
    again.start()
    try:
        assert again.snapshot().notes.get("new_game") == {"agreed": ["Caesar"], "waiting": ["Pompeius"]}
        assert again.vote_new_game("Pompeius", True).ok
        assert again.snapshot().game_id != game and "new_game" not in again.snapshot().notes
    finally:
        again.stop()
        again.journal.close()
    third = TableSession(Journal(path), chance=RandomChance(3))
    third.start()
    try:
        assert "new_game" not in third.snapshot().notes          # accepted: not offered again
    finally:
        third.stop()
        third.journal.close()


def test_a_kept_board_naming_places_this_board_lacks_does_not_fail_the_start(tmp_path):
    path = tmp_path / "journal.sqlite3"
    table, journal, _ = _table(path)
    game = table.session.snapshot().game_id
    block = next(iter(table.virtual.catalog.blocks))
    table.session.provisional.put("virtual_board", {"game": game, "where": {block: "Atlantis", "no block": "hand"}})
    table.stop()
    journal.close()
    table, journal, _ = _table(path)        # starts, the unknown place and block left out
    try:
        assert table.virtual.where(block) != "Atlantis"
    finally:
        table.stop()
        journal.close()

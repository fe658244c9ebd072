"""The one-reader build on the phones, in chromium: a block tapped on the reader (the virtual
table's scan pad) shows its question on its owner's phone page alone (the block named); picking
the move there plays it. The table is assembled from `one_reader = "virtual"` and served by
waitress, as `rubicon run` serves it."""
from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from engine import BOARD, Move
from rubicon.config import parse_config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import SeededChance
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_phones import pair_phone


@pytest.fixture
def served_one_reader(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    table = assemble(parse_config('[devices]\none_reader = "virtual"\n'), journal, chance=SeededChance(3))
    table.start()
    app = create_app(table.session, virtual=table.virtual)
    server = make_server(app, host="127.0.0.1", port=0, threads=12)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", table, app
    table.stop()        # first: the open live streams end, so the server can close
    assert stop_server(server, thread)
    journal.close()


def test_the_tapped_block_is_asked_on_its_owners_phone_and_played_from_it(browser, phone, served_one_reader,
                                                                           artifacts):
    base, table, app = served_one_reader
    session, virtual = table.session, table.virtual
    for _ in range(2):      # the card phase
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    snap = session.snapshot()
    side = snap.waiting_for[0]
    other = "Pompeius" if side == "Caesar" else "Caesar"
    move = next(m for m in snap.side(side).legal if isinstance(m, Move) and len(m.path) == 2)
    origin = BOARD.loc_names[move.path[0]]
    mine, theirs = pair_phone(browser, phone, base, app, side), pair_phone(browser, phone, base, app, other)

    token = next(t for t in virtual.tokens_at(origin) if virtual._block(t) == BOARD.blocks[move.block].key)
    virtual.move(token, "scan_pad")          # the player sets the block on the reader

    ask = mine.locator("#ask")
    expect(ask).to_be_visible()
    name = BOARD.block_label(move.block, ("Caesar", "Pompeius").index(side))
    expect(ask.locator("h2")).to_have_text(f"{name} tapped: set it down where it goes, then choose here what it did")
    expect(theirs.locator("#ask")).to_be_hidden()
    label = "-".join(BOARD.loc_names[x] for x in move.path)
    mine.screenshot(path=str(artifacts / "one-reader-ask.png"), scale="css")
    virtual.move(token, BOARD.loc_names[move.path[1]])     # he sets it down where it goes
    ask.get_by_role("button", name=label).first.tap()
    expect(ask).to_be_hidden()
    _, journal = session.journal.lines(session.snapshot().game_id)
    assert journal[snap.lines] == str(move)
    mine.context.close()
    theirs.context.close()

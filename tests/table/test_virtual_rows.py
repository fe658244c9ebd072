"""The Pi's blocks on the virtual table: the page lists a place's blocks in
the order they were set down (the set-up's by random token, never by block id), the order the
table's instructions count the Pi's blocks in, so "no. 2 from the left" is the 2nd of the Pi's
colour the page draws there, and one tap lifts the block the Pi moved."""
from engine import BOARD, Move
from firmware_bridge.virtual_table import layout_from_views

from .driver import pi_plays_caesar


def test_the_instructions_position_is_the_pages_order(tmp_path):
    virtual, session = pi_plays_caesar(tmp_path, seed=1)
    try:
        virtual.arrange(layout_from_views(session.snapshot().side_views(), virtual.catalog))
        board = virtual.for_viewer("Pompeius")["blocks"]
        pool = [b["token"] for b in board if b["at"] == "pool:Caesar"]
        assert pool == sorted(pool)                  # the set-up's order: random tokens
        for _ in range(2):
            for side in ("Caesar", "Pompeius"):
                assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
        snap = session.snapshot()
        if snap.waiting_for[0] == "Pompeius":
            assert session.act("Pompeius", "Pompeius ends command").ok
            snap = session.snapshot()
        at_start = {}
        for b in virtual.for_viewer("Pompeius")["blocks"]:
            if b["side"] == "Caesar":
                at_start.setdefault(b["at"], []).append(b["token"])
        # The Pi's move: a block from a place where it has several, not the first there, between two
        # places each with a loop of its own (a move inside a shared zone is no move for the table).
        readers = virtual.reader_map

        def own_loop(at: int) -> bool:
            return len(readers.place(readers.index_of(BOARD.loc_names[at])).locations) == 1

        moves = [m for m in snap.side("Caesar").legal if isinstance(m, Move) and len(m.path) == 2
                 and own_loop(m.path[0]) and own_loop(m.path[1])]
        move = next(m for m in moves if len(at_start.get(BOARD.loc_names[m.path[0]], [])) > 2
                    and virtual._token[BOARD.blocks[m.block].key] != at_start[BOARD.loc_names[m.path[0]]][0])
        origin, dest = BOARD.loc_names[move.path[0]], BOARD.loc_names[move.path[1]]
        assert session.act("Caesar", str(move)).ok
        step = session.snapshot().side("Pompeius").table["instructions"][0]
        assert (step["code"], step["params"]["from"], step["params"]["to"]) == ("table.move", origin, dest)
        (at,) = step["params"]["positions"]
        token = at_start[origin][at - 1]                     # the page's at-th Caesar block there
        assert virtual._block(token) == BOARD.blocks[move.block].key
        virtual.lift(token)
        assert session.snapshot().side("Pompeius").table["instructions"][0]["code"] == "table.right-pick"
        virtual.move(token, dest)
        assert session.snapshot().side("Pompeius").table["instructions"] == []
        row = [b["token"] for b in virtual.for_viewer("Pompeius")["blocks"]
               if b["at"] == dest and b["side"] == "Caesar"]
        assert row[-1] == token                              # set down at the right end
    finally:
        session.stop()

"""The Pi's blocks on the board are handled blind:
after the Pi's move the player reads only "a Caesar block", with its position in the row of the
Pi's blocks there ("no. 2 from the left": the order he set them down); the readers tell which block
he lifted, so a wrong one is told "not that one" and sent back to the right end of its row, the
right one "that one" and sent where the Pi moved it. Nothing names the Pi's blocks to the player
or the TV, and what he reads depends on the order of his own hands only (the invariant below)."""
from pathlib import Path

import pytest

from engine import BOARD
from firmware_bridge.board.reader_map import ReaderMap
from rubicon.table.reconcile import expected_place

from .physical_rig import Rig, record_lines

OPENING = record_lines("first_turn_705.txt", upto="Caesar moves")


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path / "journal.sqlite3")
    r.table.automated.add("Caesar")          # the Pi plays Caesar
    r.act(*OPENING)
    r.set_board()
    r.buzzes.clear()
    yield r
    r.stop()


def texts(rig, viewer):
    return [i["text"] for i in rig.part(viewer)["instructions"]]


def test_the_player_moves_the_pis_block_blind_and_a_wrong_one_is_sent_back(rig):
    rig.act("Caesar moves Legio 8 Genua-Roma")          # the Pi's decision, as its BotPlayer sends it
    # Genua's Caesar blocks were set down Antonius, Legio 8, Legio 12 (set_board's order).
    for viewer in ("public", "Pompeius"):
        assert texts(rig, viewer) == ["move a Caesar block (no. 2 from the left) from Genua to Roma"]
    rig.play('lift Genua "C Legio 12"')                  # the player takes the 3rd: the wrong one
    assert texts(rig, "Pompeius")[0] == "not that one: put it back in Genua, at the right end of its row"
    assert rig.part("Pompeius")["instructions"][0]["code"] == "table.wrong-pick"
    rig.play('place Genua "C Legio 12"\nlift Genua "C Legio 8"')   # put back; this time the right one
    assert texts(rig, "Pompeius") == ["that one: set it down in Roma"]
    assert rig.part("Pompeius")["instructions"][0]["code"] == "table.right-pick"
    rig.play('place Roma "C Legio 8"')
    assert all(texts(rig, v) == [] for v in ("public", "Pompeius", "Caesar"))
    assert rig.buzzes == [] or all(kind != "illegal" for kind, _ in rig.buzzes)
    for viewer in ("public", "Pompeius"):
        part = repr(rig.part(viewer))
        assert "Legio 8" not in part and "Legio 12" not in part


def test_the_pis_blocks_are_never_read_as_its_own_placements(rig):
    """A Caesar block carried to a legal destination by the player is not a Caesar move: only the
    Pi decides its moves; the board must follow the game."""
    rig.play('lift Genua "C Legio 12"\nplace Roma "C Legio 12"')
    assert rig.part("Pompeius")["instructions"][0]["code"] == "table.move-back"
    assert rig.session.snapshot().lines == len(OPENING)


def _rig_with_genua_order(tmp_path, order):
    r = Rig(tmp_path / "journal.sqlite3")
    r.table.automated.add("Caesar")
    r.act(*OPENING)
    r.set_board(skip=("Genua",))
    r.play("\n".join(f'place Genua "C {name}"' for name in order))
    return r


def test_what_the_player_reads_depends_on_his_hands_not_on_the_pis_blocks(tmp_path):
    """The invariant (hidden information): two games where the Pi moves a different block of
    Genua, set down in orders that put it at the same position, read the same to the player and
    the TV at every step, the wrong pick and the right one included. So nothing he reads tells
    which block it is."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = _rig_with_genua_order(tmp_path / "a", ("Antonius", "Legio 8", "Legio 12"))
    b = _rig_with_genua_order(tmp_path / "b", ("Antonius", "Legio 12", "Legio 8"))
    try:
        steps_a = ["", 'lift Genua "C Antonius"', 'place Genua "C Antonius"', 'lift Genua "C Legio 8"',
                   'place Roma "C Legio 8"']
        steps_b = ["", 'lift Genua "C Antonius"', 'place Genua "C Antonius"', 'lift Genua "C Legio 12"',
                   'place Roma "C Legio 12"']
        a.act("Caesar moves Legio 8 Genua-Roma")
        b.act("Caesar moves Legio 12 Genua-Roma")
        seen = []
        for step_a, step_b in zip(steps_a, steps_b, strict=True):
            if step_a:
                a.play(step_a)
                b.play(step_b)
            for viewer in ("public", "Pompeius"):
                assert a.part(viewer) == b.part(viewer), (step_a, viewer)
            seen.append(texts(a, "Pompeius"))
        assert seen == [
            ["move a Caesar block (no. 2 from the left) from Genua to Roma"],
            # Antonius in hand is in no row: the Pi's block is the 1st of the two left.
            ["not that one: put it back in Genua, at the right end of its row",
             "move a Caesar block (no. 1 from the left) from Genua to Roma"],
            # Antonius went to the right end: the Pi's block is now the 1st.
            ["move a Caesar block (no. 1 from the left) from Genua to Roma"],
            ["that one: set it down in Roma"],
            [],
        ]
    finally:
        a.stop()
        b.stop()


def test_the_pis_levy_names_the_pool_block_by_its_place_in_the_row(tmp_path):
    """The issue's case: the Pi levies from a pool of a dozen unnamed blocks; the player reads
    which one from the left (the order he set the pool down), lifts it once, and it is right. On a
    board whose pools have readers (the shipped layout senses none: docs/bot.md)."""
    with_pools = ReaderMap.load(Path(__file__).parents[1] / "rfid" / "readers_with_pools.toml")
    r = Rig(tmp_path / "journal.sqlite3", readers=with_pools)
    try:
        r.table.automated.add("Pompeius")
        r.act(*record_lines("first_turn_705.txt", upto="Pompeius moves"))
        r.set_board()
        r.act("Pompeius levies Legio 38 in Alexandria")
        step = r.part("Caesar")["instructions"][0]
        assert step["code"] == "table.place" and step["params"]["from"] == "Pompeius levy pool"
        (at,) = step["params"]["positions"]
        assert at > 1
        assert step["text"] == (f"take a Pompeius block (no. {at} from the left) from the Pompeius levy pool and "
                                f"place it in Alexandria")
        # The pool was set down in the order of set_board: the at-th of Pompeius's pool blocks.
        state = r._state()
        order = [b.key for b in BOARD.blocks if expected_place(state, b.id)[0] == "Pompeius levy pool"]
        order.append("P Legio 38")         # levied now: the engine has it in Alexandria, the readers in the pool
        order = [k for k in [b.key for b in BOARD.blocks] if k in order]
        assert order[at - 1] == "P Legio 38"
        r.play('lift "Pompeius levy pool" "P Legio 38"')
        assert texts(r, "Caesar") == ["that one: set it down in Alexandria"]
        r.play('place Alexandria "P Legio 38"')
        assert texts(r, "Caesar") == [] and texts(r, "public") == []
        assert "Legio 38" not in repr(r.part("Caesar")) and "Legio 38" not in repr(r.part("public"))
    finally:
        r.stop()

"""The Pi's blocks handled blind, as a person reads the table: a block lifted
from a shared zone where the game has it is "not that one", never "that one" (the zone's reader
names its first location, which is not where the block stood); a right block lifted for a later
step than the one asked is told apart, never read as "yes"; a levy of the Pi's on the virtual
board names the pool block by its place in the row the page shows."""
from engine import BOARD, Levy
from firmware_bridge.virtual_table import layout_from_views

from .driver import pi_plays_caesar
from .physical_rig import Rig, record_lines

OPENING = record_lines("first_turn_705.txt", upto="Caesar moves")


def pi_rig(tmp_path):
    rig = Rig(tmp_path / "journal.sqlite3")
    rig.table.automated.add("Caesar")          # the Pi plays Caesar
    rig.act(*OPENING)
    rig.set_board()
    return rig


def steps(rig, viewer="Pompeius"):
    return [(i["code"], i["text"]) for i in rig.part(viewer)["instructions"]]


def test_a_block_lifted_where_the_game_has_it_on_a_shared_zone_is_not_that_one(tmp_path):
    rig = pi_rig(tmp_path)
    try:
        rig.act("Caesar moves Legio 8 Genua-Roma")
        rig.play('lift Genua "C Legio 8"\nplace Roma "C Legio 8"')     # Roma shares Asculum's antenna
        assert steps(rig) == []
        rig.play('lift Roma "C Legio 8"')       # a block that stands where it belongs: no step asks for it
        assert steps(rig)[0] == ("table.wrong-pick", "not that one: put it back in Roma, at the right end of its row")
        rig.play('place Roma "C Legio 8"')
        assert steps(rig) == []
    finally:
        rig.stop()


def test_a_right_block_lifted_for_a_later_step_is_not_read_as_yes(tmp_path):
    rig = pi_rig(tmp_path)
    try:
        rig.act("Caesar moves Legio 8 Genua-Roma", "Caesar moves Legio 13 Ravenna-Asculum")
        first = rig.part("Pompeius")["instructions"][0]["params"]["from"]
        later, back_to = ("Ravenna", "Legio 13") if first == "Genua" else ("Genua", "Legio 8")
        rig.play(f'lift {later} "C {back_to}"')        # the block of the other step, not the one asked
        code, text = steps(rig)[0]
        assert code == "table.other-pick" and not text.startswith("that one"), text
        assert text.startswith("not the block asked for")
        dest = "Asculum" if back_to == "Legio 13" else "Roma"
        rig.play(f'place {dest} "C {back_to}"')
        other = "Legio 8" if back_to == "Legio 13" else "Legio 13"
        rig.play(f'lift {first} "C {other}"')          # now the block the step asks for: "that one"
        assert steps(rig)[0][0] == "table.right-pick"
        for viewer in ("public", "Pompeius"):
            assert "Legio" not in repr(rig.part(viewer))          # nothing names the Pi's blocks
    finally:
        rig.stop()


def test_a_levy_of_the_pis_names_the_pool_block_as_the_page_orders_it(tmp_path):
    virtual, session = pi_plays_caesar(tmp_path, seed=2)
    try:
        virtual.arrange(layout_from_views(session.snapshot().side_views(), virtual.catalog))
        for _ in range(2):
            for side in ("Caesar", "Pompeius"):
                assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
        if session.snapshot().waiting_for[0] == "Pompeius":
            assert session.act("Pompeius", "Pompeius ends command").ok
        levy = next(a for a in session.snapshot().side("Caesar").legal if isinstance(a, Levy))
        pool = [b["token"] for b in virtual.for_viewer("Pompeius")["blocks"] if b["at"] == "pool:Caesar"]
        assert session.act("Caesar", str(levy)).ok
        step = session.snapshot().side("Pompeius").table["instructions"][0]
        assert step["code"] == "table.place" and step["params"]["from"] == "Caesar levy pool"
        (at,) = step["params"]["positions"]                 # said before anything is lifted
        token = pool[at - 1]                                 # the page's at-th block of the Pi's pool
        assert virtual._block(token) == BOARD.blocks[levy.block].key
        virtual.lift(token)
        assert session.snapshot().side("Pompeius").table["instructions"][0]["code"] == "table.right-pick"
        virtual.move(token, BOARD.loc_names[levy.loc])
        assert session.snapshot().side("Pompeius").table["instructions"] == []
    finally:
        session.stop()

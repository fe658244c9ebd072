"""The last physical moves as sensor-event scripts: an amphibious move (a land block from a
port across a friendly sea to another port, 6.3) and blocks from two origins converging on one
destination, each confirmed with Done and journalled as the record would write it."""
from .physical_rig import record_lines
from .test_physical import journal, press_done
from .test_physical_more import rig_at

EVENTS = record_lines("events_705.txt")
AMPHIBIOUS = "Caesar moves Legio 11 Massilia-Mare Hispanum-Carthago Nova"
OPENING = record_lines("first_turn_705.txt", upto="Caesar moves")


def test_an_amphibious_move_is_the_block_lifted_in_one_port_and_set_down_in_another(tmp_path):
    rig = rig_at(tmp_path, EVENTS[:EVENTS.index(AMPHIBIOUS)])
    try:
        before = len(journal(rig))
        rig.play('''
            lift Massilia "C Legio 11"
            place "Mare Hispanum" "C Legio 11"     # set down on the sea on its way: refused (6.3) ...
        ''')
        assert [m["rule"] for m in rig.part("Caesar")["messages"]] == ["6.3"]     # why the stop at sea buzzed
        rig.play('''
            lift "Mare Hispanum" "C Legio 11"
            place "Carthago Nova" "C Legio 11"     # ... and moved on: one move
            lift Massilia "C Legio 14"
            place Lugdunum "C Legio 14"         # Narbo shares Massilia's reader: Lugdunum has its own
        ''')
        assert rig.buzzes[:2] == [("ok", "Caesar"), ("ok", "Caesar")] and rig.buzzes[-1] == ("ok", "Caesar")
        part = rig.part("Caesar")
        assert part["instructions"] == [] and part["ask"] is None, part
        assert part["messages"] == []        # moved on: the refusal of the stop at sea is over
        outcome = press_done(rig, "Caesar")
        assert outcome.accepted == (AMPHIBIOUS, "Caesar moves Legio 14 Massilia-Lugdunum", "Caesar ends command")
        assert journal(rig)[before:] == list(outcome.accepted)
        assert rig.table.sensed.where("C Legio 11") == "Carthago Nova"
    finally:
        rig.stop()


def test_an_amphibious_move_after_a_land_move_is_refused_with_its_rule_and_changes_nothing(tmp_path):
    rig = rig_at(tmp_path, EVENTS[:EVENTS.index(AMPHIBIOUS)])
    try:
        before = len(journal(rig))
        rig.play('lift Massilia "C Legio 14"\nplace Lugdunum "C Legio 14"\n'
                 'lift Massilia "C Legio 11"\nplace "Carthago Nova" "C Legio 11"')
        assert rig.buzzes[-1] == ("ok", "Caesar")        # read; the verdict is on his phone
        message = rig.part("Caesar")["messages"][0]
        assert message["rule"].startswith("6.3"), message
        assert rig.part("Caesar")["instructions"][0]["text"] == "put Legio 11 back in Massilia (from Carthago Nova)"
        assert press_done(rig, "Caesar").refusal["code"] == "table.placement-refused"
        assert len(journal(rig)) == before
    finally:
        rig.stop()


def test_blocks_from_two_origins_converge_on_one_destination(tmp_path):
    rig = rig_at(tmp_path, OPENING)
    try:
        before = len(journal(rig))
        rig.play('''
            lift Genua "C Legio 8"
            lift Ravenna "C Legio 13"      # one block in each hand, from two locations
            place Roma "C Legio 8"
            place Roma "C Legio 13"
            lift Genua "C Legio 12"
            place Roma "C Legio 12"
        ''')
        # Roma shares its antenna with Asculum, which each could reach too: his phone asks, block by block.
        assert len(rig.answer_all("Caesar", "-Roma")) == 3
        part = rig.part("Caesar")
        assert part["instructions"] == [] and part["ask"] is None and part["messages"] == [], part
        outcome = press_done(rig, "Caesar")
        assert outcome.accepted == ("Caesar moves Legio 8 Genua-Roma", "Caesar moves Legio 13 Ravenna-Roma",
                                    "Caesar moves Legio 12 Genua-Roma", "Caesar ends command")
        assert journal(rig)[before:] == list(outcome.accepted)
        assert rig.part("public")["instructions"] == []     # the engine has them in Roma, as sensed
    finally:
        rig.stop()


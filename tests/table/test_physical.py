"""The physical table through the session: sensor-event scripts (hardware/EVENTS.md) drive
placements that become notation lines on Done; refusals buzz, tell the acting side and change
nothing; the board is reconciled; hidden blocks are never named to the wrong viewer."""
import pytest

from firmware_bridge.events import PanelPressed

from .physical_rig import READERS, Rig, record_lines

OPENING = record_lines("first_turn_705.txt", upto="Caesar moves")


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path / "journal.sqlite3")
    yield r
    r.stop()


@pytest.fixture
def command(rig):
    """Caesar's first command of 705 (4/1 played), the board sensed as the engine has it."""
    rig.act(*OPENING)
    rig.set_board()
    rig.buzzes.clear()
    return rig


def journal(rig):
    return rig.session.journal.lines(rig.session.snapshot().game_id)[1]


def test_group_move_two_location_move_navis_attack_and_levy_become_lines_on_done(command):
    rig = command
    rig.play('''
        lift Genua "C Legio 8"
        place Roma "C Legio 8"
        lift Genua "C Legio 12"
        lift Genua "C Antonius"          # two blocks in hand at once is normal
        place Roma "C Legio 12"
        place Roma "C Antonius"
        lift Massilia "C Navis 1"
        place "Mare Hispanum" "C Navis 1"
        lift Narbo "C Legio 7"
        place Tarraco "C Legio 7"
        place Roma "C Legio 17"          # from the levy pool, which no reader senses
    ''')
    # Roma and Asculum share an antenna: each block from Genua could have gone to either, and Caesar's
    # phone asks (the levy can only be Roma's: Asculum is vacant).
    for label in ("Legio 8", "Legio 12", "Antonius"):
        ask = rig.part("Caesar")["ask"]
        assert ask["prompt"] == f"{label} set on Asculum/Roma: which did you mean?"
        assert sorted(ask["options"]) == ["Genua-Ravenna-Asculum", "Genua-Roma", "Genua-Roma-Asculum"]
        assert rig.session.answer("Caesar", "Genua-Roma").ok
    # Tarraco shares its reader with Bilbilis, which Legio 7 could reach by Burdigala: asked too.
    ask = rig.part("Caesar")["ask"]
    assert ask["prompt"] == "Legio 7 set on Bilbilis/Tarraco: which did you mean?"
    assert sorted(ask["options"]) == ["Narbo-Burdigala-Bilbilis", "Narbo-Tarraco (attack)"]
    assert rig.session.answer("Caesar", "Narbo-Tarraco (attack)").ok
    part = rig.part("Caesar")
    assert part["instructions"] == [] and part["ask"] is None, part
    assert ("illegal", "Caesar") not in rig.buzzes
    before = len(journal(rig))
    outcome = press_done(rig, "Caesar")
    assert outcome.ok, outcome.refusal
    assert outcome.accepted == ("Caesar moves Legio 8 Genua-Roma", "Caesar moves Legio 12 Genua-Roma",
                                "Caesar moves Antonius Genua-Roma", "Caesar moves Navis 1 Massilia-Mare Hispanum",
                                "Caesar moves Legio 7 Narbo-Tarraco", "Caesar levies Legio 17 in Roma",
                                "Caesar ends command")
    assert journal(rig)[before:] == list(outcome.accepted)
    assert rig.session.snapshot().waiting_for == ("Pompeius",)


def press_done(rig, side):
    return rig.session.sense(PanelPressed("panel", side=side, button="done"))


def test_an_ambiguous_path_is_asked_on_the_acting_phone_and_answered(command):
    rig = command
    rig.play('lift Genua "C Legio 8"\nplace Asculum "C Legio 8"')     # Asculum/Roma's antenna
    ask = rig.part("Caesar")["ask"]
    assert sorted(ask["options"]) == ["Genua-Ravenna-Asculum", "Genua-Roma", "Genua-Roma-Asculum"]
    assert rig.part("Pompeius")["ask"] is None and rig.part("public")["ask"] is None
    refused = press_done(rig, "Caesar")
    assert refused.refusal["code"] == "table.ask-open"
    assert rig.session.answer("Pompeius", "Genua-Ravenna-Asculum").refusal["code"] == "table.stale-answer"
    assert rig.session.answer("Caesar", "Genua-Narbo").refusal["code"] == "table.unknown-option"
    assert rig.session.answer("Caesar", "Genua-Ravenna-Asculum").ok
    outcome = rig.session.done("Caesar")
    assert outcome.accepted == ("Caesar moves Legio 8 Genua-Ravenna-Asculum", "Caesar ends command")


def test_lifted_and_put_back_is_nothing_and_a_wrong_stop_then_a_move_is_one_move(command):
    rig = command
    rig.play('lift Genua "C Legio 12"\nplace Genua "C Legio 12"')
    assert rig.part("Caesar")["instructions"] == [] and rig.buzzes == []
    rig.play('lift Genua "C Legio 8"\nplace Neapolis "C Legio 8"')     # not a legal move
    # The room hears the block read, as for a legal one: the verdict is on Caesar's phone only.
    assert rig.buzzes[-1] == ("ok", "Caesar")
    msg = rig.part("Caesar")["messages"][0]
    assert msg["code"] and msg["text"]
    assert rig.part("Caesar")["instructions"][0]["text"] == "put Legio 8 back in Genua (from Neapolis/Sipontum)"
    assert rig.part("Pompeius")["instructions"] == [] and rig.part("public")["instructions"] == []
    assert rig.part("Pompeius")["messages"] == []
    lines = len(journal(rig))
    assert press_done(rig, "Caesar").refusal["code"] == "table.placement-refused"
    # Said to Caesar's phone alone (the room hears the buzzer), until the placement is put right.
    assert rig.part("Caesar")["messages"][0]["code"] == "table.placement-refused"
    assert rig.part("Pompeius")["messages"] == [] and rig.part("public")["messages"] == []
    assert len(journal(rig)) == lines
    rig.play('lift Neapolis "C Legio 8"\nplace Roma "C Legio 8"')
    assert rig.buzzes[-1] == ("ok", "Caesar")
    assert rig.session.answer("Caesar", "Genua-Roma").ok      # Roma or Asculum: one antenna
    assert rig.session.done("Caesar").accepted == ("Caesar moves Legio 8 Genua-Roma", "Caesar ends command")


def test_a_block_of_the_side_who_may_not_act_is_refused_until_put_back(command):
    rig = command
    rig.play('lift Neapolis "P Legio 1"\nplace Roma "P Legio 1"')
    assert rig.buzzes[-1] == ("illegal", "Pompeius")
    assert rig.part("Pompeius")["messages"][0]["code"] == "table.not-your-turn"
    assert "Legio 1" in rig.part("Pompeius")["messages"][0]["text"]
    assert rig.part("Caesar")["instructions"][0]["text"] == "put a Pompeius block back in Neapolis (from Asculum/Roma)"
    assert rig.part("public")["waiting"]["board"]["text"] == "put a Pompeius block back in Neapolis (from Asculum/Roma)"
    before = rig.session.snapshot().lines
    assert rig.session.done("Caesar").refusal["code"] == "table.board-not-right"
    assert rig.session.snapshot().lines == before
    rig.play('lift Roma "P Legio 1"\nplace Neapolis "P Legio 1"')
    assert rig.part("Caesar")["instructions"] == []
    assert rig.session.done("Caesar").accepted == ("Caesar ends command",)


def test_an_unknown_tag_and_a_tag_on_no_known_reader_are_refused_until_taken_off(command):
    rig = command
    rig.play("place Genua 0BADBEEF\nplace 120 0BADF00D")
    assert rig.buzzes == [("illegal", "Caesar"), ("illegal", "Caesar")]
    codes = [i["code"] for i in rig.part("public")["instructions"]]
    assert codes == ["table.unknown-tag", "table.no-reader"]
    assert rig.part("Caesar")["messages"][0]["code"] == "table.no-reader"
    assert rig.session.done("Caesar").refusal["code"] == "table.board-not-right"
    rig.play("lift Genua 0BADBEEF\nlift 120 0BADF00D")
    assert rig.part("public")["instructions"] == []


def test_pompeius_attacks_responds_and_levies_at_a_strength_his_phone_chose(command):
    rig = command
    for line in record_lines("first_turn_705.txt", upto="Pompeius moves")[len(OPENING):]:
        rig.act(line)
    rig.set_board()
    rig.play('''
        lift Neapolis "P Legio 1"
        place Roma "P Legio 1"
        lift "Carthago Nova" "P Legio 2"
        place Tarraco "P Legio 2"
        place Alexandria "P Legio 38"
    ''')
    # Legio 1 on the Asculum/Roma antenna is Roma: Asculum is beyond its reach, no question.
    # Legio 2 on the Bilbilis/Tarraco antenna could be either (Bilbilis by Toletum): asked first.
    ask = rig.part("Pompeius")["ask"]
    assert ask["prompt"] == "Legio 2 set on Bilbilis/Tarraco: which did you mean?"
    assert sorted(ask["options"]) == ["Carthago Nova-Tarraco (response)", "Carthago Nova-Toletum-Bilbilis"]
    assert rig.session.answer("Pompeius", "Carthago Nova-Tarraco (response)").ok
    ask = rig.part("Pompeius")["ask"]
    assert ask["options"][:2] == ["Legio 38 in Alexandria at I", "Legio 38 in Alexandria at II"]
    assert rig.session.answer("Pompeius", "Legio 38 in Alexandria at II").ok
    outcome = rig.session.done("Pompeius")
    assert outcome.accepted == ("Pompeius moves Legio 1 Neapolis-Roma", "Pompeius moves Legio 2 Carthago Nova-Tarraco",
                                "Pompeius levies Legio 38 in Alexandria", "Pompeius adds a step to Legio 38",
                                "Pompeius ends command")


BATTLE = record_lines("battle_first_turn_705.txt")
CAESAR_HIDDEN = ("Legio 8", "Legio 12", "Legio 13", "Legio 17", "Antonius", "Octavian")


def assert_no_leak(rig, hidden=CAESAR_HIDDEN, viewers=("public", "Pompeius")):
    import json
    import re
    for viewer in viewers:
        text = json.dumps(rig.part(viewer))
        for name in hidden:
            assert not re.search(rf"\b{name}\b", text), (viewer, name, text)


def test_a_retreat_is_a_placement_confirmed_with_done(rig):
    stop = BATTLE.index("Pompeius retreats Pompeius to Neapolis")
    rig.act(*BATTLE[:stop])
    rig.set_board()
    rig.play('lift Roma "P Pompeius"\nplace Neapolis "P Pompeius"')
    assert rig.session.done("Pompeius").accepted == ("Pompeius retreats Pompeius to Neapolis",)


def test_a_block_the_engine_eliminated_after_a_hit_is_a_removal_instruction(tmp_path):
    lines = record_lines("battle_winter_selfplay_99_23.txt")
    hit = lines.index("Pompeius takes the hit on Auxilia 2")
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.act(*lines[:hit])
        rig.set_board()
        assert rig.part("Pompeius")["instructions"] == []
        rig.act(lines[hit])
        first = rig.part("Pompeius")["instructions"][0]
        assert first["code"] == "table.remove" and first["text"].startswith("remove Auxilia 2 from ")
        assert first["text"].endswith("put it in the Pompeius levy pool")
        where = first["params"]["from"]
        rig.play(f'lift "{where}" "P Auxilia 2"')     # into the pool, which no reader senses
        assert all(i["code"] != "table.remove" for i in rig.part("public")["instructions"])
    finally:
        rig.stop()


def test_winter_navis_go_to_port_by_placement(tmp_path):
    lines = record_lines("battle_winter_selfplay_99_23.txt")
    stop = lines.index("Caesar winters Navis 1 in Roma")
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.act(*lines[:stop])
        rig.set_board()
        sea = rig.table.sensed.where("C Navis 1")
        rig.play(f'lift "{sea}" "C Navis 1"\nplace Roma "C Navis 1"')
        assert rig.session.done("Caesar").accepted[0] == "Caesar winters Navis 1 in Roma"
    finally:
        rig.stop()


def test_set_up_is_reconciled_one_instruction_at_a_time_named_only_to_the_owner(rig):
    rig.act(OPENING[0])
    caesar, pompeius, public = (rig.part(v)["instructions"] for v in ("Caesar", "Pompeius", "public"))
    assert any(i["text"] == "place Legio 8 in Genua" for i in caesar)
    assert any(i["text"] == "place 3 Caesar blocks in Genua" for i in pompeius)
    assert any(i["text"] == "place 3 Caesar blocks in Genua" for i in public)
    assert rig.part("public")["waiting"]["board"] is not None
    assert_no_leak(rig)
    rig.set_board()
    assert rig.part("public")["instructions"] == []
    assert rig.part("Caesar")["waiting"] == {"board": None, "ask": None, "dice": None}
    assert [d["kind"] for d in rig.session.snapshot().side("Caesar").pending] == ["discard", "discard"]


def test_a_restart_reconciles_the_board_and_both_players_may_override_a_silent_reader(tmp_path):
    first = Rig(tmp_path / "j.sqlite3")
    first.act(*OPENING)
    first.stop()
    rig = Rig(tmp_path / "j.sqlite3")     # the power came back: nothing sensed yet
    try:
        assert rig.session.snapshot().lines == len(OPENING)
        assert "place Legio 8 in Genua" in [i["text"] for i in rig.part("Caesar")["instructions"]]
        rig.set_board(skip=("Genua",))
        assert [i["text"] for i in rig.part("Caesar")["instructions"]] == [
            "place Antonius in Genua", "place Legio 8 in Genua", "place Legio 12 in Genua"]
        rig.play(f'diagnostic reader_silent "reader {READERS.index_of("Genua")} (Genua) does not answer"')
        assert [i["text"] for i in rig.part("public")["instructions"]] == [
            "the reader of Genua does not answer: check 3 Caesar blocks there by hand, then both players confirm"]
        assert_no_leak(rig)
        assert rig.session.done("Caesar").refusal["code"] == "table.board-not-right"
        assert rig.session.confirm("Caesar").ok
        assert rig.part("Caesar")["instructions"] != []
        assert rig.session.confirm("Pompeius").ok
        assert rig.part("Caesar")["instructions"] == []
        assert rig.session.done("Caesar").accepted == ("Caesar ends command",)
    finally:
        rig.stop()


def test_the_panel_shows_a_placement_read_whatever_the_verdict_and_red_for_what_the_room_sees(tmp_path):
    """A verdict on a hidden block would tell the room what it may be: the LED and buzzer say
    "read" for a legal and an illegal placement alike. Red is for what everyone sees anyway: a
    block of the side that may not act moved."""
    from gpiozero.pins.mock import MockFactory

    from firmware_bridge.panel import Panel, PanelConfig
    from rubicon.table.feedback import panel_feedback

    panel = Panel(PanelConfig.load(), pin_factory=MockFactory())
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.table.feedback = panel_feedback(panel)
        rig.act(*OPENING)
        rig.set_board()
        rig.play('lift Genua "C Legio 8"\nplace Neapolis "C Legio 8"')     # refused (see his phone)
        illegal = panel.leds["Caesar"].color
        rig.play('lift Neapolis "C Legio 8"\nplace Roma "C Legio 8"')      # a legal move
        assert illegal == panel.leds["Caesar"].color == (0, 1, 0)
        rig.play('lift Neapolis "P Legio 1"\nplace Roma "P Legio 1"')      # Pompeius may not act
        assert panel.leds["Pompeius"].color == (1, 0, 0)
    finally:
        rig.stop()
        panel.close()


def test_what_the_room_reads_of_a_placement_is_the_same_whether_the_rules_allow_it(command):
    """The readers cannot tell whose hand set a block down: Pompeius could set Caesar's Legio 8
    during Caesar's command to learn from the table what it may be. Illegal, legal, and legal in
    two ways (a question on Caesar's phone): Pompeius's phone, the TV and the panel read the same."""
    rig = command
    seen, verdicts = set(), []
    for place in ("Neapolis", "Lugdunum", "Roma"):     # Roma: the Asculum/Roma antenna
        rig.buzzes.clear()
        rig.play(f'lift Genua "C Legio 8"\nplace {place} "C Legio 8"')
        caesar = rig.part("Caesar")
        verdicts.append((bool(caesar["instructions"]), caesar["ask"] is not None,
                         [p["line"] for p in caesar["placements"]]))
        seen.add(repr((rig.part("Pompeius"), rig.part("public"), rig.buzzes)))
        rig.play(f'lift {place} "C Legio 8"\nplace Genua "C Legio 8"')
    # Refused; legal, and listed on Caesar's phone as what his Done would play (whoever's hand it
    # was); legal two ways, asked.
    assert verdicts == [(True, False, []), (False, False, ["Caesar moves Legio 8 Genua-Lugdunum"]), (False, True, [])]
    assert len(seen) == 1, seen
    assert rig.part("Caesar")["placements"] == []
    assert rig.part("Pompeius")["placements"] == rig.part("public")["placements"] == []

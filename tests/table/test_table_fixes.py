"""The table's loose ends: a refused Done told to its side alone, and the panel's "your turn" LEDs
following whoever must act."""
from firmware_bridge.events import PanelPressed

from .physical_rig import Rig, record_lines
from .test_physical import CAESAR_HIDDEN, OPENING, assert_no_leak


def test_a_refused_done_is_said_to_its_side_alone_and_names_the_block_to_him(tmp_path):
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.act(*OPENING)
        rig.set_board()
        rig.play('lift Genua "C Legio 8"\nplace Neapolis "C Legio 8"')
        refused = rig.session.sense(PanelPressed("panel", side="Caesar", button="done"))
        assert refused.refusal["code"] == "table.placement-refused"
        said = rig.part("Caesar")["messages"][0]
        assert said["code"] == "table.placement-refused" and said["id"] == refused.message
        # Not even a neutral line for the others: the room hears the buzzer, the reason is his.
        assert rig.part("Pompeius")["messages"] == [] and rig.part("public")["messages"] == []
        assert_no_leak(rig, hidden=CAESAR_HIDDEN)
    finally:
        rig.stop()


def test_the_side_that_must_act_is_lit_and_the_other_is_off(tmp_path):
    from gpiozero.pins.mock import MockFactory

    from firmware_bridge.panel import Panel, PanelConfig
    from rubicon.table.feedback import panel_feedback

    panel = Panel(PanelConfig.load(), pin_factory=MockFactory())
    log: list = []
    rig = Rig(tmp_path / "j.sqlite3", feedback_log=log)
    recorder = rig.table.feedback
    drive = panel_feedback(panel)

    def both(kind, side):
        assert recorder is not None
        recorder(kind, side)
        drive(kind, side)

    rig.table.feedback = both
    blue, off = (0, 0, 1), (0, 0, 0)
    try:
        rig.act(OPENING[0])                       # the deal: both discard at once
        assert panel.leds["Caesar"].color == blue and panel.leds["Pompeius"].color == blue
        rig.act(*OPENING[1:])                     # Caesar commands
        assert log[-1] == ("your_turn", "Caesar")
        assert panel.leds["Caesar"].color == blue and panel.leds["Pompeius"].color == off
        rig.set_board()
        log.clear()
        rig.play('lift Genua "C Legio 8"\nplace Lugdunum "C Legio 8"')
        assert log == [("ok", "Caesar")]          # a placement does not announce the turn again
        assert rig.session.done("Caesar").ok
        assert log[-1] == ("your_turn", "Pompeius")
        assert panel.leds["Pompeius"].color == blue and panel.leds["Caesar"].color == off
    finally:
        rig.stop()
        panel.close()


def test_the_firing_sides_led_is_lit_while_his_dice_are_asked(tmp_path):
    log: list = []
    rig = Rig(tmp_path / "j.sqlite3", feedback_log=log)
    try:
        lines = record_lines("battle_first_turn_705.txt")
        fire = next(i for i, line in enumerate(lines) if " fires " in line)
        rig.act(*lines[:fire + 1])
        side = lines[fire].split()[0]
        assert rig.session.snapshot().waiting_for == ("Chance",)
        assert log[-1] == ("your_turn", side)
    finally:
        rig.stop()


def test_a_done_of_several_placements_is_one_journal_transaction(tmp_path):
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.act(*OPENING)
        rig.set_board()
        rig.play('lift Genua "C Legio 8"\nplace Lugdunum "C Legio 8"\n'
                 'lift Genua "C Legio 12"\nplace Lugdunum "C Legio 12"')
        commits: list[str] = []
        rig.session.journal._db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
        outcome = rig.session.done("Caesar")
        assert len(outcome.accepted) == 3 and commits == ["COMMIT"]
    finally:
        rig.stop()

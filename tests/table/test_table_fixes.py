"""The table's loose ends: a finished game's waiting line, a refused Done told neutrally to the
other side and the public, and the panel's "your turn" LEDs following whoever must act."""
from firmware_bridge.events import PanelPressed
from rubicon.table.waiting import waiting_line

from .physical_rig import Rig, record_lines
from .test_physical import CAESAR_HIDDEN, OPENING, assert_no_leak


def test_a_finished_game_says_who_won_or_that_it_is_a_draw_with_the_reason():
    draw = {"winner": None, "reason": "winter 60: Caesar 8 VP, Pompeius 8 VP, Rome vacant: draw",
            "vp": {"Caesar": 8, "Pompeius": 8}}
    assert waiting_line([], result=draw) == ("the game is over: a draw (winter 60: Caesar 8 VP, Pompeius 8 VP, "
                                             "Rome vacant: draw)")
    won = {"winner": "Pompeius", "reason": "", "vp": {"Caesar": 6, "Pompeius": 10}}
    assert waiting_line([], result=won) == "the game is over: Pompeius wins (Caesar 6 VP, Pompeius 10 VP)"


def test_a_refused_done_names_the_block_to_its_owner_only(tmp_path):
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.act(*OPENING)
        rig.set_board()
        rig.play('lift Genua "C Legio 8"\nplace Neapolis "C Legio 8"')
        refused = rig.session.sense(PanelPressed("panel", side="Caesar", button="done"))
        assert refused.refusal["code"] == "table.placement-refused"
        assert rig.part("Caesar")["messages"][0]["code"] == "table.placement-refused"
        for viewer in ("Pompeius", "public"):
            msg = rig.part(viewer)["messages"][0]
            # Not even the code or the rule: "refused there" would tell what the block may be.
            assert msg["code"] == "table.not-taken" and msg["params"] == {"side": "Caesar"} and msg["rule"] is None
            assert msg["text"] == "Caesar's Done was not taken: see his phone"
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
        rig.play('lift Genua "C Legio 8"\nplace Ravenna "C Legio 8"')
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
        assert rig.session.snapshot().waiting_for == ("chance",)
        assert log[-1] == ("your_turn", side)
    finally:
        rig.stop()


def test_a_done_of_several_placements_is_one_journal_transaction(tmp_path):
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.act(*OPENING)
        rig.set_board()
        rig.play('lift Genua "C Legio 8"\nplace Ravenna "C Legio 8"\n'
                 'lift Genua "C Legio 12"\nplace Ravenna "C Legio 12"')
        commits: list[str] = []
        rig.session.journal._db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
        outcome = rig.session.done("Caesar")
        assert len(outcome.accepted) == 3 and commits == ["COMMIT"]
    finally:
        rig.stop()

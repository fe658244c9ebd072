"""The power-cut promise with dice at the table: a session killed (-9) at random moments of a
game with battles rolled on the phones restarts with every acknowledged action and goes on
exactly as the uninterrupted game (12 kills here; bench/table_kill.py runs 200)."""
from .killing import kill_and_resume


def test_kill_9_during_battles_loses_no_acknowledged_action(tmp_path):
    report = kill_and_resume(tmp_path, steps=120, kills=12, table=True)
    assert report.kills == 12 and report.acknowledged > 0
    assert report.lost == [] and report.diverged == []
    assert report.resumed_equal

"""Journal first, then show: `rubicon run` killed (-9) the moment a roll was shown —
the virtual table's page answered with the faces, the tray ACKed — has the roll in the resumed
game; killed just before or after the roll's commit, the tray still holds it or the journal has
it, and the next start takes it exactly once. A slow disk (each commit 0.3 s late) makes an
answer given before the commit lose the roll every time (it did: the page and the tray were
answered first)."""
import random

import pytest

from firmware_bridge.sim.device_sim import DeviceSim

from .roll_kills import RollKills, dice_state_dir, journal_lines, tray_kill, virtual_answer_kill


def test_a_virtual_roll_the_page_showed_is_in_the_journal_after_a_kill(tmp_path):
    lines, _ = dice_state_dir(tmp_path)
    report = RollKills()
    virtual_answer_kill(tmp_path, report, 0)
    assert report.lost == [] and report.doubled == []
    assert report.kills == {"virtual-answer": 1} and report.shown == {"virtual-answer": 1}
    assert journal_lines(tmp_path)[lines].startswith("Chance rolls")


@pytest.mark.parametrize("point", ["tray-ack", "tray-before-commit", "tray-after-commit"])
def test_a_tray_roll_is_taken_exactly_once_whenever_the_table_dies(tmp_path, point):
    lines, _ = dice_state_dir(tmp_path)
    sim = DeviceSim("dice", heartbeat_ms=100, settle_ms=0, motion_ms=1).start()
    report = RollKills()
    try:
        tray_kill(tmp_path, sim, point, report, 0, random.Random(point))
    finally:
        sim.close()
    assert report.lost == [] and report.doubled == []
    assert report.kills == {point: 1}
    assert report.shown[point] == (1 if point == "tray-ack" else 0)
    assert journal_lines(tmp_path)[lines].startswith("Chance rolls")

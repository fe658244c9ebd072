"""The physical table through the session: sensor-event scripts (hardware/EVENTS.md) drive
placements that become notation lines on Done; refusals buzz, tell the acting side and change
nothing; the board is reconciled; hidden blocks are never named to the wrong viewer."""
import pytest

from .physical_rig import Rig, record_lines

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
        lift "Caesar levy pool" "C Legio 17"
        place Roma "C Legio 17"
    ''')
    part = rig.part("Caesar")
    assert part["instructions"] == [] and part["ask"] is None, part
    assert ("illegal", "Caesar") not in rig.buzzes
    before = len(journal(rig))
    outcome = rig.session.sense(__import__("firmware_bridge.events", fromlist=["PanelPressed"]).PanelPressed(
        "panel", side="Caesar", button="done"))
    assert outcome.ok, outcome.refusal
    assert outcome.accepted == ("Caesar moves Legio 8 Genua-Roma", "Caesar moves Legio 12 Genua-Roma",
                                "Caesar moves Antonius Genua-Roma", "Caesar moves Navis 1 Massilia-Mare Hispanum",
                                "Caesar moves Legio 7 Narbo-Tarraco", "Caesar levies Legio 17 in Roma",
                                "Caesar ends command")
    assert journal(rig)[before:] == list(outcome.accepted)
    assert rig.session.snapshot().waiting_for == ("Pompeius",)

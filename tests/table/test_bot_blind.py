"""The Pi's blocks on the board are handled blind (issue 12, at the table): after the Pi's move the
player reads only "a Caesar block" and places; the readers tell which block he lifted, so a wrong
one is sent back where it came from, the right one to where the Pi moved it. Nothing names the
Pi's blocks to the player or the TV."""
import pytest

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
    for viewer in ("public", "Pompeius"):
        assert texts(rig, viewer) == ["put a Caesar block back in Roma (from Genua)"]
    rig.play('lift Genua "C Legio 12"')                  # the player takes a Caesar block from Genua: the wrong one
    assert texts(rig, "Pompeius")[0] == "put a Caesar block back in Genua"
    rig.play('place Genua "C Legio 12"\nlift Genua "C Legio 8"')   # put back; this time the right one
    assert texts(rig, "Pompeius") == ["put a Caesar block back in Roma"]
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
    assert rig.part("Pompeius")["instructions"][0]["code"] == "table.move"
    assert rig.session.snapshot().lines == len(OPENING)

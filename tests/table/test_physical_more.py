"""More physical moves as sensor-event scripts: Jupiter's send, a regroup after a battle, a
winter disband, and the board reconciled after an undo and after loading a saved game."""
from engine import Game
from rubicon.journal import Journal

from .physical_rig import Rig, record_lines
from .test_physical import OPENING, assert_no_leak

EVENTS = record_lines("events_705.txt")
SELFPLAY = record_lines("battle_winter_selfplay_99_23.txt")


def rig_at(tmp_path, lines):
    rig = Rig(tmp_path / "j.sqlite3")
    rig.act(*lines)
    rig.set_board()
    rig.buzzes.clear()
    return rig


def test_jupiters_block_is_sent_by_setting_it_down_in_a_caesar_city(tmp_path):
    send = EVENTS.index("Caesar sends P Legio 5 to Narbo")
    rig = rig_at(tmp_path, EVENTS[:send])
    try:
        rig.play('lift Tarraco "P Legio 5"\nplace Narbo "P Legio 5"')
        assert ("illegal", "Caesar") not in rig.buzzes and rig.part("public")["instructions"] == []
        assert rig.session.done("Caesar").accepted == ("Caesar sends P Legio 5 to Narbo",)
    finally:
        rig.stop()


def test_another_block_moved_during_jupiters_send_is_its_owners_doing_not_the_senders(tmp_path):
    """While Caesar sends Jupiter's defector, a Pompeius block set down elsewhere is Pompeius's
    (told to him, to put back), not a refused send of Caesar's."""
    send = EVENTS.index("Caesar sends P Legio 5 to Narbo")
    rig = rig_at(tmp_path, EVENTS[:send])
    try:
        other = next(b for b in ("P Legio 1", "P Legio 2", "P Legio 3", "P Legio 4", "P Legio 6")
                     if rig.table.sensed.where(b) not in (None, "Tarraco"))
        where = rig.table.sensed.where(other)
        rig.play(f'lift "{where}" "{other}"\nplace Narbo "{other}"')
        assert rig.part("Pompeius")["messages"][0]["code"] == "table.not-your-turn"
        assert rig.part("Caesar")["messages"] == [] and ("illegal", "Caesar") not in rig.buzzes
        rig.play(f'lift Narbo "{other}"\nplace "{where}" "{other}"\nlift Tarraco "P Legio 5"\nplace Narbo "P Legio 5"')
        assert rig.session.done("Caesar").accepted == ("Caesar sends P Legio 5 to Narbo",)
    finally:
        rig.stop()


def test_a_regroup_after_a_battle_is_a_placement_confirmed_with_done(tmp_path):
    stop = SELFPLAY.index("Pompeius regroups Equitatus 1 to Bilbilis")
    rig = rig_at(tmp_path, SELFPLAY[:stop])
    try:
        where = rig.table.sensed.where("P Equitatus 1")
        # Tarraco shares its reader with Bilbilis: set down there, the block would be read where it
        # stood. Carthago Nova, a friendly neighbour with a loop of its own, is the regroup.
        rig.play(f'lift "{where}" "P Equitatus 1"\nplace "Carthago Nova" "P Equitatus 1"')
        assert rig.buzzes[-1] == ("ok", "Pompeius")
        assert rig.session.done("Pompeius").accepted == ("Pompeius regroups Equitatus 1 to Carthago Nova",
                                                         "Pompeius ends regroup")
    finally:
        rig.stop()


def test_a_winter_disband_is_the_block_set_in_its_levy_pool(tmp_path):
    stop = SELFPLAY.index("Caesar disbands Legio 7")
    rig = rig_at(tmp_path, SELFPLAY[:stop])
    try:
        where = rig.table.sensed.where("C Legio 7")
        rig.play(f'lift "{where}" "C Legio 7"')      # off the map: no reader senses the pool
        assert ("illegal", "Caesar") not in rig.buzzes, rig.part("Caesar")["messages"]
        accepted = rig.session.done("Caesar").accepted
        assert accepted[0] == "Caesar disbands Legio 7"
    finally:
        rig.stop()


def test_an_undo_is_reconciled_the_block_goes_back_where_the_game_has_it(tmp_path):
    rig = rig_at(tmp_path, OPENING)
    try:
        assert rig.session.act("Caesar", "Caesar moves Legio 8 Genua-Roma").ok
        rig.play('lift Genua "C Legio 8"\nplace Roma "C Legio 8"')
        assert rig.part("Caesar")["instructions"] == []
        assert rig.session.undo("Caesar").ok
        # It was set down in Roma, where the game had it: the map's name, not the zone's "Asculum/Roma".
        assert [i["text"] for i in rig.part("Caesar")["instructions"]] == [
            "put Legio 8 back in Genua (from Roma)"]
        assert rig.part("public")["waiting"]["board"] is not None
        assert_no_leak(rig)
        rig.play('lift Roma "C Legio 8"\nplace Genua "C Legio 8"')
        assert rig.part("Caesar")["instructions"] == []
    finally:
        rig.stop()


def test_a_loaded_saved_game_is_reconciled_before_play_goes_on(tmp_path):
    lines = record_lines("first_turn_705.txt")
    save = Game.load({"format": "rubicon-save/1", "options": {}, "lines": lines}).save(checkpoint=False)
    journal = Journal(tmp_path / "j.sqlite3")
    game_id = journal.new_game(save["options"])
    journal.append_many(game_id, list(save["lines"]))     # the saved game becomes the current game
    journal.close()
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        assert rig.session.snapshot().lines == len(lines)
        assert rig.part("public")["instructions"] and rig.part("public")["waiting"]["board"] is not None
        assert_no_leak(rig)
        rig.set_board()
        assert rig.part("public")["instructions"] == [] and rig.part("public")["waiting"]["board"] is None
    finally:
        rig.stop()

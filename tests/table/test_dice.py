"""Battles at the table: the session asks for exactly the dice the firing block rolls, takes a
roll of that size from the tray (or the phone, or typed faces) as the chance line, refuses any
other with a message to everyone, and tells each viewer what to turn or remove."""
import pytest

from engine import Game, instruction
from firmware_bridge.events import DeviceDown, DeviceUp, Diagnostic, DiceRolled, DiceState
from rubicon.journal import Journal
from rubicon.table.chance import RandomChance, TableChance
from rubicon.table.dice import DiceSource, RollDice, TypeDice
from rubicon.table.session import Sense, TableSession

from .driver import SEED, battle_journal, record_lines

TRAY = "dice@/dev/ttyACM0"
VIEWERS = (None, "Caesar", "Pompeius")


def table(session, viewer=None):
    return session.snapshot().for_viewer(viewer)["table"]


def sense(session, event):
    return session.submit(Sense(event)).result(30)


@pytest.fixture
def battle(tmp_path):
    """A session at Caesar's first shot in Roma (Antonius, A2: two dice), the tray plugged in."""
    s = TableSession(battle_journal(tmp_path / "j.sqlite3", until="Chance rolls 2 5"), chance=TableChance(SEED))
    s.start()
    assert sense(s, DeviceUp(TRAY, device_kind="dice")).ok
    yield s
    s.stop()


def journal_lines(session):
    return session.journal.lines(session.snapshot().game_id)[1]


def test_the_table_asks_every_viewer_for_exactly_the_firing_blocks_dice(battle):
    for viewer in VIEWERS:
        t = table(battle, viewer)
        assert t["dice"]["count"] == 2 and t["dice"]["by"] == "Caesar"
        name = "Antonius" if viewer == "Caesar" else "C Antonius"   # the owner reads the printed name
        assert t["dice"]["block"] == name and t["devices"] == {TRAY: "up"}
        assert t["waiting"] == {"board": None, "ask": None, "dice": "tray"}
    assert battle.snapshot().waiting_for == ("Chance",)


def test_a_tray_roll_of_that_size_is_applied_journaled_and_turned_into_instructions(battle):
    before = battle.snapshot().lines
    outcome = sense(battle, DiceRolled(TRAY, faces=(2, 5)))
    assert outcome.ok and outcome.accepted == ("Chance rolls 2 5",)
    assert journal_lines(battle)[-1] == "Chance rolls 2 5" and battle.snapshot().lines == before + 1
    assert table(battle)["dice"] is None
    game = Game.load({"format": "rubicon-save/1", "options": {"winter_order": "v1.01"}, "lines": journal_lines(battle)})
    effects = game.effects_at(-1)
    for viewer in VIEWERS:
        texts = [i["text"] for i in table(battle, viewer)["instructions"]]
        assert texts == [t for t in (instruction(e, viewer) for e in effects) if t is not None]
    assert [i["text"] for i in table(battle, "Pompeius")["instructions"]] == ["turn Legio 1 in Roma to III"]


@pytest.mark.parametrize("event,code", [
    (DiceRolled(TRAY, faces=(1, 2, 3)), "dice.wrong-count"),
    (DiceRolled(TRAY, faces=(6,)), "dice.wrong-count"),
    (DiceState(TRAY, state="crooked"), "dice.crooked"),
    (Diagnostic(TRAY, code="dice_mismatch", detail="roll 4 has 3 dice, 2 requested"), "dice.wrong-count"),
])
def test_a_wrong_roll_is_refused_with_a_message_to_everyone_and_changes_nothing(battle, event, code):
    before = battle.snapshot()
    outcome = sense(battle, event)
    assert outcome.refusal["code"] == code
    after = battle.snapshot()
    assert (after.lines, after.public.view, after.side_views()) == \
        (before.lines, before.public.view, before.side_views())
    assert journal_lines(battle) == journal_lines(battle)[:before.lines]
    for viewer in VIEWERS:
        assert [m["code"] for m in table(battle, viewer)["messages"]] == [code]
    assert table(battle)["dice"]["count"] == 2           # still asked
    assert sense(battle, DiceRolled(TRAY, faces=(2, 5))).ok
    assert table(battle)["messages"] == []                # the roll was taken: the refusal is moot


def test_a_roll_when_none_was_asked_is_refused(battle):
    assert sense(battle, DiceRolled(TRAY, faces=(2, 5))).ok     # now Pompeius must fire or pass
    before = battle.snapshot().lines
    outcome = sense(battle, DiceRolled(TRAY, faces=(4,)))
    assert outcome.refusal["code"] == "dice.not-asked" and outcome.refusal["rule"] == "7.4"
    assert battle.snapshot().lines == before
    assert [m["code"] for m in table(battle, "Caesar")["messages"]] == ["dice.not-asked"]


def test_the_phone_and_typed_faces_wait_for_the_tray_to_go_down(battle):
    assert battle.submit(RollDice("Caesar")).result(30).refusal["code"] == "dice.source"
    assert battle.submit(TypeDice("Caesar", (2, 5))).result(30).refusal["code"] == "dice.source"
    assert sense(battle, DeviceDown(TRAY, reason="unplugged")).ok
    messages = table(battle, "Pompeius")["messages"]      # the latest first
    assert messages[0]["code"] == "dice.tray-down" and "roll on the phone" in messages[0]["text"]
    assert table(battle)["devices"] == {TRAY: "down"}
    assert table(battle)["waiting"]["dice"] == "phone"
    assert battle.submit(RollDice("Pompeius")).result(30).refusal["code"] == "dice.not-your-roll"
    outcome = battle.submit(RollDice("Caesar")).result(30)
    assert outcome.ok and len(outcome.accepted[0].split()) == 4     # "Chance rolls F F": two dice


def test_typed_faces_are_checked_field_by_field(battle):
    assert battle.submit(DiceSource("Pompeius", "typed")).result(30).ok
    for faces in ((7, 1), ("a", 2), (), (1, 2, 3, 4, 5), (True, 2), None):
        refusal = battle.submit(TypeDice("Caesar", faces)).result(30).refusal
        assert refusal["code"] == "dice.faces" and refusal["params"]["field"] == "faces", faces
    assert battle.submit(TypeDice("Caesar", (3, 3, 3))).result(30).refusal["code"] == "dice.wrong-count"
    assert sense(battle, DiceRolled(TRAY, faces=(2, 5))).refusal["code"] == "dice.source"
    assert battle.submit(RollDice("Caesar")).result(30).refusal["code"] == "dice.source"
    assert battle.submit(TypeDice("Caesar", "2 5")).result(30).accepted == ("Chance rolls 2 5",)


def test_the_dice_source_option_is_checked(battle):
    refusal = battle.submit(DiceSource("Caesar", "pigeon")).result(30).refusal
    assert refusal["code"] == "table.option" and refusal["params"]["field"] == "dice source"
    assert battle.submit(DiceSource("Brutus", "phone")).result(30).refusal["code"] == "table.unknown-source"
    assert battle.submit(DiceSource("Caesar", "phone")).result(30).ok
    assert battle.submit(RollDice("Caesar")).result(30).ok


def test_a_seeded_phone_roll_is_the_same_for_the_same_position(tmp_path):
    """With a seeded source (tests) the phone's faces are drawn by the position; at a real table
    they come from the system's CSPRNG (tests/table/test_chance.py)."""
    results = []
    for n in range(2):
        s = TableSession(battle_journal(tmp_path / f"{n}.sqlite3", until="Chance rolls 2 5"),
                         chance=TableChance("same seed"), dice_source="phone")
        s.start()
        results.append(s.submit(RollDice("Caesar")).result(30).accepted)
        s.stop()
    assert results[0] == results[1]


def test_a_random_chance_session_rolls_by_itself_and_asks_for_no_dice(tmp_path):
    s = TableSession(battle_journal(tmp_path / "j.sqlite3"), chance=RandomChance(SEED))
    s.start()
    try:
        assert s.act("Caesar", "Caesar fights Roma").ok
        outcome = s.act("Caesar", "Caesar fires Antonius")
        assert outcome.ok and outcome.accepted[1].startswith("Chance rolls")
        assert table(s)["dice"] is None and table(s)["instructions"] is not None
    finally:
        s.stop()


def test_a_restart_draws_the_chance_due_after_the_last_journaled_action(tmp_path):
    """Killed between an action and the deal after it: the restarted session deals."""
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    game = journal.new_game(record_lines()[0])
    s = TableSession(journal, chance=RandomChance(SEED))
    s.start()
    try:
        assert s.snapshot().waiting_for == ("Caesar", "Pompeius") and s.snapshot().lines == 1
        assert journal.lines(game)[1][0].startswith("Chance deals")
    finally:
        s.stop()


def test_device_events_keep_the_devices_list_and_board_events_are_not_dice(battle):
    assert sense(battle, DeviceUp("board@/dev/ttyACM1", device_kind="board")).ok
    assert table(battle, "Caesar")["devices"] == {TRAY: "up", "board@/dev/ttyACM1": "up"}
    assert sense(battle, DeviceDown("board@/dev/ttyACM1", reason="cable")).ok
    assert table(battle)["devices"]["board@/dev/ttyACM1"] == "down"
    assert table(battle)["messages"] == []           # a board going down says nothing about dice
    version = battle.snapshot().version
    assert sense(battle, DiceState(TRAY, state="rolling")).ok
    assert battle.snapshot().version == version      # the dice tumbling change nothing shown


def test_with_a_sensed_board_the_roll_adds_only_what_sensors_cannot_see(tmp_path):
    from engine import BOARD
    from firmware_bridge.events import TagSeen
    from rubicon.table.physical import PhysicalTable
    from rubicon.table.reconcile import expected_place

    from .physical_rig import READERS, REGISTRY, SENSED

    physical = PhysicalTable(READERS, REGISTRY.block_of)
    s = TableSession(battle_journal(tmp_path / "j.sqlite3", until="Chance rolls 2 5"), chance=TableChance(SEED),
                     physical=physical)
    s.start()
    try:
        options, lines = s.journal.lines(s.snapshot().game_id)
        state = Game.load({"format": "rubicon-save/1", "options": options, "lines": lines}).state
        for b in BOARD.blocks:
            place = expected_place(state, b.id)[0]
            if place is not None and place in SENSED:      # no reader senses the pools
                s.sense(TagSeen("board", reader=READERS.index_of(place), uid=REGISTRY.uid_of(b.key) or ""))
        assert sense(s, DeviceUp(TRAY, device_kind="dice")).ok
        assert table(s)["dice"]["count"] == 2 and table(s)["devices"] == {TRAY: "up"}
        assert physical.devices == {TRAY: "up"}
        assert table(s)["waiting"]["dice"] == "tray" and table(s)["dice"]["block"] == "C Antonius"
        assert sense(s, DiceRolled(TRAY, faces=(2, 5))).accepted == ("Chance rolls 2 5",)
        for viewer in VIEWERS:
            codes = [i["code"] for i in table(s, viewer)["instructions"]]
            assert "block.strength" in codes and "block.eliminated" not in codes and "block.moved" not in codes
    finally:
        s.stop()


def test_a_tray_roll_repeated_after_a_restart_is_taken_once(tmp_path):
    """The tray names its rolls (BOOT/ID) and keeps them until ACKed after the commit: a roll it
    repeats to the next start (the Pi died between the commit and the ACK) is known as taken:
    ACKed, never applied a second time, whatever the game asks for by then."""
    path = tmp_path / "j.sqlite3"
    s = TableSession(battle_journal(path, until="Chance rolls 2 5"), chance=TableChance(SEED))
    s.start()
    roll = DiceRolled(TRAY, faces=(2, 5), roll="1F2E3D4C/7")
    assert sense(s, roll).accepted == ("Chance rolls 2 5",)
    lines = journal_lines(s)
    s.stop()
    s.journal.close()
    s = TableSession(Journal(path), chance=TableChance(SEED))
    s.start()
    try:
        again = sense(s, roll)
        assert again.ok and again.accepted == () and journal_lines(s) == lines
        assert s.journal.roll_taken("1F2E3D4C/7") and not s.journal.roll_taken("1F2E3D4C/8")
    finally:
        s.stop()

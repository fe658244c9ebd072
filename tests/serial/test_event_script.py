"""The text format of sensor events: round trip of every kind, bad lines by number, played on a real pty."""
from __future__ import annotations

import pytest

from firmware_bridge.board.reader_map import ReaderMap
from firmware_bridge.events import (
    EVENT_TYPES,
    DeviceDown,
    DeviceUp,
    Diagnostic,
    DiceRolled,
    DiceState,
    PanelPressed,
    TagGone,
    TagSeen,
)
from firmware_bridge.sim.player import ScriptPlayer
from firmware_bridge.sim.script import ScriptError, Wait, format_event, parse_events, read_script, write_events

ONE_OF_EACH = [
    TagSeen("board", reader=29, uid="04A1B2C3"),
    TagGone("board@/dev/ttyACM1", reader=80, uid="04112233445566"),
    DiceRolled("dice", faces=(3, 5, 6, 1)),
    DiceState("dice@socket://127.0.0.1:5555", state="crooked"),
    PanelPressed("panel", side="Pompeius", button="done"),
    DeviceUp("rfid", device_kind="mfrc522-array", firmware="", protocol="80/81 readers answering"),
    DeviceDown("dice@/dev/ttyACM0", reason="silent for 3.5 s"),
    DeviceDown("device"),
    Diagnostic("rfid", code="unknown_tag", detail='tag 04A1B2C3 on "Genua" isn\'t enrolled'),
]


def plain(event):
    data = event.to_dict()
    data.pop("t")
    return data


def test_every_event_kind_round_trips():
    assert {type(e) for e in ONE_OF_EACH} == set(EVENT_TYPES.values())
    text = write_events(ONE_OF_EACH)
    assert len(text.splitlines()) == len(ONE_OF_EACH)
    assert [plain(e) for e in parse_events(text)] == [plain(e) for e in ONE_OF_EACH]


def test_the_format_reads_as_documented():
    assert format_event(TagSeen("board", reader=29, uid="04A1B2C3")) == "place 29 04A1B2C3"
    assert format_event(DiceRolled("dice", faces=(3, 5))) == "roll 3 5"
    assert format_event(DeviceDown("dice@/dev/ttyACM0", reason="unplugged")) == "dice@/dev/ttyACM0: unplug unplugged"
    steps = read_script("# set-up\n\nplace 1 04A1B2C3   # Aleria\nwait 0.25\npress Caesar done\n")
    assert [s.line for s in steps] == [3, 4, 5] and steps[1].item == Wait(0.25)


def test_locations_and_blocks_by_name():
    uids = {"C Legio 8": "04A1B2C3"}
    events = parse_events('lift "Carthago Nova" "C Legio 8"\nplace Genua 04a1b2c3\n', reader_map=ReaderMap.load(),
                          uid_of=uids.get)
    assert [(e.reader, e.uid) for e in events] == [(11, "04A1B2C3"), (19, "04A1B2C3")]


@pytest.mark.parametrize("text, expected", [
    ("roll 3 5\nroll 7\n", r"^moves.txt:2: faces are 1\.\.6"),
    ("\n\n# fine\nroll\n", r"^moves.txt:4: usage: roll F1"),
    ("place 29 04A1B2C3\nplace Genua 04A1B2C3\n", r"^moves.txt:2: reader 'Genua' is not a number"),
    ("place 29 XYZ\n", r"^moves.txt:1: 'XYZ' is not a UID"),
    ("dice wobbly\n", r"^moves.txt:1: usage: dice rolling\|rolled\|crooked"),
    ("jump 3\n", r"^moves.txt:1: unknown event 'jump'"),
    ("press Caesar\n", r"^moves.txt:1: usage: press SIDE BUTTON"),
    ("wait -1\n", r"^moves.txt:1: wait takes"),
    ("unplug 'cable\n", r"^moves.txt:1: unbalanced quotes"),
    ("board:\n", r"^moves.txt:1: nothing after the source"),
])
def test_bad_lines_are_named_with_their_line_number(text, expected):
    with pytest.raises(ScriptError, match=expected):
        read_script(text, "moves.txt")


def test_a_script_drives_the_serial_simulators_on_real_ptys(rig):
    dice, board = rig.sim("dice"), rig.sim("board", window_ms=20)
    rig.bridge(dice.path, "dice")
    rig.bridge(board.path, "board")
    assert rig.wait(rig.count("device_up", 2))
    player = ScriptPlayer(dice=dice, board=board, name="table.txt")
    player.play(read_script("roll 3 5\n"
                            "place 29 04A1B2C3\n"
                            "wait 0.1\n"
                            "lift 29 04A1B2C3\n"
                            "dice crooked\n", "table.txt"))
    # The crooked state must reach the Pi before the tray is unplugged: a line still in flight is
    # lost with the port (and the snapshot after the replug may already show the next roll).
    assert rig.wait(lambda seen: any(e.kind == "dice_state" and e.state == "crooked" for e in seen))
    player.play(read_script("dice: unplug\n"
                            "dice: plug dice\n"
                            "roll 6\n", "table.txt"))
    assert rig.wait(lambda seen: [e.faces for e in seen if e.kind == "dice_rolled"] == [(3, 5), (6,)])
    assert rig.wait(lambda seen: any(e.kind == "tag_gone" for e in seen))
    tags = [(e.kind, e.reader, e.uid) for e in rig.seen if e.kind in ("tag_seen", "tag_gone")]
    assert tags == [("tag_seen", 29, "04A1B2C3"), ("tag_gone", 29, "04A1B2C3")]
    assert [e.source.split("@")[0] for e in rig.of("device_down")] == ["dice"]
    assert len(rig.of("device_up")) == 3


def test_playing_what_only_a_driver_reports_is_refused_with_its_line():
    with pytest.raises(ScriptError, match=r"^s.txt:2: diagnostic is what a driver reports"):
        ScriptPlayer(name="s.txt").play(read_script("wait 0\ndiagnostic x\n", "s.txt"))
    with pytest.raises(ScriptError, match=r"^s.txt:1: this script needs a dice tray simulator"):
        ScriptPlayer(name="s.txt").play(read_script("roll 1\n", "s.txt"))

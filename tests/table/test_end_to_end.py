"""End to end over the real drivers: a segment of a game played by `ScriptPlayer` on the simulated
serial board scanner and dice tray (real ptys, the real serial bridge, `TableDevices`) into a
`TableSession`: the cards on the phones, a command lifted and set down on the board, Done pressed
on the panel, a battle rolled on the tray; the journal ends with the expected lines."""

import pytest

from firmware_bridge.board.reader_map import reader_count
from firmware_bridge.serial_bridge.link import LinkConfig
from firmware_bridge.sim.device_sim import DeviceSim
from firmware_bridge.sim.player import ScriptPlayer
from firmware_bridge.sim.script import parse_events
from rubicon.journal import Journal
from rubicon.table.chance import TableChance
from rubicon.table.devices import DeviceSpec, TableDevices
from rubicon.table.physical import PhysicalTable
from rubicon.table.session import TableSession

from .driver import SEED
from .physical_rig import READERS, REGISTRY, record_lines
from .waits import until

FAST = LinkConfig(read_timeout=0.02, heartbeat=0.1, hello_timeout=0.3, silence_timeout=2.0,
                  backoff_min=0.01, backoff_max=0.1)
RECORD = record_lines("battle_first_turn_705.txt")




@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    game_id = journal.new_game({"winter_order": "v1.01"})
    journal.append_many(game_id, RECORD[:RECORD.index("Pompeius plays 2/3")])    # dealt, discarded
    physical = PhysicalTable(READERS, REGISTRY.block_of)
    session = TableSession(journal, chance=TableChance(SEED), physical=physical)
    session.start()
    dice = DeviceSim("dice", settle_ms=0, motion_ms=1, heartbeat_ms=100).start()
    board = DeviceSim("board", readers=reader_count(), heartbeat_ms=100).start()
    devices = TableDevices(session, [DeviceSpec("dice", dice.path), DeviceSpec("board", board.path)],
                           link_config=FAST).start()
    yield session, physical, devices, ScriptPlayer(dice=dice, board=board, press=devices.events.put)
    devices.stop()
    session.stop()
    dice.close()
    board.close()


def test_cards_a_command_on_the_board_done_on_the_panel_and_a_battle_on_the_tray(table):
    session, physical, devices, player = table
    until(session, lambda s: set(s.public.table["devices"].values()) == {"up"}
          and len(s.public.table["devices"]) == 2, "the tray and the board scanner are up")
    for line in ("Pompeius plays 2/3", "Caesar plays 4/1"):          # the card phase, on the phones
        assert session.act(line.split()[0], line).ok
    # Nothing of the set-up is on this board: both players confirm the board as it is (an override).
    assert session.confirm("Caesar").ok and session.confirm("Pompeius").ok
    assert session.snapshot().public.table["instructions"] == []

    def play(script: str) -> None:
        for event in parse_events(script, reader_map=READERS, uid_of=REGISTRY.uid_of):
            player.play_one(event)

    play('place Roma "C Legio 8"')          # Legio 8 lifted off Genua (unsensed) and set down in Roma
    # Roma shares its antenna with Asculum, which Legio 8 could reach too: Caesar's phone asks.
    until(session, lambda s: s.side("Caesar").table["ask"] is not None, "the board scanner reports Legio 8")
    assert physical.sensed.zone(physical.sensed.where("C Legio 8")) == ("Asculum", "Roma")
    assert session.answer("Caesar", "Genua-Roma").ok
    play('press Caesar done')
    snap = until(session, lambda s: s.waiting_for == ("Pompeius",), "Caesar's command is taken")
    assert session.journal.lines(snap.game_id)[1][-2:] == ["Caesar moves Legio 8 Genua-Roma", "Caesar ends command"]

    for line in ("Pompeius moves Legio 1 Neapolis-Roma", "Pompeius ends command", "Caesar fights Roma"):
        assert session.act(line.split()[0], line).ok, line
    snap = session.snapshot()
    side = snap.waiting_for[0]
    fire = next(o["line"] for o in snap.side(side).options() if o["type"] == "fire")
    assert session.act(side, fire).ok
    dice = until(session, lambda s: s.public.table["dice"] is not None, "dice are asked")
    count = dice.public.table["dice"]["count"]
    lines = dice.lines
    play("roll " + " ".join(["6"] * count))
    snap = until(session, lambda s: s.lines > lines, "the tray's roll is taken")
    assert session.journal.lines(snap.game_id)[1][lines:lines + 1] == ["Chance rolls " + " ".join(["6"] * count)]

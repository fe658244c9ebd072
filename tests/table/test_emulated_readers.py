"""End to end through the emulated MFRC522 array: a command turn played by `ScriptPlayer` on the
`EmulatedRig` (register-level chips behind the chip-select demultiplexer) and read by the real
mfrc522 driver in the scanner the table runs (`TableDevices` with a `DeviceSpec("readers")`), into
a `TableSession`: the whole 705 board set on the array's 60 readers (the pools are not sensed) is read and reconciled, a
block is lifted and set down, Done is pressed on the panel and the journal ends with the
command's lines."""

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from engine import BOARD, Game
from firmware_bridge.board.reader_map import ReaderMap
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.emulation.rig import EmulatedRig
from firmware_bridge.sim.player import ScriptPlayer
from firmware_bridge.sim.script import parse_events
from rubicon.journal import Journal
from rubicon.table.devices import DeviceSpec, TableDevices
from rubicon.table.physical import PhysicalTable
from rubicon.table.reconcile import expected_place
from rubicon.table.session import TableSession

from .physical_rig import REGISTRY, record_lines
from .waits import until

OPENING = record_lines("first_turn_705.txt", upto="Caesar moves")


def packaged_readers(path) -> ReaderMap:
    """The packaged readers.toml, copied to `path` (so no setting of the machine chooses another)."""
    from importlib import resources

    path.write_text(resources.files("firmware_bridge").joinpath("data", "readers.toml").read_text("utf-8"))
    return ReaderMap.load(path)


@pytest.fixture
def table(tmp_path):
    previous, pins = Device.pin_factory, MockFactory()
    Device.pin_factory = pins
    readers = packaged_readers(tmp_path / "readers.toml")
    registry = TagRegistry(tmp_path / "tags.json", tags=dict(REGISTRY.items()))
    registry.save()
    journal = Journal(tmp_path / "j.sqlite3")
    journal.append_many(journal.new_game({"winter_order": "v1.01"}), OPENING)   # Caesar's command of 705
    physical = PhysicalTable(readers, registry.block_of)
    session = TableSession(journal, physical=physical)
    rig = EmulatedRig(readers.indices, readers.bus.address_pins, pin_factory=pins)
    try:
        with rig.installed():
            session.start()
            devices = TableDevices(session, [DeviceSpec("readers", path=str(tmp_path / "readers.toml"),
                                                         registry=str(tmp_path / "tags.json"))], pin_factory=pins)
            with devices:
                yield session, physical, readers, ScriptPlayer(rig=rig, press=devices.events.put)
            session.stop()
    finally:
        pins.reset()
        Device.pin_factory = previous




def test_a_command_turn_read_by_the_mfrc522_driver_on_the_emulated_array(table):
    session, physical, readers, player = table
    until(session, lambda s: s.public.table["devices"].get("readers") == "up", "the reader array is up")

    def play(script: str, where: str | None, what: str) -> None:
        for event in parse_events(script, reader_map=readers, uid_of=REGISTRY.uid_of):
            player.play_one(event)
        until(session, lambda s: physical.sensed.where("C Legio 8") == where, what)

    game = Game({"winter_order": "v1.01"})
    for line in OPENING:
        game.apply(line)
    sensed = {name for p in readers.places for name in p.locations}
    setup = "\n".join(f'place "{expected_place(game.state, b.id)[0]}" "{b.key}"' for b in BOARD.blocks
                       if expected_place(game.state, b.id)[0] in sensed)
    for event in parse_events(setup, reader_map=readers, uid_of=REGISTRY.uid_of):
        player.play_one(event)
    until(session, lambda s: s.public.table["instructions"] == [], "the readers see the opening position")
    assert physical.sensed.where("C Legio 8") == "Genua"

    play('lift Genua "C Legio 8"', None, "Legio 8 is in hand")
    play('place Lugdunum "C Legio 8"', "Lugdunum", "the readers see Legio 8 in Lugdunum")   # a loop of its own
    part = session.snapshot().side("Caesar").table
    assert part["instructions"] == [] and part["messages"] == [], part
    for event in parse_events("press Caesar done", reader_map=readers, uid_of=REGISTRY.uid_of):
        player.play_one(event)
    snap = until(session, lambda s: s.waiting_for == ("Pompeius",), "Caesar's command is taken")
    assert session.journal.lines(snap.game_id)[1][len(OPENING):] == ["Caesar moves Legio 8 Genua-Lugdunum",
                                                                      "Caesar ends command"]

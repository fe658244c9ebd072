"""The one-reader build end to end through the emulated reader: the
configuration's `one_reader = "spi"` assembled by the composition root (`assemble`, as `rubicon
run` does) into one MFRC522 on the Pi's SPI, read by the real mfrc522 library and our driver on the
register-level emulator, and a whole game played by tapping blocks on it and picking on the phones;
the TV and the other phone learn nothing of any tap."""
from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from firmware_bridge.board.reader_map import ReaderMap, one_reader_layout
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.emulation.rig import EmulatedRig
from rubicon.config import parse_config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import SeededChance
from rubicon.table.one_reader import OneReaderTable

from .one_reader_play import OneReaderPlayer, registry_tags
from .waits import until


@pytest.fixture
def one_reader_table(tmp_path, monkeypatch):
    registry = TagRegistry(tmp_path / "tags.json", tags=registry_tags())
    registry.save()
    monkeypatch.setenv("RUBICON_TAGS", str(tmp_path / "tags.json"))
    previous, pins = Device.pin_factory, MockFactory()
    Device.pin_factory = pins
    layout = ReaderMap.load(one_reader_layout())
    rig = EmulatedRig(layout.indices, layout.bus.address_pins, pin_factory=pins)
    config = parse_config('[devices]\none_reader = "spi"\n', "rubicon.toml")
    journal = Journal(tmp_path / "journal.sqlite3")
    try:
        with rig.installed():
            table = assemble(config, journal, chance=SeededChance(25), pin_factory=pins, clock=rig.clock)
            table.start()
            try:
                yield table, rig
            finally:
                table.stop()
    finally:
        journal.close()
        pins.reset()
        Device.pin_factory = previous


def test_the_configuration_assembles_one_reader_on_the_pis_spi(one_reader_table):
    table, rig = one_reader_table
    assert table.kind == "hardware" and [s.source for s in table.specs] == ["readers"]
    assert isinstance(table.session.physical, OneReaderTable)
    assert table.describe().startswith("one reader beside the map; devices: readers")
    until(table.session, lambda s: s.public.table["devices"].get("readers") == "up", "the reader is up")


def test_a_whole_game_played_by_taps_on_the_emulated_reader(one_reader_table):
    table, rig = one_reader_table
    session = table.session
    until(session, lambda s: s.public.table["devices"].get("readers") == "up", "the reader is up")
    player = OneReaderPlayer(session, tap=lambda uid: rig.place(uid, 0), lift=rig.lift)
    final = player.play(max_steps=4000)
    assert final.result is not None
    assert player.taps > 50 and player.phone > 0 and player.dones > 0
    # Moves, levies and disbanding at least went through the reader (battles when the dice made them).
    assert {"tap:Move", "tap:Levy", "tap:Disband"} <= player.kinds, player.kinds
    assert rig.radio.max_on == 1
    _, lines = session.journal.lines(final.game_id)
    assert len(lines) == final.lines

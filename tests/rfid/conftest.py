"""Fixtures: gpiozero on MockFactory (reset after each test) and the emulated reader board, with the
fake spidev/RPi.GPIO installed in sys.modules so the real mfrc522 library runs on top of it."""
from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from firmware_bridge.board.reader_map import ReaderMap
from firmware_bridge.emulation.rig import EmulatedRig


@pytest.fixture
def mock_pins():
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture(scope="session")
def reader_map():
    return ReaderMap.load()


@pytest.fixture
def rig(mock_pins, reader_map):
    rig = EmulatedRig(reader_map.indices, reader_map.bus.address_pins, pin_factory=mock_pins)
    with rig.installed():
        yield rig


@pytest.fixture
def array(rig, reader_map, mock_pins):
    from firmware_bridge.rfid.reader_array import ReaderArray

    array = ReaderArray(reader_map.bus, reader_map.indices, pin_factory=mock_pins, clock=rig.clock)
    yield array
    array.close()

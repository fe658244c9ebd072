"""A whole emulated reader board: MFRC522 chips behind a chip-select demultiplexer, tags to move about.

The demultiplexer is decoded from the gpiozero pins the driver drives (MockFactory in tests), so
the driver's real chip-select code is exercised. `installed()` puts the fake `spidev` and
`RPi.GPIO` modules in `sys.modules` (and forgets any imported `mfrc522`, so the real library is
imported afresh on top of them), restoring everything on exit.

The readers' fields share one `Radio` (emulation/radio.py): ideal unless antenna positions are
given (`harsh=HarshModel(antennas)`), when tags are placed at positions and neighbours couple,
strong tags capture weak ones and far tags stay silent. `radio.max_on` counts the most fields
that were ever on at once.
"""
from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from firmware_bridge.emulation.fake_gpio import make_rpi_modules
from firmware_bridge.emulation.fake_spidev import EmulatedSpiBus, make_spidev_module
from firmware_bridge.emulation.mfrc522_chip import Mfrc522Chip
from firmware_bridge.emulation.picc import Picc
from firmware_bridge.emulation.radio import Clock, HarshModel, Radio
from firmware_bridge.emulation.rf_field import RfField

_FAKED = ("spidev", "RPi", "RPi.GPIO")


class EmulatedRig:
    """The Pi-wired reader array, emulated under the real mfrc522 and gpiozero code: one register-level MFRC522 per
    reader behind emulated SPI and chip-select pins, and the tags in their fields."""
    def __init__(self, readers: Iterable[int], address_pins: Sequence[int | str],
                 spi: tuple[int, int] = (0, 0), pin_factory=None, harsh: HarshModel | None = None,
                 clock: Clock | None = None):
        self.address_pins = list(address_pins)
        self._pin_factory = pin_factory
        self._pins: tuple[Any, list[Any]] | None = None     # (gpiozero pin factory, its address pins)
        self.radio = Radio(clock=clock or Clock(), harsh=harsh)
        self.clock = self.radio.clock
        self.chips = {index: Mfrc522Chip(RfField(self.radio, index)) for index in readers}
        self.bus = EmulatedSpiBus(self.selected_reader, self.chips)
        self.spidev = make_spidev_module({spi: self.bus})
        self.rpi, self.gpio = make_rpi_modules()
        self.tags: dict[str, Picc] = {}

    def selected_reader(self) -> int:
        """The demultiplexer output the address lines select right now."""
        factory = self._pin_factory
        if factory is None:
            from gpiozero import Device

            factory = Device.pin_factory
        if self._pins is None or self._pins[0] is not factory:
            self._pins = (factory, [factory.pin(p) for p in self.address_pins])  # lookups are slow; pins persist
        return sum(int(bool(pin.state)) << bit for bit, pin in enumerate(self._pins[1]))

    # -- tags -----------------------------------------------------------------------------------
    def field(self, reader: int) -> RfField:
        """The RF field of reader `reader`: the tags in it and its counters."""
        return self.chips[reader].field

    def place(self, tag: Picc | str, reader: int, offset_mm: tuple[float, float] = (0.0, 0.0)) -> Picc:
        """Put a tag (or a new one with this UID) on a reader; it stays on any other reader too.
        Harsh model: at `offset_mm` from that reader's antenna centre (it may reach others)."""
        if isinstance(tag, str):
            tag = self.tags.get(tag.upper()) or Picc(tag)
        self.tags[tag.uid_hex] = tag
        harsh = self.radio.harsh
        if harsh is not None:
            x, y = harsh.antennas[reader]
            self.radio.positions[tag.uid_hex] = (x + offset_mm[0], y + offset_mm[1])
        self.field(reader).place(tag)
        return tag

    def lift(self, tag: Picc | str) -> Picc:
        """Take a tag off every reader."""
        tag = self.tags[tag.upper()] if isinstance(tag, str) else tag
        self.radio.forget(tag)
        for chip in self.chips.values():
            chip.field.remove(tag)
        return tag

    def move(self, tag: Picc | str, reader: int) -> Picc:
        """Lift a tag from wherever it is and set it on reader `reader`."""
        return self.place(self.lift(tag), reader)

    def readers_of(self, uid: str) -> list[int]:
        """The readers whose field holds the tag `uid`."""
        return [i for i, chip in self.chips.items() if any(t.uid_hex == uid.upper() for t in chip.field.tags)]

    def unplug(self, reader: int) -> None:
        """Make reader `reader` stop answering on SPI, as a loose wire does."""
        self.bus.unplugged.add(reader)

    def plug(self, reader: int) -> None:
        """Make reader `reader` answer on SPI again."""
        self.bus.unplugged.discard(reader)

    # -- figures --------------------------------------------------------------------------------
    @property
    def air_time_s(self) -> float:
        """The modelled radio time of every reader since the counters were reset (seconds)."""
        return sum(chip.field.air_time_s for chip in self.chips.values())

    def reset_counters(self) -> None:
        """Zero the SPI transfer, byte, frame and air-time counters."""
        self.bus.transfers = self.bus.bytes = 0
        self.radio.reset_counts()
        for chip in self.chips.values():
            chip.field.air_time_s = 0.0
            chip.field.frames = 0
            chip.field.exchanges.clear()

    # -- modules --------------------------------------------------------------------------------
    @contextlib.contextmanager
    def installed(self) -> Iterator[EmulatedRig]:
        """Within the block, `spidev`, `RPi.GPIO` and a fresh `mfrc522` import resolve to this rig; the modules are
        restored after."""
        saved = {name: sys.modules.get(name) for name in _FAKED}
        saved.update({name: mod for name, mod in sys.modules.items() if name.split(".")[0] == "mfrc522"})
        for name in [n for n in sys.modules if n.split(".")[0] == "mfrc522"]:
            del sys.modules[name]
        sys.modules.update({"spidev": self.spidev, "RPi": self.rpi, "RPi.GPIO": self.gpio})
        try:
            yield self
        finally:
            for name in [n for n in sys.modules if n.split(".")[0] == "mfrc522" or n in _FAKED]:
                del sys.modules[name]
            sys.modules.update({name: mod for name, mod in saved.items() if mod is not None})

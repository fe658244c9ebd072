"""A stand-in for the `spidev` module: `SpiDev` whose transfers go to an emulated SPI bus.

An `EmulatedSpiBus` is what sits on the wires behind one Pi chip-enable: a function that says which
chip the demultiplexer currently selects, and the chips by index. A selected index with no chip
(an unplugged reader) reads back 0x00: MISO is pulled down on the board. `failing` readers make
transfers raise EIO. The bus counts transfers
and bytes for the benchmark.
"""
from __future__ import annotations

import types
from collections.abc import Callable

from firmware_bridge.emulation.mfrc522_chip import Mfrc522Chip


class EmulatedSpiBus:
    """The SPI bus under the reader array: each transfer goes to the chip the chip-select pins address; readers can
    be unplugged (silent) or failing (EIO)."""
    def __init__(self, selected: Callable[[], int], chips: dict[int, Mfrc522Chip]):
        self.selected = selected
        self.chips = chips
        self.unplugged: set[int] = set()
        self.failing: set[int] = set()  # transfers while these are selected raise EIO, as a broken bus does
        self.transfers = 0
        self.bytes = 0

    def transfer(self, data: list[int]) -> list[int]:
        """One full-duplex transfer with the selected chip; zeros from an unplugged or absent one, OSError(EIO)
        from a failing one."""
        self.transfers += 1
        self.bytes += len(data)
        if self.selected() in self.failing:
            raise OSError(5, "Input/output error")
        chip = self.chips.get(self.selected())
        if chip is None or self.selected() in self.unplugged:
            return [0] * len(data)
        return chip.spi_transfer(data)


class EmulatedSpidev(types.ModuleType):
    """The `spidev` module object, holding its one class `SpiDev`."""

    def __init__(self, spidev_class: type) -> None:
        super().__init__("spidev", "Emulated spidev (Rubicon test rig)")
        self.SpiDev = spidev_class


def make_spidev_module(buses: dict[tuple[int, int], EmulatedSpiBus]) -> EmulatedSpidev:
    """A module object with the `spidev.SpiDev` API the mfrc522 library uses, wired to `buses`."""

    class SpiDev:
        def __init__(self) -> None:
            self.max_speed_hz = 500000
            self.mode = 0
            self.bits_per_word = 8
            self._bus: EmulatedSpiBus | None = None

        def open(self, bus: int, device: int) -> None:
            try:
                self._bus = buses[(bus, device)]
            except KeyError:
                raise FileNotFoundError(f"/dev/spidev{bus}.{device}: no such emulated SPI device") from None

        def close(self) -> None:
            self._bus = None

        def xfer2(self, data):
            if self._bus is None:
                raise OSError("SpiDev: transfer on a closed device")
            values = list(data)
            if any(not 0 <= v <= 0xFF for v in values):
                raise OverflowError("SpiDev: byte out of range")
            return self._bus.transfer(values)

        xfer = xfer2

        def writebytes(self, data) -> None:
            self.xfer2(data)

        def readbytes(self, n: int):
            return self.xfer2([0] * n)

    return EmulatedSpidev(SpiDev)

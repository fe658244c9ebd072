"""The on-Pi reader array: many MFRC522 readers on one SPI bus behind a chip-select demultiplexer.

SPI0's CE0 enables a demultiplexer whose address lines are gpiozero `DigitalOutputDevice`s; the
address picks which reader's NSS goes low while spidev asserts CE0 (see hardware/WIRING-rfid.md).
The array drives all readers through ONE `mfrc522.MFRC522` instance: every reader shares the bus,
the clock and the reset line, so one spidev handle and one set of library state suffice, and a
reader is "switched to" by changing the address lines between transfers. (One instance per reader
would open the same /dev/spidev0.0 81 times, re-run the library's GPIO set-up and add a log
handler to its shared logger each time.) `mfrc522`, and through it `RPi.GPIO` and `spidev`, are
imported here only, when an array is built.
"""
from __future__ import annotations

import logging
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from firmware_bridge.board.reader_map import BusConfig
from firmware_bridge.lifecycle import Lifecycle
from firmware_bridge.rfid.iso14443 import FieldReader
from firmware_bridge.rfid.mfrc522_link import Mfrc522Link
from firmware_bridge.shared.errors import BridgeError

BCM = 11  # RPi.GPIO.BCM, the numbering gpiozero uses too


class HardwareUnavailable(BridgeError, RuntimeError):
    """The SPI/GPIO stack cannot be opened on this machine."""


@dataclass(frozen=True)
class ReaderScan:
    """One reader's pass: the UIDs read, whether the chip answered on SPI, whether the field was read completely,
    and the problems met."""
    reader: int
    uids: frozenset[str]
    answered: bool  # the chip answered on SPI
    complete: bool  # every branch of the field was resolved: an absent UID is really absent
    problems: tuple[str, ...] = ()


class ChipSelect:
    """Demultiplexer address lines: reader index in binary, bit 0 on the first pin."""

    def __init__(self, address_pins: Sequence[int | str], pin_factory=None):
        from gpiozero import DigitalOutputDevice, GPIOZeroError

        self._lines = []
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # gpiozero's pin-factory fallback chatter
                for pin in address_pins:
                    self._lines.append(DigitalOutputDevice(pin, pin_factory=pin_factory))
        except (GPIOZeroError, ImportError) as exc:  # no usable pin factory on this machine
            self.close()
            raise HardwareUnavailable(f"cannot drive the chip-select GPIOs: {exc}") from exc
        except Exception:
            self.close()
            raise
        self.current: int | None = None

    @property
    def capacity(self) -> int:
        """How many readers the address lines can select."""
        return 1 << len(self._lines)

    def select(self, index: int) -> None:
        """Address reader `index`, changing only the lines that differ; ValueError beyond the lines' capacity."""
        if not 0 <= index < self.capacity:
            raise ValueError(f"reader {index} is beyond the {len(self._lines)} address lines")
        if index == self.current:
            return
        for bit, line in enumerate(self._lines):
            wanted = (index >> bit) & 1
            if line.value != wanted:  # only the lines that change: fewer GPIO writes
                line.value = wanted
        self.current = index

    def close(self) -> None:
        """Release the address pins."""
        for line in self._lines:
            line.close()
        self._lines = []


class ReaderArray(Lifecycle):
    """The MFRC522 readers on one SPI bus behind a chip-select demultiplexer. Like a gpiozero device it
    is working once made (`running`); close() releases the bus and the pins (firmware_bridge.lifecycle)."""

    _running = True

    def __init__(self, bus: BusConfig, readers: Iterable[int], pin_factory=None, max_tags: int = 16):
        self.readers = list(readers)
        if not self.readers:
            raise ValueError("a reader array needs at least one reader")
        self.chip_select = ChipSelect(bus.address_pins, pin_factory)
        try:
            self.chip_select.select(self.readers[0])
            try:
                from mfrc522 import MFRC522
            except (ImportError, RuntimeError) as exc:
                raise HardwareUnavailable(f"the mfrc522/RPi.GPIO/spidev stack is not usable here: {exc}") from exc
            library_log = logging.getLogger("mfrc522Logger")
            handlers_before = list(library_log.handlers)
            try:
                self.chip = MFRC522(bus=bus.spi_bus, device=bus.spi_device, spd=bus.speed_hz,
                                     pin_mode=BCM, pin_rst=bus.reset_pin)
            except (OSError, RuntimeError, ValueError) as exc:
                raise HardwareUnavailable(f"cannot open SPI {bus.spi_bus}.{bus.spi_device}: {exc}") from exc
        except Exception:
            self.chip_select.close()
            raise
        # the library adds a stream handler to its shared logger per instance; ours goes on close()
        self._library_handlers = [h for h in library_log.handlers if h not in handlers_before]
        self.link = Mfrc522Link(self.chip)
        self.field_reader = FieldReader(self.link, max_tags=max_tags)
        self._initialised: set[int] = set()
        self._had_tags: dict[int, bool] = {}

    def scan(self, reader: int) -> ReaderScan:
        """What one reader senses now. An SPI error is reported as a reader not answering."""
        try:
            return self._scan(reader)
        except OSError as exc:
            self._initialised.discard(reader)
            return ReaderScan(reader, frozenset(), answered=False, complete=False, problems=(f"SPI error: {exc}",))

    def _scan(self, reader: int) -> ReaderScan:
        self.chip_select.select(reader)
        if not self.link.answers():
            self._initialised.discard(reader)  # re-initialise when it comes back (it lost power)
            return ReaderScan(reader, frozenset(), answered=False, complete=False, problems=("no answer on SPI",))
        if reader not in self._initialised:
            self.link.initialise()
            self._initialised.add(reader)
        inventory = self.field_reader.read_field(expect_tags=self._had_tags.get(reader, False))
        if inventory.stuck:
            self._initialised.discard(reader)
        # An interrupted walk can leave tags READY, deaf to the next pass's first WUPA.
        self._had_tags[reader] = bool(inventory.uids) or not inventory.complete
        return ReaderScan(reader, frozenset(inventory.uids), answered=not inventory.stuck,
                          complete=inventory.complete, problems=tuple(inventory.problems))

    def scan_all(self, readers: Iterable[int] | None = None) -> dict[int, ReaderScan]:
        """Scan `readers` (all of them by default) one after the other."""
        return {r: self.scan(r) for r in (self.readers if readers is None else readers)}

    def _on_close(self) -> None:
        self.chip.Close_MFRC522()  # closes spidev and runs GPIO.cleanup() for the reset pin
        self.chip_select.close()
        for handler in self._library_handlers:
            logging.getLogger("mfrc522Logger").removeHandler(handler)

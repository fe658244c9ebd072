"""The on-Pi reader array: many MFRC522 readers on one SPI bus behind a chip-select demultiplexer.

SPI0's CE0 enables a demultiplexer whose address lines are gpiozero `DigitalOutputDevice`s; the
address picks which reader's NSS goes low while spidev asserts CE0 (see hardware/WIRING-rfid.md).
The array drives all readers through ONE `mfrc522.MFRC522` instance: every reader shares the bus,
the clock and the reset line, so one spidev handle and one set of library state suffice, and a
reader is "switched to" by changing the address lines between transfers. (One instance per reader
would open the same /dev/spidev0.0 81 times, re-run the library's GPIO set-up and add a log
handler to its shared logger each time.) `mfrc522`, and through it `RPi.GPIO` and `spidev`, are
imported here only, when an array is built.

One field at a time: a reader's antenna is on only while that reader is read. Its field is
switched on, left unmodulated for `FIELD_SETTLE_S` (ISO/IEC 14443-3 §5.2.1: a PICC shall accept a
request within 5 ms of an unmodulated field, and the PCD should give it at least 5.1 ms), read,
and switched off again; so no neighbour's field fills its modulation pauses or powers the tags it
must not read, and the readers' supply carries one transmitter (60-100 mA) instead of 81. A field
is kept off at least `FIELD_RESET_S` before it is switched on again, so its tags have lost power
and answer REQA afresh (the final request of `iso14443` relies on it); on a full board the other
readers' turns take longer than that anyway, a lone reader waits for it.

Given the antennas' positions, `fields_at_once` > 1 lets `scan_all` warm the fields of the next
readers of its scan order while one is read, if they are far enough apart (field_schedule.py):
their settle time passes during other reads, and at most `fields_at_once` transmitters are on.
"""
from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from firmware_bridge.board.reader_map import BusConfig, ReaderMap
from firmware_bridge.rfid.field_schedule import APART_MM, Positions, may_warm, scan_order
from firmware_bridge.rfid.iso14443 import FieldReader
from firmware_bridge.rfid.mfrc522_link import Mfrc522Link
from firmware_bridge.shared.errors import BridgeError
from lifecycle import Lifecycle

BCM = 11  # RPi.GPIO.BCM, the numbering gpiozero uses too
FIELD_SETTLE_S = 5.1e-3   # ISO/IEC 14443-3 §5.2.1 (note): an unmodulated field >= 5.1 ms before REQA/WUPA
FIELD_RESET_S = 5.1e-3    # off at least this long between two reads of one reader: its tags reset
FIELDS_AT_ONCE = 1        # the most antennas this array ever has on together


class RealClock:
    """The machine's clock; the emulator's `radio.Clock` stands in for it in fast tests."""

    @staticmethod
    def now() -> float:
        """The machine's monotonic time (seconds)."""
        return time.monotonic()

    @staticmethod
    def sleep(seconds: float) -> None:
        """Wait `seconds` for real (a tag's power-up time)."""
        if seconds > 0:
            time.sleep(seconds)    # the tags' power-up time: a hardware wait, not a synchronisation


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


def array_of(reader_map: ReaderMap, pin_factory=None, clock=None) -> ReaderArray:
    """The array a reader map describes: its bus, its readers, its fields at once and positions."""
    return ReaderArray(reader_map.bus, reader_map.indices, pin_factory=pin_factory, clock=clock,
                       fields_at_once=reader_map.bus.fields_at_once, positions=reader_map.positions or None)


class ReaderArray(Lifecycle):
    """The MFRC522 readers on one SPI bus behind a chip-select demultiplexer. Like a gpiozero device it
    is working once made (`running`); close() releases the bus and the pins (the lifecycle package)."""

    _running = True

    def __init__(self, bus: BusConfig, readers: Iterable[int], pin_factory=None, max_tags: int = 16,
                 clock=None, settle_s: float = FIELD_SETTLE_S, fields_at_once: int = FIELDS_AT_ONCE,
                 positions: Positions | None = None, apart_mm: float = APART_MM):
        self.readers = list(readers)
        self.clock = clock or RealClock()
        self.settle_s = settle_s
        if fields_at_once < 1 or fields_at_once > 1 and positions is None:
            raise ValueError("more than one field at once needs the antennas' positions (to keep them apart)")
        self.fields_at_once = fields_at_once
        self.positions = positions or {}
        self.apart_mm = apart_mm
        self.order = scan_order(self.readers, self.positions, fields_at_once - 1, apart_mm) \
            if fields_at_once > 1 else list(self.readers)
        self.settle_waited_s = 0.0       # the settle time spent waiting (the rest passed during other reads)
        self._off_since: dict[int, float] = {}
        self._warm: dict[int, float] = {}    # reader -> when its field went on ahead of its turn
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
        self._field_on(reader)
        try:
            inventory = self.field_reader.read_field(expect_tags=self._had_tags.get(reader, False))
        finally:
            self._field_off(reader)
        if inventory.stuck:
            self._initialised.discard(reader)
        # An interrupted walk can leave tags READY, deaf to the next pass's first WUPA.
        self._had_tags[reader] = bool(inventory.uids) or not inventory.complete
        return ReaderScan(reader, frozenset(inventory.uids), answered=not inventory.stuck,
                          complete=inventory.complete, problems=tuple(inventory.problems))

    def _field_on(self, reader: int) -> None:
        warm_since = self._warm.pop(reader, None)
        if warm_since is None:
            off = self._off_since.get(reader)
            if off is not None:
                self.clock.sleep(off + FIELD_RESET_S - self.clock.now())
            self.link.antenna(True)
            warm_since = self.clock.now()
        wait = warm_since + self.settle_s - self.clock.now()
        if wait > 0:
            self.settle_waited_s += wait
            self.clock.sleep(wait)

    def _warm_ahead(self, order: list[int], i: int) -> None:
        """Switch on the fields of the readers after `order[i]` that may settle during its read."""
        for j in range(i + 1, min(len(order), i + self.fields_at_once)):
            if len(self._warm.keys() | {order[i]}) >= self.fields_at_once:
                return
            ahead = order[j]
            off = self._off_since.get(ahead)
            if (ahead in self._warm or ahead not in self._initialised or not may_warm(order, i, j, self.positions,
                                                                                       self.apart_mm)
                    or off is not None and self.clock.now() - off < FIELD_RESET_S):
                continue
            try:
                self.chip_select.select(ahead)
                self.link.antenna(True)
            except OSError:
                self._initialised.discard(ahead)     # its own turn reports it
                continue
            self._warm[ahead] = self.clock.now()

    def _cool_all(self) -> None:
        for reader in list(self._warm):
            del self._warm[reader]
            try:
                self.chip_select.select(reader)
                self._field_off(reader)
            except OSError:
                self._initialised.discard(reader)

    def _field_off(self, reader: int) -> None:
        try:
            self.link.antenna(False)
        finally:
            self._off_since[reader] = self.clock.now()

    def scan_all(self, readers: Iterable[int] | None = None) -> dict[int, ReaderScan]:
        """Every reader (of `readers`) once, in the scan order; with fields warmed ahead if allowed."""
        order = list(self.order if readers is None else readers)
        scans: dict[int, ReaderScan] = {}
        try:
            for i, reader in enumerate(order):
                if self.fields_at_once > 1:
                    self._warm_ahead(order, i)
                scans[reader] = self.scan(reader)
        finally:
            self._cool_all()
        return scans

    def _on_close(self) -> None:
        self.chip.Close_MFRC522()  # closes spidev and runs GPIO.cleanup() for the reset pin
        self.chip_select.close()
        for handler in self._library_handlers:
            logging.getLogger("mfrc522Logger").removeHandler(handler)

"""One RF exchange through an MFRC522, built on the `mfrc522` library's register access.

The library's `MFRC522_ToCard` cannot drive multi-tag anticollision: it treats a bit collision as a
plain error without reading CollReg, and its wait loop ignores TimerIRq, so an empty field costs
2000 register reads. `Mfrc522Link` keeps the library's `Read_MFRC522`/`Write_MFRC522`/
`ClearBitMask`/`MFRC522_Init` and adds a transceive that reports timeouts, collision positions
and received bit counts, a transmit-only send (for HLTA, which has no answer), a 1 ms no-answer
timer, and burst transfers on the library's spidev handle (the FIFO in one transfer, the three
status registers in one), which cut the per-transfer overhead that dominates SPI time. CRC_A is
computed in Python (`iso14443_frames.crc_a`), which costs no SPI traffic, where the library's
`CalulateCRC` round-trips the data through the chip.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

COMMAND, COMM_IRQ, ERROR, FIFO_DATA = 0x01, 0x04, 0x06, 0x09
FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x0A, 0x0C, 0x0D, 0x0E
RF_CFG = 0x26
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
# RFCfgReg RxGain (bits 6-4), datasheet 9.3.3.6: 000 18 dB, 001 23 dB, 010 18 dB, 011 23 dB, 100 33 dB,
# 101 38 dB, 110 43 dB, 111 48 dB. The reset value 0x48 is 33 dB.
RX_GAIN_CODES = {18: 0b000, 23: 0b001, 33: 0b100, 38: 0b101, 43: 0b110, 48: 0b111}
RX_GAIN_DB = (18, 23, 18, 23, 33, 38, 43, 48)       # code -> dB
IDLE, TRANSMIT, TRANSCEIVE = 0x00, 0x04, 0x0C
TX_IRQ, RX_IRQ, IDLE_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x01
BUFFER_OVFL, COLL_ERR, CRC_ERR, PARITY_ERR, PROTOCOL_ERR = 0x10, 0x08, 0x04, 0x02, 0x01
COLL_POS_NOT_VALID, VALUES_AFTER_COLL = 0x20, 0x80

# Timer: 13.56 MHz / (2*169+1) = 40 kHz ticks, reload 39 -> 40 ticks = 1.0 ms without an answer.
# A tag answers within ~0.1 ms (FDT) and its longest answer here (SAK+CRC) lasts ~0.3 ms.
TIMER_SETTINGS = ((T_MODE, 0x80), (T_PRESCALER, 0xA9), (T_RELOAD_H, 0x00), (T_RELOAD_L, 39))
MAX_POLLS = 200


@dataclass(frozen=True)
class Reply:
    """The chip's answer to one frame: its status, the bytes and valid bits received, where a collision was, and
    the error register."""
    status: str  # ok | timeout | collision | crc | error | stuck
    data: bytes = b""
    bits: int = 0  # valid bits in `data`, counted from bit 0 of its first byte
    collision_at: int | None = None  # 0-based bit index in `data` of the first collision
    error: int = 0


class Mfrc522Link:
    """Exchanges frames through whichever reader is currently selected."""

    def __init__(self, chip):
        self.chip = chip
        self.frames = 0

    def initialise(self) -> None:
        """The library's init (soft reset, antenna on), then our timer and collision settings;
        the antenna is left off: it is on only while its reader is read (`antenna`)."""
        self.chip.MFRC522_Init()
        self.chip.AntennaOff()
        for register, value in TIMER_SETTINGS:
            self.chip.Write_MFRC522(register, value)
        self.chip.ClearBitMask(COLL, VALUES_AFTER_COLL)  # bits after a collision read as 0

    def antenna(self, on: bool) -> None:
        """The library's AntennaOn/AntennaOff: TxControlReg's Tx1RFEn and Tx2RFEn (datasheet 9.3.2.5)."""
        if on:
            self.chip.AntennaOn()
        else:
            self.chip.AntennaOff()

    def rx_gain(self, gain_db: int) -> None:
        """Set the receiver gain (RFCfgReg RxGain) to one of the chip's steps, 18-48 dB."""
        if gain_db not in RX_GAIN_CODES:
            raise ValueError(f"RxGain {gain_db} dB: the MFRC522's steps are {sorted(RX_GAIN_CODES)}")
        self.chip.Write_MFRC522(RF_CFG, RX_GAIN_CODES[gain_db] << 4)

    def version(self) -> int:
        """The chip's VersionReg (0x91 or 0x92 for a genuine MFRC522; 0 or 0xFF when nothing answers on SPI)."""
        return self.chip.Read_MFRC522(VERSION)

    def answers(self) -> bool:
        """A reader that is unplugged (or dead) reads back all-0 or all-1 on MISO."""
        return self.version() not in (0x00, 0xFF)

    def _write_burst(self, register: int, values: Sequence[int]) -> None:
        """Several bytes to one register in one transfer (the FIFO), which the library lacks."""
        self.chip.spi.xfer2([(register << 1) & 0x7E, *values])

    def _read_burst(self, registers: Sequence[int]) -> list[int]:
        """Several register reads in one transfer: each byte clocks out the next address."""
        return list(self.chip.spi.xfer2([((r << 1) & 0x7E) | 0x80 for r in registers] + [0]))[1:]

    def _load(self, data: Sequence[int]) -> None:
        write = self.chip.Write_MFRC522
        write(COMMAND, IDLE)
        write(COMM_IRQ, 0x7F)  # Set1=0: clear every interrupt flag
        write(FIFO_LEVEL, 0x80)  # flush the FIFO
        self._write_burst(FIFO_DATA, data)

    def _wait(self, mask: int) -> int | None:
        for _ in range(MAX_POLLS):
            irq = self.chip.Read_MFRC522(COMM_IRQ)
            if irq & mask:
                return irq
        return None

    def transceive(self, data: Sequence[int], tx_last_bits: int = 0, rx_align: int = 0) -> Reply:
        """Send `data` (with `tx_last_bits` valid bits in its last byte) and wait for the answer, received from bit
        `rx_align` on."""
        self.frames += 1
        self._load(data)
        self.chip.Write_MFRC522(COMMAND, TRANSCEIVE)
        self.chip.Write_MFRC522(BIT_FRAMING, 0x80 | rx_align << 4 | tx_last_bits)  # StartSend
        irq = self._wait(RX_IRQ | IDLE_IRQ | TIMER_IRQ)
        if irq is None:
            return Reply("stuck")
        if not irq & RX_IRQ:
            return Reply("timeout")
        error, count, control = self._read_burst((ERROR, FIFO_LEVEL, CONTROL))
        if error & (BUFFER_OVFL | PARITY_ERR | PROTOCOL_ERR):
            return Reply("error", error=error)
        received = bytes(self._read_burst([FIFO_DATA] * count)) if count else b""
        last_bits = control & 0x07
        bits = (count - 1) * 8 + last_bits if last_bits else count * 8
        if error & COLL_ERR:
            coll = self.chip.Read_MFRC522(COLL)
            if coll & COLL_POS_NOT_VALID:
                return Reply("error", received, bits, error=error)
            return Reply("collision", received, bits, ((coll & 0x1F) or 32) - 1, error)
        return Reply("crc" if error & CRC_ERR else "ok", received, bits, error=error)

    def transmit(self, data: Sequence[int]) -> bool:
        """Send a frame that has no answer; True once the chip reports it sent."""
        self.frames += 1
        self._load(data)
        self.chip.Write_MFRC522(BIT_FRAMING, 0x00)
        self.chip.Write_MFRC522(COMMAND, TRANSMIT)
        return self._wait(TX_IRQ | IDLE_IRQ) is not None

"""A register-level MFRC522: the 64 registers, the 64-byte FIFO, and the commands a driver uses.

`spi_transfer()` takes the bytes an SPI master clocks out and returns what MISO clocks back, as
the datasheet's SPI section describes (address byte `1aaaaaa0` = read, `0aaaaaa0` = write; a read
burst sends the next address in each byte, a write burst sends data bytes to one address).
Commands: Idle, CalcCRC (CRC coprocessor, preset from ModeReg), Transmit, Transceive (started by
BitFramingReg.StartSend, TxLastBits/RxAlign honoured, TxCRCEn/RxCRCEn honoured), SoftReset.
Received bits go to the FIFO; ErrorReg (CollErr, CRCErr, BufferOvfl), CollReg (CollPos,
CollPosNotValid, ValuesAfterColl), ControlReg.RxLastBits and the CommIrqReg/DivIrqReg flags are
set the way the datasheet describes. A frame with no answer sets TimerIRq (TModeReg.TAuto), and
its air time counts the programmed timer period.

Assumption (not verifiable without hardware): CollPos counts from bit 0 of the first FIFO byte,
i.e. it includes the RxAlign offset, 1-based, and 0 means the 32nd bit.
"""
from __future__ import annotations

from firmware_bridge.emulation.rf_field import RfField
from firmware_bridge.rfid.iso14443_frames import bits_to_bytes, bytes_to_bits, crc_a, crc_ok
from firmware_bridge.rfid.mfrc522_link import RF_CFG, RX_GAIN_DB
from firmware_bridge.shared.errors import BridgeError

FIFO_SIZE = 64
VERSION = 0x92  # MFRC522 v2.0

# registers
COMMAND, COMM_IEN, DIV_IEN, COMM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(0x01, 0x09)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = range(0x09, 0x0F)
MODE, TX_MODE, RX_MODE, TX_CONTROL = 0x11, 0x12, 0x13, 0x14
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION_REG = 0x37

# commands
IDLE, CALC_CRC, TRANSMIT, TRANSCEIVE, SOFT_RESET = 0x0, 0x3, 0x4, 0xC, 0xF

# CommIrqReg bits
TX_IRQ, RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x02, 0x01
# ErrorReg bits
BUFFER_OVFL, COLL_ERR, CRC_ERR = 0x10, 0x08, 0x04

RESET_VALUES = {
    COMMAND: 0x20, COMM_IEN: 0x80, COMM_IRQ: 0x14, STATUS1: 0x21, WATER_LEVEL: 0x08, CONTROL: 0x10,
    COLL: 0x80, MODE: 0x3F, TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D,
    0x1C: 0x62, 0x1F: 0xEB, CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF, 0x24: 0x26, 0x26: 0x48,
    0x27: 0x88, 0x28: 0x20, 0x29: 0x20, VERSION_REG: VERSION,
}
_READ_ONLY = {ERROR, STATUS1, STATUS2, CRC_RESULT_H, CRC_RESULT_L, VERSION_REG, 0x2E, 0x2F}
_CRC_PRESETS = {0: 0x0000, 1: 0x6363, 2: 0xA671, 3: 0xFFFF}


class UnsupportedCommand(BridgeError, NotImplementedError):
    """A command the register-level emulator does not model: extend the emulator, not the driver."""


class Mfrc522Chip:
    """An MFRC522 at register level: the registers, the FIFO, the commands the reader library uses (Transceive,
    CalcCRC, SoftReset...) and the RF field they drive."""
    def __init__(self, field: RfField | None = None):
        self.field = field or RfField()
        self.soft_reset()

    def soft_reset(self) -> None:
        """The SoftReset command: registers back to their datasheet reset values, the FIFO emptied."""
        self.regs = [0] * 64
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo: list[int] = []
        self.field.rx_gain_db = RX_GAIN_DB[self.regs[RF_CFG] >> 4 & 0x07]
        self.field.switch(self._antenna_on())

    # -- SPI ------------------------------------------------------------------------------------
    def spi_transfer(self, data: list[int]) -> list[int]:
        """One SPI transfer as the chip answers it: a read burst (address bytes with bit 7 set) or a register
        write."""
        if not data:
            return []
        if data[0] & 0x80:  # read burst: each byte names the next register to read
            out = [0]
            for i in range(1, len(data)):
                out.append(self.read(data[i - 1] >> 1 & 0x3F))
            return out
        address = data[0] >> 1 & 0x3F
        for value in data[1:]:
            self.write(address, value)
        return [0] * len(data)

    # -- registers ------------------------------------------------------------------------------
    def read(self, reg: int) -> int:
        """Read register `reg` (FIFODataReg pops the FIFO)."""
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        """Write register `reg`; a write to CommandReg runs the command, one to FIFODataReg fills the FIFO."""
        value &= 0xFF
        if reg == FIFO_DATA:
            if len(self.fifo) < FIFO_SIZE:
                self.fifo.append(value)
            else:
                self.regs[ERROR] |= BUFFER_OVFL
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~BUFFER_OVFL
        elif reg in (COMM_IRQ, DIV_IRQ):
            if value & 0x80:  # Set1/Set2: set the marked bits, else clear them
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0x7F
        elif reg == COLL:
            self.regs[COLL] = (self.regs[COLL] & 0x7F) | (value & 0x80)
        elif reg == CONTROL:
            self.regs[CONTROL] = (self.regs[CONTROL] & 0x07) | (value & 0xF8)
        elif reg == COMMAND:
            self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | (value & 0xF0) | (value & 0x0F)
            self._start(value & 0x0F)
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._transceive()
        elif reg not in _READ_ONLY:
            self.regs[reg] = value
            if reg == TX_CONTROL:
                self.field.switch(self._antenna_on())
            elif reg == RF_CFG:         # the receiver's gain: what a weak answer needs to be heard
                self.field.rx_gain_db = RX_GAIN_DB[value >> 4 & 0x07]

    # -- commands -------------------------------------------------------------------------------
    def _start(self, command: int) -> None:
        if command == IDLE or command == TRANSCEIVE:
            return  # Transceive waits for StartSend
        if command == SOFT_RESET:
            self.soft_reset()
        elif command == CALC_CRC:
            preset = _CRC_PRESETS[self.regs[MODE] & 0x03]
            crc = crc_a(self.fifo, preset)
            self.fifo.clear()
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = crc[0], crc[1]
            self.regs[DIV_IRQ] |= 0x04
        elif command == TRANSMIT:
            self._send(expect_answer=False)
            self.regs[COMM_IRQ] |= TX_IRQ | IDLE_IRQ
            self._set_command(IDLE)
        else:
            raise UnsupportedCommand(f"MFRC522 emulator: command 0x{command:X} is not emulated")

    def _set_command(self, command: int) -> None:
        self.regs[COMMAND] = (self.regs[COMMAND] & 0xF0) | command

    def _antenna_on(self) -> bool:
        return self.regs[TX_CONTROL] & 0x03 == 0x03

    def _timer_period_s(self) -> float:
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / 13.56e6

    def _send(self, expect_answer: bool = True):
        data = list(self.fifo)
        self.fifo.clear()
        tx_last_bits = self.regs[BIT_FRAMING] & 0x07
        if self.regs[TX_MODE] & 0x80:
            data += list(crc_a(data))
        nbits = len(data) * 8 if tx_last_bits == 0 else (len(data) - 1) * 8 + tx_last_bits
        timeout = self._timer_period_s() if expect_answer and self.regs[T_MODE] & 0x80 else 0.0
        return self.field.exchange(bytes_to_bits(data, nbits), timeout, self._antenna_on())

    def _transceive(self) -> None:
        self.regs[ERROR] &= BUFFER_OVFL
        heard = self._send()
        self.regs[COMM_IRQ] |= TX_IRQ
        if heard is None:
            self.regs[COMM_IRQ] |= TIMER_IRQ
            return
        rx_align = (self.regs[BIT_FRAMING] >> 4) & 0x07
        bits = list(heard.bits)
        coll_reg = self.regs[COLL] & 0x80
        if heard.collision_at is None:
            coll_reg |= 0x20  # CollPosNotValid
        else:
            self.regs[ERROR] |= COLL_ERR
            position = rx_align + heard.collision_at + 1
            coll_reg |= (position & 0x1F) if position <= 32 else 0x20
            if not self.regs[COLL] & 0x80:  # ValuesAfterColl = 0: bits after the collision read 0
                bits = bits[: heard.collision_at + 1] + [0] * (len(bits) - heard.collision_at - 1)
        self.regs[COLL] = coll_reg
        stream = [0] * rx_align + bits
        received = list(bits_to_bytes(stream))
        if self.regs[RX_MODE] & 0x80:
            if not crc_ok(received):
                self.regs[ERROR] |= CRC_ERR
            received = received[:-2]
        for value in received:
            self.write(FIFO_DATA, value)
        self.regs[CONTROL] = (self.regs[CONTROL] & 0xF8) | (len(stream) % 8)
        self.regs[COMM_IRQ] |= RX_IRQ | (ERR_IRQ if self.regs[ERROR] else 0)


"""The register-level MFRC522 emulator behaves like the datasheet says, and the real mfrc522 library
runs on top of it unchanged."""
from __future__ import annotations

import sys

import pytest

from firmware_bridge.emulation import mfrc522_chip as regs
from firmware_bridge.emulation.mfrc522_chip import Mfrc522Chip, UnsupportedCommand
from firmware_bridge.emulation.picc import Picc
from firmware_bridge.emulation.radio import POWER_UP_S
from firmware_bridge.rfid.iso14443_frames import crc_a


def read(chip, reg):
    return chip.spi_transfer([0x80 | reg << 1, 0])[1]


def write(chip, reg, *values):
    chip.spi_transfer([reg << 1, *values])


def test_version_and_read_burst():
    chip = Mfrc522Chip()
    assert chip.spi_transfer([0x80 | regs.VERSION_REG << 1, 0x80 | regs.COMMAND << 1, 0]) == [0, 0x92, 0x20]


def test_fifo_write_burst_level_flush_and_overflow():
    chip = Mfrc522Chip()
    write(chip, regs.FIFO_DATA, *range(10))
    assert read(chip, regs.FIFO_LEVEL) == 10 and read(chip, regs.FIFO_DATA) == 0
    write(chip, regs.FIFO_DATA, *([1] * 60))
    assert read(chip, regs.ERROR) & regs.BUFFER_OVFL
    write(chip, regs.FIFO_LEVEL, 0x80)
    assert read(chip, regs.FIFO_LEVEL) == 0 and not read(chip, regs.ERROR) & regs.BUFFER_OVFL


def test_irq_register_set_and_clear_semantics():
    chip = Mfrc522Chip()
    write(chip, regs.COMM_IRQ, 0x7F)  # Set1 = 0: clear all
    assert read(chip, regs.COMM_IRQ) == 0
    write(chip, regs.COMM_IRQ, 0x80 | regs.RX_IRQ)
    assert read(chip, regs.COMM_IRQ) == regs.RX_IRQ


def test_calc_crc_and_soft_reset():
    chip = Mfrc522Chip()
    write(chip, regs.MODE, 0x3D)  # CRC preset 6363
    write(chip, regs.FIFO_DATA, 0x50, 0x00)
    write(chip, regs.COMMAND, regs.CALC_CRC)
    assert read(chip, regs.DIV_IRQ) & 0x04
    assert (read(chip, regs.CRC_RESULT_L), read(chip, regs.CRC_RESULT_H)) == (0x57, 0xCD)
    write(chip, regs.COMMAND, regs.SOFT_RESET)
    assert read(chip, regs.MODE) == 0x3F and read(chip, regs.CRC_RESULT_L) == 0xFF


def test_transceive_collision_sets_collreg_and_bitframing_alignment():
    chip = Mfrc522Chip()
    write(chip, regs.TX_CONTROL, 0x83)  # antenna on
    write(chip, regs.COLL, 0x00)  # ValuesAfterColl = 0
    chip.field.place(Picc("04A1B2C3"))
    chip.field.place(Picc("04A1B2C7"))  # differs in bit 2 of the fourth byte: field bit 26
    for tag in chip.field.tags:
        tag.receive([0, 1, 0, 0, 1, 0, 1])  # WUPA
    write(chip, regs.FIFO_DATA, 0x93, 0x20)
    write(chip, regs.COMMAND, regs.TRANSCEIVE)
    write(chip, regs.BIT_FRAMING, 0x80)
    assert read(chip, regs.ERROR) & regs.COLL_ERR
    assert read(chip, regs.COLL) & 0x1F == 27 and not read(chip, regs.COLL) & 0x20
    assert read(chip, regs.COMM_IRQ) & (regs.RX_IRQ | regs.ERR_IRQ) == regs.RX_IRQ | regs.ERR_IRQ
    fifo = [read(chip, regs.FIFO_DATA) for _ in range(read(chip, regs.FIFO_LEVEL))]
    assert fifo[:3] == [0x04, 0xA1, 0xB2] and fifo[3] == 0x07 and fifo[4] == 0  # zeros after the collision


def test_no_answer_sets_timer_irq_and_counts_timer_period():
    chip = Mfrc522Chip()
    for reg, value in ((regs.TX_CONTROL, 0x83), (regs.T_MODE, 0x80), (regs.T_PRESCALER, 0xA9), (regs.T_RELOAD_L, 39)):
        write(chip, reg, value)
    write(chip, regs.FIFO_DATA, 0x52)
    write(chip, regs.COMMAND, regs.TRANSCEIVE)
    write(chip, regs.BIT_FRAMING, 0x87)
    assert read(chip, regs.COMM_IRQ) & regs.TIMER_IRQ and not read(chip, regs.COMM_IRQ) & regs.RX_IRQ
    assert chip.field.air_time_s == pytest.approx(1e-3, rel=0.1)


def test_antenna_off_means_no_tag_answers():
    chip = Mfrc522Chip()
    chip.field.place(Picc("04A1B2C3"))
    write(chip, regs.FIFO_DATA, 0x52)
    write(chip, regs.COMMAND, regs.TRANSCEIVE)
    write(chip, regs.BIT_FRAMING, 0x87)
    assert not read(chip, regs.COMM_IRQ) & regs.RX_IRQ


def test_unemulated_command_is_an_error_not_silence():
    with pytest.raises(UnsupportedCommand):
        write(Mfrc522Chip(), regs.COMMAND, 0x0E)


def test_picc_rejects_bad_uids():
    with pytest.raises(ValueError):
        Picc("0102")
    with pytest.raises(ValueError):
        Picc("88010203")


def test_real_library_reads_a_lone_tag(rig):
    import mfrc522

    assert "emulated" in (sys.modules["spidev"].__doc__ or "").lower()
    rig.place("04A1B2C3", 0)
    reader = mfrc522.MFRC522(pin_mode=11, pin_rst=25)
    assert rig.gpio.levels[25] == 1  # the library raised the reset line
    assert reader.MFRC522_Request(reader.PICC_REQIDL)[0] == reader.MI_ERR   # the tag is not powered up yet
    rig.clock.sleep(POWER_UP_S)     # ISO 14443-3: it answers after 5 ms in the field the library switched on
    assert reader.MFRC522_Request(reader.PICC_REQIDL) == (reader.MI_OK, 16)
    status, uid = reader.MFRC522_Anticoll()
    assert status == reader.MI_OK and bytes(uid) == bytes.fromhex("04A1B2C3D4")
    assert reader.MFRC522_SelectTag(uid) == 0x08
    assert bytes(reader.CalulateCRC([0x93, 0x70, *uid])) == crc_a([0x93, 0x70, *uid])
    reader.Close_MFRC522()


def test_real_library_sees_collision_as_an_error(rig):
    import mfrc522

    rig.place("04A1B2C3", 0)
    rig.place("04A1B2C7", 0)
    reader = mfrc522.MFRC522(pin_mode=11, pin_rst=25)
    rig.clock.sleep(POWER_UP_S)
    assert reader.MFRC522_Request(reader.PICC_REQIDL)[0] == reader.MI_OK
    assert reader.MFRC522_Anticoll()[0] == reader.MI_ERR  # why iso14443.py exists

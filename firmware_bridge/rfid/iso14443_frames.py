"""ISO/IEC 14443-3 type A frame vocabulary: command codes, CRC_A, BCC and LSB-first bit helpers.

Pure functions shared by the on-Pi driver (`iso14443.py`) and the tag emulator
(`emulation/picc.py`), so both sides build and check frames the same way.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

REQA = 0x26  # short frame, 7 bits
WUPA = 0x52  # short frame, 7 bits
HLTA = (0x50, 0x00)  # followed by CRC_A
SEL_CL = {1: 0x93, 2: 0x95, 3: 0x97}  # SEL code per cascade level
NVB_SELECT = 0x70  # 7 bytes: SEL, NVB, 4 UID bytes, BCC
CASCADE_TAG = 0x88
SAK_CASCADE_BIT = 0x04
SHORT_FRAME_BITS = 7
UID_FIELD_BITS = 40  # 4 UID-or-CT bytes + BCC per cascade level


def crc_a(data: Iterable[int], preset: int = 0x6363) -> bytes:
    """CRC_A (ISO 14443-3 annex B): preset 0x6363, reflected polynomial 0x8408, low byte first."""
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def with_crc(data: Sequence[int]) -> bytes:
    """`data` followed by its CRC_A, as a frame is sent."""
    return bytes(data) + crc_a(data)


def crc_ok(frame: Sequence[int]) -> bool:
    """Whether the last two bytes of `frame` are the CRC_A of the rest."""
    return len(frame) >= 3 and crc_a(frame[:-2]) == bytes(frame[-2:])


def bcc(four: Sequence[int]) -> int:
    """The block check character of four UID bytes (their XOR)."""
    value = 0
    for byte in four:
        value ^= byte
    return value


def bytes_to_bits(data: Sequence[int], nbits: int | None = None) -> list[int]:
    """LSB-first bit list (the order ISO 14443A puts bits on air)."""
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]
    return bits if nbits is None else bits[:nbits]


def bits_to_bytes(bits: Sequence[int]) -> bytes:
    """Pack bits, least significant first in each byte, as the air interface sends them."""
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        if bit:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def nvb(known_bits: int) -> int:
    """Number-of-valid-bits byte of an anticollision frame carrying `known_bits` UID-field bits."""
    total = 16 + known_bits
    return ((total // 8) << 4) | (total % 8)


def known_bits_of(nvb_byte: int) -> int:
    """How many UID bits an anticollision frame's NVB byte says are known."""
    return ((nvb_byte >> 4) * 8 + (nvb_byte & 0x0F)) - 16


def uid_hex(uid: Sequence[int]) -> str:
    """UID bytes as upper-case hex."""
    return bytes(uid).hex().upper()

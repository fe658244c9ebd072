"""An emulated ISO/IEC 14443-3 type A tag (PICC): UID (4 or 7 bytes), ATQA, cascade levels, SAK, HALT.

The tag follows the part-3 state machine: IDLE -REQA/WUPA-> READY -SELECT-> ACTIVE -HLTA-> HALT,
HALT -WUPA-> READY* (which falls back to HALT, not IDLE, on any unexpected command; REQA/WUPA
count as unexpected in READY and ACTIVE, so such a tag stays silent until the next one). In READY it
answers an anticollision frame only if its UID field starts with the transmitted bits, and then
with the remaining bits of that field; tags whose prefix differs stay silent and stay READY.
Test hooks: `corrupt_next` flips a bit in the next answers (a CRC/BCC error on air), and
`leave_after` takes the tag out of the field after that many more received frames.
"""
from __future__ import annotations

from firmware_bridge.rfid.iso14443_frames import (
    CASCADE_TAG,
    HLTA,
    NVB_SELECT,
    REQA,
    SAK_CASCADE_BIT,
    SEL_CL,
    SHORT_FRAME_BITS,
    UID_FIELD_BITS,
    WUPA,
    bcc,
    bits_to_bytes,
    bytes_to_bits,
    crc_ok,
    known_bits_of,
    with_crc,
)

IDLE, READY, ACTIVE, HALT = "IDLE", "READY", "ACTIVE", "HALT"
_LEVEL_OF_SEL = {code: level for level, code in SEL_CL.items()}


class Picc:
    """One ISO 14443-A tag (a PICC) with a 4- or 7-byte UID: its state machine for REQA/WUPA, anticollision, select
    and HLTA, at bit level."""
    def __init__(self, uid: bytes | str, sak: int = 0x08):
        uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(uid) not in (4, 7):
            raise ValueError(f"emulated tags have 4- or 7-byte UIDs, not {len(uid)}")
        if len(uid) == 4 and uid[0] == CASCADE_TAG:
            raise ValueError("a 4-byte UID cannot start with the cascade tag 0x88")
        self.uid = uid
        self.final_sak = sak & ~SAK_CASCADE_BIT
        self.corrupt_next = 0
        self.leave_after: int | None = None
        self.fields = 0  # how many readers' fields it is in (a block on a border: two)
        self.departed = False  # left on its own (`leave_after`) mid-exchange
        self.power_on()

    @property
    def uid_hex(self) -> str:
        """The UID as upper-case hex, as the registry writes it."""
        return self.uid.hex().upper()

    def power_on(self) -> None:
        """The field came on: the tag resets to IDLE at cascade level 1."""
        self.state = IDLE
        self.from_halt = False
        self.level = 1

    @property
    def in_field(self) -> bool:
        """Whether the tag is powered: in at least one field and not taken away."""
        return self.fields > 0 and not self.departed

    @property
    def levels(self) -> int:
        """The cascade levels its UID needs: 1 for 4 bytes, 2 for 7 bytes."""
        return 1 if len(self.uid) == 4 else 2

    def atqa(self) -> bytes:
        """The tag's answer to REQA/WUPA, which tells the UID size."""
        return bytes((0x04 if self.levels == 1 else 0x44, 0x00))

    def uid_field(self, level: int) -> bytes:
        """The four UID bytes the tag sends at cascade `level` (the cascade tag 0x88 first at level 1 of a 7-byte
        UID)."""
        if self.levels == 1:
            four = self.uid
        elif level == 1:
            four = bytes((CASCADE_TAG,)) + self.uid[:3]
        else:
            four = self.uid[3:7]
        return four + bytes((bcc(four),))

    def _fall_back(self) -> None:
        self.state = HALT if self.from_halt else IDLE
        self.level = 1

    def receive(self, bits: list[int]) -> list[int] | None:
        """Handle one frame heard on air; return the answer's bits (LSB first) or None (silence)."""
        if not self.in_field:
            return None
        if self.leave_after is not None:
            self.leave_after -= 1
            if self.leave_after < 0:
                self.departed = True
                self.leave_after = None
                return None
        answer = self._answer(bits)
        if answer is not None and self.corrupt_next > 0:
            self.corrupt_next -= 1
            answer = list(answer)
            answer[-1] ^= 1
        return answer

    def _answer(self, bits: list[int]) -> list[int] | None:
        if len(bits) == SHORT_FRAME_BITS:
            command = bits_to_bytes(bits)[0]
            if (command == REQA and self.state == IDLE) or (command == WUPA and self.state in (IDLE, HALT)):
                self.from_halt = self.state == HALT
                self.state, self.level = READY, 1
                return bytes_to_bits(self.atqa())
            if self.state in (READY, ACTIVE):
                self._fall_back()
            return None
        data = bits_to_bytes(bits)
        if self.state == READY and len(bits) >= 16 and data[0] in _LEVEL_OF_SEL:
            return self._anticollision_or_select(data, bits)
        if self.state == ACTIVE and len(bits) == 32 and tuple(data[:2]) == HLTA and crc_ok(data):
            self.state = HALT
            self.from_halt = False
            return None
        if self.state in (READY, ACTIVE):
            self._fall_back()
        return None

    def _anticollision_or_select(self, data: bytes, bits: list[int]) -> list[int] | None:
        level = _LEVEL_OF_SEL[data[0]]
        if level != self.level or level > self.levels:
            self._fall_back()
            return None
        field = self.uid_field(level)
        if data[1] == NVB_SELECT:
            if len(data) != 9 or not crc_ok(data) or data[2:7] != field:
                self._fall_back()
                return None
            if level < self.levels:
                self.level += 1
                return bytes_to_bits(with_crc([SAK_CASCADE_BIT]))
            self.state = ACTIVE
            return bytes_to_bits(with_crc([self.final_sak]))
        known = known_bits_of(data[1])
        if not 0 <= known < UID_FIELD_BITS or len(bits) != 16 + known:
            self._fall_back()
            return None
        field_bits = bytes_to_bits(field)
        if bits[16:] != field_bits[:known]:
            return None  # not our branch of the UID tree: stay READY, stay silent
        return field_bits[known:]

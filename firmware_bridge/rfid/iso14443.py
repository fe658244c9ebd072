"""ISO/IEC 14443-3 type A inventory: read the UID of every tag in one reader's field.

The mfrc522 library only reads one lone 4-byte tag. `read_field()` walks the UID tree by bit
collisions: an anticollision frame carries the UID bits known so far; the tags whose UID starts
with them answer the rest, and where their bits differ the reader sees a collision. The walk
keeps the branch with a 1 at the collision and remembers the 0-branch for later, so every
branch remembered is known to hold a tag. A complete 40-bit field is checked (BCC), SELECTed
(SAK + CRC_A checked); a SAK with the cascade bit means a 7-byte UID, continued at cascade level
2. The identified tag is then HALTed. Each later branch begins with WUPA, which wakes tags in HALT
as well as IDLE (the SELECT of another tag sent the rest back to one of those): a tag whose
branch is done never matches a remaining branch, so it stays silent.

The walk only follows the collisions the reader sees, and a much stronger tag *captures* the
reader: its answer is decoded cleanly and a weak one beside it is drowned, no collision bit shown.
So after the walk a final REQA asks again: every tag read is in HALT and stays silent, a tag left
unread is IDLE (the SELECT of another sent it back) and answers; then the walk runs again from the
root, with REQA for every branch (WUPA would wake the tags already read, which would drown it
again), until a REQA meets silence. The reader's field was off before this read (reader_array),
so no tag starts in HALT from the last pass.

A tag that leaves mid-walk only makes its branch time out. A BCC or CRC error retries the branch;
if it persists the pass is marked incomplete so the scanner does not read an absence into it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from firmware_bridge.rfid.iso14443_frames import (
    CASCADE_TAG,
    HLTA,
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
    nvb,
    uid_hex,
    with_crc,
)
from firmware_bridge.rfid.mfrc522_link import Mfrc522Link
from firmware_bridge.shared.errors import BridgeError

RETRIES = 2
MAX_TAGS = 16

Path = tuple[tuple[int, ...], ...]  # known UID-field bits per cascade level; all but the last are complete


class _Vanished(BridgeError):
    """The tags of this branch stopped answering (they left the field)."""


class _BadFrame(BridgeError):
    """A frame failed its check (BCC, CRC, length, an impossible collision)."""


class _Stuck(BridgeError):
    """The reader chip stopped reporting completion: treat the reader as unanswering."""


@dataclass
class FieldInventory:
    """What one pass over a reader's field found: the UIDs, whether every branch of the anticollision walk was
    resolved (so an absent UID is really absent), the problems met, and whether the chip stopped answering."""
    uids: set[str] = field(default_factory=set)
    complete: bool = True
    problems: list[str] = field(default_factory=list)
    stuck: bool = False


class FieldReader:
    """Runs ISO 14443-3 type A over one MFRC522: wake the tags, walk the anticollision tree through both cascade
    levels, select and halt each tag, so that every tag in the field is named."""
    def __init__(self, link: Mfrc522Link, max_tags: int = MAX_TAGS):
        self.link = link
        self.max_tags = max_tags

    def read_field(self, expect_tags: bool = False) -> FieldInventory:
        """Identify every tag in the selected reader's field. `expect_tags`: it held tags last pass."""
        result = FieldInventory()
        budget = [4 * self.max_tags]
        try:
            if self._walk(result, WUPA, expect_tags, budget):
                # The final request: any tag the walk left unread (drowned by a stronger one).
                while result.complete and self._walk(result, REQA, False, budget):
                    pass
        except _Stuck:
            result.complete = False
            result.stuck = True
            result.problems.append("reader stopped answering mid-exchange")
        return result

    def _walk(self, result: FieldInventory, wake: int, retry_first: bool, budget: list[int]) -> bool:
        """One anticollision walk from the root, each branch begun with `wake`; False if the
        root's request met silence (nothing, or nothing more, in the field)."""
        pending: list[Path] = [((),)]
        retries: dict[Path, int] = {}
        first = True
        while pending:
            budget[0] -= 1
            if budget[0] < 0:
                result.complete = False
                result.problems.append(f"gave up after {4 * self.max_tags} branches")
                break
            path = pending.pop()
            if not self._wake(wake, retry=retry_first or not first):
                if first:
                    return False
                continue  # this branch's tags left
            first = False
            try:
                result.uids.add(self._follow(path, pending))
            except _Vanished:
                continue
            except _BadFrame as exc:
                retries[path] = retries.get(path, 0) + 1
                if retries[path] <= RETRIES:
                    pending.append(path)
                else:
                    result.complete = False
                    result.problems.append(str(exc))
        return True

    def _wake(self, command: int, retry: bool) -> bool:
        # A tag left READY by an interrupted walk drops to IDLE on the first request and answers the next.
        for _ in range(2 if retry else 1):
            reply = self.link.transceive([command], tx_last_bits=SHORT_FRAME_BITS)
            if reply.status == "stuck":
                raise _Stuck
            if reply.status != "timeout":
                return True
        return False

    def _follow(self, path: Path, pending: list[Path]) -> str:
        """Resolve one branch to a full UID (pushing the 0-branches of collisions met), SELECT, HLTA."""
        uid = b""
        done: list[tuple[int, ...]] = []
        for level in (1, 2, 3):
            known = path[level - 1] if level <= len(path) else ()
            bits = self._resolve(level, list(known), done, pending)
            uid_field = bits_to_bytes(bits)
            if bcc(uid_field[:4]) != uid_field[4]:
                raise _BadFrame(f"BCC error at cascade level {level}")
            sak = self._select(level, uid_field)
            if not sak & SAK_CASCADE_BIT:
                uid += uid_field[:4]
                self.link.transmit(with_crc(HLTA))
                return uid_hex(uid)
            if uid_field[0] != CASCADE_TAG or level == 3:
                raise _BadFrame(f"cascade SAK without cascade tag at level {level}")
            uid += uid_field[1:4]
            done.append(tuple(bits))
        raise _BadFrame("more than three cascade levels")

    def _resolve(self, level: int, known: list[int], done: list[tuple[int, ...]], pending: list[Path]) -> list[int]:
        while len(known) < UID_FIELD_BITS:
            split = len(known) % 8
            frame = [SEL_CL[level], nvb(len(known)), *bits_to_bytes(known)]
            reply = self.link.transceive(frame, tx_last_bits=split, rx_align=split)
            self._check(reply)
            answer = bytes_to_bits(reply.data)[split: reply.bits]
            wanted = UID_FIELD_BITS - len(known)
            if reply.status == "collision" and reply.collision_at is not None:
                at = reply.collision_at - split
                if not 0 <= at < wanted:
                    raise _BadFrame(f"collision outside the UID field at level {level}")
                prefix = known + answer[:at]
                pending.append((*done, tuple(prefix + [0])))
                known = prefix + [1]
            elif reply.status == "ok" and len(answer) == wanted:
                known = known + answer
            else:
                raise _BadFrame(f"anticollision answer of {len(answer)} bits, wanted {wanted}")
        return known

    def _select(self, level: int, uid_field: bytes) -> int:
        reply = self.link.transceive(with_crc([SEL_CL[level], 0x70, *uid_field]))
        self._check(reply)
        if reply.status != "ok" or len(reply.data) != 3 or not crc_ok(reply.data):
            raise _BadFrame(f"bad SAK frame at cascade level {level}")
        return reply.data[0]

    @staticmethod
    def _check(reply) -> None:
        if reply.status == "stuck":
            raise _Stuck
        if reply.status == "timeout":
            raise _Vanished
        if reply.status in ("error", "crc"):
            raise _BadFrame(f"receive error (ErrorReg 0x{reply.error:02X})")

"""A ready-made emulated board: every block's tag placed as in the 705 set-up, and an operator
that does what enrollment asks (lifting and replacing blocks) on the emulated board.

Used by `rubicon enroll --emulate`, `rubicon devices scan --emulate` and the tests. Tag UIDs are
derived from block ids (stable between runs); every third block carries a 7-byte UID.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable

from firmware_bridge.board.block_catalog import Block, BlockCatalog
from firmware_bridge.board.reader_map import SIDES, ReaderMap
from firmware_bridge.emulation.rig import EmulatedRig


def demo_uid(block_id: str, seven_bytes: bool) -> str:
    """A stable made-up UID for `block_id` (7 bytes with NXP's manufacturer code, or 4), the same on every run."""
    digest = hashlib.sha256(block_id.encode()).digest()
    if seven_bytes:
        return (b"\x04" + digest[:6]).hex().upper()  # 0x04: NXP's manufacturer code
    first = digest[0] if digest[0] != 0x88 else 0x89
    return (bytes((first,)) + digest[1:4]).hex().upper()


def set_up_705(rig: EmulatedRig, reader_map: ReaderMap, catalog: BlockCatalog) -> dict[str, str]:
    """Place every set-up block's tag on its reader; return block id -> UID."""
    truth: dict[str, str] = {}
    places = [(reader_map.index_of(loc), ids) for loc, ids in catalog.setup_map.items()]
    if any(p.kind == "levy_pool" for p in reader_map.places):   # a board-layout map senses no pools
        places += [(reader_map.levy_pool(side), catalog.levy_pools[side]) for side in SIDES]
    for reader, ids in places:
        for block_id in ids:
            uid = demo_uid(block_id, seven_bytes=len(truth) % 3 == 2)
            rig.place(uid, reader)
            truth[block_id] = uid
    return truth


class EmulatedOperator:
    """Carries out enrollment's requests on the emulated board; `ask` and `wait` each take the next
    scripted answer, and raise EOFError (the person stops) when the script is used up."""

    def __init__(self, rig: EmulatedRig, reader_map: ReaderMap, truth: dict[str, str],
                 say: Callable[[str], None] = print, answers: list[str] | None = None):
        self.rig, self.reader_map, self.truth, self.say = rig, reader_map, truth, say
        self.answers = list(answers or [])
        self.lifted: dict[str, list[tuple[str, list[int]]]] = {}

    def tell(self, message: str) -> None:
        """Show `message` to the person enrolling."""
        self.say(message)

    def lift(self, block: Block, location: str) -> None:
        """Lift `block` off `location` on the emulated board, as the instruction asks."""
        self.say(f"Lift {block.id} off {location} and keep it off ... (emulated: done)")
        uid = self.truth[block.id]
        # Back where it stood: `location` may name a shared zone whole ("Neapolis / Sipontum").
        readers = self.rig.readers_of(uid)
        self.rig.lift(uid)
        self.lifted.setdefault(location, []).append((uid, readers))

    def put_back(self, location: str) -> None:
        """Put every block lifted off `location` back on the reader it was lifted from."""
        self.say(f"Put the lifted blocks back on {location} ... (emulated: done)")
        for uid, readers in self.lifted.pop(location, []):
            for reader in readers:
                self.rig.place(uid, reader)

    def wait(self, message: str) -> None:
        """Wait for the person to press Enter (an answer from the script)."""
        self.ask(message + " ")

    def ask(self, message: str) -> str:
        """The next scripted answer to `message`; EOFError when the script has none left."""
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        self.say(f"{message}{answer}")
        return answer


def add_demo_anomalies(rig: EmulatedRig, reader_map: ReaderMap, truth: dict[str, str]) -> None:
    """What `devices scan --emulate` should flag: a tag nobody enrolled, a block on a border, a
    reader that does not answer."""
    rig.place("DEADBEEF", reader_map.index_of("Roma"))
    rig.place(truth["P Legio 3"], reader_map.index_of("Sipontum"))
    has_area = any(p.kind == "eliminated" for p in reader_map.places)
    rig.unplug(reader_map.eliminated("Pompeius") if has_area else reader_map.scan_pad)

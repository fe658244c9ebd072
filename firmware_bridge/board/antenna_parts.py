"""The reader parts a sensing board is built from, with the sizes the layout needs.

The map is too crowded for reader modules with their antenna on the board: a 40 x 60 mm RFID-RC522
cannot lie under Italy's four cities (Roma, Asculum, Neapolis, Sipontum within 56 x 48 mm) with each
city's dot inside its loop, nor anywhere two cities are 25-35 mm apart (checked by the layout tool,
`rubicon board-layout --onboard`). So each zone gets an external loop antenna lying flat under the map,
sized to its zone, and the reader module that drives it is mounted under the base board, out of the
sensing plane, on a short lead. Only the loops must not overlap.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AntennaPart:
    """A reader part an antenna is built from: its chip, the loop sizes it is tuned for, and its module's board
    size (mm)."""
    key: str
    name: str
    chip: str
    loop: float           # the smallest loop side (a zone of one city gets a square of this side)
    max_loop: float       # the largest loop side the part is tuned for
    module_w: float       # the reader module's own board, mounted under the base board
    module_h: float
    source: str
    in_plane: bool = False  # the module lies under the map beside its loop (its own PCB antenna)

    @property
    def tail(self) -> float:
        """How far the module's board reaches past its square part (mm): where its header and wires go."""
        return self.module_h - self.module_w


# The common blue "RFID-RC522" module (NXP MFRC522, 13.56 MHz): 40 x 60 mm, its own PCB antenna filling
# the 40 x 40 mm end. Here that antenna is cut free at its two feed points and a loop of copper tape or
# enamelled wire is connected instead (NXP AN1445, "Antenna design guide for MFRC52x, PN51x, PN53x":
# series/parallel matching to the module's 50-ohm EMC filter). One matching per loop size, found once
# on one loop with a NanoVNA, then repeated. Loops from 36 mm (a 2 x 2 square of 19 mm blocks with room
# to spare) to 60 mm a side: a small sticker tag (<= 15 mm) couples poorly to the middle of a larger loop.
RC522_LOOP = AntennaPart(
    key="rc522-loop", name="RFID-RC522 module (NXP MFRC522) driving an external loop", chip="NXP MFRC522",
    loop=36.0, max_loop=60.0, module_w=40.0, module_h=60.0,
    source="module 40 x 60 mm as sold ('RFID-RC522', AliExpress/Reichelt listings); chip: NXP MFRC522 datasheet "
           "rev. 3.9; external loop and its matching: NXP AN1445")

# The same module with its own antenna, for the check that it does not fit (`--onboard`): the loop is the
# 40 x 40 mm end less 2 mm a side, and the module's 20 mm tail (chip and header) lies in the same plane.
RC522_ONBOARD = AntennaPart(
    key="rc522", name="RFID-RC522 module (NXP MFRC522), its own PCB antenna", chip="NXP MFRC522",
    loop=36.0, max_loop=36.0, module_w=40.0, module_h=60.0, in_plane=True,
    source="module 40 x 60 mm as sold ('RFID-RC522'); NXP MFRC522 datasheet rev. 3.9")

PARTS = {p.key: p for p in (RC522_LOOP, RC522_ONBOARD)}

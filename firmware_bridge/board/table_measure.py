"""What the owner measures on his own table before anything is bought: the blocks' footprint, the tag
that fits under one, and how far above the loops the tags lie (the map's thickness, or a mounted board's).

Columbia Games shipped two block sizes over the years (published descriptions; nothing is known
until an owner measures, so the layout tool takes a ruler's figures): the "large" blocks of about
1" x 1" x 0.5" standing on end, whose foot is 25.4 x 12.7 mm, and the older 3/4" (19 mm) blocks.
Blocks on one place stand in a cluster around its dot (`cols` x `rows`, 2 x 2 by default), so a
block's tag lies anywhere in a rectangle around the dot: `tag_half`. A sticker must fit on the
block's foot with a millimetre to spare: a 12.7 mm foot takes at most an 11 mm sticker.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from firmware_bridge.shared.errors import BridgeValueError

STICKER_SIZES_MM = (10.0, 12.0, 13.0, 15.0, 18.0, 20.0, 25.0)     # round NTAG213 stickers as sold


class MeasureError(BridgeValueError):
    """A measurement the layout cannot use (the message names it and what it expects)."""


@dataclass(frozen=True)
class BlockFootprint:
    """A block's foot as it stands on the map (mm), and how the blocks on one place stand around its dot."""
    key: str
    name: str
    width_mm: float
    depth_mm: float
    cols: int = 2
    rows: int = 2

    @property
    def tag_half(self) -> tuple[float, float]:
        """How far a tag (at its block's centre) can lie from the dot, across and down (mm)."""
        return (self.cols - 1) * self.width_mm / 2, (self.rows - 1) * self.depth_mm / 2

    @property
    def cluster_mm(self) -> tuple[float, float]:
        """The area the cluster of blocks covers around a dot (mm)."""
        return self.cols * self.width_mm, self.rows * self.depth_mm

    @property
    def largest_sticker_mm(self) -> float:
        """The largest round sticker sold that fits on the foot with 1 mm to spare."""
        room = min(self.width_mm, self.depth_mm) - 1.0
        fitting = [s for s in STICKER_SIZES_MM if s <= room]
        if not fitting:
            raise MeasureError(f"a {self.width_mm:g} x {self.depth_mm:g} mm foot takes no sticker of "
                               f"{STICKER_SIZES_MM[0]:g} mm or more")
        return fitting[-1]


LARGE_ON_END = BlockFootprint("large", "large block 1 x 1 x 0.5 in standing on end", 25.4, 12.7)
SMALL_CUBE = BlockFootprint("small", "3/4 in block (19 mm)", 19.0, 19.0)
FOOTPRINTS = {f.key: f for f in (LARGE_ON_END, SMALL_CUBE)}


def parse_block(text: str) -> BlockFootprint:
    """`large`, `small`, or a measured foot `WxD` in mm, optionally with the cluster `WxD@COLSxROWS`
    (e.g. `25x13`, `25x13@2x2`, `19x19@3x1`); MeasureError naming what was expected."""
    key = text.strip().lower()
    if key in FOOTPRINTS:
        return FOOTPRINTS[key]
    match = re.fullmatch(r"(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(?:@(\d)x(\d))?", key)
    if not match:
        raise MeasureError(f"--block {text!r}: expected 'large', 'small' or the foot measured in mm as WxD "
                           "(e.g. 25x13), optionally @COLSxROWS for how the blocks on one place stand (2x2)")
    w, d = float(match[1]), float(match[2])
    cols, rows = (int(match[3]), int(match[4])) if match[3] else (2, 2)
    if not (5 <= w <= 60 and 5 <= d <= 60) or not (1 <= cols <= 4 and 1 <= rows <= 4):
        raise MeasureError(f"--block {text!r}: a foot of 5-60 mm a side and clusters of 1-4 blocks a row, please")
    return BlockFootprint(f"{w:g}x{d:g}@{cols}x{rows}", f"measured {w:g} x {d:g} mm block", w, d, cols, rows)

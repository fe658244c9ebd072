"""Learning the owner's dice from what the camera reads: their top face's size in the picture,
how far from a face's centre their corner pips sit, and how big a pip is (die widths).

Dice differ by maker (corner pips 0.27-0.41 die widths from the centre): read with any maker's
layout allowed, every face from 2 to 6 gives its corner distance and pip size; the medians,
once each of those faces has been seen, narrow what the recogniser accepts for these dice.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from firmware_bridge.camera.recognise import Reading

WANTED_FACES = frozenset({2, 3, 4, 5, 6})
MIN_FACES = 8
MIXED_SPREAD = 0.05         # corner distances further apart than this: dice of more than one maker


@dataclass(frozen=True)
class Learned:
    """What the calibration found: die side (px), corner distance and pip radius (die widths), the
    corner distances' spread (max - min), and whether that spread says more than one maker."""
    die_px: float
    pip_corner: float
    pip_radius: float
    spread: float
    mixed: bool


@dataclass
class Calibration:
    """Read faces collected over a few rests; `result()` once every face 2-6 has been seen."""
    die_px: float
    sides: list[float] = field(default_factory=list)
    corners: list[float] = field(default_factory=list)
    radii: list[float] = field(default_factory=list)
    faces: set[int] = field(default_factory=set)

    def add(self, reading: Reading) -> int:
        """Take the dice of one rest that were read; returns how many."""
        read = [d for d in reading.dice if d.value is not None]
        for die in read:
            self.sides.append(die.side)
            if die.value is not None and die.value != 1 and die.corner > 0:
                self.corners.append(die.corner)
                self.radii.append(die.pip)
                self.faces.add(die.value)
        return len(read)

    @property
    def complete(self) -> bool:
        """Whether every face 2-6 and enough faces were seen."""
        return WANTED_FACES <= self.faces and len(self.corners) >= MIN_FACES

    def missing(self) -> str:
        """What is still wanted, in words."""
        faces = sorted(WANTED_FACES - self.faces)
        parts = [f"faces {' '.join(map(str, faces))} not seen yet"] if faces else []
        if len(self.corners) < MIN_FACES:
            parts.append(f"{len(self.corners)} of {MIN_FACES} faces read")
        return "; ".join(parts) or "nothing"

    def result(self) -> Learned | None:
        """The medians, or None until `complete`."""
        if not self.complete:
            return None
        spread = max(self.corners) - min(self.corners)
        return Learned(statistics.median(self.sides), statistics.median(self.corners), statistics.median(self.radii),
                       spread, spread > MIXED_SPREAD)

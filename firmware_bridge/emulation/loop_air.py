"""The emulated air of a sensing board built from loops: who powers and hears whom, from the same field
model the layout tool designs with (firmware_bridge/board/loop_field.py).

Each reader drives one rectangular loop. A tag at (x, y) couples to a loop with the mutual inductance
M of `loop_field.coupling` (either sign: the reversed lobe outside the wire reads too). Relative to
the board's read threshold T (nH), a reader's *strength* on a tag is S = |M| * drive / T, where `drive`
is that module's drive and tuning (1.0 as designed; a detuned loop less; a dead one 0):

- the tag is powered when S >= 1;
- the reader hears its answer when S² >= 10^((48 - RxGain) / 20): load modulation comes back through
  the same coupling, so the answer rises as S², and the receiver gain (RFCfgReg RxGain, 18-48 dB) sets
  how much of it the reader needs. At 48 dB a powered tag is heard; at 18 dB only one 15 dB above the
  threshold. That makes the lowest gain that reads a tag a measure of its strength: the bring-up's
  proxy (board/bringup.py). (That the power threshold and the 48 dB hearing threshold coincide is this
  model's assumption; a real module's steps are measured by the bring-up, not assumed.)

Faults for the bring-up's tests: `drive` per reader (detuned, dead), the loops of two readers swapped
(wiring), a loop lying over a neighbour's place. Fields on at once within `jam_range_mm` spoil frames,
as in the harsh model; strong answers capture weak ones by `capture_ratio`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from firmware_bridge.board.loop_field import Loop, Tag, coupling

MAX_GAIN_DB = 48


@dataclass
class LoopAir:
    """The air of a board of loops (see the module docstring): loops by reader, the tag, the threshold."""
    loops: dict[int, Loop]
    tag: Tag
    threshold_nh: float
    drive: dict[int, float] = field(default_factory=dict)      # reader -> drive (default 1.0)
    jam_range_mm: float = 100.0
    capture_ratio: float = 4.0

    @property
    def antennas(self) -> dict[int, tuple[float, float]]:
        """Each reader's loop centre (mm): where `rig.place` puts a tag on that reader."""
        return {r: loop.centre for r, loop in self.loops.items()}

    def strength(self, at: tuple[float, float], reader: int) -> float:
        """S: the reader's coupling to a tag at `at`, over the threshold (>= 1: powered)."""
        loop = self.loops.get(reader)
        if loop is None:
            return 0.0
        return abs(coupling(loop, self.tag, *at)) * self.drive.get(reader, 1.0) / self.threshold_nh

    def powers(self, at: tuple[float, float], reader: int) -> bool:
        """Whether the reader's field powers a tag at `at`."""
        return self.strength(at, reader) >= 1.0

    def heard(self, at: tuple[float, float], reader: int, gain_db: int) -> float:
        """The answer's strength at the reader (S²), or 0 below what its gain needs."""
        s = self.strength(at, reader)
        answer = s * s
        return answer if s >= 1.0 and answer >= 10 ** ((MAX_GAIN_DB - gain_db) / 20) else 0.0

    def jams(self, reader: int, other: int) -> bool:
        """Whether `other`'s field, on, spoils what `reader` receives (loop centres within jam_range_mm)."""
        a, b = self.loops.get(reader), self.loops.get(other)
        if a is None or b is None:
            return False
        return math.dist(a.centre, b.centre) <= self.jam_range_mm

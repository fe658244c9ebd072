"""Matching a hand-made loop to an RC522 module, the way NXP AN1445 does it, and how far off a loop may be
before it reads short.

AN1445's method: measure (here: compute) the antenna's series equivalent L and R at 13.56 MHz, add
damping resistors for a quality factor of about 35 (the bandwidth ISO 14443's 106 kbit/s modulation
needs), then choose a series capacitor C1 and a parallel capacitor C2 so that the antenna, seen
through them, presents a real impedance `r_match` to the EMC filter at 13.56 MHz. Values here are
for the single-ended equivalent; the module's symmetric (differential) network has two C1 of twice
that value, one per side, and two C2 of twice that value to ground (in series, the same).

- `loop_inductance`: a rectangular loop of round wire (the classic low-frequency formula, e.g. Grover,
  "Inductance Calculations"), times turns² for close-wound turns (an upper bound: the turns of a flat
  loop do not couple perfectly).
- `loop_resistance`: the wire's resistance with the skin effect at 13.56 MHz (δ ≈ 17.7 µm in copper).
- `match`: the damping resistor and C1, C2; `detuning_loss_db`: how much field a loop whose inductance
  is off by a fraction loses with the matching computed for the nominal one (the mismatch loss,
  10·log10(1 − |Γ|²)); `tolerance`: the inductance error at which that loss reaches a margin (the
  field check's loop margin: beyond it, the loop reads short).

The default `r_match` (40 Ω) is a value used in published MFRC522 matching designs following AN1445;
measure your module's as AN1445 describes if you tune with a VNA.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

F = 13.56e6
OMEGA = 2 * math.pi * F
MU0 = 4e-7 * math.pi
RHO_CU = 1.72e-8                # ohm·m
Q_TARGET = 35.0
LOOP_TURNS = 3                  # the board's loops: 3 turns of 0.4 mm wire (about 1.2 µH at 36 mm)


def loop_inductance(w_mm: float, h_mm: float, turns: int = 1, wire_mm: float = 0.4) -> float:
    """Inductance (H) of a rectangular loop of `turns` close-wound turns of round wire."""
    w, h, a = w_mm / 1000, h_mm / 1000, wire_mm / 2000
    d = math.hypot(w, h)
    one = MU0 / math.pi * (-2 * (w + h) + 2 * d - h * math.log((h + d) / w) - w * math.log((w + d) / h)
                           + h * math.log(2 * h / a) + w * math.log(2 * w / a))
    return one * turns * turns


def loop_resistance(w_mm: float, h_mm: float, turns: int = 1, wire_mm: float = 0.4) -> float:
    """Series resistance (ohm) of the loop's wire at 13.56 MHz (skin effect; proximity effect left out)."""
    skin = math.sqrt(RHO_CU / (math.pi * F * MU0))
    length = turns * 2 * (w_mm + h_mm) / 1000
    return RHO_CU * length / (math.pi * (wire_mm / 1000) * skin)


@dataclass(frozen=True)
class Matching:
    """A loop's equivalent and its matching network (single-ended equivalent values)."""
    l_h: float
    r_ohm: float                # the wire's own
    r_damp_ohm: float           # added in series for Q = 35
    c1_f: float                 # series
    c2_f: float                 # parallel, across the antenna
    r_match: float

    @property
    def q(self) -> float:
        """The damped antenna's quality factor."""
        return OMEGA * self.l_h / (self.r_ohm + self.r_damp_ohm)

    def describe(self) -> str:
        """One line with the values an owner needs (the module's symmetric network: C1, C2 twice these)."""
        return (f"loop L {self.l_h * 1e6:.2f} µH, R {self.r_ohm:.2f} Ω; damping {self.r_damp_ohm:.1f} Ω for Q "
                f"{self.q:.0f}; C1 {self.c1_f * 1e12:.0f} pF series, C2 {self.c2_f * 1e12:.0f} pF parallel "
                f"(single-ended; on the module's symmetric network 2 x C1 = {2 * self.c1_f * 1e12:.0f} pF and "
                f"2 x C2 = {2 * self.c2_f * 1e12:.0f} pF per side)")


def match(l_h: float, r_ohm: float, r_match: float = 40.0, q: float = Q_TARGET) -> Matching:
    """AN1445's steps: damp to Q, then the shunt C2 that makes the real part r_match and the series C1
    that cancels what is left. ValueError when the loop cannot be matched to r_match."""
    rs = OMEGA * l_h / q
    r_damp = max(0.0, rs - r_ohm)
    rs = r_ohm + r_damp
    xl = OMEGA * l_h
    g = rs / (rs * rs + xl * xl)
    if g > 1 / r_match:
        raise ValueError(f"a loop of {l_h * 1e6:.2f} µH cannot be matched to {r_match:g} Ω at Q {q:g}")
    b = -math.sqrt(g / r_match - g * g)             # the susceptance that leaves Re(Z) = r_match, inductive
    c2 = (b + xl / (rs * rs + xl * xl)) / OMEGA
    if c2 <= 0:
        raise ValueError(f"a loop of {l_h * 1e6:.2f} µH needs no parallel capacitor at {r_match:g} Ω: fewer turns")
    x_left = -b / (g * g + b * b)
    return Matching(l_h, r_ohm, r_damp, 1 / (OMEGA * x_left), c2, r_match)


def _z_in(m: Matching, l_h: float) -> complex:
    zl = complex(m.r_ohm + m.r_damp_ohm, OMEGA * l_h)
    zp = 1 / (1j * OMEGA * m.c2_f + 1 / zl)
    return zp + 1 / (1j * OMEGA * m.c1_f)


def detuning_loss_db(m: Matching, error: float) -> float:
    """Field lost (dB, negative) when the loop's inductance is (1 + error) times the one matched for."""
    z = _z_in(m, m.l_h * (1 + error))
    gamma = (z - m.r_match) / (z + m.r_match)
    return 10 * math.log10(max(1e-12, 1 - abs(gamma) ** 2))


def tolerance(m: Matching, margin_db: float) -> float:
    """The inductance error (a fraction, same either way or the smaller) at which the field loss reaches
    `margin_db`."""
    out = []
    for sign in (1, -1):
        lo, hi = 0.0, 0.5
        for _ in range(50):
            mid = (lo + hi) / 2
            if -detuning_loss_db(m, sign * mid) < margin_db:
                lo = mid
            else:
                hi = mid
        out.append(lo)
    return min(out)


def resonance_shift(error: float) -> float:
    """How far (a fraction) the resonance moves when L is off by `error`: f ∝ 1/√L."""
    return 1 / math.sqrt(1 + error) - 1



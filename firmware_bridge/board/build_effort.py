"""What building a layout takes: solder joints, crimps, hours and the bill of materials, counted from the
layout itself (antennas, regions, buses), so that the figures follow the owner's own layout.

Per module (each antenna and the scan pad): its 8-pin header soldered (8), the two loop leads at the
cut antenna traces (2), a ribbon crimped at both ends (16 crimps), at its hub a socket (8) and the
wires to it (SCK, MOSI, RST, 3V3 and GND bussed, NSS from the decoder, MISO in and out of its 74HC125
gate, and a 100 nF decoupling capacitor across its supply: 11). Per region hub: the Pico's two
headers (40), two 74HC154 (2 x 24), the 74HC125 gates (14 each), two 74HC244 buffers for SCK/MOSI
(one per bus, 2 x 20, as hardware/WIRING-rfid.md asks for more than a few loads), the buck (4) and a
100 nF capacitor per IC (2 each). Minutes per unit are a careful hobbyist's: 0.5 per joint, 1 per
crimp, 15 to wind and glue a loop, 10 to prepare a module (cut its antenna, header), 10 to tune a loop,
plus the template (2 h), each hub's layout (2 h) and the bring-up walk (2 h).

Prices: ranges as listed by the shops named in hardware/BOARD-BUILD.md (2026, small quantities, VAT
in, shipping out); not quotes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from firmware_bridge.board.layout import Layout

JOINT_MIN, CRIMP_MIN, LOOP_MIN, MODULE_MIN, TUNE_MIN = 0.5, 1.0, 15.0, 10.0, 10.0
FIXED_HOURS = {"template printed and glued": 2.0, "bring-up walk": 2.0}
HUB_HOURS = 2.0
SPARE_SHARE = 0.1           # spare modules: one in ten


@dataclass(frozen=True)
class Line:
    """One line of the bill of materials: quantity, part, unit price range (EUR)."""
    qty: int
    part: str
    low: float
    high: float

    @property
    def total(self) -> tuple[float, float]:
        """The line's total price range (EUR)."""
        return self.qty * self.low, self.qty * self.high


@dataclass(frozen=True)
class Effort:
    """Counted joints and crimps, the hours they and the loops take, and the bill of materials."""
    modules: int
    joints: int
    crimps: int
    hours: float
    bom: tuple[Line, ...]

    @property
    def cost(self) -> tuple[float, float]:
        """The bill of materials' total range (EUR)."""
        return sum(line.total[0] for line in self.bom), sum(line.total[1] for line in self.bom)

    def markdown(self) -> str:
        """The bill of materials as a table (hardware/BOARD-BUILD.md)."""
        rows = ["| qty | part | unit € | total € |", "| --- | --- | --- | --- |"]
        for line in self.bom:
            low, high = line.total
            rows.append(f"| {line.qty} | {line.part} | {line.low:.2f}–{line.high:.2f} | {low:.0f}–{high:.0f} |")
        low, high = self.cost
        rows.append(f"| | **total** | | **{low:.0f}–{high:.0f}** |")
        return "\n".join(rows)

    def summary(self) -> str:
        """One line for the layout tool's report."""
        low, high = self.cost
        return (f"build: {self.modules} modules, {self.joints} solder joints and {self.crimps} crimps, about "
                f"{self.hours:.0f} hours; parts {low:.0f}-{high:.0f} EUR beyond the Pi")


def count(layout: Layout) -> Effort:
    """The effort and parts of this layout (module docstring)."""
    antennas = len(layout.antennas)
    modules = antennas + 1                                  # and the scan pad
    regions = max(a.region for a in layout.antennas) + 1
    buses = max(a.bus for a in layout.antennas) + 1
    gates = sum(math.ceil((sum(1 for a in layout.antennas if a.region == r) + (r == regions - 1) + 1) / 4)
                for r in range(regions))                    # a MISO gate per module and one for RST
    ics_per_hub = 2 + 2                                     # 74HC154 x 2, 74HC244 x 2
    ics = regions * ics_per_hub + gates
    joints = (modules * (8 + 2 + 8 + 11)
              + regions * (40 + 4) + regions * 2 * 24 + gates * 14 + regions * buses * 20 + ics * 2)
    crimps = modules * 16
    minutes = (joints * JOINT_MIN + crimps * CRIMP_MIN + antennas * (LOOP_MIN + TUNE_MIN) + modules * MODULE_MIN)
    hours = minutes / 60 + regions * HUB_HOURS + sum(FIXED_HOURS.values())
    spares = max(2, math.ceil(modules * SPARE_SHARE))
    bom = (
        Line(modules + spares, f"MFRC522 module 'RFID-RC522' ({modules} + {spares} spares)", 0.9, 1.6),
        Line(regions, "Raspberry Pi Pico", 4.1, 5.5),
        Line(regions * 2, "74HC154 4-to-16 decoder", 0.5, 1.2),
        Line(gates, "74HC125 quad tri-state buffer (MISO gates, RST)", 0.2, 0.45),
        Line(regions * buses, "74HC244 octal buffer (SCK/MOSI of one bus)", 0.3, 0.6),
        Line(ics + modules, "100 nF ceramic capacitor (per IC and module)", 0.03, 0.08),
        Line(regions, "MP1584EN buck module set to 3.3 V", 0.5, 1.2),
        Line(1, "5 V 3 A supply + DC socket", 7.0, 11.0),
        Line(regions, "5 V wiring to a hub: 0.75 mm² twin cable 1 m, screw terminal", 1.0, 2.0),
        Line(regions, "perfboard 100 x 160 mm, IC sockets, 1x8 female headers", 2.0, 4.0),
        Line(1, "8-wire ribbon 30 m, 1x8 Dupont housings and contacts (kit)", 8.0, 15.0),
        Line(1, "crimp tool for Dupont contacts (SN-28B or alike)", 15.0, 25.0),
        Line(1, "0.4 mm enamelled copper wire 50 m (loops)", 4.0, 8.0),
        Line(antennas + spares, "5-30 pF trimmer capacitor (tuning, one per loop)", 0.15, 0.4),
        Line(1, "NanoVNA-H (tuning instrument; optional with the trimmer procedure)", 45.0, 70.0),
        Line(modules * 2, "M3 nylon standoff + screw (modules under the base board)", 0.08, 0.15),
        Line(70, "NTAG213 stickers sized for the blocks' foot (63 + spares)", 0.08, 0.15),
        Line(regions, "USB cable micro-B 0.5 m", 1.0, 2.0),
        Line(1, "powered USB hub, 4 ports (a Zero 2 W has one USB port)", 10.0, 15.0),
        Line(1, "base board 864 x 432 mm, 3-5 mm", 8.0, 15.0),
    )
    return Effort(modules, joints, crimps, hours, bom)

"""The reference camera dice tray (hardware/DICE.md): its dimensions, cut parts, parts list and drawings.

One place holds the geometry: the playing floor, the light channels along the long walls, the mast
and arm that hold the camera above the floor's centre at the height where a 16 mm die's top face
is ~56 px in the recognition's 640 x 480 picture. From it come the laser-cutting SVGs (plywood and
acrylic, cut lines red, labels engraved blue, mm units), a side elevation with the key dimensions,
the cut list and the parts list with prices, as Markdown tables that DICE.md carries verbatim
(tests/hardware/test_dice_tray_drawings.py checks both ways). Deterministic: the same input writes
the same bytes.

    python hardware/drawings/dice_tray.py OUTDIR [--camera cm3|v2|ov5647]    # `make dice-drawings`
    python hardware/drawings/dice_tray.py --tables                           # the Markdown for DICE.md
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

T = 3.0                     # plywood and acrylic thickness
DIE = 16.0                  # die edge
DICE = 4
FLOOR_X, FLOOR_Y = 160.0, 120.0     # the playing floor (between the short walls / the diffusers)
WALL_H = 45.0               # walls and diffusers, above the floor's top
LIGHT_GAP = 12.0            # LED strip on the long wall to the diffuser's back
CHANNEL = T + LIGHT_GAP + T  # a long wall's outer face to the playing floor's edge
INNER_Y = FLOOR_Y + 2 * (LIGHT_GAP + T)   # between the long walls
MAST_X, MAST_Y = 30.0, 3 * T   # the mast: three laminae glued face to face
ARM_Z = 30.0                # the arm's laminae are this tall
FOOT = MAST_X + 5.0         # the floor reaches this far beyond the short wall to carry the mast
PLATE = 40.0                # the camera plate, square, glued under the arm's end
SPACER = 3.0                # M2 spacers between the plate and the camera board
GUSSET_X, GUSSET_Z = 30.0, 60.0
LED_HOLE = 5.0              # the LED leads leave through the long walls here
PICTURE = (640, 480)        # what the recognition reads (firmware_bridge/camera)
TARGET_PX_PER_MM = 3.5      # a 16 mm die's top face is 56 px wide
SHEET_W = 600.0             # plywood sheet width the layout packs into
GAP = 3.0                   # between parts on a sheet


@dataclass(frozen=True)
class Camera:
    name: str
    hfov: float             # degrees, full sensor
    vfov: float
    depth: float            # board back to lens front, mm
    note: str

    def fov_4_3(self) -> tuple[float, float]:
        """Horizontal and vertical field of view of a 4:3 picture: a wider sensor is cropped at the sides."""
        tan_v = math.tan(math.radians(self.vfov / 2))
        tan_h = min(math.tan(math.radians(self.hfov / 2)), tan_v * 4 / 3)
        return 2 * math.degrees(math.atan(tan_h)), 2 * math.degrees(math.atan(tan_v))


CAMERAS = {
    "cm3": Camera("Raspberry Pi Camera Module 3 (SC0872, IMX708, autofocus)", 66.0, 41.0, 11.5,
                  "autofocus from 10 cm; use a full-field sensor mode (2304 x 1296), scaled to 640 x 480"),
    "v2": Camera("Raspberry Pi Camera Module v2 (IMX219, fixed focus)", 62.2, 48.8, 9.0,
                 "turn the lens to focus at the lens height (tool supplied)"),
    "ov5647": Camera("OV5647 5 MP board in the v1.3 format (clones)", 53.5, 41.4, 9.0,
                     "screw lens: focus by hand at the lens height, then fix the thread; FoV varies by seller"),
}


@dataclass(frozen=True)
class Mount:
    camera: Camera
    lens_above_floor: float     # lens front to the floor's top
    arm_underside: float        # from the table (the floor's bottom)

    @property
    def die_top_distance(self) -> float:
        return self.lens_above_floor - DIE

    def view_at(self, distance: float) -> tuple[float, float]:
        """Width and depth of the floor-parallel plane seen at `distance` below the lens (4:3 picture)."""
        h, v = self.camera.fov_4_3()
        return (2 * distance * math.tan(math.radians(h / 2)), 2 * distance * math.tan(math.radians(v / 2)))

    @property
    def px_per_mm_at_die_top(self) -> float:
        return PICTURE[0] / self.view_at(self.die_top_distance)[0]


def mount_for(camera: Camera) -> Mount:
    """The arm height (whole mm) that puts a die's top face at TARGET_PX_PER_MM in the picture."""
    tan_h = math.tan(math.radians(camera.fov_4_3()[0] / 2))
    want = PICTURE[0] / TARGET_PX_PER_MM / (2 * tan_h) + DIE
    arm = round(want + T + SPACER + camera.depth + T)
    return Mount(camera, arm - T - SPACER - camera.depth - T, arm)


@dataclass(frozen=True)
class Part:
    key: str
    name: str
    material: str
    qty: int
    w: float
    h: float
    holes: tuple[tuple[float, float, float, float], ...] = ()   # rectangles x, y, w, h
    drills: tuple[tuple[float, float, float], ...] = ()          # circles x, y, diameter
    triangle: bool = False                                       # right angle at the bottom left
    note: str = ""


def parts(mount: Mount) -> list[Part]:
    floor_w = FLOOR_X + 2 * T + FOOT
    floor_h = INNER_Y + 2 * T
    mast_outer = mount.arm_underside + ARM_Z
    reach = T + FLOOR_X / 2 + PLATE / 2          # the short wall's outer face to the arm's end
    hole = (FOOT - MAST_X, (floor_h - MAST_Y) / 2, MAST_X, MAST_Y)   # the mast's mortise, in the foot
    pitch_x, pitch_y = 21.0, 12.5                # the camera board's M2 holes (v1.3, v2, v3 alike)
    c = PLATE / 2
    m2 = tuple((c + dx * pitch_x / 2, c + dy * pitch_y / 2, 2.2) for dx in (-1, 1) for dy in (-1, 1))
    led = ((T + 8.0, WALL_H / 2, LED_HOLE),)
    return [
        Part("A", "floor", "plywood", 1, floor_w, floor_h, holes=(hole,),
             note="mortise for the mast in the foot; green felt on the playing floor"),
        Part("B", "long wall", "plywood", 2, FLOOR_X + 2 * T, WALL_H, drills=led,
             note="on the floor's long edges; LED strip inside, leads through the hole (mast end)"),
        Part("C", "short wall", "plywood", 2, INNER_Y, WALL_H, note="between the long walls"),
        Part("D", "light cap", "plywood", 2, FLOOR_X + 2 * T, CHANNEL, note="on a long wall and its diffuser"),
        Part("E", "diffuser stop", "plywood", 2, FLOOR_X, LIGHT_GAP, note="on the floor behind a diffuser's foot"),
        Part("F", "mast, outer", "plywood", 2, MAST_X, mast_outer, note="through the mortise, flush below"),
        Part("G", "mast, middle", "plywood", 1, MAST_X, mount.arm_underside, note="3 mm shorter: the arm's slot"),
        Part("H", "arm, outer", "plywood", 2, reach, ARM_Z, note="from the mast's face to the arm's end"),
        Part("J", "arm, middle", "plywood", 1, reach + MAST_X, ARM_Z, note="its end sits in the mast's slot"),
        Part("K", "camera plate", "plywood", 1, PLATE, PLATE, drills=m2, note="M2 holes 21 x 12.5 mm"),
        Part("L", "gusset", "plywood", 2, GUSSET_X, GUSSET_Z, triangle=True, note="mast to floor and short wall"),
        Part("M", "diffuser", "opal acrylic", 2, FLOOR_X, WALL_H, note="3 mm opal (milky) PMMA, ~50 % transmission"),
    ]


@dataclass(frozen=True)
class Buy:
    item: str
    part_number: str
    qty: str
    low: float
    high: float
    shops: str


BOM = [
    Buy("Raspberry Pi Camera Module 3, standard lens", "SC0872", "1", 25.0, 30.0,
        "Berrybase, The Pi Hut, Pimoroni, Kiwi Electronics, Reichelt (list USD 25)"),
    Buy("Camera cable 500 mm: 15-15 pin (Pi 3/4) or 22-15 pin 'standard-mini' (Pi 5, Zero 2 W)",
        "Raspberry Pi camera cable", "1", 2.0, 4.0, "the same resellers"),
    Buy("5 V LED strip with USB plug, 60 LED/m, neutral white 4000 K, CRI >= 80, 1 m", "2835 SMD, IP20", "1 m",
        3.0, 8.0, "AliExpress, Amazon, Pollin"),
    Buy("Opal (milky) acrylic 3 mm, 2 x 160 x 45 mm (a 200 x 100 offcut)", "PMMA GS opal", "1", 2.0, 5.0,
        "Modulor, kunststoffplattenonline.de, a makerspace's offcuts"),
    Buy("Poplar plywood 3 mm, laser grade, 600 x 300 mm", "", "1", 3.0, 6.0, "Modulor, Opitec, a makerspace"),
    Buy("Self-adhesive felt, green, A4", "", "1", 1.0, 2.0, "Opitec, craft shops, Amazon"),
    Buy("M2 x 12 nylon screws, nuts, 3 mm spacers", "", "4 each", 1.0, 2.0, "Reichelt, Amazon (an assortment)"),
    Buy("Wood glue (PVA); CA glue or double-sided tape for the acrylic", "", "", 0.0, 3.0, "on hand; any DIY shop"),
]


def bom_total() -> tuple[float, float]:
    return sum(b.low for b in BOM), sum(b.high for b in BOM)


def _mm(v: float) -> str:
    return (f"{v:.1f}").rstrip("0").rstrip(".")


def cut_table(mount: Mount) -> str:
    rows = ["| part | name | material | qty | size (mm) | holes | note |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for p in parts(mount):
        holes = [f"{_mm(h[2])} x {_mm(h[3])} mortise" for h in p.holes]
        holes += [f"{len(p.drills)} x Ø {_mm(p.drills[0][2])}"] if p.drills else []
        size = f"{_mm(p.w)} x {_mm(p.h)}" + (" triangle" if p.triangle else "")
        rows.append(f"| {p.key} | {p.name} | {_mm(T)} mm {p.material} | {p.qty} | {size} | "
                    f"{', '.join(holes) or '-'} | {p.note} |")
    return "\n".join(rows)


def bom_table() -> str:
    rows = ["| item | part number | qty | EUR | shops |", "| --- | --- | --- | --- | --- |"]
    for b in BOM:
        rows.append(f"| {b.item} | {b.part_number or '-'} | {b.qty or '-'} | {_mm(b.low)}-{_mm(b.high)} | {b.shops} |")
    low, high = bom_total()
    rows.append(f"| **total** | | | **{_mm(low)}-{_mm(high)}** | |")
    return "\n".join(rows)


def mount_table() -> str:
    rows = ["| camera | FoV of the 640 x 480 picture | lens above floor | arm underside (from table) "
            "| seen at a die's top | px/mm there | focus |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for cam in CAMERAS.values():
        m = mount_for(cam)
        h, v = cam.fov_4_3()
        w, d = m.view_at(m.die_top_distance)
        rows.append(f"| {cam.name} | {h:.1f}° x {v:.1f}° | {_mm(m.lens_above_floor)} mm | {_mm(m.arm_underside)} mm "
                    f"| {w:.0f} x {d:.0f} mm | {m.px_per_mm_at_die_top:.2f} | {cam.note} |")
    return "\n".join(rows)


# --- SVG ------------------------------------------------------------------------------------------

CUT = 'fill="none" stroke="#ff0000" stroke-width="0.1"'
ENGRAVE = 'fill="#0000ff" font-family="sans-serif" font-size="4"'


def _rect(cls: str, x: float, y: float, w: float, h: float, style: str) -> str:
    return f'<rect class="{cls}" x="{_mm(x)}" y="{_mm(y)}" width="{_mm(w)}" height="{_mm(h)}" {style}/>'


def _text(x: float, y: float, style: str, text: str) -> str:
    return f'<text x="{_mm(x)}" y="{_mm(y)}" {style}>{text}</text>'


def _svg_open(w: float, h: float, unit: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_mm(w)}{unit}" height="{_mm(h)}{unit}" '
            f'viewBox="0 0 {_mm(w)} {_mm(h)}">')


def _lying(p: Part) -> Part:
    """A plain rectangle taller than wide is cut lying down (the sheet packs better); the size is the same."""
    if p.h > p.w and not (p.holes or p.drills or p.triangle):
        return Part(p.key, p.name, p.material, p.qty, p.h, p.w, note=p.note)
    return p


def _layout(items: list[Part]) -> tuple[list[tuple[Part, int, float, float]], float]:
    """Shelves, tallest parts first, each part on the first shelf with room (first fit) within SHEET_W:
    (part, copy, x, y) and the sheet height used."""
    copies = sorted(((_lying(p), i) for p in items for i in range(p.qty)),
                    key=lambda c: (-c[0].h, -c[0].w, c[0].key, c[1]))
    shelves: list[list[float]] = []          # [y, height, x used]
    placed = []
    for p, i in copies:
        shelf = next((sh for sh in shelves if p.h <= sh[1] and sh[2] + p.w + GAP <= SHEET_W), None)
        if shelf is None:
            y = shelves[-1][0] + shelves[-1][1] + GAP if shelves else GAP
            shelf = [y, p.h, GAP]
            shelves.append(shelf)
        placed.append((p, i + 1, shelf[2], shelf[0]))
        shelf[2] += p.w + GAP
    return placed, shelves[-1][0] + shelves[-1][1] + GAP


def sheet_height(items: list[Part]) -> float:
    return _layout(items)[1]


def _part_svg(p: Part, copy: int, x: float, y: float) -> list[str]:
    out = [f'<g id="part-{p.key}{copy}" data-part="{p.key}" data-name="{p.name}">']
    if p.triangle:
        pts = f"{_mm(x)},{_mm(y + p.h)} {_mm(x + p.w)},{_mm(y + p.h)} {_mm(x)},{_mm(y)}"
        out.append(f'<polygon class="outline" points="{pts}" {CUT}/>')
    else:
        out.append(_rect("outline", x, y, p.w, p.h, CUT))
    for hx, hy, hw, hh in p.holes:
        out.append(_rect("hole", x + hx, y + hy, hw, hh, CUT))
    for cx, cy, d in p.drills:
        out.append(f'<circle class="hole" cx="{_mm(x + cx)}" cy="{_mm(y + cy)}" r="{_mm(d / 2)}" {CUT}/>')
    # bottom left: clear of every hole and of a gusset's slope
    out.append(_text(x + 2, y + p.h - 3, ENGRAVE, f"{p.key} {_mm(p.w)} x {_mm(p.h)}"))
    out.append("</g>")
    return out


def sheet_svg(items: list[Part], title: str) -> str:
    placed, height = _layout(items)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', _svg_open(SHEET_W, height, "mm"),
             f"<title>{title}: cut red, engrave blue, mm</title>"]
    for p, copy, x, y in placed:
        lines += _part_svg(p, copy, x, y)
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def elevation_svg(mount: Mount) -> str:
    """Side view along the long axis: floor, short walls, mast, arm, camera, the view cone, dimensions.
    Drawn at 2 units per mm; x from the inner face of the mast's short wall, z up from the table."""
    s, margin = 2.0, 20.0
    top = mount.arm_underside + ARM_Z + 20
    width = FOOT + FLOOR_X + 2 * T + 2 * margin + 40

    def at(x: float, z: float) -> tuple[float, float]:
        return (margin + FOOT + T + x) * s, (top - z) * s

    def box(x: float, z: float, w: float, h: float, style: str = 'fill="none" stroke="#000" stroke-width="1"') -> str:
        px, pz = at(x, z + h)
        return _rect("part", px, pz, w * s, h * s, style)

    def label(x: float, z: float, text: str) -> str:
        return _text(*at(x, z), 'fill="#000" font-family="sans-serif" font-size="14"', text)

    lens_x, lens_z = FLOOR_X / 2, T + mount.lens_above_floor
    die_top = mount.view_at(mount.die_top_distance)[0]
    at_floor = mount.view_at(mount.lens_above_floor)[0]
    cone = " ".join("{},{}".format(*map(_mm, at(x, z)))
                    for x, z in ((lens_x - at_floor / 2, T), (lens_x, lens_z), (lens_x + at_floor / 2, T)))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', _svg_open(width * s, top * s, ""),
             "<title>Camera dice tray, side elevation (mm)</title>",
             box(-T - FOOT, 0, FOOT + FLOOR_X + 2 * T, T),
             box(-T, T, T, WALL_H), box(FLOOR_X, T, T, WALL_H),
             box(-T - MAST_X, 0, MAST_X, mount.arm_underside + ARM_Z),
             box(-T, mount.arm_underside, T + lens_x + PLATE / 2, ARM_Z),
             box(lens_x - PLATE / 2, mount.arm_underside - T, PLATE, T),
             box(lens_x - 12.5, lens_z, 25, mount.camera.depth),
             f'<polyline points="{cone}" fill="none" stroke="#0a0" stroke-width="1" stroke-dasharray="6 4"/>',
             box(lens_x - DIE / 2, T, DIE, DIE, 'fill="#eee" stroke="#000"'),
             label(lens_x + 16, lens_z - 4, f"lens {_mm(mount.lens_above_floor)} mm above the floor"),
             label(lens_x - 70, T + DIE + 40, f"view {die_top:.0f} mm wide at a die top, {at_floor:.0f} at the floor"),
             label(20, -8, f"floor {_mm(FLOOR_X)} x {_mm(FLOOR_Y)}, walls {_mm(WALL_H)} high"),
             label(lens_x + 24, mount.arm_underside + 8, f"arm underside {_mm(mount.arm_underside)}"),
             "</svg>"]
    return "\n".join(lines) + "\n"


def write_drawings(out: Path, camera: str = "cm3") -> list[Path]:
    mount = mount_for(CAMERAS[camera])
    all_parts = parts(mount)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "dice-tray-plywood.svg": sheet_svg([p for p in all_parts if p.material == "plywood"],
                                           "Camera dice tray, 3 mm plywood"),
        "dice-tray-acrylic.svg": sheet_svg([p for p in all_parts if p.material != "plywood"],
                                           "Camera dice tray, 3 mm opal acrylic"),
        "dice-tray-elevation.svg": elevation_svg(mount),
    }
    written = []
    for name, text in files.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", type=Path, help="directory for the SVGs")
    ap.add_argument("--camera", choices=sorted(CAMERAS), default="cm3")
    ap.add_argument("--tables", action="store_true", help="print the Markdown tables DICE.md carries")
    args = ap.parse_args(argv)
    if args.tables:
        print(mount_table() + "\n\n" + cut_table(mount_for(CAMERAS[args.camera])) + "\n\n" + bom_table())
    if args.out:
        for path in write_drawings(args.out, args.camera):
            print(path)
    if not args.tables and not args.out:
        ap.error("give OUTDIR or --tables")
    return 0


if __name__ == "__main__":
    sys.exit(main())

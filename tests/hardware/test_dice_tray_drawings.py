"""The camera dice tray's drawings, cut list, parts list and geometry agree (hardware/DICE.md).

hardware/drawings/dice_tray.py is the one source: the committed SVGs must be what it writes today,
every cut outline must have the size the cut list gives, DICE.md must carry its tables verbatim,
and the geometry must do its job: every camera's view covers the whole playing floor at a die's
top with a margin, at the scale the recognition expects, with room for four dice to roll.
"""
import importlib.util
import math
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRAWINGS = ROOT / "hardware" / "drawings"
DICE_MD = (ROOT / "hardware" / "DICE.md").read_text(encoding="utf-8")
SVG = "{http://www.w3.org/2000/svg}"
MARGIN_MM = 5.0             # a die's top face against a diffuser is this far inside the picture, at least


def _load():
    spec = importlib.util.spec_from_file_location("dice_tray", DRAWINGS / "dice_tray.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["dice_tray"] = module           # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


tray = _load()
REFERENCE = tray.mount_for(tray.CAMERAS["cm3"])


def test_committed_drawings_are_what_the_script_writes_and_small(tmp_path):
    written = tray.write_drawings(tmp_path)
    assert {p.name for p in written} == {p.name for p in DRAWINGS.glob("*.svg")}
    for path in written:
        committed = DRAWINGS / path.name
        assert committed.read_bytes() == path.read_bytes(), f"{path.name}: run `make dice-drawings-commit`"
        assert committed.stat().st_size < 30_000
    again = tray.write_drawings(tmp_path / "again")
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in written]


def _outlines(svg_path):
    """{part key: [(w, h), ...]} from the cut outlines, and each part's holes inside its outline."""
    root = ET.parse(svg_path).getroot()
    sizes = {}
    for g in root.iter(SVG + "g"):
        outline = next(e for e in g if e.get("class") == "outline")
        if outline.tag == SVG + "rect":
            x, y, w, h = (float(outline.get(k)) for k in ("x", "y", "width", "height"))
        else:
            pts = [tuple(map(float, p.split(","))) for p in outline.get("points").split()]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            x, y, w, h = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
        for hole in (e for e in g if e.get("class") == "hole"):
            if hole.tag == SVG + "circle":
                cx, cy, r = (float(hole.get(k)) for k in ("cx", "cy", "r"))
                box = (cx - r, cy - r, cx + r, cy + r)
            else:
                hx, hy = float(hole.get("x")), float(hole.get("y"))
                box = (hx, hy, hx + float(hole.get("width")), hy + float(hole.get("height")))
            assert x < box[0] and y < box[1] and box[2] < x + w and box[3] < y + h, g.get("id")
        sizes.setdefault(g.get("data-part"), []).append((w, h))
    width = float(root.get("width").removesuffix("mm"))
    height = float(root.get("height").removesuffix("mm"))
    return sizes, (width, height)


def test_every_cut_outline_has_the_cut_lists_size_and_count():
    sizes, sheet = _outlines(DRAWINGS / "dice-tray-plywood.svg")
    acrylic, _ = _outlines(DRAWINGS / "dice-tray-acrylic.svg")
    sizes.update(acrylic)
    parts = tray.parts(REFERENCE)
    assert set(sizes) == {p.key for p in parts}
    for p in parts:
        assert len(sizes[p.key]) == p.qty, p.name
        for w, h in sizes[p.key]:
            assert sorted((w, h)) == pytest.approx(sorted((p.w, p.h))), p.name
    # the parts list buys a sheet the layout fits on
    bought = re.search(r"Poplar plywood 3 mm, laser grade, (\d+) x (\d+) mm", DICE_MD)
    assert bought and sheet[0] <= float(bought[1]) and sheet[1] <= float(bought[2])


def test_dice_md_carries_the_generated_tables_and_total():
    assert tray.cut_table(REFERENCE) in DICE_MD
    assert tray.bom_table() in DICE_MD
    assert tray.mount_table() in DICE_MD
    low, high = tray.bom_total()
    assert f"{low:.0f}-{high:.0f} EUR" in DICE_MD


@pytest.mark.parametrize("key", sorted(tray.CAMERAS))
def test_the_view_covers_the_floor_at_a_dies_top_at_the_recognitions_scale(key):
    mount = tray.mount_for(tray.CAMERAS[key])
    wide, deep = mount.view_at(mount.die_top_distance)
    assert wide >= tray.FLOOR_X + 2 * MARGIN_MM and deep >= tray.FLOOR_Y + 2 * MARGIN_MM
    assert 3.3 <= mount.px_per_mm_at_die_top <= 3.7           # a 16 mm die ~56 px (firmware_bridge/camera)
    # the arm height is what the parts make: lens = arm underside - plate - spacer - camera - floor
    lens = mount.arm_underside - tray.T - tray.SPACER - mount.camera.depth - tray.T
    assert lens == pytest.approx(mount.lens_above_floor)
    assert mount.lens_above_floor >= 100                      # Camera Module 3's nearest focus is 10 cm


def test_the_camera_hangs_over_the_floors_centre():
    by_key = {p.key: p for p in tray.parts(REFERENCE)}
    # x from the inner face of the mast's short wall: the arm's outers run from the wall's outer face
    plate_centre_x = -tray.T + by_key["H"].w - tray.PLATE / 2
    assert plate_centre_x == pytest.approx(tray.FLOOR_X / 2)
    floor = by_key["A"]
    mortise_x, mortise_y, mortise_w, mortise_h = floor.holes[0]
    assert (mortise_w, mortise_h) == (tray.MAST_X, tray.MAST_Y)
    assert mortise_y + mortise_h / 2 == pytest.approx(floor.h / 2)       # mast (and arm) on the long axis
    assert mortise_x + mortise_w == pytest.approx(tray.FOOT)            # against the short wall


def test_the_parts_fit_together():
    p = {part.key: part for part in tray.parts(REFERENCE)}
    assert p["F"].h - p["G"].h == tray.ARM_Z                  # the mast's slot takes the arm's middle
    assert p["J"].w - p["H"].w == tray.MAST_X
    assert p["A"].w == tray.FOOT + p["B"].w                   # long walls sit on the floor's edges
    assert p["A"].h == p["C"].w + 2 * tray.T
    assert p["M"].w == p["E"].w == tray.FLOOR_X and p["M"].h == p["B"].h == tray.WALL_H
    assert p["D"].h == tray.T + tray.LIGHT_GAP + tray.T      # a cap bridges wall, gap and diffuser
    assert p["C"].w - 2 * (tray.LIGHT_GAP + tray.T) == tray.FLOOR_Y
    assert p["K"].w >= 25 + 2 * 2                             # the 25 mm camera board, room for screws


def test_four_dice_have_room_to_roll():
    footprint = tray.DICE * tray.DIE ** 2
    assert tray.FLOOR_X * tray.FLOOR_Y >= 15 * footprint
    # four dice turned 45° side by side fit across the short way, with a die's room to spare
    assert tray.FLOOR_Y >= (tray.DICE + 1) * tray.DIE * math.sqrt(2)
    assert tray.WALL_H >= 2.5 * tray.DIE                      # a bounce stays in the tray

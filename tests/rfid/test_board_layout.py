"""The sensing-board layout tool on the real game data: every location served once, no overlaps,
dots inside their loops; the template's pages; the readers.toml it writes loads through ReaderMap."""
from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from engine import BOARD
from firmware_bridge.board.antenna_parts import RC522_ONBOARD
from firmware_bridge.board.block_catalog import BlockCatalog
from firmware_bridge.board.layout import (
    Layout,
    LayoutError,
    LayoutRules,
    MapFrame,
    Rect,
    compute_layout,
    spots_in_mm,
)
from firmware_bridge.board.layout_files import readers_toml, template_svg, tiling
from firmware_bridge.board.reader_map import ReaderMap, map_locations
from rubicon.cli import main

PLACES = [(BOARD.loc_names[i], "sea" if BOARD.is_sea[i] else "city", *BOARD.map_xy[i]) for i in range(BOARD.n_locs)]
RULES = LayoutRules()


@pytest.fixture(scope="module")
def layout() -> Layout:
    frame = MapFrame.image_frame(RULES.board_w, RULES.board_h)
    return compute_layout(spots_in_mm(PLACES, frame), RULES, frame=frame)


def test_the_map_image_frame_is_the_17_by_34_inch_sheet():
    frame = MapFrame.image_frame(864, 432)
    assert frame.scale == pytest.approx(0.3375)
    # Byzantium and Nicomedia, the closest pair, come out about 22 mm apart at that scale
    (bx, by), (nx, ny) = (frame.to_mm(*BOARD.map_xy[BOARD.loc_names.index(n)]) for n in ("Byzantium", "Nicomedia"))
    assert 20 < ((bx - nx) ** 2 + (by - ny) ** 2) ** 0.5 < 26
    with pytest.raises(LayoutError, match="not 2:1"):
        MapFrame.image_frame(864, 600)


def test_every_location_is_served_once_and_nothing_overlaps(layout):
    assert layout.problems() == []
    served = [name for a in layout.antennas for name in a.locations]
    assert sorted(served) == sorted(BOARD.loc_names)
    for i, a in enumerate(layout.antennas):
        assert a.footprint.inside(0, 0, RULES.board_w, RULES.board_h)
        for b in layout.antennas[i + 1:]:
            assert not a.footprint.overlaps(b.footprint, RULES.gap), (a.locations, b.locations)
    assert [a.number for a in layout.antennas] == list(range(len(layout.antennas)))


def test_zones_share_only_where_cities_are_too_close(layout):
    shared = {frozenset(a.locations) for a in layout.shared}
    assert frozenset({"Byzantium", "Nicomedia"}) in shared
    assert frozenset({"Messana", "Rhegium", "Syracusae"}) in shared
    assert all(a.kind == "city" for a in layout.shared)   # a sea never shares with a city
    assert len(layout.antennas) >= 60 and len(layout.shared) <= 10
    by_name = {s.name: s for s in layout.spots}
    for a in layout.antennas:
        if a.kind == "city":
            assert all(a.loop.holds(by_name[n].x, by_name[n].y, a.margin) for n in a.locations)
        assert a.loop.w <= RULES.part.max_loop and a.loop.h <= RULES.part.max_loop


def test_the_check_finds_overlaps_and_unserved_locations(layout):
    a, b = layout.antennas[0], layout.antennas[1]
    broken = replace(layout, antennas=(replace(a, footprint=b.footprint, loop=b.loop), *layout.antennas[1:-1]))
    problems = "\n".join(broken.problems())
    assert "overlap" in problems
    assert f"{layout.antennas[-1].locations[0]} is served by 0 antennas" in problems
    assert "inside antenna 0's loop" in problems


def test_the_layout_holds_at_the_largest_scale_the_sheet_allows():
    """map_xy is approximate: the other extreme is the locations' extent stretched to the sheet, less a
    20 mm border (a dot nearer the edge would leave no room for the blocks around it)."""
    xs = [p[2] for p in PLACES]
    ys = [p[3] for p in PLACES]
    scale = min((RULES.board_w - 40) / (max(xs) - min(xs)), (RULES.board_h - 40) / (max(ys) - min(ys)))
    assert scale > 1.05 * MapFrame.image_frame(RULES.board_w, RULES.board_h).scale
    frame = MapFrame(scale, 20 - scale * min(xs), 20 - scale * min(ys))
    big = compute_layout(spots_in_mm(PLACES, frame), RULES, frame=frame)
    assert big.problems() == []


def test_a_measured_sheet_fits_scale_and_offset():
    truth = MapFrame(0.35, 5.0, -3.0)
    measured = [(u, v, *truth.to_mm(u, v)) for name, _, u, v in PLACES if name in ("Olisipo", "Antiochia", "Roma")]
    fitted = MapFrame.fitted(measured)
    assert (fitted.scale, fitted.ox, fitted.oy) == pytest.approx((0.35, 5.0, -3.0))
    with pytest.raises(LayoutError, match="at least two"):
        MapFrame.fitted(measured[:1])


def test_modules_with_their_own_antenna_do_not_fit_the_map():
    frame = MapFrame.image_frame(RULES.board_w, RULES.board_h)
    with pytest.raises(LayoutError, match="no layout|no place"):
        compute_layout(spots_in_mm(PLACES, frame), replace(RULES, part=RC522_ONBOARD), frame=frame, max_steps=300)


def test_readers_toml_round_trips_through_the_reader_map(layout, tmp_path):
    path = tmp_path / "readers.toml"
    path.write_text(readers_toml(layout), encoding="utf-8")
    reader_map = ReaderMap.load(path)
    assert len(reader_map.places) == len(layout.antennas) + 1
    assert reader_map.place(reader_map.scan_pad).kind == "scan_pad"
    for a in layout.antennas:
        place = reader_map.place(a.number)
        assert place.locations == a.locations and place.kind == a.kind
        for name in a.locations:
            assert reader_map.index_of(name) == a.number
    assert {n for p in reader_map.places for n in p.locations if p.kind in ("city", "sea")} == set(map_locations())


def test_a_shared_zone_naming_a_location_twice_is_refused(layout, tmp_path):
    text = readers_toml(layout).replace('also = ["Tingis"]', 'also = ["Tingis", "Corduba"]')
    path = tmp_path / "readers.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(Exception, match="a location has two readers"):
        ReaderMap.load(path)
    path.write_text(readers_toml(layout).replace('also = ["Tingis"]', 'also = ["Tingiz"]'), encoding="utf-8")
    with pytest.raises(Exception, match="`also` 'Tingiz' is not a map location.*Tingis"):
        ReaderMap.load(path)


def test_the_template_is_one_to_one_and_names_every_antenna(layout):
    svg = template_svg(layout)
    assert 'width="864mm" height="432mm" viewBox="0 0 864 432"' in svg
    labels = re.findall(r">R(\d+)</text>", svg)
    assert sorted(map(int, labels)) == list(range(len(layout.antennas)))
    for paper in ("A4", "Letter"):
        t = tiling(layout, paper)
        assert t.pages == t.cols * t.rows
        # the pages cover the board, each page's drawing area overlapping the next
        assert (t.cols - 1) * t.step_x + t.area_w >= RULES.board_w
        assert (t.rows - 1) * t.step_y + t.area_h >= RULES.board_h
        assert t.step_x < t.area_w and t.step_y < t.area_h


def test_rect_helpers():
    r = Rect(0, 0, 10, 10)
    assert r.depth(5, 5) == 5 and r.depth(12, 5) == -2
    assert r.overlaps(Rect(11, 0, 20, 10), gap=2) and not r.overlaps(Rect(13, 0, 20, 10), gap=2)


def test_the_command_end_to_end(tmp_path, capsys, layout):
    tiling_pages = {paper: tiling(layout, paper).pages for paper in ("A4", "Letter")}
    out = tmp_path / "layout"
    assert main(["board-layout", "--out", str(out), "--no-field"]) == 0     # the field design: test_shipped_readers
    printed = capsys.readouterr().out
    names = sorted(p.name for p in out.iterdir())
    assert names == ["readers.toml", "template-A4.pdf", "template-Letter.pdf", "template.svg"]
    for paper in ("A4", "Letter"):
        data = (out / f"template-{paper}.pdf").read_bytes()
        assert data.startswith(b"%PDF-")
        pages = len(re.findall(rb"/Type\s*/Page\b", data))
        match = re.search(rf"template-{paper}\.pdf \((\d+) pages".encode(), printed.encode())
        assert match and int(match.group(1)) == pages == tiling_pages[paper]
    assert ReaderMap.load(out / "readers.toml").scan_pad == len(ReaderMap.load(out / "readers.toml").places) - 1
    assert main(["board-layout", "--board-mm", "lots"]) == 2
    assert main(["board-layout", "--no-files", "--measured", "Roma=1,2"]) == 1   # one point cannot fit a scale


def test_bulk_enrollment_expects_a_shared_zone_s_blocks_together_and_no_pool_readers(layout, tmp_path):
    from firmware_bridge.board.enroll import _expected

    path = tmp_path / "readers.toml"
    path.write_text(readers_toml(layout), encoding="utf-8")
    reader_map, catalog = ReaderMap.load(path), BlockCatalog.load()
    expected = _expected(reader_map, catalog)
    assert sum(len(ids) for _, ids in expected.values()) == sum(len(ids) for ids in catalog.setup_map.values())
    for loc, ids in catalog.setup_map.items():
        name, held = expected[reader_map.index_of(loc)]
        assert loc in name and set(ids) <= set(held)
    assert reader_map.scan_pad not in expected


def test_devices_scan_runs_on_an_emulated_board_of_the_layout(layout, tmp_path, capsys):
    """The emulated 705 board on the layout's reader map: no pool readers, shared zones named whole."""
    path = tmp_path / "readers.toml"
    path.write_text(readers_toml(layout), encoding="utf-8")
    assert main(["devices", "scan", "--emulate", "--readers", str(path), "--json"]) == 1   # its planted faults
    rows = json.loads(capsys.readouterr().out)["readers"]
    by_location = {row["location"]: row for row in rows}
    zone = by_location["Asculum / Roma"]
    assert [t["block"] for t in zone["tags"]] == [None]           # the planted unenrolled tag on Roma
    assert by_location["Scan pad"]["problems"] == ["NO ANSWER"]   # no eliminated-area reader to unplug
    placed = {t["block"] for row in rows for t in row["tags"] if t["block"]}
    assert len(placed) == sum(len(ids) for ids in BlockCatalog.load().setup_map.values())

"""The packaged readers.toml is the sensing-board layout's, exactly as `rubicon board-layout` writes it
from the game data (`make shipped-readers`): 68 antennas, 7 of them shared zones, the scan pad, no pool
readers; every map location has its reader."""
from importlib import resources

from engine import BOARD
from firmware_bridge.board.reader_map import ReaderMap, map_locations, reader_count
from rubicon.cli import main


def packaged_text() -> str:
    return resources.files("firmware_bridge").joinpath("data", "readers.toml").read_text("utf-8")


def test_the_packaged_reader_map_is_what_the_layout_tool_writes(tmp_path, capsys):
    out = tmp_path / "readers.toml"
    assert main(["board-layout", "--readers-to", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert out.read_text("utf-8") == packaged_text(), "re-run `make shipped-readers` and commit the result"


def test_the_packaged_map_serves_every_location_once_and_senses_no_pool():
    readers = ReaderMap.load()
    assert reader_count() == 69 and len(readers.places) == 69
    assert sorted(map_locations()) == sorted(BOARD.loc_names)
    for name in BOARD.loc_names:
        assert name in readers.place(readers.index_of(name)).locations
    assert {p.kind for p in readers.places} == {"city", "sea", "scan_pad"}
    shared = [p.locations for p in readers.places if p.also]
    assert ("Byzantium", "Nicomedia") in shared and len(shared) == 7


def test_each_pico_has_a_pipelined_scan_order_with_its_fields_far_apart():
    import math

    from firmware_bridge.board.layout import SCAN_APART_MM, LayoutRules, MapFrame, compute_layout, spots_in_mm

    rules = LayoutRules()
    frame = MapFrame.image_frame(rules.board_w, rules.board_h)
    places = [(BOARD.loc_names[i], "sea" if BOARD.is_sea[i] else "city", *BOARD.map_xy[i]) for i in range(BOARD.n_locs)]
    layout = compute_layout(spots_in_mm(places, frame), rules, frame=frame)
    text = packaged_text()
    for region in range(rules.regions):
        antennas = sorted((a for a in layout.antennas if a.region == region), key=lambda a: a.number)
        order = layout.scan_order(region)
        assert sorted(order) == list(range(len(antennas)))
        gaps = [math.dist((antennas[a].cx, antennas[a].cy), (antennas[b].cx, antennas[b].cy))
                for a, b in zip(order, order[1:], strict=False)]
        assert min(gaps) >= SCAN_APART_MM
        assert f"SCAN_ORDER): {tuple(order)}"[:-1] in text     # written in the header (Pico 3's ends with the pad)

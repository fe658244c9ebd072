"""The packaged readers.toml is the sensing-board layout's, exactly as `rubicon board-layout` writes it
from the game data (`make shipped-readers`): 59 antennas, 15 of them shared zones (designed with the field
model), the scan pad, no pool readers; every map location has its reader."""
from importlib import resources

from engine import BOARD
from firmware_bridge.board.reader_map import ReaderMap, map_locations, reader_count
from rubicon.cli import main


def packaged_text() -> str:
    return resources.files("firmware_bridge").joinpath("data", "readers.toml").read_text("utf-8")


def test_the_packaged_reader_map_is_what_the_layout_tool_writes(tmp_path, capsys):
    out = tmp_path / "readers.toml"
    assert main(["board-layout", "--readers-to", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed
    # the field model designed it: every loop's margin listed, the threshold as a read height, the effort
    assert "loop margins (dB at the common threshold" in printed and "median" in printed
    assert "a tag stops reading" in printed and "field design: share one loop: Massilia / Narbo" in printed
    assert "solder joints" in printed and "matching, 36 x 36 mm loop" in printed
    assert out.read_text("utf-8") == packaged_text(), "re-run `make shipped-readers` and commit the result"


def test_the_packaged_map_serves_every_location_once_and_senses_no_pool():
    readers = ReaderMap.load()
    assert reader_count() == 60 and len(readers.places) == 60
    assert sorted(map_locations()) == sorted(BOARD.loc_names)
    for name in BOARD.loc_names:
        assert name in readers.place(readers.index_of(name)).locations
    assert {p.kind for p in readers.places} == {"city", "sea", "scan_pad"}
    shared = [p.locations for p in readers.places if p.also]
    assert ("Byzantium", "Nicomedia") in shared and len(shared) == 15


def test_each_pico_has_a_pipelined_scan_order_with_its_fields_far_apart():
    import math

    from firmware_bridge.board.field_check import design_layout
    from firmware_bridge.board.layout import SCAN_APART_MM, LayoutRules, MapFrame, spots_in_mm
    from firmware_bridge.board.loop_field import Tag

    rules = LayoutRules()
    frame = MapFrame.image_frame(rules.board_w, rules.board_h)
    places = [(BOARD.loc_names[i], "sea" if BOARD.is_sea[i] else "city", *BOARD.map_xy[i]) for i in range(BOARD.n_locs)]
    # the layout the tool ships: designed with the field model (its couplings cached by the test above)
    layout = design_layout(spots_in_mm(places, frame), rules, Tag(12.0, 1.5), frame=frame).layout
    text = packaged_text()
    for region in range(rules.regions):
        antennas = sorted((a for a in layout.antennas if a.region == region), key=lambda a: a.number)
        order = layout.scan_order(region)
        assert sorted(order) == list(range(len(antennas)))
        gaps = [math.dist((antennas[a].cx, antennas[a].cy), (antennas[b].cx, antennas[b].cy))
                for a, b in zip(order, order[1:], strict=False)]
        assert min(gaps) >= SCAN_APART_MM
        assert f"SCAN_ORDER): {tuple(order)}"[:-1] in text     # written in the header (Pico 3's ends with the pad)

"""The packaged readers.toml is the sensing-board layout's, exactly as `rubicon board-layout` writes it
from the game data (`make shipped-readers`): 68 antennas, 7 of them shared zones, the scan pad, no pool
readers; every map location has its reader."""
from importlib import resources

from engine.board import BOARD
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

"""The packaged readers.toml / blocks.toml agree with the engine's data files, and bad files are clear errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.board.block_catalog import BlockCatalog
from firmware_bridge.board.reader_map import SIDES, ReaderMap
from firmware_bridge.config_files import ConfigError

# The engine's data files are the project's transcription of the facts (firmware_bridge may not
# import the engine, so it keeps its own copy; this test keeps the two equal).
ENGINE_DATA = Path(__file__).resolve().parents[2] / "engine" / "data"


@pytest.fixture(scope="module")
def facts():
    data = {name: json.loads((ENGINE_DATA / f"{name}.json").read_text()) for name in ("map", "blocks", "setup_705")}
    return {"locations": data["map"]["locations"], "blocks": data["blocks"]["blocks"],
            "setup_705": {side: data["setup_705"][side] for side in ("Caesar", "Pompeius")}}


def test_every_map_location_has_one_reader(facts, reader_map):
    on_map = [p for p in reader_map.places if p.kind in ("city", "sea")]
    assert len(on_map) == 59 and sum(len(p.locations) for p in on_map) == 76     # 15 antennas share a zone
    assert {name: p.kind for p in on_map for name in p.locations} == {
        loc["name"]: "sea" if loc["kind"] == "sea" else "city" for loc in facts["locations"]}
    assert sum(len(p.locations) for p in on_map if p.kind == "city") == 67


def test_pools_eliminated_areas_and_scan_pad(reader_map):
    assert {p.kind for p in reader_map.places} == {"city", "sea", "scan_pad"}     # the pools are not sensed
    assert max(reader_map.indices) < reader_map.bus.capacity
    with_pools = ReaderMap.load(Path(__file__).parent / "readers_with_pools.toml")   # still a valid map
    specials = {with_pools.levy_pool(s) for s in SIDES} | {with_pools.eliminated(s) for s in SIDES}
    assert len(specials | {with_pools.scan_pad}) == 5


def test_block_catalog_matches_the_facts(facts):
    catalog = BlockCatalog.load()
    assert {b["id"]: (b["side"], b["name"]) for b in facts["blocks"]} == {
        b.id: (b.side, b.name) for b in catalog.blocks.values()}
    ids = {(b["side"], b["name"]): b["id"] for b in facts["blocks"]}
    for side, setup in facts["setup_705"].items():
        assert catalog.levy_pools[side] == [ids[(side, n)] for n in setup["levy_pool"]]
        for location, names in setup["map"].items():
            assert [ids[(side, n)] for n in names] == [i for i in catalog.setup_map[location]
                                                       if catalog.blocks[i].side == side]


def write(tmp_path, text):
    path = tmp_path / "readers.toml"
    path.write_text(text)
    return path


BUS = '[bus]\nspi_bus = 0\nspi_device = 0\nspeed_hz = 1000000\nreset_pin = 25\naddress_pins = [5, 6]\n'
SCAN_PAD_0 = '{ index = 0, location = "Scan pad", kind = "scan_pad" }'


@pytest.mark.parametrize("readers, message", [
    ('{ index = 0, location = "Roma", kind = "city" }, ' + SCAN_PAD_0, "twice"),
    ('{ index = 4, location = "Scan pad", kind = "scan_pad" }', "beyond"),
    ('{ index = 1, location = "Roma", kind = "castle" }, ' + SCAN_PAD_0, "kind"),
    ('{ index = 1, location = "Pool", kind = "levy_pool" }, ' + SCAN_PAD_0, "side"),
    ('{ index = 1, location = "Roma", kind = "city" }', "scan pad"),
])
def test_bad_reader_maps_are_rejected(tmp_path, readers, message):
    with pytest.raises(ConfigError, match=message):
        ReaderMap.load(write(tmp_path, f"readers = [{readers}]\n{BUS}"))


def test_a_small_valid_reader_map(tmp_path):
    readers = 'readers = [{ index = 3, location = "Scan pad", kind = "scan_pad" }]\n'
    reader_map = ReaderMap.load(write(tmp_path, readers + BUS))
    assert reader_map.scan_pad == 3 and reader_map.name(2) == "reader 2"
    with pytest.raises(KeyError):
        reader_map.index_of("Roma")


def test_antenna_positions_and_fields_at_once_are_read_and_checked(tmp_path, mock_pins):
    from firmware_bridge.emulation.rig import EmulatedRig
    from firmware_bridge.rfid.reader_array import array_of

    readers = (f'readers = [{SCAN_PAD_0},\n'
               '  { index = 1, location = "Roma", kind = "city", at_mm = [300.5, 200] },\n'
               '  { index = 2, location = "Genua", kind = "city", at_mm = [180, 90] }]\n')
    reader_map = ReaderMap.load(write(tmp_path, readers + BUS + "fields_at_once = 2\n"))
    assert reader_map.bus.fields_at_once == 2 and reader_map.positions == {1: (300.5, 200.0), 2: (180.0, 90.0)}
    rig = EmulatedRig(reader_map.indices, reader_map.bus.address_pins, pin_factory=mock_pins)
    with rig.installed():
        array = array_of(reader_map, pin_factory=mock_pins, clock=rig.clock)
        try:
            assert array.fields_at_once == 2 and array.positions == reader_map.positions
        finally:
            array.close()
    assert ReaderMap.load(write(tmp_path, readers + BUS)).bus.fields_at_once == 1
    with pytest.raises(ConfigError, match=r"reader 1 \(Roma\): `at_mm` must be \[x, y\]"):
        ReaderMap.load(write(tmp_path, readers.replace("[300.5, 200]", '"here"') + BUS))
    with pytest.raises(ConfigError, match="`fields_at_once` above 1 needs the antennas' positions"):
        ReaderMap.load(write(tmp_path, f"readers = [{SCAN_PAD_0}]\n" + BUS + "fields_at_once = 3\n"))
    with pytest.raises(ConfigError, match="at least 1"):
        ReaderMap.load(write(tmp_path, readers + BUS + "fields_at_once = 0\n"))

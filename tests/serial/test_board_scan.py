"""The serial board-scanner build as usable as the Pi-wired one: scans and enrollment name locations and blocks."""
from __future__ import annotations

import json

import pytest

from firmware_bridge.board.block_catalog import BlockCatalog
from firmware_bridge.board.enroll import enroll_bulk
from firmware_bridge.board.reader_map import ReaderMap
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.emulation.demo_board import demo_uid
from firmware_bridge.serial_bridge.board import SerialBoardScan
from firmware_bridge.sim.device_sim import DeviceSim
from rubicon.cli import main
from tests.serial.conftest import FAST


@pytest.fixture
def board_705():
    """A simulated serial scanner with the reader map's 60 readers, set up as 705 (the map's blocks: no reader
    senses the pools); yields (sim, truth)."""
    reader_map, catalog = ReaderMap.load(), BlockCatalog.load()
    sim = DeviceSim("board", heartbeat_ms=100, window_ms=20).start()
    truth: dict[str, str] = {}
    places = [(reader_map.index_of(loc), ids) for loc, ids in catalog.setup_map.items()]
    for reader, ids in places:
        for block_id in ids:
            truth[block_id] = demo_uid(block_id, seven_bytes=len(truth) % 3 == 2)
            sim.place(reader, truth[block_id])
    sim.do(lambda: None).wait(5)
    yield sim, truth
    sim.close()


def test_the_simulated_scanner_has_the_reader_maps_reader_count(board_705):
    sim, _ = board_705
    assert sim.sensors.count == len(ReaderMap.load().places) == 60


def test_devices_scan_over_serial_names_locations_and_blocks(board_705, tmp_path, capsys):
    sim, truth = board_705
    registry = TagRegistry(tmp_path / "tags.json")
    for block_id, uid in truth.items():
        registry.assign(uid, block_id)
    registry.save()
    sim.place(ReaderMap.load().index_of("Roma"), "DEADBEEF").wait(5)
    assert main(["devices", "scan", "--serial", sim.path, "--registry", str(registry.path), "--json"]) == 1
    rows = {r["location"]: r for r in json.loads(capsys.readouterr().out)["readers"]}
    assert len(rows) == 60
    reader_map = ReaderMap.load()
    for location, ids in BlockCatalog.load().setup_map.items():
        row = rows[reader_map.name(reader_map.index_of(location))]      # a shared antenna: "Neapolis / Sipontum"
        assert set(ids) <= {t["block"] for t in row["tags"]}, location
    assert sum(len(r["tags"]) for r in rows.values()) == len(truth) + 1
    assert {"uid": "DEADBEEF", "block": None, "also_on": []} in rows["Asculum / Roma"]["tags"]
    assert all(r["answered"] for r in rows.values())


class SimOperator:
    """Lifts and replaces blocks on the simulated scanner as enrollment asks."""

    def __init__(self, sim, reader_map, truth):
        self.sim, self.reader_map, self.truth, self.lifted = sim, reader_map, truth, {}
        self.told: list[str] = []

    def tell(self, message):
        self.told.append(message)

    def lift(self, block, location):
        reader = self.reader_map.index_of(location.split(" / ")[0])     # a shared zone is named whole
        self.sim.remove(reader, self.truth[block.id]).wait(5)
        self.lifted.setdefault(location, []).append((reader, self.truth[block.id]))

    def put_back(self, location):
        for reader, uid in self.lifted.pop(location, []):
            self.sim.place(reader, uid).wait(5)

    def wait(self, message):
        raise EOFError

    def ask(self, message):
        raise EOFError


def test_bulk_enrollment_over_serial_assigns_every_set_up_block(board_705, tmp_path):
    sim, truth = board_705
    reader_map, catalog = ReaderMap.load(), BlockCatalog.load()
    registry = TagRegistry(tmp_path / "tags.json")
    source = SerialBoardScan.open(sim.path, FAST, settle=0.1)
    try:
        report = enroll_bulk(source.scan_all, reader_map, catalog, registry, SimOperator(sim, reader_map, truth))
    finally:
        source.close()
    assert report.problems == []
    assert report.assigned == {uid: block_id for block_id, uid in truth.items()}
    assert TagRegistry.load(registry.path).block_of(truth["P Pompeius"]) == "P Pompeius"


def test_a_serial_url_with_no_scanner_is_a_clear_error(tmp_path, capsys):
    code = main(["devices", "scan", "--serial", "socket://127.0.0.1:9", "--registry", str(tmp_path / "t.json")])
    assert code == 2 and "no board scanner answered" in capsys.readouterr().err

"""Enrollment, bulk and one by one, on the emulated board through the real reader-array code."""
from __future__ import annotations

import json

import pytest

from firmware_bridge.board.block_catalog import BlockCatalog
from firmware_bridge.board.enroll import enroll_bulk, enroll_one
from firmware_bridge.board.tag_registry import RegistryError, TagRegistry
from firmware_bridge.emulation.demo_board import EmulatedOperator, set_up_705


@pytest.fixture(scope="session")
def catalog():
    return BlockCatalog.load()


@pytest.fixture
def board(rig, reader_map, catalog):
    return set_up_705(rig, reader_map, catalog)


@pytest.fixture
def registry(tmp_path):
    return TagRegistry.load(tmp_path / "tags.json")


def operator(rig, reader_map, truth, answers=()):
    said = []
    op = EmulatedOperator(rig, reader_map, truth, say=said.append, answers=list(answers))
    op.said = said
    return op


def test_bulk_enrolls_every_set_up_block(array, rig, reader_map, catalog, board, registry):
    op = operator(rig, reader_map, board)
    report = enroll_bulk(array.scan_all, reader_map, catalog, registry, op)
    assert report.problems == []
    assert {uid: block for block, uid in board.items()} == report.assigned
    # No reader senses the levy pools: their blocks are enrolled on the scan pad (`enroll --one`).
    assert sorted(report.not_enrolled) == sorted(b for ids in catalog.levy_pools.values() for b in ids)
    assert TagRegistry.load(registry.path).block_of(board["C Caesar"]) == "C Caesar"
    stacks: dict[int, int] = {}    # a shared antenna holds its locations' blocks together
    for loc, ids in catalog.setup_map.items():
        stacks[reader_map.index_of(loc)] = stacks.get(reader_map.index_of(loc), 0) + len(ids)
    assert sum("Lift" in line for line in op.said) == sum(n - 1 for n in stacks.values())
    assert all(rig.readers_of(uid) for uid in board.values())  # everything was put back


def test_bulk_rerun_asks_nothing_and_changes_nothing(array, rig, reader_map, catalog, board, registry):
    enroll_bulk(array.scan_all, reader_map, catalog, registry, operator(rig, reader_map, board))
    saved = registry.path.read_text()
    op = operator(rig, reader_map, board)
    report = enroll_bulk(array.scan_all, reader_map, catalog, registry, op)
    assert report.assigned == {} and report.problems == [] and op.said == []
    assert registry.path.read_text() == saved


def test_bulk_reports_odd_places_and_skips_them(array, rig, reader_map, catalog, board, registry):
    roma = reader_map.index_of("Roma")
    rig.place("DEADBEEF", roma)  # a stray tag where nothing belongs (Asculum and Roma share an antenna)
    rig.lift(board["C Legio 13"])  # Ravenna is short of a block
    rig.place(board["P Legio 3"], reader_map.index_of("Aquileia"))  # also on Brundisium: a border
    rig.unplug(reader_map.index_of("Syracusae"))
    report = enroll_bulk(array.scan_all, reader_map, catalog, registry, operator(rig, reader_map, board))
    text = "\n".join(report.problems)
    assert "Asculum / Roma: no blocks belong here" in text and "DEADBEEF" in text
    assert "Ravenna: expected 3 blocks, sensed 2 tags" in text
    assert "Messana / Rhegium / Syracusae (reader" in text and "does not answer" in text
    assert f"tag {board['P Legio 3']} is sensed by Aquileia / Ravenna and Brundisium / Dyrrachium" in text
    assert "C Caesar" not in report.assigned.values() and "P Legio 37" not in report.assigned.values()
    assert report.assigned[board["C Antonius"]] == "C Antonius"


def test_bulk_does_not_steal_a_tag_enrolled_as_another_block(array, rig, reader_map, catalog, board, registry):
    registry.assign(board["P Legio 3"], "P Legio 1")
    report = enroll_bulk(array.scan_all, reader_map, catalog, registry, operator(rig, reader_map, board))
    assert any("already enrolled as P Legio 1" in p for p in report.problems)
    assert any("P Legio 1 is already enrolled with tag" in p for p in report.problems)
    assert registry.block_of(board["P Legio 3"]) == "P Legio 1" and registry.block_of(board["P Legio 1"]) is None


class ClumsyOperator(EmulatedOperator):
    """Lifts two blocks at once the first time asked."""

    def lift(self, block, location):
        super().lift(block, location)
        if not getattr(self, "fumbled", False):
            self.fumbled = True
            reader = self.rig.readers_of(self.truth[block.id]) or self.lifted[location][-1][1]
            other = next(b for b in self.reader_map_blocks[location] if b != block.id and self.truth[b] in
                         [t.uid_hex for t in self.rig.field(reader[0]).tags])
            self.lifted[location].append((self.truth[other], self.rig.readers_of(self.truth[other])))
            self.rig.lift(self.truth[other])


def test_bulk_recovers_when_two_blocks_are_lifted_at_once(array, rig, reader_map, catalog, board, registry):
    op = ClumsyOperator(rig, reader_map, board, say=lambda s: None)
    op.reader_map_blocks = {}     # the blocks of each stack, by the name enrollment gives it
    for loc, ids in catalog.setup_map.items():
        op.reader_map_blocks.setdefault(reader_map.name(reader_map.index_of(loc)), []).extend(ids)
    report = enroll_bulk(array.scan_all, reader_map, catalog, registry, op)
    assert op.fumbled and report.problems == []
    assert all(registry.block_of(uid) == block for block, uid in board.items())


def test_aborted_bulk_run_changes_nothing(array, rig, reader_map, catalog, board, registry):
    class Quitter(EmulatedOperator):
        def lift(self, block, location):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        enroll_bulk(array.scan_all, reader_map, catalog, registry, Quitter(rig, reader_map, board, say=print))
    assert not registry.path.exists()


def test_one_by_one_on_the_scan_pad(array, rig, reader_map, catalog, registry):
    pad = reader_map.scan_pad
    navis = rig.place("04C0FFEE112233", pad)
    op = operator(rig, reader_map, {}, answers=["go", "Navis 3", "C Navis 3"])
    report = enroll_one(array.scan_all, reader_map, catalog, registry, op)
    assert report.assigned == {navis.uid_hex: "C Navis 3"}
    assert any("ambiguous" in line for line in op.said)  # both sides have a Navis 3
    assert TagRegistry.load(registry.path).block_of(navis.uid_hex) == "C Navis 3"


def test_one_by_one_refuses_two_tags_and_keeps_an_enrolled_tag_unless_told(array, rig, reader_map, catalog, registry):
    pad = reader_map.scan_pad
    rig.place("04A1B2C3", pad)
    rig.place("14A1B2C3", pad)
    registry.assign("04A1B2C3", "P Elephant")
    op = operator(rig, reader_map, {}, answers=["go"])
    enroll_one(array.scan_all, reader_map, catalog, registry, op)
    assert any("2 tags on the scan pad" in line for line in op.said)
    rig.lift("14A1B2C3")
    op = operator(rig, reader_map, {}, answers=["go", "n", "go", "y", "Ballista"])
    report = enroll_one(array.scan_all, reader_map, catalog, registry, op)
    assert report.assigned == {}
    assert any("ambiguous" in line for line in op.said) and registry.block_of("04A1B2C3") == "P Elephant"
    op = operator(rig, reader_map, {}, answers=["go", "y", "Pompeius Ballista"])
    enroll_one(array.scan_all, reader_map, catalog, registry, op)
    assert registry.block_of("04A1B2C3") == "P Ballista" and registry.uid_of("P Elephant") is None


def test_registry_rules_and_bad_files(tmp_path):
    registry = TagRegistry(tmp_path / "t.json")
    registry.assign("04a1b2c3", "C Caesar")
    with pytest.raises(RegistryError, match="already enrolled"):
        registry.assign("04A1B2C3", "C Antonius")
    with pytest.raises(RegistryError, match="already has tag"):
        registry.assign("14A1B2C3", "C Caesar")
    with pytest.raises(RegistryError, match="not a 4-"):
        registry.assign("XYZ", "C Caesar")
    assert registry.assign("14A1B2C3", "C Caesar", replace=True) == "04A1B2C3"
    registry.save()
    assert json.loads(registry.path.read_text())["tags"] == {"14A1B2C3": "C Caesar"}
    bad = tmp_path / "bad.json"
    bad.write_text('{"tags": {"04A1B2C3": 7}}')
    with pytest.raises(RegistryError, match="not a tag registry"):
        TagRegistry.load(bad)
    bad.write_text("{")
    with pytest.raises(RegistryError):
        TagRegistry.load(bad)


def test_catalog_lookup(catalog):
    assert catalog.find("c legio 7").id == "C Legio 7"
    assert catalog.find("Pompeius  Navis 2").id == "P Navis 2"
    assert catalog.find("Cleopatra").side == "Pompeius"
    for text in ("", "Legio 99", "Navis 1"):
        with pytest.raises(LookupError):
            catalog.find(text)

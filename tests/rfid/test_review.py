"""Review findings on the RFID side, each proved by a test that failed before its fix."""
import os
from pathlib import Path

import pytest

from firmware_bridge.board.tag_registry import TagRegistry


def test_registry_save_fsyncs_the_new_file_before_it_replaces_the_old(tmp_path, monkeypatch):
    """Without an fsync of the data first, the rename can reach the disk before the data and a
    power cut leaves an empty or truncated tags.json: the whole enrollment lost."""
    path = tmp_path / "tags.json"
    registry = TagRegistry(path)
    registry.assign("04A1B2C3", "C Caesar")
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(("fsync", os.fstat(fd).st_ino)), real_fsync(fd)))
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append(("replace", os.stat(a).st_ino)), real_replace(a, b)))
    registry.save()
    replaced = [ino for what, ino in calls if what == "replace"]
    assert len(replaced) == 1
    file_synced = [i for i, (what, ino) in enumerate(calls) if what == "fsync" and ino == replaced[0]]
    assert file_synced and file_synced[0] < calls.index(("replace", replaced[0]))
    # and the directory entry itself is made durable after the rename
    dir_ino = os.stat(tmp_path).st_ino
    assert ("fsync", dir_ino) in calls[calls.index(("replace", replaced[0])):]
    assert TagRegistry.load(path).block_of("04A1B2C3") == "C Caesar"


class _Person:
    def __init__(self):
        self.said = []

    def tell(self, message):
        self.said.append(message)

    def lift(self, block, location):
        pass  # the block is lifted only a little: its tag is still in the reader's field

    def put_back(self, location):
        pass


def test_a_read_error_while_telling_a_stack_apart_never_names_the_wrong_tag():
    """Lifting block A of a stack of three, the next scans have a read error on B's branch: B's tag
    is missing from an incomplete scan. It must not be taken for the tag that left with A."""
    from firmware_bridge.board.block_catalog import Block
    from firmware_bridge.board.enroll import EnrollReport, _resolve_stack
    from firmware_bridge.rfid.reader_array import ReaderScan

    blocks = [Block("A", "C Caesar", "A"), Block("B", "C Caesar", "B"), Block("C", "C Caesar", "C")]
    tags = {"0A0A0A0A", "0B0B0B0B", "0C0C0C0C"}

    def scan(readers):
        return {r: ReaderScan(r, frozenset({"0A0A0A0A", "0C0C0C0C"}), answered=True, complete=False,
                              problems=("BCC error at cascade level 1",)) for r in readers}

    report = EnrollReport()
    found = _resolve_stack(scan, 7, "Roma", blocks, set(tags), _Person(), report)
    assert found.get("0B0B0B0B") != "A"
    assert found == {} and report.problems


def test_one_by_one_does_not_enroll_from_a_scan_pad_read_with_errors(tmp_path):
    """Two blocks on the pad, one of them unreadable this time: the one tag read must not be enrolled
    as the block the owner names (it may be the other block's)."""
    from firmware_bridge.board.block_catalog import BlockCatalog
    from firmware_bridge.board.enroll import enroll_one
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.rfid.reader_array import ReaderScan

    reader_map = ReaderMap.load()

    class Owner(_Person):
        rounds = 0

        def wait(self, message):
            self.rounds += 1
            if self.rounds > 1:
                raise EOFError

        def ask(self, message):
            return "C Navis 3"

    def scan(readers):
        return {r: ReaderScan(r, frozenset({"0A0A0A0A"}), answered=True, complete=False,
                              problems=("BCC error at cascade level 1",)) for r in readers}

    registry = TagRegistry(tmp_path / "tags.json")
    owner = Owner()
    report = enroll_one(scan, reader_map, BlockCatalog.load(), registry, owner)
    assert report.assigned == {} and len(registry) == 0
    assert any("read error" in line for line in owner.said)


def test_bulk_enrollment_on_a_reader_map_without_a_levy_pool_is_a_config_error(tmp_path):
    """A map may be partial (a bench of a few readers and the scan pad), but bulk enrollment needs
    each side's levy pool: it died with a KeyError traceback instead of a clear error (exit 2)."""

    from firmware_bridge.board.block_catalog import BlockCatalog
    from firmware_bridge.board.enroll import enroll_bulk
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.config_files import ConfigError

    text = (Path(__file__).parent / "readers_with_pools.toml").read_text("utf-8")   # a map with pool readers
    kept = [row for row in text.splitlines() if 'kind = "levy_pool", side = "Caesar"' not in row]
    assert len(kept) == len(text.splitlines()) - 1
    path = tmp_path / "readers.toml"
    path.write_text("\n".join(kept))
    reader_map = ReaderMap.load(path)

    def scan(readers):
        raise AssertionError("nothing may be scanned before the map is known to fit")

    with pytest.raises(ConfigError, match="levy_pool reader for Caesar"):
        enroll_bulk(scan, reader_map, BlockCatalog.load(), TagRegistry(tmp_path / "tags.json"), _Person())


def test_a_deeply_nested_registry_file_is_a_registry_error_not_a_recursion_error(tmp_path):
    from firmware_bridge.board.tag_registry import RegistryError

    path = tmp_path / "tags.json"
    path.write_text("[" * 100000 + "]" * 100000)
    with pytest.raises(RegistryError, match="not a tag registry"):
        TagRegistry.load(path)


def test_a_deeply_nested_toml_file_is_a_config_error_not_a_recursion_error(tmp_path):
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.config_files import ConfigError

    path = tmp_path / "readers.toml"
    path.write_text("a = " + "[" * 100000 + "]" * 100000)
    with pytest.raises(ConfigError, match="not valid TOML"):
        ReaderMap.load(path)

"""Devices the table can rely on, on the board's files: readers.toml typos and the tag registry."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from firmware_bridge.board.reader_map import ReaderMap, UnknownLocation
from firmware_bridge.board.tag_registry import RegistryError, TagRegistry
from firmware_bridge.config_files import ConfigError
from rubicon.cli import main

PACKAGED = resources.files("firmware_bridge").joinpath("data", "readers.toml").read_text("utf-8")
WITH_POOLS = (Path(__file__).parent / "readers_with_pools.toml").read_text("utf-8")   # a map with pool readers


@pytest.mark.parametrize("old, new, expected", [
    ('location = "Genua"', 'location = "Genau"', r"reader 19: `location` 'Genau' is not a map location.*'Genua'"),
    ('also = ["Nicomedia"]', 'also = ["Nikomedia"]',
     r"reader 44: `also` 'Nikomedia' is not a map location.*'Nicomedia'"),
    ("[bus]", "[buss]", r"unknown key `buss` at the top level"),
    ("spi_bus = 0", 'spi_bus = "0"', r"`spi_bus` must be an integer, got '0'"),
    ('location = "Mare Internum", kind = "sea"', 'location = "Mare Internum", kind = "city"',
     r"'Mare Internum' is a sea, not a city"),
])
def test_a_typo_in_readers_toml_is_a_config_error_naming_file_key_and_expectation(tmp_path, old, new, expected):
    assert old in PACKAGED
    path = tmp_path / "readers.toml"
    path.write_text(PACKAGED.replace(old, new, 1))
    with pytest.raises(ConfigError, match=expected) as caught:
        ReaderMap.load(path)
    assert str(path) in str(caught.value)


def test_a_typo_in_a_pool_reader_is_a_config_error_naming_the_entry(tmp_path):
    path = tmp_path / "readers.toml"
    path.write_text(WITH_POOLS.replace('kind = "levy_pool", side = "Caesar"', 'kind = "levy_pool", sid = "Caesar"'))
    with pytest.raises(ConfigError, match=r"unknown key `sid` in reader entry 76 \(did you mean `side`\?\); expected "
                                          r"index, location, kind, side"):
        ReaderMap.load(path)


def test_a_typo_in_readers_toml_is_no_traceback_at_the_command_line(tmp_path, capsys):
    path = tmp_path / "readers.toml"
    path.write_text(PACKAGED.replace('location = "Genua"', 'location = "Genau"'))
    assert main(["devices", "scan", "--emulate", "--readers", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Genau" in err and str(path) in err


def test_a_location_without_a_reader_is_a_config_error_and_still_a_key_error():
    with pytest.raises(UnknownLocation, match="no reader for 'Atlantis'") as caught:
        ReaderMap.load().index_of("Atlantis")
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, ConfigError)


def write(path, text):
    path.write_text(text)
    return path


def test_the_registry_refuses_an_unknown_block_naming_the_line(tmp_path):
    path = write(tmp_path / "tags.json", '{\n "version": 1,\n "tags": {\n  "04A1B2C3": "C Caesar",\n'
                                         '  "04A1B2C4": "C Legio 99"\n }\n}\n')
    with pytest.raises(RegistryError, match=r"tags.json:5: tag 04A1B2C4 names 'C Legio 99', which is not a block"):
        TagRegistry.load(path)


def test_the_registry_refuses_a_tag_listed_twice_naming_the_line(tmp_path):
    path = write(tmp_path / "tags.json", '{"tags": {\n"04A1B2C3": "C Caesar",\n"04a1b2c3": "C Antonius"\n}}')
    with pytest.raises(RegistryError, match=r"tags.json:3: tag 04A1B2C3 is listed twice \(first on line 2\)"):
        TagRegistry.load(path)
    path = write(tmp_path / "tags.json", '{"tags": {\n"04A1B2C3": "C Caesar",\n"04A1B2C3": "C Caesar"\n}}')
    with pytest.raises(RegistryError, match=r":3: tag 04A1B2C3 is listed twice"):
        TagRegistry.load(path)
    path = write(tmp_path / "tags.json", '{"tags": {\n"04A1B2C3": "C Caesar",\n"04A1B2C4": "C Caesar"\n}}')
    with pytest.raises(RegistryError, match=r":3: C Caesar already has tag 04A1B2C3"):
        TagRegistry.load(path)


def saved(path):
    registry = TagRegistry(path)
    registry.assign("04A1B2C3", "C Caesar")
    registry.save()
    return registry


def test_a_save_keeps_the_file_mode(tmp_path):
    path = tmp_path / "tags.json"
    saved(path)
    os.chmod(path, 0o640)
    saved(path)
    assert os.stat(path).st_mode & 0o777 == 0o640


def test_a_new_registry_gets_the_umask_mode_not_0600(tmp_path):
    old = os.umask(0o022)
    try:
        saved(tmp_path / "tags.json")
    finally:
        os.umask(old)
    assert os.stat(tmp_path / "tags.json").st_mode & 0o777 == 0o644


def test_a_save_writes_through_a_symlink(tmp_path):
    real = tmp_path / "store" / "tags.json"
    real.parent.mkdir()
    saved(real)
    link = tmp_path / "tags.json"
    link.symlink_to(real)
    registry = TagRegistry.load(link)
    registry.assign("04A1B2C4", "C Antonius")
    registry.save()
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text())["tags"] == {"04A1B2C3": "C Caesar", "04A1B2C4": "C Antonius"}


def test_a_save_removes_the_temp_files_of_a_killed_save(tmp_path):
    path = tmp_path / "tags.json"
    saved(path)
    # a saver killed with -9 between creating its temp file and renaming it
    code = ("import os, sys\nfrom firmware_bridge.board.tag_registry import TagRegistry\n"
            "r = TagRegistry.load(sys.argv[1]); r.assign('04A1B2C9', 'C Octavian')\n"
            "os.replace = lambda *a: os.kill(os.getpid(), 9)\nr.save()\n")
    result = subprocess.run([sys.executable, "-c", code, str(path)], env={**os.environ, "PYTHONPATH": os.getcwd()})
    assert result.returncode == -9
    left = [p.name for p in tmp_path.iterdir() if p.name != "tags.json"]
    assert len(left) == 1 and left[0].endswith(".tmp")
    (tmp_path / ".tags-k2j4h5g6").write_text("{}")          # the earlier naming's leftovers too
    saved(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tags.json"]
    assert TagRegistry.load(path).block_of("04A1B2C3") == "C Caesar"

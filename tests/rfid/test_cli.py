"""`rubicon devices scan` and `rubicon enroll` end to end on the emulated board, and without hardware."""
from __future__ import annotations

import json

import pytest
from gpiozero import Device

from rubicon.cli import build_parser, main


def test_commands_are_registered():
    parser = build_parser()
    assert parser.parse_args(["enroll", "--bulk"]).func
    assert parser.parse_args(["devices", "scan", "--all"]).func
    with pytest.raises(SystemExit):
        parser.parse_args(["enroll"])  # --bulk or --one is required
    with pytest.raises(SystemExit):
        parser.parse_args(["enroll", "--bulk", "--one"])


def test_scan_prints_locations_blocks_and_flags(capsys):
    assert main(["devices", "scan", "--emulate"]) == 1  # the demo board has a stray tag, a border tag, a dead reader
    out = capsys.readouterr().out
    assert "Ravenna" in out and "C Caesar" in out
    assert "?DEADBEEF (not enrolled)" in out
    # a shared antenna, named whole
    assert "(also on Neapolis / Sipontum)" in out and "(also on Brundisium / Dyrrachium)" in out
    assert "Asculum / Roma                    27  ?DEADBEEF (not enrolled)" in out
    assert "Scan pad                          59  NO ANSWER" in out
    # 30 blocks on the map at 705; the pools are not sensed.
    assert out.strip().splitlines()[-1] == "60 readers, 59 answering; 31 tags, 1 not enrolled, 1 on two readers"
    assert "Aenos" not in out  # empty readers only with --all


def test_scan_json(capsys):
    main(["devices", "scan", "--emulate", "--json", "--all"])
    rows = json.loads(capsys.readouterr().out)["readers"]
    assert len(rows) == 60
    roma = next(r for r in rows if r["location"] == "Asculum / Roma")
    assert roma["tags"] == [{"uid": "DEADBEEF", "block": None, "also_on": []}] and roma["answered"]


def test_enroll_bulk_emulated_writes_the_registry(tmp_path, capsys):
    registry = tmp_path / "tags.json"
    assert main(["enroll", "--bulk", "--emulate", "--registry", str(registry)]) == 0
    tags = json.loads(registry.read_text())["tags"]
    assert len(tags) == 30 and len(set(tags.values())) == 30    # the map's blocks; the pools' go on the scan pad
    assert "33 blocks have no tag yet" in capsys.readouterr().out


def test_without_hardware_the_error_is_clear(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")  # not installed off the Pi
    assert main(["devices", "scan", "--registry", str(tmp_path / "t.json")]) == 2
    assert "rubicon: error:" in capsys.readouterr().err


def test_bad_reader_map_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "readers.toml"
    bad.write_text("[bus]\nspi_bus = 0\n")
    assert main(["devices", "scan", "--emulate", "--readers", str(bad)]) == 2
    assert "spi_device" in capsys.readouterr().err


def test_console_operator_prompts_and_stops_on_eof(monkeypatch, capsys):
    from firmware_bridge.board.block_catalog import Block
    from firmware_bridge.board.cli import _ConsoleOperator

    prompts = []
    answers = iter(["", "C Legio 7"])

    def fake_input(prompt):
        prompts.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    operator = _ConsoleOperator()
    operator.lift(Block("C Legio 7", "Caesar", "Legio 7"), "Narbo")
    assert operator.ask("Which block? ") == "C Legio 7"
    with pytest.raises(EOFError):
        operator.put_back("Narbo")
    assert prompts[0].startswith("Lift C Legio 7 off Narbo") and "Narbo" in prompts[2]


def test_the_one_reader_builds_tags_are_enrolled_on_its_one_reader(tmp_path, capsys):
    from firmware_bridge.board.reader_map import one_reader_layout
    from firmware_bridge.board.tag_registry import TagRegistry

    registry = tmp_path / "tags.json"
    layout = str(one_reader_layout())
    assert main(["enroll", "--one", "--emulate", "--readers", layout, "--registry", str(registry)]) == 0
    assert TagRegistry.load(registry).block_of("04C0FFEE112233") == "C Navis 3"
    assert main(["devices", "scan", "--emulate", "--readers", layout, "--all"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("1 readers, 1 answering")

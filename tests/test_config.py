"""The configuration file: the documented example is the defaults, and every mistake is named
with its file and line (all of them at once), from `rubicon check-config` and `rubicon run`."""
from __future__ import annotations

from pathlib import Path

import pytest

from rubicon.cli import main
from rubicon.config import SCHEMA, Config, ConfigProblems, find_config, load_config, parse_config

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "config.example.toml"


def test_the_example_file_documents_every_key_with_its_default():
    config = load_config(EXAMPLE)
    assert config == Config(source=str(EXAMPLE))
    text = EXAMPLE.read_text()
    for section, keys in SCHEMA.items():
        assert f"[{section}]" in text
        for key in keys:
            assert f"\n{key} = " in text, key


def test_values_are_read_and_empty_strings_mean_not_configured(tmp_path):
    config = parse_config('[server]\nport = 9000\nhost = "127.0.0.1"\n[devices]\ntray = "/dev/rubicon-tray"\n'
                          'scanner = ""\n[dice]\nsource = "phone"\n[bot]\nside = "Pompeius"\nlevel = "easy"\n'
                          '[rules]\nwinter_order = "first-edition"\n')
    assert (config.port, config.host, config.tray, config.scanner) == (9000, "127.0.0.1", "/dev/rubicon-tray", None)
    assert (config.dice, config.bot_side, config.bot_level) == ("phone", "Pompeius", "easy")
    assert config.rules == {"winter_order": "first-edition"} and config.hardware


def test_every_problem_is_reported_with_its_line():
    text = ('# a comment\n[server]\nport = 70000\nhots = "x"\n\n[devices]\npi_readers = "yes"\n'
            '[dice]\nsource = "dice"\n[bogus]\na = 1\n')
    with pytest.raises(ConfigProblems) as refused:
        parse_config(text, "my.toml")
    assert [str(p) for p in refused.value.problems] == [
        "my.toml:3: server.port must be a port 0-65535, not 70000",
        "my.toml:4: unknown key server.hots (known in [server]: host, port, state_dir, name)",
        'my.toml:7: devices.pi_readers must be true or false, not "yes"',
        'my.toml:9: dice.source must be one of "tray", "phone", "typed", not "dice"',
        "my.toml:10: unknown section [bogus] (known: server, devices, rules, dice, bot, camera_tray)",
    ]


def test_a_dotted_key_is_found_on_its_line_too():
    with pytest.raises(ConfigProblems) as refused:
        parse_config('\n\nbot.level = "grandmaster"\n', "c.toml")
    assert str(refused.value.problems[0]).startswith("c.toml:3: bot.level must be one of")


def test_a_key_of_an_inline_table_is_found_on_the_tables_line():
    with pytest.raises(ConfigProblems) as refused:
        parse_config('# settings\nserver = { port = -1 }\n', "c.toml")
    assert str(refused.value.problems[0]) == "c.toml:2: server.port must be a port 0-65535, not -1"


def test_a_toml_syntax_error_names_its_line():
    with pytest.raises(ConfigProblems) as refused:
        parse_config('[server]\n\nport = = 3\n', "c.toml")
    assert str(refused.value).startswith("c.toml:3: not valid TOML: ")


def test_a_missing_file_is_a_problem_not_a_traceback(tmp_path):
    with pytest.raises(ConfigProblems, match="no such file"):
        load_config(tmp_path / "none.toml")


def test_which_file_is_read(tmp_path, monkeypatch):
    monkeypatch.delenv("RUBICON_CONFIG", raising=False)
    assert find_config(None, cwd=tmp_path) is None
    (tmp_path / "rubicon.toml").write_text("")
    assert find_config(None, cwd=tmp_path) == tmp_path / "rubicon.toml"
    monkeypatch.setenv("RUBICON_CONFIG", "/etc/rubicon/config.toml")
    assert find_config(None, cwd=tmp_path) == Path("/etc/rubicon/config.toml")
    assert find_config("mine.toml", cwd=tmp_path) == Path("mine.toml")


def test_check_config_exits_1_with_file_and_line(tmp_path, capsys):
    bad = tmp_path / "c.toml"
    bad.write_text('[server]\nport = "80"\n[rules]\nwinter_order = "v2"\n')
    assert main(["check-config", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2: server.port" in err and f"{bad}:4: rules.winter_order must be one of" in err
    assert "2 problem(s)" in err


def test_check_config_checks_the_files_it_names(tmp_path, capsys):
    layout = tmp_path / "readers.toml"
    layout.write_text("readers = 3\n")
    config = tmp_path / "c.toml"
    config.write_text(f'[devices]\n\nreader_layout = "{layout}"\n')
    assert main(["check-config", str(config)]) == 1
    assert f"{config}:3: devices.reader_layout: {layout}" in capsys.readouterr().err


def test_check_config_of_a_good_file_says_what_is_in_force(capsys):
    assert main(["check-config", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "ok" in out and "serve on 0.0.0.0:8080" in out and "none (no hardware)" in out


def test_the_one_reader_build_is_chosen_in_the_devices_section_and_not_beside_the_board_readers():
    from rubicon.table.assembly import device_specs

    spi = parse_config('[devices]\none_reader = "spi"\n')
    assert spi.one_reader == spi.one_reader_device == "spi" and spi.hardware
    assert [(s.kind, s.path.endswith("one_reader.toml")) for s in device_specs(spi)] == [("readers", True)]
    pico = parse_config('[devices]\none_reader = "/dev/rubicon-scanner"\n')
    assert [(s.kind, s.url) for s in device_specs(pico)] == [("board", "/dev/rubicon-scanner")]
    virtual = parse_config('[devices]\none_reader = "virtual"\n')
    assert virtual.one_reader == "virtual" and virtual.one_reader_device is None and not virtual.hardware
    assert device_specs(virtual) == ()
    with pytest.raises(ConfigProblems) as caught:
        parse_config('[devices]\nscanner = "/dev/ttyACM1"\none_reader = "spi"\n', "rubicon.toml")
    (problem,) = caught.value.problems
    assert problem.line == 3 and "devices.one_reader" in problem.message and "devices.scanner" in problem.message

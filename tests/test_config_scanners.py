"""Several Picos in the configuration: `devices.scanners`, each with its `first_reader`, checked against
the reader map's Pico regions by `rubicon check-config`; a bad entry is named with its line."""
import pytest

from rubicon.cli import main
from rubicon.config import ConfigProblems, parse_config

THREE = """[devices]
scanners = [
  { url = "/dev/rubicon-scanner-1", first_reader = 0 },
  { url = "/dev/rubicon-scanner-2", first_reader = 19 },
  { url = "/dev/rubicon-scanner-3", first_reader = 39 },
]
"""


def test_three_picos_at_the_layout_s_regions_are_a_good_configuration(tmp_path, capsys):
    config = parse_config(THREE)
    assert config.scanners == (("/dev/rubicon-scanner-1", 0), ("/dev/rubicon-scanner-2", 19),
                               ("/dev/rubicon-scanner-3", 39))
    assert config.hardware
    path = tmp_path / "rubicon.toml"
    path.write_text(THREE)
    assert main(["check-config", str(path)]) == 0
    assert "scanner /dev/rubicon-scanner-2 (from reader 19)" in capsys.readouterr().out


def test_check_config_names_a_first_reader_off_the_regions_and_a_region_left_out(tmp_path, capsys):
    path = tmp_path / "rubicon.toml"
    path.write_text(THREE.replace("first_reader = 19", "first_reader = 20").replace(
        '  { url = "/dev/rubicon-scanner-3", first_reader = 39 },\n', ""))
    assert main(["check-config", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2: devices.scanners: /dev/rubicon-scanner-2: first_reader = 20 is not where a Pico's readers " \
           "begin (Pico 1: first_reader = 0, Pico 2: first_reader = 19, Pico 3: first_reader = 39)" in err
    assert "no scanner for Pico 3 (readers 39-59" in err and "no scanner for Pico 2" in err


@pytest.mark.parametrize("text, expected", [
    ('scanners = "/dev/ttyACM0"', "devices.scanners must be a list of tables"),
    ('scanners = [{ url = "/dev/a", first = 0 }]', "(keys: url, first_reader)"),
    ('scanners = [{ url = "/dev/a", first_reader = -1 }]', "(first_reader: a reader index, 0 or more)"),
    ('scanners = [{ url = "/dev/a" }, { url = "/dev/b" }]', "each first_reader once"),
    ('scanners = [{ url = "/dev/a" }]\nscanner = "/dev/b"', "set one of them"),
    ('scanners = [{ url = "/dev/a" }]\none_reader = "spi"', "devices.scanners empty"),
])
def test_a_bad_scanners_entry_is_named(text, expected):
    with pytest.raises(ConfigProblems) as caught:
        parse_config("[devices]\n" + text + "\n")
    assert expected in str(caught.value)
    assert all(p.line for p in caught.value.problems)

"""The Pi's camera set as DICE.md says: rpicam-vid started with the full-field sensor mode and the
lens fixed on the floor (a real process on PATH records its command line), the mode checked
against what `--list-cameras` offers, and the calibration written into the configuration."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from firmware_bridge.camera.sources import RpicamSource, check_mode, list_modes
from rubicon.cli import main
from rubicon.config import ConfigProblems, load_config
from rubicon.config_edit import set_values

# What rpicam-hello --list-cameras prints for a Camera Module 3 (the modes of ground-truth.md).
IMX708 = """Available cameras
-----------------
0 : imx708 [4608x2592 10-bit RGGB] (/base/soc/i2c0mux/i2c@1/imx708@1a)
    Modes: 'SRGGB10_CSI2P' : 1536x864 [120.13 fps - (768, 432)/3072x1728 crop]
                             2304x1296 [56.03 fps - (0, 0)/4608x2592 crop]
                             4608x2592 [14.35 fps - (0, 0)/4608x2592 crop]
"""


def fake_rpicam(tmp_path: Path, name: str, script: str) -> None:
    exe = tmp_path / name
    exe.write_text(f"#!{sys.executable}\n{script}")
    exe.chmod(0o755)


def test_rpicam_vid_gets_the_mode_and_the_lens_position(tmp_path, monkeypatch):
    args_file = tmp_path / "args"
    fake_rpicam(tmp_path, "rpicam-vid", f"import sys; open({str(args_file)!r}, 'w').write(' '.join(sys.argv[1:]))\n")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    source = RpicamSource(mode="2304:1296:10:P", lens_position=5.0)
    assert source.read() is None            # the fake writes no frame
    source.close()
    args = args_file.read_text().split()
    assert args[args.index("--mode") + 1] == "2304:1296:10:P"
    assert args[args.index("--lens-position") + 1] == "5"
    assert args[args.index("--autofocus-mode") + 1] == "manual"
    assert args[args.index("--width") + 1] == "640" and args[args.index("--codec") + 1] == "yuv420"


def test_the_mode_is_checked_against_the_camera():
    sensor, modes = list_modes(IMX708)
    assert sensor == (4608, 2592) and [(m.width, m.height) for m in modes] == [(1536, 864), (2304, 1296), (4608, 2592)]
    assert check_mode(IMX708, "2304:1296:10:P") is None
    assert "crop" in check_mode(IMX708, "1536:864:10:P")
    assert "no 1920x1080 mode" in check_mode(IMX708, "1920:1080:10:P")
    assert "no sensor mode" in check_mode(IMX708, "")
    assert "no camera" in check_mode("No cameras available!", "2304:1296:10:P")


def test_check_refuses_a_cropping_mode(tmp_path, monkeypatch, capsys):
    fake_rpicam(tmp_path, "rpicam-hello", f"print({IMX708!r})\n")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    config = tmp_path / "rubicon.toml"
    config.write_text('[camera_tray]\ncamera = "rpicam"\nsensor_mode = "1536:864:10:P"\n')
    assert main(["dice-camera", "check", "--config", str(config)]) == 1
    assert "crop" in capsys.readouterr().err


def test_calibration_is_written_into_the_configuration(tmp_path, capsys):
    config = tmp_path / "rubicon.toml"
    config.write_text('# mine\n[camera_tray]\ncamera = "demo"\ndie_px = 56.0  # measured\n\n[dice]\nsource = "tray"\n')
    assert main(["dice-camera", "check", "--config", str(config), "--calibrate"]) == 0
    loaded = load_config(config)
    assert 0.33 <= loaded.camera_pip_corner <= 0.42         # render.py's dice: corner pips 0.38 out
    assert 0.06 <= loaded.camera_pip_radius <= 0.10 and 50 <= loaded.camera_die_px <= 62
    text = config.read_text()
    assert text.startswith("# mine\n") and 'source = "tray"' in text
    assert "written to" in capsys.readouterr().out


def test_a_value_that_would_break_the_file_is_refused(tmp_path):
    config = tmp_path / "rubicon.toml"
    config.write_text('[camera_tray]\ncamera = "demo"\n')
    with pytest.raises(ConfigProblems):
        set_values(config, "camera_tray", {"pip_radius": 3.0})
    assert config.read_text() == '[camera_tray]\ncamera = "demo"\n'
    set_values(config, "bot", {"level": "easy"})
    assert load_config(config).bot_level == "easy"

"""`rubicon run` as the unit runs it, with each device failing to open: an unprivileged user, a
working directory it cannot write (where lgpio would put its pipe without LG_WD), the unit's
Environment= lines. The table comes up anyway (READY banner, the TV's page), each device is
listed down with what to check, and SIGTERM stops it cleanly; a panel.toml that cannot be read
stops the start with its file. Needs root (to become `nobody`); skipped otherwise.

The interpreter is Debian's /usr/bin/python3 (the Pi's Python 3.11, and one `nobody` may run, which
a pyenv build under /root is not) in a venv of its own that sees the test venv's locked packages."""
from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import site
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "rubicon.service"
SYSTEM_PYTHON = Path("/usr/bin/python3")
GUARD_S = 60     # a guard against a hang only

pytestmark = [pytest.mark.skipif(os.geteuid() != 0, reason="becoming an unprivileged user needs root"),
              pytest.mark.skipif(not SYSTEM_PYTHON.exists() or sys.version_info[:2] != (3, 11),
                                 reason="needs /usr/bin/python3 of the test venv's Python version")]

DEVICES = {
    "readers": "pi_readers = true",
    "panel": "panel_enabled = true",
    "tray": 'tray = "/dev/rubicon-tray"',
    "all": 'pi_readers = true\npanel_enabled = true\ntray = "/dev/rubicon-tray"',
}


def unit_environment(state: Path, config: Path) -> dict[str, str]:
    """The unit's Environment= lines, its paths moved into this test's directories."""
    env = {}
    for line in UNIT.read_text().splitlines():
        if line.startswith("Environment="):
            key, _, value = line.removeprefix("Environment=").partition("=")
            env[key] = value.replace("/var/lib/rubicon", str(state)).replace("/etc/rubicon/config.toml", str(config))
    assert {"LG_WD", "RUBICON_CONFIG", "GPIOZERO_PIN_FACTORY"} <= env.keys()
    return {**env, "PATH": "/usr/bin:/bin", "HOME": str(state), "STATE_DIRECTORY": str(state)}


@pytest.fixture
def service_dirs():
    """A state directory the service user owns, a working directory it can only read, and the
    service's venv (Debian's Python, the test venv's packages and this source tree)."""
    user = pwd.getpwnam("nobody")
    base = Path(tempfile.mkdtemp(prefix="rubicon-service-"))
    base.chmod(0o755)
    subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", "--without-pip", str(base / "venv")], check=True,
                   timeout=GUARD_S)
    (site_packages,) = (base / "venv" / "lib").glob("python3*/site-packages")
    (site_packages / "rubicon-test.pth").write_text("\n".join([*site.getsitepackages(), str(ROOT)]) + "\n")
    state, cwd = base / "state", base / "cwd"
    state.mkdir(mode=0o750)
    os.chown(state, user.pw_uid, user.pw_gid)
    cwd.mkdir(mode=0o555)
    yield user, base, state, cwd
    shutil.rmtree(base)


def start(user, base: Path, state: Path, cwd: Path, devices: str) -> subprocess.Popen:
    config = base / "config.toml"
    config.write_text(f'[server]\nhost = "127.0.0.1"\nport = 0\n\n[devices]\n{devices}\n')
    config.chmod(0o644)
    python = base / "venv" / "bin" / "python"
    return subprocess.Popen([str(python), "-m", "rubicon", "run", "--no-virtual"], cwd=cwd,
                            env=unit_environment(state, config), user=user.pw_uid, group=user.pw_gid, extra_groups=[],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("configured", DEVICES)
def test_the_service_comes_up_without_its_devices(service_dirs, configured):
    user, base, state, cwd = service_dirs
    proc = start(user, base, state, cwd, DEVICES[configured])
    try:
        banner = []
        for line in proc.stdout:
            banner.append(line)
            if line.startswith("Ctrl-C stops Rubicon"):
                break
        text = "".join(banner)
        assert "Ctrl-C stops Rubicon" in text, proc.stderr.read()
        base_url = next(w for w in text.split() if w.startswith("http://") and w.endswith("/"))
        table = json.loads(urllib.request.urlopen(base_url + "state", timeout=GUARD_S).read())["table"]
        expected = {"readers": {"readers"}, "panel": {"panel"}, "tray": {"dice@/dev/rubicon-tray"},
                    "all": {"readers", "panel", "dice@/dev/rubicon-tray"}}[configured]
        assert {s for s, status in table["devices"].items() if status == "down"} == expected
        told = [m for m in table["messages"] if m["code"].startswith("device.")]
        assert {m["params"]["device"] for m in told} == {s.split("@")[0] for s in expected}
        assert all(m["text"] and "%(" not in m["text"] for m in told)
        if "tray" in DEVICES[configured]:
            assert any(m["code"] == "device.serial-absent" for m in told)
        assert text.count("not working:") == len(expected)
        assert not any(p.name.startswith(".lgd-nfy") for p in cwd.iterdir())   # lgpio's pipe: LG_WD's
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=GUARD_S)
    assert proc.returncode == 0, err
    assert "Rubicon stopped" in out


def test_a_panel_file_that_cannot_be_read_stops_the_start(service_dirs):
    user, base, state, cwd = service_dirs
    panel = base / "panel.toml"
    panel.write_text("[buzzer]\npin = = 12\n")
    panel.chmod(0o644)
    proc = start(user, base, state, cwd, f'panel_enabled = true\npanel = "{panel}"')
    out, err = proc.communicate(timeout=GUARD_S)
    assert proc.returncode == 2 and "cannot set up the table" in err and "panel.toml" in err, err

"""The Pi's service files: the unit passes `systemd-analyze verify` with no warning and keeps its
promises (notify + watchdog, state and config directories, hardening, devices); install.sh
--dry-run shows every step and changes nothing; the watchdog stops pinging a hung session."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rubicon.cli.service import Watchdog, watchdog_interval
from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.session import Refresh, TableSession

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "rubicon.service"
RULES = ROOT / "systemd" / "99-rubicon.rules"
INSTALL = ROOT / "systemd" / "install.sh"
CAMERA_UNIT = ROOT / "systemd" / "rubicon-dice-camera.service"


def directives(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def verify(tmp_path: Path, text: str, name: str = "rubicon.service") -> subprocess.CompletedProcess:
    """`systemd-analyze verify` on a copy whose ExecStart names a binary that exists here."""
    copy = tmp_path / name
    copy.write_text(text.replace("ExecStart=/opt/rubicon/venv/bin/rubicon", f"ExecStart={sys.executable}"))
    return subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)


def test_the_unit_verifies_without_a_warning(tmp_path):
    r = verify(tmp_path, UNIT.read_text())
    assert r.returncode == 0 and r.stderr == "" and r.stdout == "", r.stderr


def test_verify_would_catch_a_mistake(tmp_path):
    r = verify(tmp_path, UNIT.read_text().replace("Type=notify", "Type=notifyy"))
    assert "Failed to parse service type" in r.stderr


def test_the_unit_keeps_its_promises():
    d = directives(UNIT.read_text())
    assert d["ExecStart"] == ["/opt/rubicon/venv/bin/rubicon run"]
    assert d["Type"] == ["notify"] and d["WatchdogSec"] and d["Restart"] == ["on-failure"]
    assert d["User"] == ["rubicon"] and set(d["SupplementaryGroups"][0].split()) == {"gpio", "spi", "dialout"}
    assert d["StateDirectory"] == ["rubicon"] and d["ConfigurationDirectory"] == ["rubicon"]
    assert "RUBICON_CONFIG=/etc/rubicon/config.toml" in d["Environment"]
    for key, value in (("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("ProtectHome", "yes"),
                       ("PrivateTmp", "yes"), ("DevicePolicy", "closed")):
        assert d[key] == [value], key
    allowed = {v.split()[0] for v in d["DeviceAllow"]}
    assert {"char-spi", "char-gpiochip", "char-ttyACM"} <= allowed
    assert "PrivateDevices" not in d      # it would hide the readers and the tray
    # ordered after the clock's synchronisation where offered, never needing it
    assert "time-sync.target" in d["After"][0].split()
    assert not any("time-sync" in v for key in ("Wants", "Requires", "BindsTo", "Requisite") for v in d.get(key, []))


def test_the_udev_rule_names_the_tray_and_the_scanner():
    rules = [line for line in RULES.read_text().splitlines() if line and not line.startswith("#")]
    assert any('SYMLINK+="rubicon-tray"' in r and 'ATTRS{idVendor}=="2e8a"' in r for r in rules)
    assert any('SYMLINK+="rubicon-scanner"' in r and 'ATTRS{idVendor}=="2e8a"' in r for r in rules)
    for rule in rules:
        for clause in rule.split(", "):
            assert re.fullmatch(r'[A-Z]+(\{\w+\})?(==|=|\+=)"[^"]*"', clause), clause


def dry_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALL), "--dry-run", *args], capture_output=True, text=True, timeout=60)


def test_install_dry_run_shows_every_step_and_writes_nothing():
    r = dry_run("--tray-serial", "E6605838E3512F2D")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for step in ("/opt/rubicon/venv/bin/pip install -q", "usermod -a -G gpio,spi,dialout,video rubicon",
                 "/etc/udev/rules.d/99-rubicon.rules", "/etc/systemd/system/rubicon.service",
                 "systemctl daemon-reload", "systemctl enable rubicon.service"):
        assert step in out, step
    assert 'ATTRS{serial}=="E6605838E3512F2D", SYMLINK+="rubicon-tray"' in out
    assert "no --scanner-serial" in out
    assert "+ wrote" not in out


def test_the_camera_unit_verifies_without_a_warning(tmp_path):
    r = verify(tmp_path, CAMERA_UNIT.read_text(), CAMERA_UNIT.name)
    assert r.returncode == 0 and r.stderr == "" and r.stdout == "", r.stderr
    r = verify(tmp_path, CAMERA_UNIT.read_text().replace("DevicePolicy=closed", "DevicePolicy=shut"), CAMERA_UNIT.name)
    assert r.stderr


def test_the_camera_unit_reaches_the_camera_and_nothing_else():
    d = directives(CAMERA_UNIT.read_text())
    assert d["ExecStart"] == ["/opt/rubicon/venv/bin/rubicon dice-camera serve"]
    assert d["User"] == ["rubicon"] and d["SupplementaryGroups"] == ["video"]
    assert d["Restart"] == ["always"] and d["StartLimitIntervalSec"] == ["0"]      # degraded, never down
    assert d["RestartPreventExitStatus"] == ["2"]           # a configuration error is not retried forever
    assert "Requires" not in d and "BindsTo" not in d        # the table never depends on the camera
    for key, value in (("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("ProtectHome", "yes"),
                       ("PrivateTmp", "yes"), ("DevicePolicy", "closed"), ("IPAddressDeny", "any"),
                       ("IPAddressAllow", "localhost")):
        assert d[key] == [value], key
    allowed = {v.split()[0] for v in d["DeviceAllow"]}
    assert {"char-video4linux", "char-media", "char-dma_heap", "/dev/dma_heap/linux,cma"} <= allowed
    assert not allowed & {"char-spi", "char-gpiochip", "char-ttyACM"}
    assert "RUBICON_CONFIG=/etc/rubicon/config.toml" in d["Environment"]


def test_install_installs_rpicam_apps_and_the_camera_unit():
    out = dry_run().stdout
    assert "rpicam-apps" in out and "/etc/systemd/system/rubicon-dice-camera.service" in out


def test_install_says_plainly_that_a_32_bit_pi_needs_64_bit_raspberry_pi_os(tmp_path):
    fake = tmp_path / "uname"
    fake.write_text("#!/bin/sh\necho armv7l\n")
    fake.chmod(0o755)
    env = dict(os.environ, PATH=f"{tmp_path}:{os.environ['PATH']}")
    r = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 1
    assert "64-bit Raspberry Pi OS" in r.stderr and "armv7l" in r.stderr
    assert "+ python3 -m venv" not in r.stdout             # nothing done first


def test_install_refuses_what_is_not_a_serial_number():
    r = dry_run("--tray-serial", 'x", RUN+="/bin/sh')
    assert r.returncode == 2 and "serial number" in r.stderr


def test_watchdog_interval_comes_from_systemd():
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 30.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


class Heard:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def notify(self, state: str) -> None:
        self.messages.append(state)


@pytest.fixture
def session(tmp_path):
    s = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(1))
    s.start()
    yield s
    s.stop()


def test_a_hung_session_gets_no_watchdog_ping(session):
    heard = Heard()
    dog = Watchdog(session, heard, interval=0.2)
    assert dog.check_once() and heard.messages == ["WATCHDOG=1"]

    release = threading.Event()
    carry_out = session._carry_out
    session._carry_out = lambda intent: (release.wait(30), carry_out(intent))[1]   # the owner thread hangs
    session.submit(Refresh())      # any intent: the owner thread is stuck in it
    try:
        assert not dog.check_once()
        assert heard.messages == ["WATCHDOG=1"] and dog.missed == 1
    finally:
        release.set()
    assert dog.check_once() and heard.messages == ["WATCHDOG=1", "WATCHDOG=1"]

"""`rubicon run` as a service runs it: a subprocess on a free port with its own state directory,
both phones paired over HTTP (the printed links, the CSRF token from the page), a few actions
played; stopped by SIGTERM or killed with -9, started again: the same game, every acknowledged
action kept. Also what systemd sees: READY=1 once it serves, WATCHDOG=1 while the session answers."""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUARD_S = 30     # generous guards only: every wait ends as soon as its answer comes


class Table:
    """One `rubicon run` process and what its banner printed."""

    def __init__(self, state_dir: Path, env: dict[str, str] | None = None):
        state_dir.mkdir(parents=True, exist_ok=True)
        config = state_dir / "config.toml"       # the defaults, whatever a developer's rubicon.toml says
        config.touch()
        env = {"RUBICON_CONFIG": str(config), **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rubicon", "run", "--host", "127.0.0.1", "--port", "0",
             "--state-dir", str(state_dir)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **env},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = []
        for line in self.proc.stdout:     # the banner ends with the Ctrl-C line
            lines.append(line)
            if line.startswith("Ctrl-C stops Rubicon"):
                break
        self.banner = "".join(lines)
        assert "Ctrl-C stops Rubicon" in self.banner, self.proc.stderr.read()
        self.base = re.search(r"the table \(TV\):\s+(\S+)", self.banner).group(1)
        self.pair_links = dict(re.findall(r"pair (Caesar|Pompeius):\s+(\S+)", self.banner))
        game, actions = re.search(r"game (\d+) \((\d+) actions", self.banner).groups()
        self.game, self.actions = int(game), int(actions)

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str, str]:
        self.proc.send_signal(sig)
        out, err = self.proc.communicate(timeout=GUARD_S)
        return self.proc.returncode, out, err

    def public_state(self) -> dict:
        return json.loads(urllib.request.urlopen(self.base + "state", timeout=GUARD_S).read())


class Phone:
    """A browser paired with one side: a cookie jar, the CSRF token of its page."""

    def __init__(self, table: Table, side: str):
        self.side = side
        self.base = table.base
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        link = table.pair_links[side]
        page = self.http.open(link, timeout=GUARD_S).read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["code"][0]
        form = urllib.parse.urlencode({"csrf_token": token, "code": code}).encode()
        played = self.http.open(urllib.request.Request(link.split("?")[0], data=form), timeout=GUARD_S)
        assert played.geturl().endswith("/play/")      # redirected to the private page once paired
        self.csrf = re.search(r'<meta name="csrf-token" content="([^"]+)"', played.read().decode()).group(1)

    def state(self) -> dict:
        return json.loads(self.http.open(self.base + "play/state", timeout=GUARD_S).read())

    def act(self, line: str) -> dict:
        req = urllib.request.Request(self.base + "play/act", data=json.dumps({"line": line}).encode(),
                                     headers={"Content-Type": "application/json", "X-CSRFToken": self.csrf})
        return json.loads(self.http.open(req, timeout=GUARD_S).read())


def pair_both(table: Table) -> dict[str, Phone]:
    return {side: Phone(table, side) for side in ("Caesar", "Pompeius")}


def play(phones: dict[str, Phone], actions: int) -> list[str]:
    """Each time, a side the game waits for plays its first legal line; returns what was accepted."""
    accepted: list[str] = []
    for _ in range(actions):
        side = next(s for s in ("Caesar", "Pompeius") if s in phones["Caesar"].state()["waiting_for"])
        legal = phones[side].state()["legal"]
        answer = phones[side].act(legal[0])
        assert answer["ok"], answer
        accepted.extend(answer["accepted"])
    return accepted


def test_a_game_played_over_http_survives_sigterm(tmp_path):
    table = Table(tmp_path)
    try:
        phones = pair_both(table)
        before = phones["Caesar"].state()
        accepted = play(phones, 4)
        assert len(accepted) >= 4
        after = table.public_state()
        assert after["lines"] == before["lines"] + len(accepted)
        hidden = phones["Pompeius"].state()["view"]
    finally:
        code, out, err = table.stop(signal.SIGTERM)
    assert code == 0 and "Traceback" not in err, err
    assert "every accepted action is in the journal" in out

    again = Table(tmp_path)
    try:
        assert (again.game, again.actions) == (table.game, after["lines"])
        assert again.public_state()["view"] == after["view"]
        assert "pair Caesar:" not in again.banner and "paired (1 device(s))" in again.banner
        for phone in phones.values():       # still paired after the restart: the same cookie and CSRF token
            phone.base = again.base         # (--port 0: a new port)
        assert phones["Pompeius"].state()["view"] == hidden
        assert len(play(phones, 2)) >= 2
    finally:
        code, _, err = again.stop(signal.SIGINT)
    assert code == 0, err


def test_a_game_survives_kill_9_with_every_acknowledged_action(tmp_path):
    table = Table(tmp_path)
    try:
        phones = pair_both(table)
        play(phones, 3)
        acknowledged = table.public_state()
    finally:
        table.stop(signal.SIGKILL)
    assert table.proc.returncode == -signal.SIGKILL

    again = Table(tmp_path)
    try:
        assert (again.game, again.actions) == (table.game, acknowledged["lines"])
        assert again.public_state()["view"] == acknowledged["view"]
        for phone in phones.values():       # the pairings outlast the power cut
            phone.base = again.base
        play(phones, 1)
    finally:
        code, _, err = again.stop()
    assert code == 0, err


def test_systemd_hears_ready_then_watchdog_pings(tmp_path):
    sock_path = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(sock_path)
    listener.settimeout(GUARD_S)
    table = Table(tmp_path / "state", env={"NOTIFY_SOCKET": sock_path, "WATCHDOG_USEC": "400000"})
    try:
        ready = listener.recv(4096).decode()
        assert ready.startswith("READY=1") and table.base in ready
        assert listener.recv(4096) == b"WATCHDOG=1"
        assert listener.recv(4096) == b"WATCHDOG=1"
    finally:
        code, _, err = table.stop()
        listener.close()
    assert code == 0 and "did not answer" not in err, err


def test_a_bad_configuration_stops_run_with_its_line(tmp_path):
    config = tmp_path / "rubicon.toml"
    config.write_text('[server]\nport = "eighty"\n')
    r = subprocess.run([sys.executable, "-m", "rubicon", "run", "--config", str(config), "--state-dir",
                        str(tmp_path)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                       text=True, timeout=GUARD_S)
    assert r.returncode == 2
    assert f"{config}:2: server.port must be a port 0-65535" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "journal.sqlite3").exists()

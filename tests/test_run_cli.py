"""`rubicon run` as an owner starts it: serves the TV page and pairing links, stops cleanly on
SIGTERM/Ctrl-C, and the next start resumes the same game from the state directory."""
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def start(state_dir, *extra):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "rubicon", "run", "--host", "127.0.0.1", "--port", "0",
                             "--state-dir", str(state_dir), *extra], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("Ctrl-C stops Rubicon"):
            break
    return proc, "".join(lines)


def stop(proc, sig=signal.SIGINT):
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def test_run_serves_the_table_and_resumes_after_a_clean_stop(tmp_path):
    proc, banner = start(tmp_path)
    try:
        base = re.search(r"the table \(TV\):\s+(\S+)", banner).group(1)
        assert "pair Caesar:" in banner and "pair Pompeius:" in banner
        codes = re.findall(r"/pair/\w+\?code=([\w-]+)", banner)
        assert len(codes) == 3 and re.search(r"table's screen:\s+\S+/pair/screen\?code=", banner)
        page = urllib.request.urlopen(base, timeout=30).read().decode()
        assert "Rubicon" in page
        state = urllib.request.urlopen(base + "state", timeout=30).read().decode()
        assert '"waiting_for"' in state
        assert not [code for code in codes if code in page + state]     # printed here, never sent to a guest
    finally:
        code, out, err = stop(proc)
    assert code == 0, err
    assert "Traceback" not in err and "every accepted action is in the journal" in out
    game = re.search(r"game (\d+) \((\d+) actions", banner).groups()
    proc, banner2 = start(tmp_path)
    try:
        assert re.search(r"game (\d+) \((\d+) actions", banner2).groups() == game
    finally:
        code, _, err = stop(proc, signal.SIGTERM)
    assert code == 0, err


def test_with_the_pi_as_pompeius_only_caesar_is_offered_a_pairing_code(tmp_path):
    proc, banner = start(tmp_path, "--bot", "pompeius", "--bot-level", "easy")
    try:
        base = re.search(r"the table \(TV\):\s+(\S+)", banner).group(1)
        assert "pair Caesar:" in banner and "pair Pompeius:" not in banner
        assert re.search(r"Pompeius:\s+played by the Pi", banner)
        state = urllib.request.urlopen(base + "state", timeout=30).read().decode()
        assert '"Caesar"' in state and "/pair/Pompeius" not in state
    finally:
        code, _, err = stop(proc)
    assert code == 0, err


def test_a_port_in_use_is_a_clear_error(tmp_path):
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    port = s.getsockname()[1]
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        r = subprocess.run([sys.executable, "-m", "rubicon", "run", "--host", "127.0.0.1", "--port", str(port),
                            "--state-dir", str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=60)
    finally:
        s.close()
    assert r.returncode == 2 and "choose another with --port" in r.stderr and "Traceback" not in r.stderr


def test_run_with_a_bot_lets_the_pi_play_its_side(tmp_path):
    import json
    proc, banner = start(tmp_path, "--bot", "caesar", "--bot-level", "easy")
    try:
        assert "the Pi plays Caesar at level easy" in banner
        base = re.search(r"the table \(TV\):\s+(\S+)", banner).group(1)
        seen = None
        with urllib.request.urlopen(base + "stream", timeout=60) as live:   # the timeout is a guard
            for raw in live:
                line = raw.decode().strip()
                if line.startswith("data:"):
                    seen = json.loads(line[5:])["view"]["has_discarded"]
                    if seen["Caesar"]:
                        break
        assert seen == {"Caesar": True, "Pompeius": False}
    finally:
        code, out, err = stop(proc)
    assert code == 0, err
    assert "Traceback" not in err


def test_the_bots_side_in_any_case_and_pair_links_to_the_port_actually_run(tmp_path):
    proc, banner = start(tmp_path, "--bot", "POMPEIUS", "--bot-level", "random")
    try:
        port = re.search(r"the table \(TV\):\s+http://[^:]+:(\d+)/", banner).group(1)
        assert "the Pi plays Pompeius at level random" in banner
        assert "each waiting side's QR code" in banner      # Caesar has a code to scan
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        paired = subprocess.run([sys.executable, "-m", "rubicon", "pair", "caesar", "--state-dir", str(tmp_path),
                                 "--address", "127.0.0.1"], cwd=ROOT, env=env, capture_output=True, text=True,
                                timeout=60)
        assert paired.returncode == 0, paired.stderr
        assert f"http://127.0.0.1:{port}/pair/Caesar?code=" in paired.stdout      # not the configuration's 8080
    finally:
        code, _, err = stop(proc)
    assert code == 0, err
    assert not (tmp_path / "serving.json").exists()


def test_a_side_that_is_none_is_refused_naming_the_sides():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "rubicon", "run", "--bot", "brutus"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "'Caesar', 'Pompeius'" in r.stderr, r.stderr

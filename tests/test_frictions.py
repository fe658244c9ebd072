"""The frictions a new user met, each fixed and kept fixed: --version, `replay -`,
comments in simulator scripts, Ctrl-C in selfplay, progress shown at once."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rubicon.cli import main
from tests.child_signals import ctrl_c_reaches_child

ROOT = Path(__file__).resolve().parents[1]
RECORDS = Path(__file__).resolve().parent / "records"


def test_version_names_the_installed_release(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("rubicon ")


def test_replay_dash_reads_standard_input():
    record = (RECORDS / "neapolis_705.txt").read_text()
    r = subprocess.run([sys.executable, "-m", "rubicon", "replay", "-"], input=record, capture_output=True,
                       text=True, timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("<stdin>: ") and "all legal" in r.stdout


def test_simulator_commands_accept_comments():
    from firmware_bridge.sim.device_sim import DeviceSim, run_command
    sim = DeviceSim("board", tcp_port=0, readers=8).start()
    try:
        assert run_command(sim, "# the opening position") == ""
        assert run_command(sim, "place 1 11223344   # Caesar's block") == "ok"
        assert sim.sensors.placed == {(1, "11223344")}
    finally:
        sim.close()


def test_ctrl_c_in_selfplay_says_how_far_it_got_without_a_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "rubicon", "selfplay", "--games", "100000"], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_reaches_child)
    try:
        first = proc.stderr.readline()     # shown at once, before the first game ends
        assert first.startswith("rubicon selfplay: 100000 games, Caesar random against Pompeius random")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    # -2 (an end by SIGINT after "interrupted after" was said) is CPython's flag for a KeyboardInterrupt
    # that ended a string exec; rubicon.cli.selfplay.RUN_MODULES says why it cannot happen after the first line.
    assert proc.returncode == 130 and out == ""
    assert "interrupted after" in err and "Traceback" not in err


def test_a_ctrl_c_anywhere_is_exit_130_without_a_traceback(monkeypatch, capsys):
    import rubicon.cli.selfplay as selfplay_cli

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(selfplay_cli, "_selfplay", interrupted)
    assert main(["selfplay"]) == 130

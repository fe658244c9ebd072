"""`rubicon device-sim` and `rubicon devices monitor` as an owner runs them: two processes, one pty."""
import json
import subprocess
import sys

from firmware_bridge.events import event_from_dict


def rubicon(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "rubicon", *args], text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)


def test_monitor_prints_the_simulated_trays_events_as_json_lines():
    sim = rubicon("device-sim", "--kind", "dice", stdin=subprocess.PIPE)
    try:
        banner = sim.stdout.readline()
        assert banner.startswith("dice simulator on ")
        path = banner.split(" on ")[1].split(" ")[0]
        # --count counts sensor events: device_up is printed but not counted
        mon = rubicon("devices", "monitor", path, "--kind", "dice", "--count", "5", "--seconds", "20")
        assert json.loads(mon.stdout.readline())["event"] == "device_up"
        sim.stdin.write("roll 9\nroll 3 x\nroll 3 4\n")      # a bad command is refused, not fatal
        sim.stdin.flush()
        out, err = mon.communicate(timeout=30)
        events = [event_from_dict(json.loads(line)) for line in out.splitlines()]
        assert [getattr(e, "state", None) or e.faces for e in events] == [
            "rolling", "crooked", "rolling", "rolled", (3, 4)]
        assert all(e.source == f"dice@{path}" for e in events)
        assert "6 events" in err and mon.returncode == 0
        sim.stdin.write("quit\n")
        sim.stdin.flush()
        assert sim.wait(10) == 0
        assert "error: faces are 1..6 or x" in sim.stderr.read()
    finally:
        sim.kill()
        sim.wait()


def test_monitor_of_a_missing_device_prints_nothing_and_exits_1(tmp_path):
    mon = rubicon("devices", "monitor", str(tmp_path / "no-such-tty"), "--seconds", "0.5")
    out, err = mon.communicate(timeout=20)
    assert mon.returncode == 1 and out == ""
    assert "cannot open" in err and "0 events" in err and "no device answered on" in err


def test_device_sim_with_a_bad_script_path_is_a_clear_error(tmp_path):
    proc = rubicon("device-sim", "--kind", "board", "--script", str(tmp_path / "missing.txt"))
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 2 and "missing.txt" in err

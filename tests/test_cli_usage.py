"""The `rubicon` command used as an owner would, from the docs: a hand-written record, the usual
mistakes in one, and the command-line fixes made while trying it (hints on a refused line,
argument checks, no tracebacks)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rubicon.cli import main
from tests.child_signals import ctrl_c_reaches_child

RECORDS = Path(__file__).resolve().parent / "records"
HAND = RECORDS / "neapolis_705.txt"


def _edit(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """A copy of the hand-written record with its first line `old` replaced (or dropped when
    `new` is None); returns the file and that line's number."""
    lines = HAND.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if line.split("#")[0].strip() == old)
    if new is None:
        del lines[n]
    else:
        lines[n] = new
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    return bad, n + 1


def test_the_hand_written_record_replays_and_says_who_is_next(capsys):
    assert main(["replay", str(HAND)]) == 0
    out = capsys.readouterr().out
    assert "49 actions, all legal; 705 turn 3, card phase; next: Caesar, Pompeius" in out


def test_a_finished_game_names_its_winner_the_reason_and_the_vp(capsys):
    assert main(["replay", str(RECORDS / "battle_winter_selfplay_99_23.txt")]) == 0
    out = capsys.readouterr().out
    assert ("368 actions, all legal; game over in 709: Caesar wins (winter 709: Caesar 2 VP, Pompeius 2 VP, "
            "Rome decides); VP Caesar 2, Pompeius 2") in out


def test_json_says_who_is_player_1_and_who_acts_now(capsys):
    assert main(["replay", str(HAND), "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert (s["turn"], s["phase"], s["player1"], s["current_players"], s["battle"]) == (
        3, "card", None, ["Caesar", "Pompeius"], None)


def test_a_record_with_no_header_and_no_action_waits_for_the_deal(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing played yet\n")
    assert main(["replay", str(empty)]) == 0
    assert "0 actions, all legal; 705 turn 1, deal phase; next: Chance;" in capsys.readouterr().out


@pytest.mark.parametrize("old, new, reason", [
    ("Caesar moves Legio 13 Ravenna-Asculum", "Caesar moves Legoi 13 Ravenna-Asculum",
     "no block name starts 'Legoi 13 Ravenna-Asculum'"),
    ("Caesar moves Legio 13 Ravenna-Asculum", "Caesar moves Legio 13 Ravenna-Asculm", "unknown location 'Asculm'"),
    ("Caesar moves Legio 13 Ravenna-Asculum", "Caesar moves Legio 13 Ravenna-Sipontum",
     "6.1 no road or sea border joins Ravenna and Sipontum"),
    ("Pompeius levies Legio 38 in Alexandria", "Pompeius levies Legio 38 in Athenae", "6.4 "),
    ("Chance rolls 1 5", "Chance rolls 1 5 2", "7.4 the firing block rolls 2 dice"),
    ("Caesar plays 3/2", "Caesar plays 4/1", "2.1 Caesar holds no 4/1"),
])
def test_usual_mistakes_are_file_line_reason_with_exit_1(tmp_path, capsys, old, new, reason):
    bad, n = _edit(tmp_path, old, new)
    assert main(["replay", str(bad)]) == 1
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith(f"{bad}:{n}: ") and reason in first


def test_a_refused_battle_line_lists_the_lines_legal_there(tmp_path, capsys):
    # Legio 8's two hits fall on three III blocks: Pompeius must pick twice, not once.
    bad, n = _edit(tmp_path, "Pompeius takes the hit on Legio 3", None)
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (f"{bad}:{n}: 7.4 first Pompeius takes 1 hit(s) from Legio 8 (he picks among his "
                      f"equally strongest blocks)")
    assert err[1].strip() == "legal here (2 lines):"
    assert [line.strip() for line in err[2:]] == ["Pompeius takes the hit on Pompeius",
                                                  "Pompeius takes the hit on Legio 3"]


def test_a_missing_deal_is_answered_with_an_example_deal(tmp_path, capsys):
    bad, n = _edit(tmp_path, "Chance deals Caesar: 3/2 3/1 2/2 2/1 2/1 Pluto; Pompeius: 3/2 3/1 2/3 2/2 1/2 1/3",
                   None)
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{bad}:{n}: 2.1 ")
    assert re.fullmatch(r"\s+the next line is Chance's, like: Chance deals Caesar: .+; Pompeius: .+", err[1])


def test_a_wrong_dice_count_is_answered_with_a_roll_of_the_right_size(tmp_path, capsys):
    bad, _ = _edit(tmp_path, "Chance rolls 2 3 6", "Chance rolls 2 3")
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert re.fullmatch(r"\s+the next line is Chance's, like: Chance rolls [1-6] [1-6] [1-6]", err[1])


def test_many_legal_lines_are_grouped_by_verb_nearest_to_the_refused_line_first(tmp_path, capsys):
    bad, _ = _edit(tmp_path, "Pompeius levies Legio 38 in Alexandria", "Pompeius levies Legio 99 in Alexandria")
    assert main(["replay", str(bad)]) == 1
    hint = [line.strip() for line in capsys.readouterr().err.splitlines()[1:]]
    assert re.fullmatch(r"legal here \((\d+) lines\):", hint[0])
    levies = hint.index("Pompeius levies Legio 38 in Alexandria")      # the nearest legal levy
    assert all(h.startswith("Pompeius levies ") for h in hint[levies:levies + 3])
    assert re.fullmatch(r"\(and \d+ more 'Pompeius levies \.\.\.'\)", hint[levies + 3])
    moves = [h for h in hint if h.startswith("Pompeius moves ")]     # another verb: its first line only
    assert len(moves) == 1 and "Pompeius ends command" in hint


def test_a_header_error_gets_no_hint(tmp_path, capsys):
    bad, n = _edit(tmp_path, "Option winter_order: v1.01", "Option winter_order: v9")
    assert main(["replay", str(bad)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{bad}:{n}: option winter_order is one of v1.01, first-edition, not 'v9'"]


def _rubicon_into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess:
    """Run `rubicon ARGS` with stdout a pipe whose reader has already gone (`| head` once it
    has read enough), so the first write fails with EPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "rubicon", *args], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)


def test_output_into_a_closed_pipe_is_no_traceback():
    r = _rubicon_into_a_closed_pipe("replay", str(RECORDS / "battle_winter_selfplay_99_23.txt"), "--json")
    assert "Traceback" not in r.stderr and "BrokenPipeError" not in r.stderr
    assert r.returncode == 1


# --- devices monitor / device-sim -------------------------------------------------------------

@pytest.mark.parametrize("args, problem", [
    (["bogus://x"], "bogus://x: invalid URL, protocol 'bogus' not known"),
    (["socket://127.0.0.1"], "a socket URL reads socket://HOST:PORT"),
    (["socket://127.0.0.1:99999"], "a socket URL reads socket://HOST:PORT"),
    (["loop://", "--count", "0"], "--count must be 1 or more, not 0"),
    (["loop://", "--seconds", "-1"], "--seconds must be a number above 0"),
    (["loop://", "--seconds", "nan"], "--seconds must be a number above 0"),
    (["loop://"], "a loop only echoes what the Pi sends"),
])
def test_monitor_refuses_what_can_never_work_with_exit_2(capsys, args, problem):
    assert main(["devices", "monitor", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rubicon devices monitor: ") and problem in err


def test_device_sim_refuses_a_tcp_port_out_of_range(capsys):
    assert main(["device-sim", "--kind", "dice", "--tcp", "70000"]) == 2
    assert "--tcp PORT must be 0..65535, not 70000" in capsys.readouterr().err


def test_device_sim_script_errors_name_the_script_line(tmp_path):
    script = tmp_path / "faults.txt"
    script.write_text("roll 3 4\nroll a\nsleep inf\ngarbage -1\nremove 3 04A1B2C3\nquit\n")
    proc = subprocess.run([sys.executable, "-m", "rubicon", "device-sim", "--kind", "dice", "--script", str(script)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        f"{script}:2: error: faces are 1..6 or x",
        f"{script}:3: error: SECONDS is a number from 0 to 3600, not 'inf'",
        f"{script}:4: error: N is 1..10000, not -1",
        f"{script}:5: error: remove is for a board scanner",
    ]


@pytest.fixture
def board_sim():
    from firmware_bridge.sim.device_sim import DeviceSim
    sim = DeviceSim("board", tcp_port=0, readers=8).start()
    yield sim
    sim.close()


@pytest.mark.parametrize("command, reason", [
    ("remove 3 04A1B2C3", "no tag 04A1B2C3 on reader 3 (place it first)"),
    ("flicker 3 04a1b2c3 10", "no tag 04A1B2C3 on reader 3 (place it first)"),
    ("place x 04A1B2C3", "READER is a whole number, not 'x'"),
    ("place 8 04A1B2C3", "READER is 0..7, not 8"),
    ("flicker 1 11223344 0", "POLLS is 1..10000, not 0"),
    ("stall nan", "SECONDS is a number from 0 to 3600, not 'nan'"),
    ("disconnect -2", "SECONDS is a number from 0 to 3600, not '-2'"),
    ("badsum 2 3", "usage: badsum [N]"),
    ("roll 3", "roll is for a dice tray"),
])
def test_sim_commands_refuse_bad_input_and_change_nothing(board_sim, command, reason):
    from firmware_bridge.sim.device_sim import run_command
    assert run_command(board_sim, "place 1 11223344") == "ok"
    with pytest.raises(ValueError) as refused:
        run_command(board_sim, command)
    assert str(refused.value) == reason
    assert board_sim.sensors.placed == {(1, "11223344")} and board_sim._stalled_until == 0.0


def test_sim_tag_commands_take_effect_before_the_next_command(board_sim):
    from firmware_bridge.sim.device_sim import run_command
    for _ in range(20):   # no race between a queued place and the remove that checks for it
        assert run_command(board_sim, "place 2 04A1B2C3") == "ok"
        assert run_command(board_sim, "remove 2 04a1b2c3") == "ok"
    assert board_sim.sensors.placed == set()


def test_a_second_host_on_a_tcp_sim_is_disconnected_not_left_waiting(board_sim):
    import socket
    host, port = board_sim.path[len("socket://"):].rsplit(":", 1)
    first = socket.create_connection((host, int(port)), timeout=10)
    try:
        assert first.recv(200).startswith(b"$")            # the device's HELLO to its host
        second = socket.create_connection((host, int(port)), timeout=10)
        try:
            first.sendall(b"garbage\n")                     # the host's traffic wakes the device
            try:
                assert second.recv(200) == b""              # closed at once, nothing sent
            except ConnectionResetError:
                pass
        finally:
            second.close()
    finally:
        first.close()


# --- devices scan / enroll --------------------------------------------------------------------

@pytest.mark.parametrize("command", [["devices", "scan"], ["enroll", "--one"], ["enroll", "--bulk"]])
def test_off_the_pi_the_board_commands_point_at_emulate(monkeypatch, capsys, tmp_path, command):
    from gpiozero import Device
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")  # the Pi 5 factory, not installed here
    registry = tmp_path / "t.json"
    assert main([*command, "--registry", str(registry)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("rubicon: error: cannot drive the chip-select GPIOs")
    assert err[1] == "(no reader board on this machine? --emulate runs the command on an emulated one)"


def test_emulated_enroll_one_twice_on_one_registry_keeps_the_tag(tmp_path, capsys):
    registry = tmp_path / "tags.json"
    assert main(["enroll", "--one", "--emulate", "--registry", str(registry)]) == 0
    first = capsys.readouterr().out
    assert "tag 04C0FFEE112233 is now C Navis 3" in first and f"registry {registry}: 1 tag enrolled" in first
    assert main(["enroll", "--one", "--emulate", "--registry", str(registry)]) == 0
    out = capsys.readouterr().out
    assert "enroll it as another block? [y/N] n" in out and "is now" not in out
    assert json.loads(registry.read_text())["tags"] == {"04C0FFEE112233": "C Navis 3"}


def test_an_unwritable_registry_stops_enrollment_before_it_starts(tmp_path, capsys):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    registry = not_a_folder / "tags.json"
    assert main(["enroll", "--bulk", "--emulate", "--registry", str(registry)]) == 2
    out, err = capsys.readouterr()
    assert "Lift" not in out and "Traceback" not in err
    assert err.startswith(f"rubicon: error: {registry}: cannot save the tag registry: ")


def test_a_registry_that_cannot_be_saved_is_a_registry_error_and_keeps_the_old_file(tmp_path):
    from firmware_bridge.board.tag_registry import RegistryError, TagRegistry
    registry = TagRegistry.load(tmp_path / "tags.json")
    registry.assign("04A1B2C3", "C Legio 7")
    registry.save()
    before = registry.path.read_text()
    registry.assign("11223344", "C Legio 8")
    registry.path = tmp_path / "tags.json" / "inside-a-file.json"   # its parent is a file
    with pytest.raises(RegistryError, match="cannot save the tag registry"):
        registry.save()
    assert (tmp_path / "tags.json").read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tags.json"]


def test_ctrl_c_during_enroll_one_says_the_named_blocks_are_kept(tmp_path, capsys, monkeypatch):
    from firmware_bridge.emulation.demo_board import EmulatedOperator
    scripted = EmulatedOperator.ask

    def ask_then_ctrl_c(self, message):
        if not self.answers:
            raise KeyboardInterrupt
        return scripted(self, message)

    monkeypatch.setattr(EmulatedOperator, "ask", ask_then_ctrl_c)
    registry = tmp_path / "tags.json"
    assert main(["enroll", "--one", "--emulate", "--registry", str(registry)]) == 130
    assert "stopped; each block named before is saved" in capsys.readouterr().err
    assert json.loads(registry.read_text())["tags"] == {"04C0FFEE112233": "C Navis 3"}


def test_monitor_of_the_wrong_kind_of_device_says_which_it_found(board_sim, capsys, caplog):
    assert main(["devices", "monitor", board_sim.path, "--kind", "dice", "--seconds", "1.5"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and '"wrong_device": ' in captured.err and "was refused" in captured.err
    assert "a board device where a dice device was expected" in caplog.text


@pytest.mark.parametrize("command, says", [
    (["replay"], "1: the first bad line as FILE:LINE: reason"),
    (["selfplay"], "the same seed gives the same games"),
    (["device-sim"], "'help' lists them"),
    (["devices", "monitor"], "1 if none did (or the wrong kind did), 2 for arguments that can never work"),
    (["devices", "scan"], "1: an unenrolled tag, a tag on two readers or a silent reader"),
    (["enroll"], "discarded afterwards"),
])
def test_each_command_help_says_what_it_does_and_how_it_exits(capsys, command, says):
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    assert says in " ".join(capsys.readouterr().out.split())


# --- selfplay -------------------------------------------------------------------------------------

def test_selfplay_records_replay_to_the_results_it_reports(tmp_path, capsys):
    folder = tmp_path / "games"
    assert main(["selfplay", "--games", "3", "--seed", "7", "--json", "--records", str(folder)]) == 0
    summary = json.loads(capsys.readouterr().out)
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == ["selfplay_7_0.txt", "selfplay_7_1.txt", "selfplay_7_2.txt"]
    winners = {"Caesar": 0, "Pompeius": 0, "draw": 0}
    actions = 0
    for f in files:
        assert main(["replay", str(f), "--json"]) == 0
        final = json.loads(capsys.readouterr().out)
        assert final["phase"] == "over"
        winners[final["result"]["winner"] or "draw"] += 1
        actions += sum(1 for line in f.read_text().splitlines() if line and not line.startswith(("#", "Option")))
    assert winners == summary["results"] and actions == summary["actions"]


def test_selfplay_records_into_an_unusable_folder_is_exit_2(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["selfplay", "--games", "1", "--records", str(blocker / "games")]) == 2
    assert "rubicon selfplay: cannot write the records: " in capsys.readouterr().err


def test_device_sim_says_when_its_script_is_done_and_stops_on_ctrl_c(tmp_path):
    import signal
    script = tmp_path / "{odd} name.txt"      # braces in the path once broke the FILE:LINE prefix
    script.write_text("roll 9\n")
    proc = subprocess.Popen([sys.executable, "-m", "rubicon", "device-sim", "--kind", "dice", "--script", str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_reaches_child)
    try:
        assert proc.stdout.readline().endswith(f"; running {script}\n")
        assert proc.stderr.readline() == f"{script}:1: error: faces are 1..6 or x\n"
        assert proc.stderr.readline() == "(script done: the device stays up until Ctrl-C)\n"
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()

"""The `rubicon` command used as an owner would, from the docs: a hand-written record, the usual
mistakes in one, and the command-line fixes made while trying it (hints on a refused line,
argument checks, no tracebacks)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rubicon.cli import main

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


@pytest.mark.parametrize("old, new, reason", [
    ("Caesar moves Legio 13 Ravenna-Asculum", "Caesar moves Legoi 13 Ravenna-Asculum", "unknown block 'Legoi'"),
    ("Caesar moves Legio 13 Ravenna-Asculum", "Caesar moves Legio 13 Ravenna-Asculm", "unknown location 'Asculm'"),
    ("Caesar moves Legio 13 Ravenna-Asculum", "Caesar moves Legio 13 Ravenna-Sipontum",
     "6.1 no road or sea border joins Ravenna and Sipontum"),
    ("Pompeius levies Legio 38 in Alexandria", "Pompeius levies Legio 38 in Athenae", "6.4 "),
    ("Chance rolls 1 5", "Chance rolls 1 5 2", "7.4: the firing block rolls 2 dice"),
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
    assert err[0] == f"{bad}:{n}: 7.2: Caesar fires Legio 12 is not a legal battle action now"
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


def test_many_legal_lines_are_grouped_by_actor_and_verb(tmp_path, capsys):
    bad, _ = _edit(tmp_path, "Pompeius levies Legio 38 in Alexandria", "Pompeius levies Legio 99 in Alexandria")
    assert main(["replay", str(bad)]) == 1
    hint = [line.strip() for line in capsys.readouterr().err.splitlines()[1:]]
    assert hint[0].startswith("legal here (")
    assert "Pompeius ends command" in hint
    assert any(re.fullmatch(r"Pompeius levies .+ \(and \d+ more 'Pompeius levies \.\.\.'\)", h) for h in hint)


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

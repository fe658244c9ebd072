"""`rubicon journal check|export|recover` and what `rubicon run` says at start about a damaged
journal or a state directory it cannot write."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import replay
from rubicon.journal import Journal
from rubicon.table.session import RandomChance, TableSession
from tests.table.driver import SEED, play
from tests.test_run_cli import start, stop

ROOT = Path(__file__).resolve().parents[1]


def rubicon(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "rubicon", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def played(tmp_path) -> tuple[Path, list[str]]:
    """A state directory with a game of some 30 lines played, then its database cut to 0 bytes."""
    session = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(SEED))
    session.start()
    play(session, 400, max_lines=30)
    lines = session.journal.lines(session.snapshot().game_id)[1]
    session.stop()
    session.journal.close()
    os.truncate(tmp_path / "journal.sqlite3", 0)
    return tmp_path, lines


def test_check_reports_the_damage_and_what_can_be_recovered_changing_nothing(played):
    state, lines = played
    before = {p.name: p.read_bytes() for p in state.iterdir()}
    done = rubicon("journal", "check", "--state-dir", str(state))
    assert done.returncode == 1, done.stderr
    assert "DAMAGED" in done.stdout and "the database file is empty" in done.stdout
    assert f"game 1 (current): {len(lines)} verified lines" in done.stdout
    assert "rubicon journal recover" in done.stdout
    assert {p.name: p.read_bytes() for p in state.iterdir()} == before


def test_export_writes_the_longest_verified_record_as_notation_lines(played, tmp_path):
    state, lines = played
    done = rubicon("journal", "export", "--state-dir", str(state))
    assert done.returncode == 0, done.stderr
    assert len(replay(done.stdout).history) == len(lines)        # a record the notation reads back
    out = tmp_path / "game.txt"
    assert rubicon("journal", "export", "--state-dir", str(state), "-o", str(out)).returncode == 0
    assert out.read_text(encoding="utf-8") == done.stdout
    missing = rubicon("journal", "export", "--state-dir", str(state), "--game", "7")
    assert missing.returncode == 2 and "no game 7" in missing.stderr


def test_recover_keeps_the_damaged_files_aside_and_the_journal_is_healthy_after(played):
    state, lines = played
    done = rubicon("journal", "recover", "--state-dir", str(state))
    assert done.returncode == 0, done.stderr
    aside = [p for p in state.iterdir() if p.name.startswith("damaged-")]
    assert len(aside) == 1 and (aside[0] / "journal.sqlite3").stat().st_size == 0
    assert rubicon("journal", "check", "--state-dir", str(state)).returncode == 0
    journal = Journal(state / "journal.sqlite3")
    assert journal.lines(1)[1] == lines
    journal.close()


def test_run_on_a_damaged_journal_says_so_and_resumes_the_whole_game(played):
    state, lines = played
    proc, banner = start(state)
    code, _, err = stop(proc)
    assert code == 0, err
    assert "the journal" in banner and "was damaged" in banner and "the database file is empty" in banner
    assert f"game 1 ({len(lines)} actions so far)" in banner
    assert "damaged files are kept in" in banner


def test_run_on_a_journal_nothing_of_which_can_be_verified_refuses_and_new_game_sets_it_aside(tmp_path):
    (tmp_path / "journal.sqlite3").write_bytes(b"not a journal" * 400)
    done = rubicon("run", "--host", "127.0.0.1", "--port", "0", "--state-dir", str(tmp_path))
    assert done.returncode == 2
    assert "nothing of it can be verified" in done.stderr and "--new-game" in done.stderr
    assert "Traceback" not in done.stderr
    proc, banner = start(tmp_path, "--new-game")
    code, _, err = stop(proc)
    assert code == 0, err
    assert "was damaged" in banner
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("damaged-")]
    assert (aside[0] / "journal.sqlite3").read_bytes() == b"not a journal" * 400


def test_run_on_a_read_only_state_directory_says_remount_not_move_it_aside(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    Journal(state / "journal.sqlite3").close()
    if subprocess.run(["mount", "--bind", str(state), str(state)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here")
    try:
        remount = subprocess.run(["mount", "-o", "remount,ro,bind", str(state)], capture_output=True, text=True)
        if remount.returncode != 0:
            pytest.skip(f"cannot remount read-only: {remount.stderr.strip()}")
        done = rubicon("run", "--host", "127.0.0.1", "--port", "0", "--state-dir", str(state))
    finally:
        subprocess.run(["umount", "-l", str(state)], check=True)
    assert done.returncode == 2
    assert "read-only: remount it read-write" in done.stderr
    assert "move it aside" not in done.stderr and "Traceback" not in done.stderr

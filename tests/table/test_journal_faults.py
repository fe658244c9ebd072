"""What a recovery found is kept in the journal (a fault report, in the same transaction as the
rebuilt game) until a player dismisses it, whatever stops in between (real SIGKILLs); the copy
carries the table's identity and each transaction's commit number, so a copy of another table
is refused and a copy cut short at a record boundary is damage, said; and no start that fails
leaves anything that blocks the next (a real, full tmpfs)."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rubicon.journal import Journal, StorageError
from rubicon.journal_check import inspect
from rubicon.journal_record import read_record, record_path

from .test_journal_damage import write_version_1_journal
from .test_storage_trouble import _fill, small_disk  # noqa: F401  (a fixture)

ROOT = Path(__file__).resolve().parents[2]


def _journal_of(path: Path, lines: int, game_title: str = "") -> list[str]:
    j = Journal(path)
    g = j.new_game(title=game_title)
    written = [f"line {n}" for n in range(1, lines + 1)]
    for line in written:
        j.append(g, line)
    j.close()
    return written


def _lose_wal(path: Path) -> None:
    """Damage SQLite ignores: every commit since the last checkpoint is in the deleted -wal."""
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def as_killed(journal: Journal) -> None:
    """Close `journal` leaving its files as a kill leaves them: the database and the copy as they are
    now, the commits since the last checkpoint in the -wal (close() would checkpoint them)."""
    files = [Path(f"{journal.path}{suffix}") for suffix in ("", "-wal", "-shm", ".record")]
    kept = {f: f.read_bytes() for f in files if f.exists()}
    journal.close()
    for f in files:
        f.unlink(missing_ok=True)
    for f, data in kept.items():
        f.write_bytes(data)


def _open_uncheckpointed(path: Path, lines: int) -> list[str]:
    """A journal whose last `lines` commits are in its -wal (the process 'died': no close)."""
    j = Journal(path)
    g = j.new_game()
    written = [f"line {n}" for n in range(1, lines + 1)]
    j._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for line in written:
        j.append(g, line)
    as_killed(j)
    return written


def _child(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


# --- 1. the fault report ---------------------------------------------------------------------------
def test_a_recovery_keeps_its_fault_report_until_a_player_dismisses_it_across_restarts(tmp_path):
    path = tmp_path / "journal.sqlite3"
    lines = _open_uncheckpointed(path, 12)
    _lose_wal(path)
    j = Journal(path)
    assert j.inspection.damaged and j.inspection.fault == 1
    (number, report), = j.faults()
    assert number == 1 and report["lines"] == len(lines) and report["aside"] == j.inspection.aside.name
    assert any("the database holds" in f for f in report["findings"])
    j.close()
    again = Journal(path)           # healthy now, and the report is still there to be said
    assert not again.inspection.damaged
    assert [n for n, _ in again.faults()] == [1]
    assert again.dismiss_fault(1) and not again.dismiss_fault(1)
    assert again.faults() == []
    again.close()
    assert Journal(path).faults() == []        # the dismissal is durable too
    assert read_record(record_path(path)).state.faults[1].dismissed     # in the copy as well


def test_a_kill_right_after_the_recovery_does_not_lose_what_it_found(tmp_path):
    """The issue's case: a stop after the rebuild's rename, before anything was served. A real SIGKILL."""
    path = tmp_path / "journal.sqlite3"
    _open_uncheckpointed(path, 9)
    _lose_wal(path)
    done = _child(f"import os, signal\nfrom rubicon.journal import Journal\nJournal({str(path)!r})\n"
                  f"os.kill(os.getpid(), signal.SIGKILL)\n")
    assert done.returncode == -signal.SIGKILL, done.stderr
    j = Journal(path)
    try:
        assert not j.inspection.damaged          # the next start finds a healthy journal ...
        (_, report), = j.faults()                # ... and still says what the recovery found
        assert report["lines"] == 9 and list(tmp_path.glob("damaged-*"))
    finally:
        j.close()


def test_a_kill_before_the_rebuild_is_in_place_recovers_again_and_says_it(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _open_uncheckpointed(path, 7)
    _lose_wal(path)
    # Killed at the rename that puts the rebuilt database in place (the copy is already the new one).
    done = _child("import os, signal\nimport rubicon.journal_check as c\n"
                  "c.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
                  f"from rubicon.journal import Journal\nJournal({str(path)!r})\n")
    assert done.returncode == -signal.SIGKILL, done.stderr
    j = Journal(path)
    try:
        assert j.inspection.damaged
        assert j.faults() and all(r["lines"] == 7 for _, r in j.faults())
        assert j.lines(j.current_game())[1] == [f"line {n}" for n in range(1, 8)]
    finally:
        j.close()


def test_the_fault_report_is_committed_with_the_rebuilt_game_in_one_transaction(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _open_uncheckpointed(path, 5)
    _lose_wal(path)
    Journal(path).close()
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT COUNT(*) FROM faults WHERE dismissed = 0").fetchone() == (1,)
        assert db.execute("SELECT COUNT(*) FROM lines").fetchone() == (5,)
    finally:
        db.close()


def test_check_lists_the_fault_reports_not_yet_read(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _open_uncheckpointed(path, 4)
    _lose_wal(path)
    Journal(path).close()
    done = _child(f"import sys\nfrom rubicon.cli import main\nsys.exit(main(['journal', 'check', '--state-dir', "
                  f"{str(tmp_path)!r}]))")
    assert done.returncode == 0, done.stderr
    assert "healthy" in done.stdout
    assert "not yet dismissed" in done.stdout and "4 verified lines" in done.stdout


# --- 3. the table's identity and the commit numbers ---------------------------------------------------------
def test_a_copy_from_another_table_is_refused_as_such_and_our_database_is_resumed(tmp_path):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    our_lines = _journal_of(ours / "journal.sqlite3", 30)
    _journal_of(theirs / "journal.sqlite3", 44, game_title="another table's")
    (ours / "journal.sqlite3.record").write_bytes((theirs / "journal.sqlite3.record").read_bytes())
    found = inspect(ours / "journal.sqlite3")
    assert found.damaged and any("belongs to another table" in f for f in found.findings)
    j = Journal(ours / "journal.sqlite3")
    try:
        assert j.lines(j.current_game())[1] == our_lines
        aside = j.inspection.aside
        assert (aside / "journal.sqlite3.record").read_bytes() == (theirs / "journal.sqlite3.record").read_bytes()
        assert read_record(record_path(j.path)).table_id == j.table_id != read_record(
            theirs / "journal.sqlite3.record").table_id
    finally:
        j.close()


def test_a_copy_cut_at_a_record_boundary_many_commits_behind_is_damage_said(tmp_path):
    """The issue's case: the copy cut at a record boundary: the database is 20 transactions ahead.
    After a stop or a power cut only one is legitimate."""
    path = tmp_path / "journal.sqlite3"
    lines = _journal_of(path, 40)
    copy = record_path(path)
    data = copy.read_bytes().splitlines(keepends=True)
    copy.write_bytes(b"".join(data[:-20]))
    found = inspect(path)
    assert found.damaged and any("20 transactions apart" in f for f in found.findings)
    j = Journal(path)
    try:
        assert j.lines(j.current_game())[1] == lines         # the longer verified history
        assert j.inspection.aside is not None
    finally:
        j.close()


def test_a_database_many_commits_behind_its_copy_is_damage_and_the_copy_resumed(tmp_path):
    path = tmp_path / "journal.sqlite3"
    lines = _open_uncheckpointed(path, 15)
    _lose_wal(path)
    found = inspect(path)
    assert any("transactions apart" in f for f in found.findings)
    j = Journal(path)
    try:
        assert j.lines(j.current_game())[1] == lines
    finally:
        j.close()


def test_one_transaction_of_lag_after_a_power_cut_is_not_damage(tmp_path):
    path = tmp_path / "journal.sqlite3"
    lines = _journal_of(path, 10)
    copy = record_path(path)
    data = copy.read_bytes().splitlines(keepends=True)
    copy.write_bytes(b"".join(data[:-1]))       # the copy's last fsync lost: the database is one ahead
    found = inspect(path)
    assert not found.damaged and found.rewrite_copy
    j = Journal(path)
    try:
        assert j.lines(j.current_game())[1] == lines
    finally:
        j.close()
    assert not inspect(path).notes


def test_a_journal_of_before_the_identity_is_given_one_without_a_word_of_damage(tmp_path):
    path = tmp_path / "journal.sqlite3"
    write_version_1_journal(path)
    copy = record_path(path)
    import hashlib
    import json
    first = hashlib.sha256(b"rubicon-record 1").hexdigest()[:32]
    recs = [{"created": 0.0, "game": 1, "op": "game", "options": {}, "title": ""},
            {"from": 1, "game": 1, "lines": ["line 1"], "op": "lines"}, {"game": 1, "op": "current"}]
    out, prev = ["rubicon-record 1\n"], first
    for r in recs:
        text = json.dumps(r, sort_keys=True, separators=(",", ":"))
        prev = hashlib.sha256((prev + text).encode()).hexdigest()[:32]
        out.append(f"{prev} {text}\n")
    copy.write_text("".join(out))
    j = Journal(path)
    assert not j.inspection.damaged and j.inspection.upgrade
    j.append(1, "line 2")
    j.close()
    again = inspect(path)
    assert not again.damaged and not again.notes and again.table_id == read_record(copy).table_id
    assert again.db_commit == read_record(copy).commit


# --- 2. a start that fails leaves nothing behind ------------------------------------------------------------
def test_a_first_start_on_a_full_disk_leaves_nothing_that_blocks_the_next(small_disk):  # noqa: F811
    filler = _fill(small_disk)
    path = small_disk / "journal.sqlite3"
    with pytest.raises(StorageError) as refused:
        Journal(path)
    assert refused.value.code == "storage.full"
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler"]
    filler.unlink()
    j = Journal(path)          # once there is room: a journal, not "damaged"
    try:
        assert not j.inspection.damaged
        j.append(j.new_game(), "line 1")
    finally:
        j.close()


def test_a_journal_left_empty_by_an_interrupted_first_start_is_a_fresh_one(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.touch()                       # what a first start killed before its first commit leaves
    assert inspect(path).fresh
    j = Journal(path)
    try:
        assert not j.inspection.damaged
    finally:
        j.close()


def test_a_recovery_refused_on_a_full_disk_leaves_no_partial_files_and_does_not_say_intact(small_disk):  # noqa: F811
    path = small_disk / "journal.sqlite3"
    _open_uncheckpointed(path, 30)
    _lose_wal(path)
    before = {p.name: p.read_bytes() for p in small_disk.iterdir()}
    filler = _fill(small_disk)
    with pytest.raises(StorageError) as refused:
        Journal(path)
    assert "intact" not in str(refused.value) and "damaged" in str(refused.value)
    assert {p.name: p.read_bytes() for p in small_disk.iterdir() if p != filler} == before
    filler.unlink()
    j = Journal(path)
    try:
        assert j.inspection.damaged and j.lines(j.current_game())[1] == [f"line {n}" for n in range(1, 31)]
    finally:
        j.close()

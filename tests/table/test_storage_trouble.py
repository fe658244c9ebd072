"""Storage trouble said plainly: a full disk (a real, small tmpfs filled up) and a read-only state
directory (a read-only bind mount: the tests run as root, whom chmod does not stop). A refused
write refuses the action with a `storage.*` code shown to every viewer, changes nothing, and play
goes on by itself once there is room. Skipped, with the reason, where nothing can be mounted."""
from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubicon.journal import Journal, StorageError
from rubicon.table.session import RandomChance, TableSession

from .driver import SEED, next_intent, play


def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount here (mount {' '.join(args)}: {done.stderr.strip()})")


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], check=True)     # -l: even when a failed test left a file open


@pytest.fixture
def small_disk(tmp_path) -> Iterator[Path]:
    where = tmp_path / "disk"
    where.mkdir()
    _mount("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where))
    try:
        yield where
    finally:
        _umount(where)


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


def _storage_said(snap) -> list[str]:
    return [m["code"] for m in (snap.public.table or {}).get("messages", []) if m["code"].startswith("storage")]


def test_a_full_disk_refuses_the_action_says_so_to_everyone_and_play_resumes_when_there_is_room(small_disk):
    journal = Journal(small_disk / "journal.sqlite3")
    session = TableSession(journal, chance=RandomChance(SEED))
    session.storage_retry_s = 0.1        # how often the session tries again: no test waits on it
    session.start()
    try:
        play(session, 5)
        before = session.snapshot()
        intent = next_intent(before)
        filler = _fill(small_disk)
        outcome = session.submit(intent).result(60)
        assert not outcome.ok and outcome.refusal["code"] == "storage.full"
        after = session.snapshot()
        assert after.lines == before.lines and after.side_views() == before.side_views()    # nothing half-applied
        assert journal.lines(after.game_id)[1] == journal.lines(before.game_id)[1][:before.lines]
        for part in (after.public, *after.sides.values()):      # the TV and both phones are told
            assert "storage.full" in [m["code"] for m in part.table["messages"]]
        filler.unlink()                                      # room again
        snap = after
        while _storage_said(snap):
            snap = session.wait_for_change(snap.version, timeout=60)
            assert not session.stopped
        outcome = session.submit(intent).result(60)
        assert outcome.ok, outcome.refusal
        lines = journal.lines(after.game_id)[1]
        assert len(lines) == session.snapshot().lines > before.lines
    finally:
        session.stop()
        journal.close()
    again = Journal(small_disk / "journal.sqlite3")      # the copy was taken back with the refused commit
    assert not again.inspection.damaged and not again.inspection.notes
    assert again.lines(again.current_game())[1] == lines
    again.close()


def test_a_full_disk_at_open_says_free_some_space_not_damage_and_the_journal_opens_once_there_is_room(small_disk):
    """SQLite cannot open a WAL journal on a full disk (its -shm is created at open): the table
    cannot start, and says why and what to do; nothing is set aside or changed."""
    journal = Journal(small_disk / "journal.sqlite3")
    game = journal.new_game()
    journal.append(game, "Chance deals Caesar: 3/2 3/2 2/3 2/1 1/2 1/2; Pompeius: Pluto Vulcan 3/1 2/2 1/3 2/3")
    journal.close()
    filler = _fill(small_disk)
    with pytest.raises(StorageError) as refused:
        Journal(small_disk / "journal.sqlite3")
    assert refused.value.code == "storage.full" and "free some space" in str(refused.value)
    assert "move it aside" not in str(refused.value)
    filler.unlink()
    journal = Journal(small_disk / "journal.sqlite3")
    try:
        assert not journal.inspection.damaged and not any(p.name.startswith("damaged-") for p in small_disk.iterdir())
        assert journal.append(game, "Caesar discards 3/2") == 2
    finally:
        journal.close()


@pytest.fixture
def read_only_dir(tmp_path) -> Iterator[Path]:
    state = tmp_path / "state"
    state.mkdir()
    journal = Journal(state / "journal.sqlite3")
    journal.new_game()
    journal.close()
    _mount("--bind", str(state), str(state))
    try:
        done = subprocess.run(["mount", "-o", "remount,ro,bind", str(state)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot remount read-only: {done.stderr.strip()}")
        yield state
    finally:
        _umount(state)


def test_a_read_only_state_directory_is_named_with_the_next_step_not_called_damage(read_only_dir):
    with pytest.raises(StorageError) as refused:
        Journal(read_only_dir / "journal.sqlite3")
    assert refused.value.code == "storage.read-only"
    assert "remount it read-write" in str(refused.value) and "move it aside" not in str(refused.value)
    assert not any(p.name.startswith("damaged-") for p in read_only_dir.iterdir())
    assert os.access(read_only_dir / "journal.sqlite3", os.R_OK)


class _FailingCommit:
    """The journal's connection, whose next COMMIT fails as SQLite fails it on a full disk (after
    the copy's record was written and fsynced): the failure the copy must be taken back from."""

    def __init__(self, db, error="SQLITE_FULL", text="database or disk is full"):
        self.db, self.error, self.text = db, error, text

    def execute(self, sql, *args):
        if sql == "COMMIT":
            exc = sqlite3.OperationalError(self.text)
            exc.sqlite_errorname = self.error
            raise exc
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_commit_refused_after_the_copy_was_written_takes_the_copy_back(tmp_path):
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    game = journal.new_game()
    journal.append(game, "line 1")
    copy = tmp_path / "j.sqlite3.record"
    size = copy.stat().st_size
    real, journal._db = journal._db, _FailingCommit(journal._db)
    with pytest.raises(StorageError) as refused:
        journal.append(game, "line 2")
    journal._db = real
    assert refused.value.code == "storage.full"
    assert copy.stat().st_size == size and not real.in_transaction
    assert journal.lines(game)[1] == ["line 1"]
    assert journal.append(game, "line 2 again") == 2
    journal.close()
    again = Journal(path)
    assert not again.inspection.damaged and not again.inspection.notes
    assert again.lines(game)[1] == ["line 1", "line 2 again"]
    again.close()


def test_permission_denied_on_the_copy_refuses_the_action_with_its_code_and_nothing_changes(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    session = TableSession(journal, chance=RandomChance(SEED))
    session.storage_retry_s = 3600        # no retry in this test: the refusal alone is looked at
    session.start()
    try:
        play(session, 3)
        before = session.snapshot()
        real = journal._record.write

        def denied(records):
            raise PermissionError(errno.EACCES, "Permission denied", str(journal._record.path))
        journal._record.write = denied
        outcome = session.submit(next_intent(before)).result(60)
        journal._record.write = real
        assert not outcome.ok and outcome.refusal["code"] == "storage.permission"
        assert "write access" in outcome.refusal["text"]
        assert session.snapshot().lines == before.lines
        assert len(journal.lines(before.game_id)[1]) == before.lines
    finally:
        session.stop()
        journal.close()


def test_a_journal_damaged_while_in_use_refuses_with_the_advice_to_restart(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    game = journal.new_game()
    real, journal._db = journal._db, _FailingCommit(journal._db, "SQLITE_CORRUPT", "database disk image is malformed")
    with pytest.raises(StorageError) as refused:
        journal.append(game, "line 1")
    journal._db = real
    assert refused.value.code == "storage.damaged" and "restart Rubicon" in str(refused.value)
    assert journal.lines(game)[1] == []
    journal.close()

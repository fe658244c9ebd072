"""The damage table (docs/journal.md): each damage applied to a real journal written by a real
game — the files as a power cut leaves them (the database checkpointed part-way, the rest of the
game in the -wal) — and what the table does at the next start. Never a shorter game in silence:
the table resumes the whole game, says what it found and keeps the damaged files aside."""
from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from rubicon.journal import Journal
from rubicon.journal_check import inspect
from rubicon.table.session import RandomChance, TableSession

from .driver import SEED, play

PAGE = 4096
FRAME = 24 + PAGE       # a WAL frame: its header, then one page


def _flip(path: Path, offset: int, count: int = 16) -> None:
    data = bytearray(path.read_bytes())
    for i in range(offset, offset + count):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def wal_deleted(d: Path) -> None:
    (d / "journal.sqlite3-wal").unlink()
    (d / "journal.sqlite3-shm").unlink()


def wal_header_corrupted(d: Path) -> None:
    _flip(d / "journal.sqlite3-wal", 0, 32)


def _frames(wal: bytes) -> int:
    """The frames of the WAL's current run (its salt): after a checkpoint the WAL is written again
    from its start, and the frames of before stay in the file, stale, behind them."""
    return sum(1 for i in range(32, len(wal) - FRAME + 1, FRAME) if wal[i + 8:i + 16] == wal[16:24])


def wal_truncated(d: Path) -> None:
    wal = d / "journal.sqlite3-wal"
    os.truncate(wal, 32 + FRAME * (_frames(wal.read_bytes()) // 2) + 100)


def wal_middle_frame_flipped(d: Path) -> None:
    wal = d / "journal.sqlite3-wal"
    _flip(wal, 32 + FRAME * (_frames(wal.read_bytes()) // 2) + 24 + 2000)


def db_page_flipped(d: Path) -> None:
    """Bytes of line text flipped in a page of the database that the WAL holds no newer copy of
    (a flip in a page the WAL replaces is never read: no damage)."""
    db, wal = d / "journal.sqlite3", (d / "journal.sqlite3-wal").read_bytes()
    in_wal = {int.from_bytes(wal[i:i + 4], "big") for i in range(32, 32 + FRAME * _frames(wal), FRAME)}
    data = db.read_bytes()
    leaves = [n for n in range(3, len(data) // PAGE + 1)       # 1: the schema, 2: the games
              if n not in in_wal and data[PAGE * (n - 1)] == 0x0D]   # a table's leaf page
    assert leaves, "the game was checkpointed part-way: the database holds pages of lines"
    _flip(db, PAGE * leaves[-1] - 300, 64)       # cells fill a page from its end


def db_truncated_to_zero(d: Path) -> None:
    os.truncate(d / "journal.sqlite3", 0)


def copy_middle_record_flipped(d: Path) -> None:
    copy = d / "journal.sqlite3.record"
    _flip(copy, copy.stat().st_size // 2, 4)


DAMAGES = [wal_deleted, wal_header_corrupted, wal_truncated, wal_middle_frame_flipped, db_page_flipped,
           db_truncated_to_zero, copy_middle_record_flipped]


@pytest.fixture(scope="module")
def power_cut(tmp_path_factory) -> tuple[Path, list[str]]:
    """The files of a game of about 140 lines as a power cut leaves them, and the game's lines."""
    d = tmp_path_factory.mktemp("played")
    journal = Journal(d / "journal.sqlite3")
    session = TableSession(journal, chance=RandomChance(SEED))
    session.start()
    try:
        play(session, 400, max_lines=90)
        journal._db.execute("PRAGMA wal_checkpoint(PASSIVE)")   # what the checkpointer does now and then
        play(session, 400, max_lines=140)
        lines = journal.lines(session.snapshot().game_id)[1]
    finally:
        session.stop()
    cut = tmp_path_factory.mktemp("cut")
    for f in ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm", "journal.sqlite3.record"):
        shutil.copy2(d / f, cut / f)     # before close(): its checkpoint would empty the WAL
    journal.close()
    assert len(lines) >= 130
    return cut, lines


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda f: f.__name__)
def test_each_damage_resumes_the_whole_game_says_so_and_keeps_the_files(tmp_path, power_cut, damage):
    cut, lines = power_cut
    d = tmp_path / "state"
    shutil.copytree(cut, d)
    damage(d)
    damaged = {f.name: f.read_bytes() for f in d.iterdir()}
    found = inspect(d / "journal.sqlite3")
    assert found.damaged and found.findings
    assert [(best) for _, _, best in found.games()] == [len(lines)]
    assert {f.name: f.read_bytes() for f in d.iterdir()} == damaged, "the check changed nothing"

    journal = Journal(d / "journal.sqlite3")
    session = TableSession(journal, chance=RandomChance(SEED))
    session.start()
    try:
        snap = session.snapshot()
        assert snap.problem is None and snap.lines == len(lines)
        assert journal.lines(snap.game_id)[1] == lines
        assert journal.inspection.damaged
        aside = journal.inspection.aside
        assert aside is not None and aside.parent == d
        assert {f.name: f.read_bytes() for f in aside.iterdir()} == damaged   # copied as found, all of them
        play(session, 3)                    # and the game goes on
        more = session.snapshot().lines
    finally:
        session.stop()
        journal.close()
    again = Journal(d / "journal.sqlite3")     # the rebuilt journal is healthy
    try:
        assert not again.inspection.damaged and again.inspection.aside is None
        assert len(again.lines(again.current_game())[1]) == more > len(lines)
    finally:
        again.close()


def test_a_commit_cut_between_the_copy_and_the_database_is_completed_not_called_damage(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    g = j.new_game()
    j.append(g, "line 1")
    j._record.write([{"op": "lines", "game": g, "from": 2, "lines": ["line 2"]}])   # killed before COMMIT
    j._db.close()
    j._record.close()
    j2 = Journal(path)
    assert not j2.inspection.damaged and j2.inspection.complete_last
    assert j2.lines(g)[1] == ["line 1", "line 2"]
    assert not list(tmp_path.glob("damaged-*"))


def test_a_take_back_cut_between_the_copy_and_the_database_is_completed_too(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    g = j.new_game()
    j.append_many(g, ["line 1", "line 2"])
    j._record.write([{"op": "keep", "game": g, "keep": 1}])   # killed before the take-back's COMMIT
    j._db.close()
    j._record.close()
    j2 = Journal(path)
    assert not j2.inspection.damaged and j2.inspection.complete_last
    assert j2.lines(g)[1] == ["line 1"]
    j2.close()
    assert not Journal(path).inspection.notes


def write_version_1_journal(path) -> None:
    """A journal as schema version 1 left it (no record copy, no identity): one game of one line."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, options TEXT NOT NULL, created REAL NOT NULL, "
               "title TEXT NOT NULL DEFAULT '', current INTEGER NOT NULL DEFAULT 0)")
    db.execute("CREATE TABLE lines (game INTEGER NOT NULL, seq INTEGER NOT NULL, line TEXT NOT NULL, "
               "t REAL NOT NULL, PRIMARY KEY (game, seq))")
    db.execute("INSERT INTO games VALUES (1, '{}', 0, '', 1)")
    db.execute("INSERT INTO lines VALUES (1, 1, 'line 1', 0)")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()


def test_a_journal_from_before_the_copy_gets_one_without_a_word_of_damage(tmp_path):
    path = tmp_path / "j.sqlite3"
    write_version_1_journal(path)
    j = Journal(path)
    assert not j.inspection.damaged and j.inspection.notes
    j.append(1, "line 2")
    j.close()
    again = inspect(path)
    assert not again.damaged and not again.notes and again.games() == [(1, 2, 2)]


def test_the_table_says_what_was_recovered_to_every_viewer_through_play_until_dismissed(tmp_path, power_cut):
    cut, lines = power_cut
    d = tmp_path / "state"
    shutil.copytree(cut, d)
    wal_deleted(d)
    journal = Journal(d / "journal.sqlite3")
    session = TableSession(journal, chance=RandomChance(SEED))
    session.start()
    try:
        snap = session.snapshot()
        for part in (snap.public, *snap.sides.values()):
            said = [m for m in part.table["messages"] if m["code"] == "journal.recovered"]
            assert said and said[0]["params"] == {"aside": journal.inspection.aside.name, "lines": len(lines)}
        play(session, 1)
        assert [m for m in session.snapshot().public.table["messages"] if m["code"] == "journal.recovered"]
        assert session.dismiss_fault("Caesar", journal.inspection.fault).ok
        assert not [m for m in session.snapshot().public.table["messages"] if m["code"] == "journal.recovered"]
    finally:
        session.stop()
        journal.close()


def test_a_current_game_changed_in_the_database_alone_is_damage_and_the_copy_decides(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    a = j.new_game()
    j.append(a, "line 1")
    b = j.new_game()
    j.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET current = (id = ?)", (a,))
    db.commit()
    db.close()
    j = Journal(path)
    assert any("current game" in f for f in j.inspection.findings)
    assert j.current_game() == b
    j.close()
    assert not Journal(path).inspection.damaged

"""The journal: real SQLite in WAL mode with synchronous=FULL; lines survive reopening; damaged
rows and files are named, never half-loaded."""
import sqlite3

import pytest

from rubicon.journal import Journal, JournalError


def test_lines_are_kept_in_order_and_survive_reopening(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    g = j.new_game({"winter_order": "first-edition"})
    assert [j.append(g, f"Caesar discards {c}") for c in ("1/2", "2/3")] == [1, 2]
    j.close()
    j2 = Journal(path)
    assert j2.current_game() == g
    assert j2.lines(g) == ({"winter_order": "first-edition"}, ["Caesar discards 1/2", "Caesar discards 2/3"])


def test_the_file_is_in_wal_mode_and_every_commit_is_synchronous_full(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2   # FULL


def test_a_new_game_becomes_current_and_old_games_stay(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    a = j.new_game()
    j.append(a, "Caesar plays 3/2")
    b = j.new_game()
    assert j.current_game() == b
    assert [(g.id, g.lines, g.current) for g in j.games()] == [(a, 1, False), (b, 0, True)]
    j.set_current(a)
    assert j.current_game() == a


def test_truncate_takes_the_last_lines_back(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    g = j.new_game()
    for n in range(5):
        j.append(g, f"line {n}")
    j.truncate(g, 3)
    assert j.lines(g)[1] == ["line 0", "line 1", "line 2"]
    assert j.append(g, "line 3 again") == 4


@pytest.mark.parametrize("line", ["", "   ", "two\nlines", "x" * 1001, None, 7])
def test_what_is_not_a_notation_line_is_refused_and_nothing_is_written(tmp_path, line):
    j = Journal(tmp_path / "j.sqlite3")
    g = j.new_game()
    with pytest.raises(JournalError, match="not a notation line"):
        j.append(g, line)
    assert j.lines(g)[1] == []


def test_an_unknown_game_is_named(tmp_path):
    j = Journal(tmp_path / "j.sqlite3")
    with pytest.raises(JournalError, match="no game 42"):
        j.append(42, "Caesar plays 3/2")
    with pytest.raises(JournalError, match="no game 42"):
        j.lines(42)


def test_damaged_rows_are_found_at_open_and_the_game_rebuilt_from_the_copy(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    g = j.new_game()
    for n in range(3):
        j.append(g, f"line {n}")
    j.close()
    db = sqlite3.connect(path)
    db.execute("DELETE FROM lines WHERE seq = 2")
    db.execute("UPDATE games SET options = 'not json'")
    db.commit()
    db.close()
    j = Journal(path)
    found = " ".join(j.inspection.findings)
    assert "damaged rules options" in found and "line 2 is damaged" in found
    assert j.lines(g) == ({}, ["line 0", "line 1", "line 2"])
    assert j.inspection.aside is not None and (j.inspection.aside / "j.sqlite3").exists()


def test_without_the_copy_a_damaged_row_is_named_and_the_lines_before_it_kept_aloud(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    g = j.new_game()
    for n in range(3):
        j.append(g, f"line {n}")
    j.close()
    (tmp_path / "j.sqlite3.record").unlink()
    db = sqlite3.connect(path)
    db.execute("DELETE FROM lines WHERE seq = 2")
    db.commit()
    db.close()
    j = Journal(path)
    assert any("line 2 is damaged" in f for f in j.inspection.findings)
    assert any("no copy" in f for f in j.inspection.findings)
    assert j.lines(g)[1] == ["line 0"] and j.inspection.aside is not None


def test_a_file_that_is_not_a_journal_says_what_to_do(tmp_path):
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="--new-game"):
        Journal(path)
    j = Journal(path, accept_loss=True)         # what --new-game does: the file set aside, a new journal
    assert j.games() == [] and (j.inspection.aside / "j.sqlite3").read_bytes() == b"this is not a database" * 100


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "j.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="newer than this Rubicon"):
        Journal(path)


def test_an_action_and_the_chance_after_it_are_one_transaction(tmp_path):
    """Done's placements, or an action and the chance it calls for, are committed at once: one
    COMMIT (one WAL fsync) per intent, all lines or none."""
    from rubicon.journal import Journal as J

    journal = J(tmp_path / "j.sqlite3")
    game = journal.new_game({})
    statements: list[str] = []
    journal._db.set_trace_callback(statements.append)
    assert journal.append_many(game, ["Caesar plays 3/2", "Pompeius plays 2/1", "Chance rolls 2 5"]) == 3
    assert [s for s in statements if s.startswith(("BEGIN", "COMMIT"))] == ["BEGIN IMMEDIATE", "COMMIT"]
    assert journal.lines(game)[1] == ["Caesar plays 3/2", "Pompeius plays 2/1", "Chance rolls 2 5"]
    with pytest.raises(JournalError):
        journal.append_many(game, ["Caesar passes", "two\nlines"])
    assert len(journal.lines(game)[1]) == 3          # nothing of a refused batch is written


# --- checkpoints off the action path ---------------------------------------------------------
def test_no_checkpoint_runs_inside_a_commit_the_background_checkpointer_copies_the_wal(tmp_path):
    import shutil
    import time

    from rubicon.journal import CHECKPOINT_EVERY

    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    assert j._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0   # never inside a commit
    g = j.new_game()
    lines = CHECKPOINT_EVERY - j._commits - 1     # creating the file and the game were commits too
    for n in range(lines):
        j.append(g, f"line {n}")
    assert j.checkpoints == 0 and j._checkpointer is None    # nothing due yet: no thread either
    j.append(g, "the commit that makes one due")
    deadline = time.monotonic() + 20      # a guard against a dead checkpointer, not a measurement
    while j.checkpoints == 0:
        assert time.monotonic() < deadline, "the checkpointer never ran"
        time.sleep(0.01)
    # The database file alone (without its WAL) now holds what was committed before the checkpoint.
    shutil.copy(path, tmp_path / "alone.sqlite3")
    alone = sqlite3.connect(tmp_path / "alone.sqlite3")
    assert alone.execute("SELECT COUNT(*) FROM lines").fetchone()[0] == lines + 1
    alone.close()
    j.append(g, "after the checkpoint")
    j.close()
    assert j._checkpointer is None
    assert Journal(path).lines(g)[1][-1] == "after the checkpoint"


def test_closing_a_journal_stops_its_checkpointer_thread(tmp_path):
    import threading

    from rubicon.journal import CHECKPOINT_EVERY

    j = Journal(tmp_path / "j.sqlite3")
    g = j.new_game()
    j.append_many(g, ["x"])
    for _ in range(CHECKPOINT_EVERY):
        j.append(g, "y")
    thread = j._checkpointer
    assert thread is not None
    j.close()
    assert not thread.is_alive() and "journal-checkpoint" not in {t.name for t in threading.enumerate()
                                                                   if t is thread}

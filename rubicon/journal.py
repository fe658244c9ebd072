"""The journal: every accepted action of the table's game, durable before it is acknowledged.

Owns the SQLite file in the state directory (WAL mode, `synchronous=FULL`: a committed row
survives a power cut) and what it holds: games (their rules options, when they began, whether
one is the current game) and each game's notation lines in order. A game is rebuilt by replaying
its lines from the 705 set-up (`engine.notation`), so the journal never stores engine state and
a damaged or forged row is at worst a record with an illegal line, reported with its number.

    journal = Journal(state_dir / "journal.sqlite3")
    game_id = journal.new_game({"winter_order": "v1.01"})
    journal.append(game_id, "Chance deals Caesar: ...")   # returns once the line is on disk
    options, lines = journal.lines(game_id)

Checkpoints (copying the WAL back into the database file, with its own fsyncs) are kept off the
action path: SQLite's automatic checkpoint, which runs inside the commit that crosses its
threshold, is turned off (`wal_autocheckpoint=0`) and every CHECKPOINT_EVERY commits a small
background thread runs a PASSIVE checkpoint on its own connection, which never blocks a writer.
Durability is the commit's alone (the WAL fsynced with synchronous=FULL before `append` returns);
a checkpoint cut by a crash is finished by SQLite's recovery at the next open.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = 1
MAX_LINE = 1000        # engine.actions.MAX_LINE: a longer line is not an action
# Commits between background checkpoints: a commit adds about four 4 KiB pages to the WAL, so this
# is about SQLite's own automatic checkpoint at 1000 pages (a WAL of some 4 MB at most).
CHECKPOINT_EVERY = 250

log = logging.getLogger(__name__)


class JournalError(RuntimeError):
    """The journal file cannot be used (not a Rubicon journal, a newer schema, a bad row)."""


@dataclass(frozen=True)
class GameInfo:
    id: int
    options: dict[str, str]
    created: float
    lines: int
    current: bool
    title: str


class Journal:
    """One SQLite journal. Thread-safe (one connection behind a lock); every write is one
    transaction committed with synchronous=FULL before the call returns."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._commits = 0
        self.checkpoints = 0          # background checkpoints done (for tests and benchmarks)
        self._due = threading.Event()
        self._closing = False
        self._checkpointer: threading.Thread | None = None    # started at the first checkpoint due
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA wal_autocheckpoint=0")    # the checkpointer thread does it
            self._create()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: not a usable Rubicon journal ({exc}); move it aside to start "
                               f"a new one") from None

    def _create(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(f"{self.path}: journal schema {version} is newer than this Rubicon's "
                               f"({SCHEMA_VERSION}); upgrade Rubicon")
        with self._transaction():
            self._db.execute("""CREATE TABLE IF NOT EXISTS games (
                id INTEGER PRIMARY KEY, options TEXT NOT NULL, created REAL NOT NULL,
                title TEXT NOT NULL DEFAULT '', current INTEGER NOT NULL DEFAULT 0)""")
            self._db.execute("""CREATE TABLE IF NOT EXISTS lines (
                game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
                line TEXT NOT NULL, t REAL NOT NULL, PRIMARY KEY (game, seq))""")
            # The tray's name ("BOOT/ID") of each roll taken from it, committed with its line: the
            # tray is told to forget a roll only after this commit, so a roll it repeats after a
            # crash between the two is known as taken (an older journal simply gains the table).
            self._db.execute("""CREATE TABLE IF NOT EXISTS tray_rolls (
                roll TEXT PRIMARY KEY, game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL)""")
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _transaction(self):
        return _Transaction(self._db, self._committed)

    def close(self) -> None:
        """Stop the checkpointer, then close (SQLite checkpoints what is left and removes the WAL)."""
        with self._lock:
            self._closing = True
            thread, self._checkpointer = self._checkpointer, None
        if thread is not None:
            self._due.set()
            thread.join()
        with self._lock:
            self._db.close()

    # --- checkpoints (off the action path: see the module docstring) -----------------------
    def _committed(self) -> None:
        """Called after each committed write transaction (the lock held): wakes the checkpointer now and then."""
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0:
            self._wake()

    def _wake(self) -> None:
        if self._closing:
            return
        if self._checkpointer is None:
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="journal-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()
        self._due.set()

    def _checkpoint_loop(self) -> None:
        """The checkpointer thread: a PASSIVE checkpoint each time one is due, on its own connection
        (a checkpoint never takes the writer's lock, so the owner thread's commits go on meanwhile)."""
        db: sqlite3.Connection | None = None
        try:
            while True:
                self._due.wait()
                self._due.clear()
                if self._closing:
                    return
                try:
                    if db is None:
                        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                        db.execute("PRAGMA synchronous=FULL")
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
                except sqlite3.Error as exc:   # busy or I/O: the WAL grows until the next one
                    log.warning("%s: checkpoint failed (%s); the WAL keeps the lines", self.path, exc)
        finally:
            if db is not None:
                db.close()

    def checkpoint_soon(self) -> None:
        """Ask the checkpointer for a checkpoint now (it runs in the background)."""
        with self._lock:
            self._wake()

    # --- games ---------------------------------------------------------------------------
    def new_game(self, options: dict[str, str] | None = None, title: str = "") -> int:
        """Start a game (it becomes the current one) and return its id."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET current = 0 WHERE current = 1")
            cur = self._db.execute("INSERT INTO games (options, created, title, current) VALUES (?, ?, ?, 1)",
                                   (json.dumps(options or {}, sort_keys=True), time.time(), title))
            return int(cur.lastrowid or 0)

    def current_game(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT id FROM games WHERE current = 1").fetchone()
        return None if row is None else int(row[0])

    def set_current(self, game_id: int) -> None:
        with self._lock, self._transaction():
            self._need_game(game_id)
            self._db.execute("UPDATE games SET current = 0 WHERE current = 1")
            self._db.execute("UPDATE games SET current = 1 WHERE id = ?", (game_id,))

    def games(self) -> list[GameInfo]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.options, g.created, g.title, g.current, "
                "(SELECT COUNT(*) FROM lines l WHERE l.game = g.id) FROM games g ORDER BY g.id").fetchall()
        return [GameInfo(int(i), self._options(i, o), float(c), int(n), bool(cur), str(t))
                for i, o, c, t, cur, n in rows]

    # --- lines ---------------------------------------------------------------------------
    def append(self, game_id: int, line: str) -> int:
        """Add one accepted action line; returns its sequence number once it is on disk."""
        return self.append_many(game_id, [line])

    def append_many(self, game_id: int, lines: list[str], tray_roll: str | None = None) -> int:
        """Add accepted lines (an action and the chance outcomes after it; a Done's placements)
        as ONE transaction: all on disk or none, one commit (one WAL fsync) however many there
        are. `tray_roll`: the tray's name of the roll the first line is, kept in the same
        transaction (`roll_taken`). Returns the sequence number of the last one."""
        for line in lines:
            if not isinstance(line, str) or not line.strip() or "\n" in line or len(line) > MAX_LINE:
                raise JournalError(f"not a notation line: {line!r}")
        if not lines:
            raise JournalError("nothing to append")
        with self._lock, self._transaction():
            self._need_game(game_id)
            seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM lines WHERE game = ?",
                                   (game_id,)).fetchone()[0]
            now = time.time()
            self._db.executemany("INSERT INTO lines (game, seq, line, t) VALUES (?, ?, ?, ?)",
                                 [(game_id, seq + n, line, now) for n, line in enumerate(lines, start=1)])
            if tray_roll is not None:
                self._db.execute("INSERT INTO tray_rolls (roll, game, seq) VALUES (?, ?, ?)",
                                 (tray_roll, game_id, seq + 1))
        return int(seq) + len(lines)

    def roll_taken(self, tray_roll: str) -> bool:
        """Whether the tray's roll of that name is already a line of some game."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM tray_rolls WHERE roll = ?", (tray_roll,)).fetchone() is not None

    def truncate(self, game_id: int, keep: int) -> None:
        """Keep the first `keep` lines of a game (an undo takes the last lines back)."""
        with self._lock, self._transaction():
            self._need_game(game_id)
            self._db.execute("DELETE FROM lines WHERE game = ? AND seq > ?", (game_id, keep))
            self._db.execute("DELETE FROM tray_rolls WHERE game = ? AND seq > ?", (game_id, keep))

    def lines(self, game_id: int) -> tuple[dict[str, str], list[str]]:
        """A game's rules options and its lines in order."""
        with self._lock:
            row = self._db.execute("SELECT options FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise JournalError(f"{self.path}: no game {game_id} in the journal")
            rows = self._db.execute("SELECT seq, line FROM lines WHERE game = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        options = self._options(game_id, row[0])
        for n, (seq, line) in enumerate(rows, start=1):
            if seq != n or not isinstance(line, str):
                raise JournalError(f"{self.path}: game {game_id} line {n} is damaged (sequence {seq})")
        return options, [line for _, line in rows]

    def _need_game(self, game_id: int) -> None:
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise JournalError(f"{self.path}: no game {game_id} in the journal")

    def _options(self, game_id: int, text: str) -> dict[str, str]:
        try:
            options = json.loads(text)
        except ValueError:
            options = None
        if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                     for k, v in options.items()):
            raise JournalError(f"{self.path}: game {game_id} has damaged rules options {text!r}")
        return options


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error): Python 3.11's sqlite3 has no autocommit
    attribute, so the connection runs with isolation_level=None and transactions are explicit."""

    def __init__(self, db: sqlite3.Connection, committed: Callable[[], None]):
        self.db = db
        self.committed = committed

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type:
            self.db.execute("ROLLBACK")
            return
        self.db.execute("COMMIT")
        self.committed()

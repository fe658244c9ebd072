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

A second, append-only copy of the record (rubicon/journal_record.py) is written in each
transaction before its COMMIT and fsynced alongside it; every open compares the two (rubicon/journal_check.py): a
damaged journal is never resumed shorter in silence, it is rebuilt from the longest verified
source with the damaged files set aside, and `inspection` says what was found. A write the disk
refuses (full, read-only, permission) raises `StorageError` with a code and changes nothing.
"""
from __future__ import annotations

import errno
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lifecycle import Lifecycle
from rubicon.errors import RubiconError

from .journal_check import Inspection, NewerSchema, bring_up_to_date, inspect, recover
from .journal_record import RecordWriter, game_record, read_record, record_path
from .journal_schema import SCHEMA_VERSION, create_tables

__all__ = ["SCHEMA_VERSION", "Journal", "JournalError", "JournalDamaged", "StorageError", "GameInfo"]
MAX_LINE = 1000        # engine.actions.MAX_LINE: a longer line is not an action
# Commits between background checkpoints: a commit adds about four 4 KiB pages to the WAL, so this
# is about SQLite's own automatic checkpoint at 1000 pages (a WAL of some 4 MB at most).
CHECKPOINT_EVERY = 250

log = logging.getLogger(__name__)


class JournalError(RubiconError, RuntimeError):
    """The journal file cannot be used (not a Rubicon journal, a newer schema, a bad row)."""


class JournalDamaged(JournalError):
    """The journal is damaged and nothing of it can be verified (`inspection` says what was found)."""

    def __init__(self, message: str, inspection: Inspection):
        super().__init__(message)
        self.inspection = inspection


# Storage trouble, by code (docs/refusals.md: storage.*): what is wrong, and the next step.
STORAGE_ADVICE = {
    "storage.full": "the disk holding {dir} is full: free some space there; the journal is intact and play "
                    "goes on once there is room",
    "storage.read-only": "{dir} is read-only: remount it read-write or choose another --state-dir; the journal "
                         "is intact",
    "storage.permission": "permission denied on {path}: give the user running Rubicon write access to {dir}; "
                          "the journal is intact",
    "storage.missing": "the state directory {dir} is missing and cannot be created: create it or choose another "
                       "--state-dir",
    "storage.io": "the disk holding {dir} reports an I/O error ({detail}): check the disk or SD card; the journal "
                  "keeps what it had",
    "storage.damaged": "the journal {path} was damaged while in use ({detail}): restart Rubicon; its check at start "
                       "resumes the longest verified record and keeps the damaged files aside",
}
OS_CODES = {errno.ENOSPC: "storage.full", errno.EDQUOT: "storage.full", errno.EROFS: "storage.read-only",
            errno.EACCES: "storage.permission", errno.EPERM: "storage.permission", errno.ENOENT: "storage.missing",
            errno.EIO: "storage.io"}


class StorageError(JournalError):
    """A write (or the open) the disk refused: nothing was written. `code` is one of STORAGE_ADVICE."""

    def __init__(self, code: str, path: Path, detail: str):
        self.code, self.path, self.detail = code, path, detail
        super().__init__(STORAGE_ADVICE[code].format(dir=path.parent, path=path, detail=detail))

    @property
    def params(self) -> dict[str, str]:
        """The refusal's parameters: the directory and the file the journal could not write."""
        return {"dir": str(self.path.parent), "path": str(self.path)}


def storage_error(exc: BaseException, path: Path) -> StorageError | None:
    """The StorageError an OSError or SQLite error is, or None when it is not storage trouble."""
    code = None
    if isinstance(exc, OSError):
        code = OS_CODES.get(exc.errno or 0)
    elif isinstance(exc, sqlite3.Error):
        name = str(getattr(exc, "sqlite_errorname", ""))
        if name.startswith("SQLITE_FULL"):
            code = "storage.full"
        elif name.startswith("SQLITE_READONLY"):
            code = "storage.read-only"
        elif name.startswith(("SQLITE_PERM", "SQLITE_AUTH")):
            code = "storage.permission"
        elif name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            code = "storage.damaged"
        elif name.startswith(("SQLITE_CANTOPEN", "SQLITE_IOERR")):
            code = _diagnose(path) or ("storage.io" if name.startswith("SQLITE_IOERR") else "storage.permission")
    if code in ("storage.io", "storage.permission", "storage.missing"):
        code = _diagnose(path) or code      # SQLite and the OS name the symptom; the file system the cause
    return None if code is None else StorageError(code, path, str(exc))


def _diagnose(path: Path) -> str | None:
    """What the file system says of the directory: missing, read-only or full (else None)."""
    if not path.parent.is_dir():
        return "storage.missing"
    try:
        fs = os.statvfs(path.parent)
    except OSError:
        return None
    if fs.f_flag & os.ST_RDONLY:
        return "storage.read-only"
    if fs.f_bavail == 0 or (fs.f_favail == 0 and fs.f_files):
        return "storage.full"
    return None


@dataclass(frozen=True)
class GameInfo:
    """One game of the journal as a list shows it: id, options, when it began, how many lines, whether it is the
    current game, and its title."""
    id: int
    options: dict[str, str]
    created: float
    lines: int
    current: bool
    title: str


class Journal(Lifecycle):
    """One SQLite journal. Thread-safe (one connection behind a lock); every write is one
    transaction committed with synchronous=FULL before the call returns. Open once made
    (`running`); close() and `with` as every thread owner (the lifecycle package)."""

    _running = True

    def __init__(self, path: str | Path, *, accept_loss: bool = False):
        """Open (or create) the journal at `path`, checked first (see the module docstring): a
        damaged journal is rebuilt from its longest verified source. When nothing of it can be
        verified, JournalDamaged; `accept_loss` sets the damaged files aside and starts empty."""
        self.path = Path(path)
        self._lock = threading.Lock()
        self._commits = 0
        self.checkpoints = 0          # background checkpoints done (for tests and benchmarks)
        self._due = threading.Event()
        self._closing = False
        self._checkpointer: threading.Thread | None = None    # started at the first checkpoint due
        self._record: RecordWriter | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.inspection = self._check(accept_loss)    # what the open found and put right
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA wal_autocheckpoint=0")    # the checkpointer thread does it
            copy = record_path(self.path)
            self._record = RecordWriter(copy, read_record(copy))
            self._create()
        except (sqlite3.Error, OSError) as exc:
            if self._record is not None:
                self._record.close()
            if hasattr(self, "_db"):
                self._db.close()
            problem = storage_error(exc, self.path)
            if problem is not None:
                raise problem from None
            raise JournalError(f"{self.path}: not a usable Rubicon journal ({exc}); `rubicon journal check` "
                               f"tells what is wrong") from None

    def _check(self, accept_loss: bool) -> Inspection:
        try:
            report = inspect(self.path)
        except NewerSchema as exc:
            raise JournalError(f"{self.path}: journal schema {exc.version} is newer than this Rubicon's "
                               f"({SCHEMA_VERSION}); upgrade Rubicon") from None
        if report.damaged:
            if not report.recoverable and not accept_loss:
                raise JournalDamaged(f"{self.path}: the journal is damaged ({'; '.join(report.findings)}) and "
                                     f"nothing of it can be verified; `rubicon run --new-game` keeps the damaged "
                                     f"files aside and starts a new journal", report)
            recover(self.path, report)
            log.warning("%s: the journal was damaged: %s", self.path, "; ".join(report.describe()))
        elif report.complete_last or report.rewrite_copy:
            bring_up_to_date(self.path, report)
            log.info("%s: %s", self.path, "; ".join(report.notes))
        report.lighten()
        return report

    def _create(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(f"{self.path}: journal schema {version} is newer than this Rubicon's "
                               f"({SCHEMA_VERSION}); upgrade Rubicon")
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == SCHEMA_VERSION and {"games", "lines", "tray_rolls"} <= tables:
            return        # no write at each open: nothing that can fail on a nearly full disk
        with self._writing():
            create_tables(self._db)

    @contextmanager
    def _writing(self) -> Iterator[list[dict[str, Any]]]:
        """BEGIN IMMEDIATE ... COMMIT, with the copy's records (the list yielded) written before
        the COMMIT and fsynced alongside it (both on disk when this returns); on any error both are
        taken back (a COMMIT that fails on a full
        disk may leave SQLite's transaction open: it is rolled back) and a refusal of the disk is
        raised as StorageError. Python 3.11's sqlite3 has no autocommit attribute, so the
        connection runs with isolation_level=None and transactions are explicit. The lock held."""
        records: list[dict[str, Any]] = []
        wrote = False
        try:
            self._db.execute("BEGIN IMMEDIATE")
            yield records
            if records:
                assert self._record is not None
                self._record.write(records)
                wrote = True
            self._db.execute("COMMIT")
            if wrote:
                self._copy_synced()
        except BaseException as exc:
            if wrote and self._record is not None:
                self._record.undo()
            if self._db.in_transaction:
                try:
                    self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            problem = storage_error(exc, self.path) if isinstance(exc, (sqlite3.Error, OSError)) else None
            if problem is not None:
                raise problem from exc
            raise
        self._committed()

    def _copy_synced(self) -> None:
        """After the COMMIT: the copy's fsync too, before the caller acknowledges anything. If it
        failed the commit still stands (it is on disk): the copy may then lack this transaction
        after a power cut, which the next open accepts and puts right."""
        assert self._record is not None
        try:
            self._record.synced()
        except OSError as exc:
            log.warning("%s: the copy's fsync failed after the commit (%s): the commit stands", self.path, exc)

    def _transaction(self):
        """The name `_writing` had before the copy (kept for code written against it): a write
        transaction whose records, if any are added to the list it yields, go to the copy."""
        return self._writing()

    def writable(self) -> StorageError | None:
        """Whether the journal's directory takes a write now (a small file written, fsynced and
        removed): the table's retry after storage trouble. None when it does."""
        probe = self.path.with_name(".rubicon-write-probe")
        try:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(fd, b"\0" * 65536)     # about what one commit adds to the WAL and the copy
                os.fsync(fd)
            finally:
                os.close(fd)
                probe.unlink(missing_ok=True)
        except OSError as exc:
            return storage_error(exc, self.path) or StorageError("storage.io", self.path, str(exc))
        return None

    @contextmanager
    def connection(self, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        """The journal's connection with its lock held (with `write`: inside one transaction, committed
        with synchronous=FULL on leaving, rolled back on an exception), for a module that keeps its
        own tables in this database (rubicon/pairings_store.py: the paired devices)."""
        if write:
            with self._lock, self._transaction():
                yield self._db
        else:
            with self._lock:
                yield self._db

    def _on_close(self) -> None:
        """Stop the checkpointer, then close (SQLite checkpoints what is left and removes the WAL)."""
        with self._lock:
            self._closing = True
            thread, self._checkpointer = self._checkpointer, None
        if thread is not None:
            self._due.set()
            thread.join()
        with self._lock:
            self._db.close()
            if self._record is not None:
                self._record.close()
                self._record = None

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
        options = dict(options or {})
        with self._lock, self._writing() as records:
            game_id = int(self._db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()[0])
            created = time.time()
            self._db.execute("UPDATE games SET current = 0 WHERE current = 1")
            self._db.execute("INSERT INTO games (id, options, created, title, current) VALUES (?, ?, ?, ?, 1)",
                             (game_id, json.dumps(options, sort_keys=True), created, title))
            records.append(game_record(game_id, options, created, title))
        return game_id

    def current_game(self) -> int | None:
        """The id of the game the table plays now, or None in a fresh journal."""
        with self._lock:
            row = self._db.execute("SELECT id FROM games WHERE current = 1").fetchone()
        return None if row is None else int(row[0])

    def set_current(self, game_id: int) -> None:
        """Make `game_id` the game the table plays (one committed transaction)."""
        with self._lock, self._writing() as records:
            self._need_game(game_id)
            self._db.execute("UPDATE games SET current = 0 WHERE current = 1")
            self._db.execute("UPDATE games SET current = 1 WHERE id = ?", (game_id,))
            records.append({"op": "current", "game": game_id})

    def games(self) -> list[GameInfo]:
        """Every game of the journal, oldest first."""
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
        with self._lock, self._writing() as records:
            self._need_game(game_id)
            seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM lines WHERE game = ?",
                                   (game_id,)).fetchone()[0]
            now = time.time()
            self._db.executemany("INSERT INTO lines (game, seq, line, t) VALUES (?, ?, ?, ?)",
                                 [(game_id, seq + n, line, now) for n, line in enumerate(lines, start=1)])
            records.append({"op": "lines", "game": game_id, "from": int(seq) + 1, "lines": list(lines)})
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
        with self._lock, self._writing() as records:
            self._need_game(game_id)
            if self._db.execute("DELETE FROM lines WHERE game = ? AND seq > ?", (game_id, keep)).rowcount:
                records.append({"op": "keep", "game": game_id, "keep": keep})
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

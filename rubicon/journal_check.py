"""The journal's check at every open, and its recovery: what is damaged, what can be recovered,
and rebuilding the journal from the longest verified source with the damaged files set aside.

`inspect` never changes a file: it reads copies of the database and its `-wal` in a temporary
directory (opening a WAL database makes SQLite replay, checkpoint and even reset the WAL, which
would destroy the evidence), runs SQLite's `quick_check`, reads every game, and compares them with
the hash-chained copy (rubicon/journal_record.py), game by game:

- equal: healthy;
- the copy holds one more record than the database, nothing else differs: a commit cut by a crash
  between the two writes (the copy is written first); it is completed, not reported as damage;
- the database holds more than the copy (a take-back cut the same way, or a journal from before
  the copy existed): the copy is written afresh from the database;
- the database holds fewer lines than the copy, a game the copy lacks, another line, or SQLite
  finds it malformed; or the copy's hash chain breaks; or the two are more than one transaction
  apart by their commit numbers (a stop or a power cut leaves at most one between them): **damage**.
  A copy of another table (its identity differs from the database's) is refused as such: damage,
  the database alone is resumed. Each game is taken from the
  source that holds its longest verified record (the copy's lines are verified by their hashes;
  a database's lines that extend the copy's are verified by quick_check), the damaged files are
  copied into `damaged-<time>/` beside the journal, and the journal is rebuilt from that, with a
  fault report (what was found, what was resumed, where the files are) in the same transaction:
  said on every page until a player dismisses it, whatever stops the table in between.

    report = inspect(path)            # report.findings, report.damaged, report.best
    aside = recover(path, report)     # the damaged files copied aside, the journal rebuilt

A recovery the disk refuses leaves the journal's files as they were and removes what it began
(`RecoveryRefused`): the next start finds the same damage and tries again.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubicon.errors import RubiconError

from .journal_record import (
    Fault,
    RecordRead,
    RecordState,
    fsync_dir,
    read_record,
    record_path,
    records_of,
    write_fresh,
)
from .journal_schema import (
    SCHEMA_VERSION,
    create_tables,
    new_table_id,
    read_meta,
    read_state,
    set_commit,
    write_state,
)

WAL_MAGIC = (0x377F0682, 0x377F0683)


class RecoveryRefused(RubiconError, RuntimeError):
    """The disk refused the recovery (`cause`: the OSError or SQLite error): what it began was removed,
    the journal's files are as they were (still damaged: the next start tries again)."""
    def __init__(self, cause: BaseException, path: Path):
        super().__init__(f"{path}: the journal is damaged and the recovery could not be written ({cause}); nothing "
                         f"was changed: the next start tries again")
        self.cause, self.path = cause, path


class NewerSchema(RubiconError, RuntimeError):
    """The journal was written by a newer Rubicon (schema `version`): it is left untouched; update Rubicon."""
    def __init__(self, version: int):
        super().__init__(version)
        self.version = version


@dataclass
class Inspection:
    """What `inspect` found (English sentences) and the longest verified record of each game."""
    path: Path
    findings: list[str] = field(default_factory=list)    # damage
    notes: list[str] = field(default_factory=list)       # not damage: what the open will put right
    best: RecordState = field(default_factory=RecordState)
    database: RecordState | None = None     # the games as the database holds them (None: unreadable)
    record: RecordRead | None = None
    complete_last: bool = False             # the database lacks only the copy's last record
    rewrite_copy: bool = False              # the copy is written afresh from the database
    fresh: bool = False                     # no journal yet
    aside: Path | None = None               # where recover() put the damaged files
    table_id: str | None = None             # the table's identity (the database's, else the copy's)
    db_commit: int | None = None            # the database's last commit number (None: version 1)
    upgrade: bool = False                   # a version 1 journal: identity and commit numbers added
    fault: int | None = None                # the fault report recover() wrote
    summary: list[tuple[int, int | None, int]] | None = None    # games(), once `lighten` dropped the lines

    @property
    def damaged(self) -> bool:
        """Whether the check found anything wrong."""
        return bool(self.findings)

    @property
    def recoverable(self) -> bool:
        """Whether a recovery would keep at least one game."""
        return bool(self.best.games)

    def games(self) -> list[tuple[int, int | None, int]]:
        """(game, lines in the database or None, lines in the longest verified record) per game."""
        if self.summary is not None:
            return self.summary
        db = self.database.games if self.database is not None else {}
        return [(g, len(db[g].lines) if g in db else None, len(self.best.games[g].lines))
                for g in sorted(self.best.games)]

    @property
    def current_lines(self) -> int:
        """The lines of the current game's longest verified record."""
        return next((best for game, _, best in self.games() if game == self.best.current), 0)

    def lighten(self) -> None:
        """Keep the report, drop every game's lines (a journal keeps its inspection while it is open)."""
        self.summary = self.games()
        self.database = self.record = None
        self.best = RecordState(current=self.best.current)

    def describe(self) -> list[str]:
        """The report's lines (for `rubicon journal check` and the start-up messages)."""
        out = [f"damaged: {f}" for f in self.findings] + [f"note: {n}" for n in self.notes]
        same = 0
        for game, db, best in self.games():
            if db == best and game != self.best.current:
                same += 1           # named only when it differs, or is the current game
                continue
            current = " (current)" if game == self.best.current else ""
            held = "missing from the database" if db is None else f"{db} in the database"
            out.append(f"game {game}{current}: {best} verified lines ({held})")
        if same:
            out.append(f"{same} other game{'s' if same > 1 else ''}: as in the database")
        if self.aside is not None:
            out.append(f"the damaged files are kept in {self.aside}")
        return out


def wal_path(path: Path) -> Path:
    """The SQLite write-ahead log beside the journal `path`."""
    return path.with_name(path.name + "-wal")


def shm_path(path: Path) -> Path:
    """The SQLite shared-memory index beside the journal `path`."""
    return path.with_name(path.name + "-shm")


def inspect(path: Path) -> Inspection:
    """Check the journal at `path` and its copy without changing either (see the module docstring).
    NewerSchema when the database was written by a newer Rubicon."""
    report = Inspection(path)
    copy = record_path(path)
    if never_written(path):
        report.fresh = True
        return report
    report.record = record = read_record(copy)
    db, problems, (db_id, report.db_commit) = _read_database(path)
    report.database = db
    report.table_id = db_id or record.table_id
    report.findings += problems + _wal_findings(path)
    if record.problem:
        report.findings.append(f"the copy {copy.name}: {record.problem}; {record.records} records verified")
    if record.table_id is not None and db_id is not None and record.table_id != db_id:
        report.findings.append(f"the copy {copy.name} belongs to another table (identity {record.table_id}, this "
                               f"journal's is {db_id}): it is refused, the database alone is resumed")
        report.best = db or RecordState()
        return report
    if db is not None and path.exists() and (db_id is None or (record.exists and not record.numbered)):
        report.upgrade = True
    if not record.exists and report.db_commit:
        report.findings.append(f"the copy {copy.name} is missing (the database is at commit {report.db_commit})")
    if not record.exists:
        report.best = db or RecordState()
        if db is not None and path.exists():
            report.rewrite_copy = True
            report.notes.append(f"no copy {copy.name} yet: written from the database")
        if report.findings:
            report.findings.append(f"there is no copy {copy.name} to verify it against")
        return report
    if record.numbered and report.db_commit is not None and db is not None:
        apart = record.commit - report.db_commit
        if abs(apart) > 1:
            report.findings.append(f"the copy ends at commit {record.commit}, the database at {report.db_commit}: "
                                   f"{abs(apart)} transactions apart, where a stop or a power cut leaves at most one")
    _compare(report, db or RecordState(), record, have_db=db is not None)
    if report.upgrade and not report.findings:
        report.rewrite_copy = False
        report.notes.append("a journal without the table's identity and commit numbers: both added, the copy "
                            "written afresh")
    return report


Meta = tuple[str | None, int | None]


def never_written(path: Path) -> bool:
    """Whether nothing was ever committed at `path`: no file at all, or only what a first open that
    failed (or was killed) before its first commit leaves: an empty database, no -wal or an empty
    one, no copy or one with at most its header. Such a journal is a fresh one."""
    files = (path, wal_path(path), record_path(path))
    if not any(f.exists() for f in files):
        return True
    if (path.exists() and path.stat().st_size) or (wal_path(path).exists() and wal_path(path).stat().st_size):
        return False
    copy = read_record(record_path(path))
    return copy.records == 0 and not copy.problem


def _read_database(path: Path) -> tuple[RecordState | None, list[str], Meta]:
    if not path.exists():
        return None, ["the database file is missing"], (None, None)
    if path.stat().st_size == 0:
        return None, ["the database file is empty (0 bytes)"], (None, None)
    with tempfile.TemporaryDirectory(prefix="rubicon-check-") as tmp:
        work = Path(tmp) / path.name
        shutil.copyfile(path, work)
        if wal_path(path).exists():
            shutil.copyfile(wal_path(path), wal_path(work))
        db = sqlite3.connect(work, isolation_level=None)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise NewerSchema(version)
            problems = []
            check = [str(r[0]) for r in db.execute("PRAGMA quick_check(5)").fetchall()]
            if check != ["ok"]:
                problems.append("SQLite's quick_check finds it malformed: " + "; ".join(check))
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"games", "lines"} <= tables:
                if tables:
                    return None, problems + [f"it is not a Rubicon journal (tables {', '.join(sorted(tables))})"], \
                        (None, None)
                return RecordState(), problems, (None, None)
            state, bad_rows = read_state(db)
            return state, problems + bad_rows, read_meta(db)
        except sqlite3.DatabaseError as exc:
            return None, [f"SQLite cannot read it ({exc})"], (None, None)
        finally:
            db.close()


def _wal_findings(path: Path) -> list[str]:
    """A -wal whose header SQLite would silently ignore (with every commit in it)."""
    wal = wal_path(path)
    try:
        head = wal.read_bytes()[:32]
    except FileNotFoundError:
        return []
    if not head:
        return []
    if len(head) < 32 or int.from_bytes(head[:4], "big") not in WAL_MAGIC:
        return [f"the {wal.name} file's header is damaged: SQLite ignores the commits in it"]
    return []


def _compare(report: Inspection, db: RecordState, record: RecordRead, have_db: bool) -> None:
    copy = record.state
    best = RecordState()
    damaged_before = bool(report.findings)
    for game in sorted(set(db.games) | set(copy.games)):
        d, c = db.games.get(game), copy.games.get(game)
        if c is None:
            assert d is not None
            best.games[game] = d
            report.rewrite_copy = True
        elif d is None:
            best.games[game] = c
            if have_db:
                report.findings.append(f"game {game} ({len(c.lines)} lines in the copy) is missing from the database")
        elif (d.options, d.title) != (c.options, c.title):
            best.games[game] = c
            report.findings.append(f"game {game}'s rules options differ between the database and the copy")
        elif d.lines[:len(c.lines)] == c.lines:
            best.games[game] = d
            report.rewrite_copy |= len(d.lines) > len(c.lines)
        elif c.lines[:len(d.lines)] == d.lines:
            best.games[game] = c
            report.findings.append(f"game {game}: the database holds {len(d.lines)} lines, the copy "
                                   f"{len(c.lines)}")
        else:
            n = next(i for i, (x, y) in enumerate(zip(d.lines, c.lines, strict=False), start=1) if x != y)
            best.games[game] = c
            report.findings.append(f"game {game}: line {n} differs between the database and the copy (the copy's "
                                   f"is verified by its hash chain)")
    _compare_faults(report, db, copy, best, have_db)
    best.current = copy.current if copy.current in best.games else db.current
    if db.current is not None and db.current not in copy.games:
        best.current = db.current        # a game the copy lags behind on
    report.best = best
    if have_db and db.current != best.current:
        report.findings.append(f"the current game is {db.current} in the database, {best.current} in the copy")
    one_ahead = not record.numbered or report.db_commit is None or record.commit == report.db_commit + 1
    if (have_db and not damaged_before and record.entries and one_ahead and not _same(db, copy)
            and _same(db, _without_last(record))):
        report.findings.clear()
        report.best, report.complete_last, report.rewrite_copy = copy, True, False
        report.notes.append("the last commit was cut by a stop before it reached the database: completed from "
                            "the copy")
    if report.rewrite_copy and not report.findings:
        report.notes.append(f"the copy {record_path(report.path).name} lags behind the database: written afresh")


def _compare_faults(report: Inspection, db: RecordState, copy: RecordState, best: RecordState,
                    have_db: bool) -> None:
    """The fault reports: the copy's, with the database's it lacks (a transaction the copy lost to a
    power cut); one the database lacks is damage unless it is the copy's last commit (completed)."""
    for number in sorted(set(db.faults) | set(copy.faults)):
        d, c = db.faults.get(number), copy.faults.get(number)
        if c is None:
            assert d is not None
            best.faults[number] = Fault(d.report, d.dismissed)
            report.rewrite_copy = True
            continue
        best.faults[number] = Fault(c.report, c.dismissed or (d is not None and d.dismissed))
        if d is None and have_db:
            report.findings.append(f"fault report {number} is missing from the database")
        elif d is not None and d.dismissed and not c.dismissed:
            report.rewrite_copy = True


def _without_last(record: RecordRead) -> RecordState:
    """The copy without its last transaction (every record of the last commit number)."""
    entries = record.entries
    if record.numbered:
        while entries and entries[-1].get("n") == record.commit:
            entries = entries[:-1]
    else:
        entries = entries[:-1]
    state = RecordState()
    for rec in entries:
        state.apply(rec)
    return state


def _same(a: RecordState, b: RecordState) -> bool:
    return a.current == b.current and a.games.keys() == b.games.keys() and all(
        (a.games[g].lines, a.games[g].options, a.games[g].title) == (b.games[g].lines, b.games[g].options,
                                                                     b.games[g].title) for g in a.games) \
        and {n: (f.report, f.dismissed) for n, f in a.faults.items()} \
        == {n: (f.report, f.dismissed) for n, f in b.faults.items()}


# --- putting it right ------------------------------------------------------------------------
def set_aside(path: Path) -> Path:
    """Copy the journal's files (database, -wal, -shm, copy) into a new `damaged-<time>`
    directory beside it, fsynced; nothing is deleted. Returns the directory. On an error (a full
    disk) the directory is removed again and the error raised."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    aside = path.parent / f"damaged-{stamp}"
    n = 1
    while aside.exists():
        n += 1
        aside = path.parent / f"damaged-{stamp}-{n}"
    aside.mkdir()
    try:
        for f in (path, wal_path(path), shm_path(path), record_path(path)):
            if f.exists():
                shutil.copy2(f, aside / f.name)
                with open(aside / f.name, "rb") as done:
                    os.fsync(done.fileno())
        fsync_dir(aside)
        fsync_dir(path.parent)
    except BaseException:
        shutil.rmtree(aside, ignore_errors=True)
        raise
    return aside


def fault_report(report: Inspection) -> dict[str, Any]:
    """What a recovery found, as its fault report keeps it (rubicon/journal_faults.py reads it)."""
    return {"time": time.time(), "findings": list(report.findings), "said": report.describe(),
            "aside": report.aside.name if report.aside is not None else "",
            "lines": report.current_lines, "game": report.best.current,
            "nothing_verified": not report.recoverable}


def recover(path: Path, report: Inspection) -> Path:
    """Set the damaged files aside, then rebuild the journal (database and copy) from `report.best`,
    with the fault report of what was found in the same transaction. The order survives a crash at
    any point: the copy is written before the old database is replaced, so the next open finds the
    database behind the copy and recovers again. RecoveryRefused (everything begun removed, the
    journal's files as they were) when the disk refuses it."""
    try:
        aside = set_aside(path)
    except (OSError, sqlite3.Error) as exc:
        raise RecoveryRefused(exc, path) from exc
    report.aside = aside
    state = RecordState(dict(report.best.games), report.best.current, dict(report.best.faults))
    number = max(state.faults, default=0) + 1
    state.faults[number] = Fault(fault_report(report))
    commit = max(report.db_commit or 0, report.record.commit if report.record is not None else 0) + 1
    report.table_id = report.table_id or new_table_id()
    try:
        rebuild(path, state, report.table_id, commit)
    except _Untouched as exc:       # the journal's files are as they were: the aside is not needed
        shutil.rmtree(aside, ignore_errors=True)
        report.aside = None
        raise RecoveryRefused(exc.cause, path) from exc.cause
    except (OSError, sqlite3.Error) as exc:
        raise RecoveryRefused(exc, path) from exc
    report.fault = number
    report.best.faults = state.faults
    return aside


class _Untouched(RubiconError, Exception):
    """rebuild() failed before it changed any of the journal's files."""
    def __init__(self, cause: BaseException):
        super().__init__(str(cause))
        self.cause = cause


def rebuild(path: Path, state: RecordState, table_id: str, commit: int) -> None:
    """Write a new journal holding `state` (the table `table_id`, at commit number `commit`) beside
    `path`, with its record file, and put it in place by a rename (the directory fsync'd after).
    _Untouched when it fails before the copy is replaced (what it wrote is removed)."""
    tmp = path.with_name(path.name + ".rebuilt")
    temporary = (tmp, wal_path(tmp), shm_path(tmp))
    try:
        for f in temporary:
            f.unlink(missing_ok=True)
        db = sqlite3.connect(tmp, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN IMMEDIATE")
            create_tables(db, table_id, commit)
            write_state(db, state, time.time())
            db.execute("COMMIT")
        finally:
            db.close()                  # the last connection: SQLite checkpoints and removes the WAL
        write_fresh(record_path(path), table_id, records_of(state), commit)
    except (OSError, sqlite3.Error) as exc:
        for f in temporary:
            f.unlink(missing_ok=True)
        raise _Untouched(exc) from exc
    for f in (wal_path(path), shm_path(path)):    # copied aside first; a stale WAL must not meet the new file
        f.unlink(missing_ok=True)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def bring_up_to_date(path: Path, report: Inspection, table_id: str) -> None:
    """What an open puts right without damage: the copy's last transaction into the database, or a
    copy written afresh from the database; a version 1 journal given the identity `table_id` (the
    database first: a stop before the copy is rewritten leaves a version 1 copy, written afresh at
    the next open)."""
    if report.complete_last and report.record is not None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN IMMEDIATE")
            last = report.record.commit
            for rec in report.record.entries[-1:] if not report.record.numbered else \
                    [r for r in report.record.entries if r.get("n") == last]:
                apply_record(db, rec, time.time())
            if report.record.numbered:
                set_commit(db, last)
            db.execute("COMMIT")
        finally:
            db.close()
    if report.upgrade:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN IMMEDIATE")
            create_tables(db, table_id, report.db_commit or 0)
            db.execute("COMMIT")
            _, report.db_commit = read_meta(db)
        finally:
            db.close()
    if (report.rewrite_copy or report.upgrade) and report.database is not None:
        write_fresh(record_path(path), table_id, records_of(report.best), report.db_commit or 0)


def apply_record(db: sqlite3.Connection, rec: dict[str, Any], now: float) -> None:
    """One record of the copy as SQL (inside the caller's transaction)."""
    game, op = rec.get("game"), rec["op"]
    if op == "fault":
        db.execute("INSERT INTO faults (id, report, dismissed) VALUES (?, ?, ?)",
                   (rec["fault"], json.dumps(rec["report"], sort_keys=True), int(bool(rec.get("dismissed")))))
    elif op == "dismiss":
        db.execute("UPDATE faults SET dismissed = 1 WHERE id = ?", (rec["fault"],))
    elif op == "game":
        db.execute("UPDATE games SET current = 0 WHERE current = 1")
        db.execute("INSERT INTO games (id, options, created, title, current) VALUES (?, ?, ?, ?, 1)",
                   (game, json.dumps(rec["options"], sort_keys=True), rec["created"], rec["title"]))
    elif op == "lines":
        db.executemany("INSERT INTO lines (game, seq, line, t) VALUES (?, ?, ?, ?)",
                       [(game, rec["from"] + n, line, now) for n, line in enumerate(rec["lines"])])
    elif op == "keep":
        db.execute("DELETE FROM lines WHERE game = ? AND seq > ?", (game, rec["keep"]))
    elif op == "current":
        db.execute("UPDATE games SET current = 0 WHERE current = 1")
        db.execute("UPDATE games SET current = 1 WHERE id = ?", (game,))

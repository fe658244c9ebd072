"""The journal's second copy: an append-only text file beside the SQLite file, one hash-chained
record per write transaction, written before its COMMIT and fsynced with it.

SQLite can lose committed transactions without an error when its files are damaged (a deleted or
corrupt `-wal` is simply ignored; a WAL cut short or with a bad frame is replayed up to the frame
before). This file is the witness that lets the journal notice: it holds the same games, lines,
take-backs and current game, written by other code paths (plain `write` + `fsync`), each record
chained to the one before by a SHA-256, so a damaged record and everything after it are known to
be unverified. `rubicon/journal_check.py` compares the two at every open.

    journal.sqlite3.record:
        rubicon-record 2 5f0c…e1            <- the table's identity, made with the journal
        <hash> {"game":1,"n":1,"op":"game","options":{},"created":...,"title":""}
        <hash> {"from":1,"game":1,"lines":["Chance deals ..."],"n":2,"op":"lines"}
        <hash> {"game":1,"keep":3,"n":3,"op":"keep"}
        <hash> {"game":1,"n":4,"op":"current"}
        <hash> {"fault":1,"n":5,"op":"fault","report":{...}}     <- what a recovery found
        <hash> {"fault":1,"n":6,"op":"dismiss"}                   <- a player has read it

`<hash>` is the first 32 hex digits of sha256(previous hash + the JSON text), the first record's
previous hash being that of the header line. `n` is the commit number of the record's transaction
(the database keeps the same number, in the same transaction: `meta.commits`), so the check can
tell a copy cut short at a record boundary or one from another table. A copy written afresh
(from a database) gives all its records the database's commit number. A line that is cut short
(no newline: the write was interrupted) is a torn tail, not damage. Version 1 files (no identity,
no commit numbers) are still read; the open writes them afresh as version 2.
"""
from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HEADER = "rubicon-record 1"          # version 1: no identity, no commit numbers (read, never written)
HEADER_2 = "rubicon-record 2"        # followed by a space and the table's identity
HASH_CHARS = 32


def record_path(db_path: Path) -> Path:
    """The append-only record file kept beside the journal database."""
    return db_path.with_name(db_path.name + ".record")


def _link(previous: str, text: str) -> str:
    return hashlib.sha256((previous + text).encode("utf-8")).hexdigest()[:HASH_CHARS]


def header_of(table_id: str) -> str:
    """The first line of a copy belonging to the table `table_id`."""
    return f"{HEADER_2} {table_id}"


def first_hash(header: str) -> str:
    """The hash the first record is chained to: that of the header line."""
    return hashlib.sha256(header.encode("utf-8")).hexdigest()[:HASH_CHARS]


FIRST_HASH = first_hash(HEADER)


@dataclass
class GameRecord:
    """One game as the record file holds it: options, start time, title and its notation lines."""
    options: dict[str, str]
    created: float
    title: str
    lines: list[str] = field(default_factory=list)


@dataclass
class Fault:
    """What a recovery found (`report`: rubicon/journal_faults.py), kept until a player dismissed it."""
    report: dict[str, Any]
    dismissed: bool = False


@dataclass
class RecordState:
    """What the verified records spell: the games with their lines, the current game, and the
    recoveries' fault reports."""
    games: dict[int, GameRecord] = field(default_factory=dict)
    current: int | None = None
    faults: dict[int, Fault] = field(default_factory=dict)

    def apply(self, rec: dict[str, Any]) -> None:
        """Apply one record; ValueError when it does not follow from the records before it."""
        op, game = rec.get("op"), rec.get("game")
        if op in ("fault", "dismiss"):
            self._fault(op, rec)
            return
        if not isinstance(game, int):
            raise ValueError("no game number")
        if op == "game":
            options = rec.get("options")
            if game in self.games or not isinstance(options, dict):
                raise ValueError(f"game {game} begun twice or without options")
            self.games[game] = GameRecord({str(k): str(v) for k, v in options.items()},
                                          float(rec.get("created", 0.0)), str(rec.get("title", "")))
            self.current = game
            return
        if game not in self.games:
            raise ValueError(f"no game {game} begun before")
        lines = self.games[game].lines
        if op == "lines":
            new = rec.get("lines")
            if rec.get("from") != len(lines) + 1 or not isinstance(new, list) or not new \
                    or not all(isinstance(x, str) for x in new):
                raise ValueError(f"lines of game {game} from {rec.get('from')}, after {len(lines)}")
            lines.extend(new)
        elif op == "keep":
            keep = rec.get("keep")
            if not isinstance(keep, int) or not 0 <= keep <= len(lines):
                raise ValueError(f"game {game} keeps {keep} of {len(lines)} lines")
            del lines[keep:]
        elif op == "current":
            self.current = game
        else:
            raise ValueError(f"unknown record {op!r}")

    def _fault(self, op: str, rec: dict[str, Any]) -> None:
        number, report = rec.get("fault"), rec.get("report")
        if not isinstance(number, int):
            raise ValueError("no fault number")
        if op == "fault":
            if number in self.faults or not isinstance(report, dict):
                raise ValueError(f"fault report {number} made twice or without a report")
            self.faults[number] = Fault(report, bool(rec.get("dismissed", False)))
        elif number not in self.faults:
            raise ValueError(f"fault report {number} dismissed before it was made")
        else:
            self.faults[number].dismissed = True


@dataclass
class RecordRead:
    """The records of a file up to the first that cannot be verified."""
    state: RecordState
    records: int                  # verified records
    last_hash: str
    good_bytes: int               # the length of the verified part (header included)
    size: int                     # the file's length
    problem: str | None = None    # why reading stopped before the end (None: all verified, or a torn tail)
    torn: bool = False            # the last line was cut short (an interrupted write, not damage)
    exists: bool = True
    entries: list[dict[str, Any]] = field(default_factory=list)   # the verified records
    table_id: str | None = None   # the table the copy belongs to (None: a version 1 copy)
    commit: int = 0               # the commit number of its last verified record (version 2)

    @property
    def numbered(self) -> bool:
        """Whether the copy carries the table's identity and commit numbers (version 2)."""
        return self.table_id is not None


def read_record(path: Path) -> RecordRead:
    """Read and verify the file (see the module docstring); never raises for its content."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return RecordRead(RecordState(), 0, FIRST_HASH, 0, 0, exists=False)
    state = RecordState()
    entries: list[dict[str, Any]] = []
    header, table_id = _header(data)
    if header is None:
        torn = b"\n" not in data and (HEADER_2.encode().startswith(data[:len(HEADER_2)])
                                       or HEADER.encode().startswith(data))
        return RecordRead(state, 0, FIRST_HASH, 0, len(data), None if torn else "its first line is not "
                          f"{HEADER_2!r} and the table's identity", torn=torn and bool(data))
    pos = len(header) + 1
    previous, count, commit = first_hash(header), 0, 0

    def read(problem: str | None = None, torn: bool = False) -> RecordRead:
        return RecordRead(state, count, previous, pos, len(data), problem, torn=torn, entries=entries,
                          table_id=table_id, commit=commit)
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            return read(torn=True)
        raw = data[pos:end]
        try:
            digest, text = raw.decode("utf-8").split(" ", 1)
            if digest != _link(previous, text):
                raise ValueError("its hash does not follow from the records before it")
            rec = json.loads(text)
            if not isinstance(rec, dict):
                raise ValueError("not a record")
            n = _commit_of(rec, commit if count else None) if table_id is not None else 0
            state.apply(rec)
        except (ValueError, UnicodeDecodeError) as exc:
            return read(f"record {count + 1} is damaged ({exc})")
        entries.append(rec)
        previous, count, pos, commit = digest, count + 1, end + 1, n
    return read()


def _header(data: bytes) -> tuple[str | None, str | None]:
    """The header line and the table's identity it names (None for version 1), or (None, None)."""
    end = data.find(b"\n")
    if end < 0:
        return None, None
    try:
        line = data[:end].decode("ascii")
    except UnicodeDecodeError:
        return None, None
    if line == HEADER:
        return line, None
    table_id = line[len(HEADER_2) + 1:]
    if line.startswith(HEADER_2 + " ") and table_id.isalnum():
        return line, table_id
    return None, None


def _commit_of(rec: dict[str, Any], previous: int | None) -> int:
    """A version 2 record's commit number: the same as the record before (one transaction) or the next."""
    n = rec.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError("no commit number")
    if previous is not None and n not in (previous, previous + 1):
        raise ValueError(f"commit {n} after commit {previous}")
    return n


def records_of(state: RecordState) -> list[dict[str, Any]]:
    """The records that spell `state` (a copy written afresh from a database)."""
    out: list[dict[str, Any]] = [{"op": "fault", "fault": number, "report": f.report, "dismissed": f.dismissed}
                                 for number, f in sorted(state.faults.items())]
    for game_id in sorted(state.games):
        g = state.games[game_id]
        out.append(game_record(game_id, g.options, g.created, g.title))
        if g.lines:
            out.append({"op": "lines", "game": game_id, "from": 1, "lines": list(g.lines)})
    if state.current is not None:
        out.append({"op": "current", "game": state.current})
    return out


def game_record(game_id: int, options: dict[str, str], created: float, title: str) -> dict[str, Any]:
    """The record entry that opens game `game_id`."""
    return {"op": "game", "game": game_id, "options": dict(options), "created": created, "title": title}


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new file in `directory` durable (its entry, not only the file's data)."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_fresh(path: Path, table_id: str, records: list[dict[str, Any]], commit: int) -> None:
    """Write a new copy of the table `table_id` holding `records`, all of commit number `commit` (the
    database's), through a temporary file, fsynced and renamed over `path`. OSError (the temporary
    file removed) when the disk refuses it: the old copy is then as it was."""
    tmp = path.with_name(path.name + ".new")
    header = header_of(table_id)
    text, _ = _encode(first_hash(header), records, commit)
    try:
        with open(tmp, "wb") as f:
            f.write((header + "\n").encode() + text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def _encode(previous: str, records: list[dict[str, Any]], commit: int) -> tuple[bytes, str]:
    parts = []
    for rec in records:
        text = json.dumps({**rec, "n": commit}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        previous = _link(previous, text)
        parts.append(f"{previous} {text}\n")
    return "".join(parts).encode("utf-8"), previous


class RecordWriter:
    """Appends records to a verified copy. Used under the journal's lock only:

        copy.write(records)     # written (a kill -9 keeps it); its fsync runs in the background
        ... COMMIT ...          # SQLite's own fsync meanwhile: the two overlap instead of adding up
        copy.synced()           # both on disk before the action is acknowledged
        copy.undo()             # or: the COMMIT failed, the records are taken back

    Written before the COMMIT, the copy is never behind the database after a kill; after a power
    cut it may lack the last transaction the database has, which the check at open accepts (the
    database is then the longer verified record)."""

    def __init__(self, path: Path, read: RecordRead, table_id: str):
        self.path = path
        self._hash = read.last_hash
        self.commit = read.commit         # the commit number of the last record written
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        if read.good_bytes == 0:
            header = header_of(table_id)
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, (header + "\n").encode(), 0)
            self._size = len(header) + 1
            self._hash = first_hash(header)
        else:
            self._size = read.good_bytes
            if read.size != read.good_bytes:
                os.ftruncate(self._fd, self._size)    # a torn tail (the check kept it aside if it was damage)
        os.fsync(self._fd)
        self._before: tuple[int, str, int] | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="journal-copy-fsync")
        self._syncing: Future | None = None

    def write(self, records: list[dict[str, Any]]) -> None:
        """Append as the next commit (`commit` + 1) and start the fsync; on an error the file is cut
        back and OSError raised."""
        data, new_hash = _encode(self._hash, records, self.commit + 1)
        self._before = (self._size, self._hash, self.commit)
        try:
            written = 0
            while written < len(data):
                written += os.pwrite(self._fd, data[written:], self._size + written)
        except OSError:
            self.undo()
            raise
        self._size += len(data)
        self._hash = new_hash
        self.commit += 1
        self._syncing = self._pool.submit(os.fsync, self._fd)

    def synced(self) -> None:
        """Wait for the last write's fsync; OSError if it failed."""
        syncing, self._syncing = self._syncing, None
        if syncing is not None:
            syncing.result()

    def undo(self) -> None:
        """Take back the last `write` (its database commit failed): best effort, since a record
        the database lacks is at worst an unacknowledged commit completed at the next open."""
        try:
            self.synced()
        except OSError:
            pass
        if self._before is None:
            return
        self._size, self._hash, self.commit = self._before
        self._before = None
        try:
            os.ftruncate(self._fd, self._size)
            os.fsync(self._fd)
        except OSError:
            pass

    def close(self) -> None:
        """Flush and fsync what is written (as far as the disk allows), stop the sync thread and close the file."""
        try:
            self.synced()
        except OSError:
            pass
        self._pool.shutdown()
        os.close(self._fd)

"""The journal's SQLite schema (games, lines, tray_rolls, faults, meta), its version, and reading a
whole file into a `RecordState` — shared by the journal (rubicon/journal.py) and its check and
recovery (rubicon/journal_check.py), which rebuilds a database from the verified copy.

`meta` holds the table's identity (made with the journal, also in the copy's first line) and the
commit number of the last transaction that wrote the copy (each such transaction raises it, in the
same transaction): rubicon/journal_check.py compares both with the copy's. Version 1 journals have
neither (nor `faults`): the open adds them (`upgrade`)."""
from __future__ import annotations

import json
import sqlite3
import uuid

from .journal_record import Fault, GameRecord, RecordState

SCHEMA_VERSION = 2

TABLES = ("""CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, options TEXT NOT NULL, created REAL NOT NULL,
    title TEXT NOT NULL DEFAULT '', current INTEGER NOT NULL DEFAULT 0)""",
          """CREATE TABLE IF NOT EXISTS lines (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
    line TEXT NOT NULL, t REAL NOT NULL, PRIMARY KEY (game, seq))""",
          # The tray's name ("BOOT/ID") of each roll taken from it, committed with its line: the tray
          # is told to forget a roll only after this commit, so a roll it repeats after a crash
          # between the two is known as taken (an older journal simply gains the table).
          """CREATE TABLE IF NOT EXISTS tray_rolls (
    roll TEXT PRIMARY KEY, game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL)""",
          # What each recovery found (a JSON report), said on every page until a player dismissed it.
          """CREATE TABLE IF NOT EXISTS faults (
    id INTEGER PRIMARY KEY, report TEXT NOT NULL, dismissed INTEGER NOT NULL DEFAULT 0)""",
          """CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""")


def new_table_id() -> str:
    """A new table identity (random: two journals never share one)."""
    return uuid.uuid4().hex


def create_tables(db: sqlite3.Connection, table_id: str, commit: int = 0) -> None:
    """Inside the caller's transaction: the tables, and the identity and commit number unless the
    database has them already."""
    for sql in TABLES:
        db.execute(sql)
    db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('table_id', ?)", (table_id,))
    db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('commits', ?)", (str(commit),))
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def read_meta(db: sqlite3.Connection) -> tuple[str | None, int | None]:
    """The table's identity and the last commit number (None, None: a version 1 journal)."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone() is None:
        return None, None
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    try:
        commits = int(meta["commits"]) if "commits" in meta else None
    except ValueError:
        commits = None
    return meta.get("table_id"), commits


def set_commit(db: sqlite3.Connection, commit: int) -> None:
    """The commit number of the transaction being written (inside it)."""
    db.execute("UPDATE meta SET value = ? WHERE key = 'commits'", (str(commit),))


def read_state(db: sqlite3.Connection) -> tuple[RecordState, list[str]]:
    """Every game and its lines as the database holds them, and what is wrong with them (a gap in
    a game's sequence, options that are not JSON): a damaged game keeps the lines before the gap.
    sqlite3.DatabaseError when the tables cannot be read at all."""
    state, problems = RecordState(), []
    for game_id, options, created, title, current in db.execute(
            "SELECT id, options, created, title, current FROM games ORDER BY id"):
        try:
            parsed = json.loads(options)
            if not isinstance(parsed, dict):
                raise ValueError(options)
        except (ValueError, TypeError):
            problems.append(f"game {game_id} has damaged rules options {options!r}")
            parsed = {}
        state.games[int(game_id)] = GameRecord({str(k): str(v) for k, v in parsed.items()}, float(created),
                                               str(title))
        if current:
            state.current = int(game_id)
    for game_id, g in state.games.items():
        for n, (seq, line) in enumerate(db.execute("SELECT seq, line FROM lines WHERE game = ? ORDER BY seq",
                                                   (game_id,)), start=1):
            if seq != n or not isinstance(line, str):
                problems.append(f"game {game_id} line {n} is damaged (sequence {seq})")
                break
            g.lines.append(line)
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'faults'").fetchone() is not None:
        for number, report, dismissed in db.execute("SELECT id, report, dismissed FROM faults ORDER BY id"):
            try:
                state.faults[int(number)] = Fault(dict(json.loads(report)), bool(dismissed))
            except (ValueError, TypeError):
                problems.append(f"fault report {number} is damaged")
    return state, problems


def write_state(db: sqlite3.Connection, state: RecordState, now: float) -> None:
    """Fill an empty journal database with `state` (inside the caller's transaction)."""
    db.executemany("INSERT INTO faults (id, report, dismissed) VALUES (?, ?, ?)",
                   [(n, json.dumps(f.report, sort_keys=True), int(f.dismissed))
                    for n, f in sorted(state.faults.items())])
    for game_id in sorted(state.games):
        g = state.games[game_id]
        db.execute("INSERT INTO games (id, options, created, title, current) VALUES (?, ?, ?, ?, ?)",
                   (game_id, json.dumps(g.options, sort_keys=True), g.created, g.title,
                    int(game_id == state.current)))
        db.executemany("INSERT INTO lines (game, seq, line, t) VALUES (?, ?, ?, ?)",
                       [(game_id, n, line, now) for n, line in enumerate(g.lines, start=1)])

"""The journal's SQLite schema (games, lines, tray_rolls), its version, and reading a whole file into a
`RecordState` — shared by the journal (rubicon/journal.py) and its check and recovery
(rubicon/journal_check.py), which rebuilds a database from the verified copy."""
from __future__ import annotations

import json
import sqlite3

from .journal_record import GameRecord, RecordState

SCHEMA_VERSION = 1

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
    seq INTEGER NOT NULL)""")


def create_tables(db: sqlite3.Connection) -> None:
    """Inside the caller's transaction."""
    for sql in TABLES:
        db.execute(sql)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


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
    return state, problems


def write_state(db: sqlite3.Connection, state: RecordState, now: float) -> None:
    """Fill an empty journal database with `state` (inside the caller's transaction)."""
    for game_id in sorted(state.games):
        g = state.games[game_id]
        db.execute("INSERT INTO games (id, options, created, title, current) VALUES (?, ?, ?, ?, ?)",
                   (game_id, json.dumps(g.options, sort_keys=True), g.created, g.title,
                    int(game_id == state.current)))
        db.executemany("INSERT INTO lines (game, seq, line, t) VALUES (?, ?, ?, ?)",
                       [(game_id, n, line, now) for n, line in enumerate(g.lines, start=1)])

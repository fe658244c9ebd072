"""What the table holds between two actions that no journal line records, kept across a restart:
the virtual table's blocks as they stand (set down but not yet Done, held in a hand) and an open
new-game offer. A real board keeps its blocks where the players put them while the Pi restarts;
the virtual board does the same from here.

Kept in the journal's database, in a table of its own (through `Journal.connection`, like the
pairings: not in the journal's copy, since it is no action), written when it changes and read at
start. A write the disk refuses is logged and skipped: the state is then only as durable as the
process (the table says the storage trouble at its next journal write anyway).

    kept = Provisional(journal)
    kept.put("new_game_offer", {...})           # None removes it
    kept.get("new_game_offer")
    keeper = BoardKeeper(kept, virtual_board, current_game=lambda: session.snapshot().game_id)
    keeper.restore()      # at start, after the board was laid out as the game stands; then every
                          # change of the board's is kept (its `on_change`)
"""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

from ..journal import Journal, JournalError

log = logging.getLogger(__name__)

BOARD_KEY = "virtual_board"
OFFER_KEY = "new_game_offer"


class Provisional:
    """Key -> JSON value in the journal's database. Thread-safe (the journal's connection and lock)."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self._written: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        """The value kept under `key`, or None."""
        connection = getattr(self.journal, "connection", None)
        if connection is None:
            return None
        try:
            with connection() as db:
                row = db.execute("SELECT value FROM provisional WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:       # no such table: nothing was ever kept
            return None
        value = None if row is None else json.loads(row[0])
        self._written[key] = value
        return value

    def put(self, key: str, value: Any) -> None:
        """Keep `value` under `key` (None: forget it); nothing is written when it is what was kept."""
        if key in self._written and self._written[key] == value:
            return
        connection = getattr(self.journal, "connection", None)
        if connection is None:
            return
        try:
            with connection(write=True) as db:
                db.execute("CREATE TABLE IF NOT EXISTS provisional (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                if value is None:
                    db.execute("DELETE FROM provisional WHERE key = ?", (key,))
                else:
                    db.execute("INSERT OR REPLACE INTO provisional (key, value) VALUES (?, ?)",
                               (key, json.dumps(value, sort_keys=True)))
        except (JournalError, sqlite3.Error) as exc:
            log.warning("the table's %s could not be kept for the next start: %s", key, exc)
            self._written.pop(key, None)
            return
        self._written[key] = value


class BoardKeeper:
    """The virtual board's arrangement (block -> place or "hand"), kept for the next start: after every
    change of place (the board's `on_change`), a hand and a pool no reader senses included."""

    def __init__(self, kept: Provisional, board: Any, current_game: Callable[[], int | None]):
        self.kept, self.board, self.current_game = kept, board, current_game
        self.live = False          # the lay-out at start is not a player's move: not kept
        board.on_change = self.changed

    def restore(self) -> bool:
        """Put the blocks back where they stood before the restart (the same game only); True if it did.
        From then on every change is kept."""
        saved = self.kept.get(BOARD_KEY)
        restored = False
        if isinstance(saved, dict) and saved.get("game") == self.current_game() and isinstance(saved.get("where"),
                                                                                                 dict):
            # Only blocks and places this board has (a reader layout changed since is no reason to fail a start).
            known = {b: k for b, k in saved["where"].items()
                     if b in self.board.catalog.blocks and (k == "hand" or k in self.board.places)}
            self.board.arrange(known)
            restored = True
        self.live = True
        return restored

    def changed(self) -> None:
        """A block changed place: keep the board as it stands now."""
        if self.live:
            self.kept.put(BOARD_KEY, {"game": self.current_game(),
                                      "where": {b: self.board.where(b) for b in self.board.catalog.blocks}})

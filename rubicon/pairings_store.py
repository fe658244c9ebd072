"""Pairings that outlast the process: the devices paired with each side and the one-time pairing
codes, kept in the journal's SQLite database (its own tables, through `Journal.connection`).

Only hashes are stored: a device's token (the secret its browser holds in its session cookie) and
a code are kept as their SHA-256, so a copy of the database pairs nobody. Tokens are 192 random
bits and codes 72 random bits, used once and expiring within minutes (and wrong codes are rate
limited by the web app): a fast hash is enough, no password hashing is needed.

Both the web app (`rubicon run`) and `rubicon pair SIDE` on the Pi use this store: the command
writes a code here and the running server finds it when a phone redeems it. The database is the
only channel between them (no socket, no signal): whoever can write the state directory is at the
table already.

    store = PairingStore(journal)
    store.add_code("Caesar", code, issued_by="pi", expires=now + CODE_TTL_S, now=now)
    device = store.redeem("Caesar", code, token, label="phone", now=now)   # None: not valid
    store.side_of(token)          # "Caesar" while the device is not revoked
    store.revoke(side="Caesar")

The web app's signing key (Flask's SECRET_KEY) lives here too, so the session cookies, and the
CSRF tokens in open pages, stay valid across a restart.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from .journal import Journal

CODE_TTL_S = 600.0          # a code works for ten minutes, once
KEEP_USED_CODES_S = 86400.0   # used and expired codes are forgotten after a day


@dataclass(frozen=True)
class Device:
    """One paired phone or browser: its id, its side, the label it was given and when it was paired."""
    id: int
    side: str
    label: str
    created: float


def digest(secret: str) -> str:
    """The SHA-256 of a secret as stored: a token or a code is never stored in clear."""
    return hashlib.sha256(secret.encode()).hexdigest()


class PairingStore:
    """Thread-safe (the journal's connection and lock); every write one committed transaction."""

    def __init__(self, journal: Journal):
        self.journal = journal
        with journal.connection(write=True) as db:
            db.execute("""CREATE TABLE IF NOT EXISTS paired_devices (
                id INTEGER PRIMARY KEY, side TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,
                label TEXT NOT NULL DEFAULT '', created REAL NOT NULL, revoked REAL)""")
            db.execute("""CREATE TABLE IF NOT EXISTS pairing_codes (
                code_hash TEXT PRIMARY KEY, side TEXT NOT NULL, issued_by TEXT NOT NULL,
                created REAL NOT NULL, expires REAL NOT NULL, used REAL)""")
            db.execute("CREATE TABLE IF NOT EXISTS web_keys (name TEXT PRIMARY KEY, value TEXT NOT NULL)")

    # --- codes ---------------------------------------------------------------------------
    def add_code(self, side: str, code: str, *, issued_by: str, expires: float, now: float) -> None:
        """Record a one-time code for `side`, valid until `expires` (wall-clock seconds)."""
        with self.journal.connection(write=True) as db:
            db.execute("DELETE FROM pairing_codes WHERE expires < ?", (now - KEEP_USED_CODES_S,))
            db.execute("INSERT INTO pairing_codes (code_hash, side, issued_by, created, expires) "
                       "VALUES (?, ?, ?, ?, ?)", (digest(code), side, issued_by, now, expires))

    def withdraw_codes(self, side: str, issued_by: str, now: float) -> None:
        """End `side`'s unused codes issued by `issued_by` (the TV's code once the side is paired)."""
        with self.journal.connection(write=True) as db:
            db.execute("UPDATE pairing_codes SET expires = ? WHERE side = ? AND issued_by = ? AND used IS NULL "
                       "AND expires > ?", (now, side, issued_by, now))

    def redeem(self, side: str, code: str, token: str, *, label: str, now: float) -> Device | None:
        """Use `side`'s code (unused, not expired) and pair the device holding `token`, in ONE
        transaction: two phones racing with one code cannot both win. None: no such code."""
        with self.journal.connection(write=True) as db:
            used = db.execute("UPDATE pairing_codes SET used = ? WHERE code_hash = ? AND side = ? AND used IS NULL "
                              "AND expires > ?", (now, digest(code), side, now)).rowcount
            if used != 1:
                return None
            cur = db.execute("INSERT INTO paired_devices (side, token_hash, label, created) VALUES (?, ?, ?, ?)",
                             (side, digest(token), label, now))
            return Device(int(cur.lastrowid or 0), side, label, now)

    # --- devices -------------------------------------------------------------------------
    def side_of(self, token: str) -> str | None:
        """The side a device's `token` is paired with, or None for an unknown or revoked token."""
        with self.journal.connection() as db:
            row = db.execute("SELECT side FROM paired_devices WHERE token_hash = ? AND revoked IS NULL",
                             (digest(token),)).fetchone()
        return None if row is None else str(row[0])

    def device_of(self, token: str) -> Device | None:
        """The paired device whose token is `token`, or None for an unknown or revoked one."""
        with self.journal.connection() as db:
            row = db.execute("SELECT id, side, label, created FROM paired_devices WHERE token_hash = ? "
                             "AND revoked IS NULL", (digest(token),)).fetchone()
        return None if row is None else Device(int(row[0]), str(row[1]), str(row[2]), float(row[3]))

    def devices(self, side: str | None = None) -> list[Device]:
        """The devices paired now (not revoked), oldest first; of `side` only if named."""
        with self.journal.connection() as db:
            rows = db.execute("SELECT id, side, label, created FROM paired_devices WHERE revoked IS NULL "
                              "AND (? IS NULL OR side = ?) ORDER BY id", (side, side)).fetchall()
        return [Device(int(i), str(s), str(label), float(c)) for i, s, label, c in rows]

    def revoke(self, *, now: float, side: str | None = None, device: int | None = None) -> int:
        """Unpair every device of `side`, or the one device `device`; returns how many."""
        if (side is None) == (device is None):
            raise ValueError("name a side or a device to revoke")
        with self.journal.connection(write=True) as db:
            if device is not None:
                cur = db.execute("UPDATE paired_devices SET revoked = ? WHERE id = ? AND revoked IS NULL",
                                 (now, device))
            else:
                cur = db.execute("UPDATE paired_devices SET revoked = ? WHERE side = ? AND revoked IS NULL",
                                 (now, side))
            return cur.rowcount

    # --- the web app's key ---------------------------------------------------------------
    def web_key(self) -> str:
        """The web app's signing key, made at the first start and kept from then on."""
        with self.journal.connection(write=True) as db:
            db.execute("INSERT OR IGNORE INTO web_keys (name, value) VALUES ('secret', ?)", (secrets.token_hex(32),))
            return str(db.execute("SELECT value FROM web_keys WHERE name = 'secret'").fetchone()[0])

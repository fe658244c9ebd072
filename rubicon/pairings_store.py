"""Pairings that outlast the process: the devices paired with each side (and the table's screen)
and the one-time pairing codes, kept in the journal's SQLite database (its own tables, through
`Journal.connection`).

Only hashes are stored: a device's token (the secret its browser holds in its session cookie) and
a code are kept as their SHA-256, so a copy of the database pairs nobody. Tokens are 192 random
bits and codes 72 random bits, used once and expiring within minutes (and wrong codes are rate
limited by the web app): a fast hash is enough, no password hashing is needed.

Time: a code's life is counted on the system's monotonic clock (seconds since boot, the same for
every process of one boot, never stepped), with the boot's id beside it: a step of the wall
clock (fake-hwclock's older time after a power cut, NTP's correction, 1970) neither revives nor
kills a code, and a code of an earlier boot is void. A device's pairing has no expiry at all;
its `created` (wall clock) is only shown by `rubicon pair --list`.

Who invited whom: each device keeps `invited_by`, the issuer of the code it used (`pi`: the Pi's
terminal; `table:N`: the code the table's screen N showed; `device:N`: a device of the side).
Revoking a device revokes, transitively, the devices it invited and every unused code it minted.

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
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .journal import Journal

CODE_TTL_S = 600.0          # a code works for ten minutes, once
KEEP_USED_CODES_S = 86400.0   # used and expired codes are forgotten after a day
SCREEN = "screen"           # the pseudo-side of the table's screen (the TV page allowed to show codes)
LABEL_CHARS = 60            # a device's label, as kept and shown


def boot_id() -> str:
    """This boot's id (Linux): monotonic seconds are comparable only within one boot."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return "no-boot-id"


BOOT = boot_id()


def monotonic() -> float:
    """Seconds since boot, shared by every process of this boot and never stepped: the codes' clock."""
    return time.monotonic()


@dataclass(frozen=True)
class Device:
    """One paired phone or browser (or the table's screen): its id, its side, the label it was
    given, when it was paired (wall clock, shown only) and who invited it."""
    id: int
    side: str
    label: str
    created: float
    invited_by: str = ""


def digest(secret: str) -> str:
    """The SHA-256 of a secret as stored: a token or a code is never stored in clear."""
    return hashlib.sha256(secret.encode()).hexdigest()


def printable(text: str, limit: int = LABEL_CHARS) -> str:
    """`text` reduced to printable characters (no control, format or bidi-override character, no
    line break) with runs of blanks made one space, at most `limit` characters."""
    kept = "".join(c if unicodedata.category(c)[0] not in "CZ" or c == " " else " " for c in text)
    return " ".join(kept.split())[:limit]


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
            # Added later: a database of an earlier version gains them (its codes, of no
            # boot, are void; its devices were invited by nobody known).
            self._add_column(db, "paired_devices", "invited_by", "TEXT NOT NULL DEFAULT ''")
            self._add_column(db, "pairing_codes", "boot", "TEXT NOT NULL DEFAULT ''")

    @staticmethod
    def _add_column(db, table: str, column: str, kind: str) -> None:
        if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")

    # --- codes ---------------------------------------------------------------------------
    def add_code(self, side: str, code: str, *, issued_by: str, expires: float, now: float) -> None:
        """Record a one-time code for `side`, valid until `expires` (monotonic seconds of this boot)."""
        with self.journal.connection(write=True) as db:
            db.execute("DELETE FROM pairing_codes WHERE boot != ? OR expires < ?", (BOOT, now - KEEP_USED_CODES_S))
            db.execute("INSERT INTO pairing_codes (code_hash, side, issued_by, created, expires, boot) "
                       "VALUES (?, ?, ?, ?, ?, ?)", (digest(code), side, issued_by, now, expires, BOOT))

    def withdraw_codes(self, side: str, issued_by: str, now: float) -> None:
        """End `side`'s unused codes issued by `issued_by` (the TV's code once the side is paired)."""
        with self.journal.connection(write=True) as db:
            db.execute("UPDATE pairing_codes SET expires = ? WHERE side = ? AND issued_by = ? AND used IS NULL "
                       "AND expires > ?", (now, side, issued_by, now))

    def redeem(self, side: str, code: str, token: str, *, label: str, now: float) -> Device | None:
        """Use `side`'s code (unused, not expired, of this boot) and pair the device holding
        `token`, in ONE transaction: two phones racing with one code cannot both win. None: no
        such code. The label is reduced to printable text and made distinct among the side's
        devices ("Pixel 7 (Chrome) #2")."""
        with self.journal.connection(write=True) as db:
            row = db.execute("SELECT issued_by FROM pairing_codes WHERE code_hash = ? AND side = ? AND used IS NULL "
                             "AND expires > ? AND boot = ?", (digest(code), side, now, BOOT)).fetchone()
            if row is None:
                return None
            used = db.execute("UPDATE pairing_codes SET used = ? WHERE code_hash = ? AND used IS NULL",
                              (now, digest(code))).rowcount
            if used != 1:
                return None
            label = self._distinct(db, side, printable(label) or "?")
            created = time.time()
            cur = db.execute("INSERT INTO paired_devices (side, token_hash, label, created, invited_by) "
                             "VALUES (?, ?, ?, ?, ?)", (side, digest(token), label, created, str(row[0])))
            return Device(int(cur.lastrowid or 0), side, label, created, str(row[0]))

    @staticmethod
    def _distinct(db, side: str, label: str) -> str:
        taken = {str(r[0]) for r in db.execute("SELECT label FROM paired_devices WHERE side = ? AND revoked IS NULL",
                                               (side,))}
        if label not in taken:
            return label
        n = 2
        while f"{label} #{n}" in taken:
            n += 1
        return f"{label} #{n}"

    # --- devices -------------------------------------------------------------------------
    _COLUMNS = "id, side, label, created, invited_by"

    @staticmethod
    def _device(row) -> Device:
        return Device(int(row[0]), str(row[1]), str(row[2]), float(row[3]), str(row[4]))

    def side_of(self, token: str) -> str | None:
        """The side a device's `token` is paired with, or None for an unknown or revoked token."""
        device = self.device_of(token)
        return None if device is None else device.side

    def device_of(self, token: str) -> Device | None:
        """The paired device whose token is `token`, or None for an unknown or revoked one."""
        with self.journal.connection() as db:
            row = db.execute(f"SELECT {self._COLUMNS} FROM paired_devices WHERE token_hash = ? "  # noqa: S608
                             "AND revoked IS NULL", (digest(token),)).fetchone()
        return None if row is None else self._device(row)

    def devices(self, side: str | None = None) -> list[Device]:
        """The devices paired now (not revoked), oldest first; of `side` only if named."""
        with self.journal.connection() as db:
            rows = db.execute(f"SELECT {self._COLUMNS} FROM paired_devices WHERE revoked IS NULL "  # noqa: S608
                              "AND (? IS NULL OR side = ?) ORDER BY id", (side, side)).fetchall()
        return [self._device(row) for row in rows]

    def revoke(self, *, now: float, side: str | None = None, device: int | None = None) -> int:
        """Unpair every device of `side`, or the one device `device`; with each, the devices it
        invited (transitively) and its unused codes. Returns how many devices were unpaired.
        `now`: wall-clock seconds, kept only to be shown."""
        if (side is None) == (device is None):
            raise ValueError("name a side or a device to revoke")
        with self.journal.connection(write=True) as db:
            if device is not None:
                if not -2**63 <= device < 2**63:
                    return 0
                todo = [int(r[0]) for r in db.execute("SELECT id FROM paired_devices WHERE id = ? "
                                                      "AND revoked IS NULL", (device,))]
            else:
                todo = [int(r[0]) for r in db.execute("SELECT id FROM paired_devices WHERE side = ? "
                                                      "AND revoked IS NULL", (side,))]
            done: set[int] = set()
            while todo:
                n = todo.pop()
                if n in done:
                    continue
                done.add(n)
                issuer = f"device:{n}"
                db.execute("UPDATE paired_devices SET revoked = ? WHERE id = ? AND revoked IS NULL", (now, n))
                db.execute("UPDATE pairing_codes SET expires = 0 WHERE issued_by = ? AND used IS NULL", (issuer,))
                todo.extend(int(r[0]) for r in db.execute(
                    "SELECT id FROM paired_devices WHERE invited_by = ? AND revoked IS NULL", (issuer,)))
            if side is not None:
                # A side revoked is a side waiting: nothing of it is kept pending either.
                db.execute("UPDATE pairing_codes SET expires = 0 WHERE side = ? AND used IS NULL", (side,))
            return len(done)

    # --- the web app's key ---------------------------------------------------------------
    def web_key(self) -> str:
        """The web app's signing key, made at the first start and kept from then on."""
        with self.journal.connection(write=True) as db:
            db.execute("INSERT OR IGNORE INTO web_keys (name, value) VALUES ('secret', ?)", (secrets.token_hex(32),))
            return str(db.execute("SELECT value FROM web_keys WHERE name = 'secret'").fetchone()[0])

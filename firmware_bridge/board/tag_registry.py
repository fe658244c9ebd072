"""Which RFID tag is in which block: the enrolled UID -> block id table, kept in a JSON file.

The file lives at `$RUBICON_TAGS`, else `$XDG_DATA_HOME/rubicon/tags.json` (~/.local/share). It is
written atomically (temp file `.<name>.<pid>.tmp` + fsync + rename + directory fsync), so neither a
crash nor a power cut leaves half a registry. A save keeps the file's mode, writes through a
symlink to its target (the link stays), and removes temp files a killed save left behind (those of
processes no longer running). A tag belongs to one block and a block has one tag; `assign()`
refuses to break that unless told to replace. Loading refuses a file naming a block the game does
not have, or a tag (or a block) listed twice, with the line it is on.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from firmware_bridge.shared.errors import BridgeValueError

UID_PATTERN = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")


class RegistryError(BridgeValueError):
    """The registry file is unreadable, or an assignment would break one-tag-one-block."""


def default_path() -> Path:
    """Where the tag registry lives: $RUBICON_TAGS, else $XDG_DATA_HOME (or ~/.local/share)/rubicon/tags.json."""
    if os.environ.get("RUBICON_TAGS"):
        return Path(os.environ["RUBICON_TAGS"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "rubicon" / "tags.json"


def normalise_uid(uid: str) -> str:
    """A UID as the registry keeps it: upper-case hex without separators; RegistryError if it is not 4, 7 or 10
    bytes."""
    value = uid.replace(":", "").replace(" ", "").upper()
    if not UID_PATTERN.match(value):
        raise RegistryError(f"{uid!r} is not a 4-, 7- or 10-byte UID in hex")
    return value


class TagRegistry:
    """Which RFID tag is in which block (one tag per block, one block per tag), kept in a JSON file."""
    def __init__(self, path: Path | None = None, tags: dict[str, str] | None = None):
        self.path = path
        self._block_of: dict[str, str] = dict(tags or {})

    @classmethod
    def load(cls, path: str | Path | None = None, blocks: Iterable[str] | None = None) -> TagRegistry:
        """Read the registry at `path` (none yet: an empty one). `blocks`: the block ids a tag may
        name (default: the packaged block catalog's)."""
        path = Path(path) if path is not None else default_path()
        if not path.exists():
            return cls(path)
        if blocks is None:
            from firmware_bridge.board.block_catalog import BlockCatalog
            blocks = BlockCatalog.load().blocks
        known = set(blocks)
        try:
            text = path.read_text("utf-8")
            data = json.loads(text, object_pairs_hook=_Pairs)
            tags = dict(data).get("tags") if isinstance(data, _Pairs) else None
            if not isinstance(tags, _Pairs) or not all(isinstance(b, str) for _, b in tags):
                raise TypeError("`tags` must map UIDs to block ids")
        except (OSError, UnicodeDecodeError, ValueError, TypeError, RecursionError) as exc:
            raise RegistryError(f"{path}: not a tag registry: {exc}") from None
        registry = cls(path)
        lines = _key_lines(text)
        seen: dict[str, int] = {}
        for uid, block in tags:
            line = lines.get(uid, [0]).pop(0) if lines.get(uid) else 0
            at = f"{path}:{line}" if line else str(path)
            try:
                normal = normalise_uid(uid)
            except RegistryError as exc:
                raise RegistryError(f"{at}: {exc}") from None
            if normal in seen:
                raise RegistryError(f"{at}: tag {normal} is listed twice (first on line {seen[normal]})")
            seen[normal] = line
            if block not in known:
                raise RegistryError(f"{at}: tag {normal} names {block!r}, which is not a block of the game")
            try:
                registry.assign(normal, block)
            except RegistryError as exc:
                raise RegistryError(f"{at}: {exc} (a block has one tag)") from None
        return registry

    def __len__(self) -> int:
        return len(self._block_of)

    def items(self) -> list[tuple[str, str]]:
        """Every (uid, block) pair, sorted by block."""
        return sorted(self._block_of.items(), key=lambda item: item[1])

    def block_of(self, uid: str) -> str | None:
        """The block whose tag is `uid`, or None for a tag not enrolled."""
        return self._block_of.get(uid.upper())

    def is_enrolled(self, uid: str) -> bool:
        """Whether `uid` is the tag of some block."""
        return uid.upper() in self._block_of

    def uid_of(self, block_id: str) -> str | None:
        """The UID of `block_id`'s tag, or None if the block has none yet."""
        return next((u for u, b in self._block_of.items() if b == block_id), None)

    def assign(self, uid: str, block_id: str, replace: bool = False) -> str | None:
        """Enroll `uid` as `block_id`; with `replace`, drop the block's old tag and the tag's old block.
        Returns the UID the block had before, if another."""
        uid = normalise_uid(uid)
        current = self._block_of.get(uid)
        old_uid = self.uid_of(block_id)
        if not replace and current not in (None, block_id):
            raise RegistryError(f"tag {uid} is already enrolled as {current}")
        if not replace and old_uid not in (None, uid):
            raise RegistryError(f"{block_id} already has tag {old_uid}")
        if old_uid not in (None, uid):
            del self._block_of[old_uid]
        self._block_of[uid] = block_id
        return old_uid if old_uid != uid else None

    def save(self) -> None:
        """Write the registry atomically; RegistryError (the file untouched) when it cannot be."""
        if self.path is None:
            raise RegistryError("this registry has no file to save to")
        payload = json.dumps({"version": 1, "tags": dict(sorted(self._block_of.items()))}, indent=1)
        target = Path(os.path.realpath(self.path))  # a symlink stays a symlink: write its target
        tmp = target.parent / f".{target.name}.{os.getpid()}.tmp"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            remove_stale_temps(target)
            mode = _mode_for(target)
            tmp.unlink(missing_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        except OSError as exc:
            raise RegistryError(f"{self.path}: cannot save the tag registry: {exc}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), mode)  # exactly the old mode, whatever the umask
                handle.write(payload + "\n")
                handle.flush()
                os.fsync(handle.fileno())  # the data is on disk before the rename can be
            os.replace(tmp, target)
        except BaseException as exc:
            tmp.unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise RegistryError(f"{self.path}: cannot save the tag registry: {exc}") from None
            raise
        _sync_directory(target.parent)


class _Pairs(list):
    """A JSON object as its (key, value) pairs in file order, so a key listed twice is seen."""


def _key_lines(text: str) -> dict[str, list[int]]:
    """Each quoted key's line numbers, in order (to name the line of a bad entry)."""
    lines: dict[str, list[int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        for match in re.finditer(r'"((?:[^"\\]|\\.)*)"\s*:', line):
            lines.setdefault(match.group(1), []).append(number)
    return lines


def _mode_for(target: Path) -> int:
    try:
        return os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale_temps(target: Path) -> list[Path]:
    """Delete the temp files of saves that were killed (their process is gone); return them.
    Also the `.tags-XXXXXXXX` temps of the earlier naming."""
    removed = []
    pattern = re.compile(rf"^\.{re.escape(target.name)}\.(\d+)\.tmp$")
    for entry in target.parent.iterdir():
        match = pattern.match(entry.name)
        stale = (match is not None and int(match.group(1)) != os.getpid() and not _pid_alive(int(match.group(1)))
                 or re.match(r"^\.tags-[A-Za-z0-9_]{8}$", entry.name) is not None)
        if stale and entry.is_file() and not entry.is_symlink():
            try:
                entry.unlink()
                removed.append(entry)
            except OSError:
                pass
    return removed


def _sync_directory(directory: Path) -> None:
    """Make a rename in `directory` survive a power cut. Best effort: the new file is already in
    place, and some file systems cannot fsync a directory."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

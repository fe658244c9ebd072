"""Which RFID tag is in which block: the enrolled UID -> block id table, kept in a JSON file.

The file lives at `$RUBICON_TAGS`, else `$XDG_DATA_HOME/rubicon/tags.json` (~/.local/share). It is
written atomically (temp file + fsync + rename + directory fsync), so neither a crash nor a power cut
leaves half a registry. A tag belongs to one block and a block has one tag; `assign()` refuses to break that unless told to replace.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

UID_PATTERN = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")


class RegistryError(ValueError):
    """The registry file is unreadable, or an assignment would break one-tag-one-block."""


def default_path() -> Path:
    if os.environ.get("RUBICON_TAGS"):
        return Path(os.environ["RUBICON_TAGS"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "rubicon" / "tags.json"


def normalise_uid(uid: str) -> str:
    value = uid.replace(":", "").replace(" ", "").upper()
    if not UID_PATTERN.match(value):
        raise RegistryError(f"{uid!r} is not a 4-, 7- or 10-byte UID in hex")
    return value


class TagRegistry:
    def __init__(self, path: Path | None = None, tags: dict[str, str] | None = None):
        self.path = path
        self._block_of: dict[str, str] = dict(tags or {})

    @classmethod
    def load(cls, path: str | Path | None = None) -> "TagRegistry":
        path = Path(path) if path is not None else default_path()
        if not path.exists():
            return cls(path)
        try:
            data = json.loads(path.read_text("utf-8"))
            tags = data["tags"]
            if not isinstance(tags, dict) or not all(isinstance(b, str) for b in tags.values()):
                raise TypeError("`tags` must map UIDs to block ids")
            registry = cls(path)
            for uid, block in tags.items():
                registry.assign(uid, block)
            return registry
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError) as exc:
            raise RegistryError(f"{path}: not a tag registry: {exc}") from None

    def __len__(self) -> int:
        return len(self._block_of)

    def items(self) -> list[tuple[str, str]]:
        return sorted(self._block_of.items(), key=lambda item: item[1])

    def block_of(self, uid: str) -> str | None:
        return self._block_of.get(uid.upper())

    def is_enrolled(self, uid: str) -> bool:
        return uid.upper() in self._block_of

    def uid_of(self, block_id: str) -> str | None:
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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tags-", dir=self.path.parent)
        except OSError as exc:
            raise RegistryError(f"{self.path}: cannot save the tag registry: {exc}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload + "\n")
                handle.flush()
                os.fsync(handle.fileno())  # the data is on disk before the rename can be
            os.replace(tmp, self.path)
        except BaseException as exc:
            Path(tmp).unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise RegistryError(f"{self.path}: cannot save the tag registry: {exc}") from None
            raise
        _sync_directory(self.path.parent)


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

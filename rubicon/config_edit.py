"""Writing a few values into the configuration file, keeping everything else of it as it was
(comments, order, other sections): what `rubicon dice-camera check --calibrate` stores.

A key already in the section has its line replaced; a new one goes at the section's end; a
missing section is added at the file's end. The file is written whole in one replace, and is
checked (load_config) before it is: a value that would make it invalid is refused, the file kept.
"""
from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path

from rubicon.config import load_config


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def set_values(path: str | Path, section: str, values: Mapping[str, object]) -> None:
    """Set `values` in `[section]` of the TOML file at `path`; raises ConfigProblems (the file unchanged)
    when the result would not be a valid configuration."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
    start = next((i for i, line in enumerate(lines) if (m := header.match(line)) and m.group(1).strip() == section),
                 None)
    if start is None:
        lines += ["", f"[{section}]"]
        start = len(lines) - 1
    end = next((i for i in range(start + 1, len(lines)) if header.match(lines[i])), len(lines))
    todo = dict(values)
    for i in range(start + 1, end):
        m = re.match(r"^\s*([A-Za-z0-9_-]+)\s*=", lines[i])
        if m and m.group(1) in todo:
            lines[i] = f"{m.group(1)} = {_toml(todo.pop(m.group(1)))}"
    insert_at = end
    while insert_at > start + 1 and not lines[insert_at - 1].strip():
        insert_at -= 1
    lines[insert_at:insert_at] = [f"{key} = {_toml(value)}" for key, value in todo.items()]
    text = "\n".join(lines) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".config-", suffix=".toml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        load_config(tmp)            # ConfigProblems: the file stays as it was
        os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)

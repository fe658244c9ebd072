"""Saved games: a save is the game's record (rules options and notation lines), with an optional
state checkpoint that is only ever a cross-check.

    {"format": "rubicon-save/1", "options": {"winter_order": "v1.01"},
     "lines": ["Chance deals Caesar: ...", "Caesar discards 2/1", ...],
     "checkpoint": {...}}          # optional: `GameState.to_json()` of the saved position

Owns the save format and its limits, the checks of a save's structure before anything is
replayed, the comparison of a replayed state with its checkpoint (naming the first differing
field), and the record text of options and lines. Replaying is `Game.load`: every line goes
through `Game.apply` from the 705 set-up, so a forged save is at worst a record with an illegal
line. A checkpoint is never loaded: the game is the replayed one, and a checkpoint that differs
from it refuses the save (`docs/engine-design.md`, "Loading a save").
"""
from __future__ import annotations

import json
from typing import Any

from .errors import CorruptSave
from .state import OPTION_CHOICES

SAVE_FORMAT = "rubicon-save/1"
SAVE_KEYS = ("format", "options", "lines")
OPTIONAL_KEYS = ("checkpoint",)
MAX_LINES = 20_000        # a real game has about 300-400 lines; take-backs add a few
MAX_LINE_CHARS = 400      # the longest line (a deal, an amphibious move) is about 100


def fail(what: str, **kw) -> None:
    """Raise CorruptSave (save.format): the save is not one."""
    raise CorruptSave(f"not a Rubicon save: {what}", **kw)


def show(x: Any) -> str:
    """A short, safe description of an untrusted value: never recurses, never prints a huge
    number (str() of a very long int raises ValueError) or a long text in full."""
    if x is None or isinstance(x, (bool, float)):
        return repr(x)
    if isinstance(x, int):
        return repr(x) if abs(x) < 10 ** 15 else f"a {x.bit_length()}-bit number"
    if isinstance(x, str):
        return repr(x) if len(x) <= 40 else repr(x[:40]) + f"... ({len(x)} characters)"
    if isinstance(x, (list, dict)):
        return f"a {'list' if isinstance(x, list) else 'JSON object'} of {len(x)} entries"
    return f"a {type(x).__name__}"


def make_save(options: dict[str, str], lines: list[str], checkpoint: dict | None) -> dict:
    """A save: rules options, every line since the set-up and, optionally, the state as a checkpoint."""
    save: dict[str, Any] = {"format": SAVE_FORMAT, "options": dict(options), "lines": list(lines)}
    if checkpoint is not None:
        save["checkpoint"] = json.loads(json.dumps(checkpoint))   # plain JSON, nothing shared
    return save


def read_save(data: Any) -> tuple[dict[str, str], list[str], dict | None]:
    """The options, lines and checkpoint of a save, after checking its structure (raises
    `CorruptSave` naming what is wrong). Nothing here trusts a value it has not checked."""
    if not isinstance(data, dict):
        fail(f"a save is a JSON object, not {show(data)}")
    missing = [k for k in SAVE_KEYS if k not in data]
    if missing:
        fail(f"the save lacks {', '.join(missing)}")
    extra = [k for k in data if k not in SAVE_KEYS + OPTIONAL_KEYS]
    if extra:
        fail(f"unknown fields {', '.join(show(k) for k in extra[:5])}")
    if data["format"] != SAVE_FORMAT:
        fail(f"format must be {SAVE_FORMAT!r}, not {show(data['format'])}")
    options = data["options"]
    if not isinstance(options, dict):
        fail(f"options must be a JSON object, not {show(options)}")
    for name, value in options.items():
        if name not in OPTION_CHOICES:
            fail(f"unknown rules option {show(name)} (known: {', '.join(OPTION_CHOICES)})")
        if not isinstance(value, str) or value not in OPTION_CHOICES[name]:
            fail(f"rules option {name} is one of {', '.join(OPTION_CHOICES[name])}, not {show(value)}")
    lines = data["lines"]
    if not isinstance(lines, list):
        fail(f"lines must be a list of notation lines, not {show(lines)}")
    if len(lines) > MAX_LINES:
        fail(f"{len(lines)} lines; a save holds at most {MAX_LINES}")
    for n, line in enumerate(lines, start=1):
        if not isinstance(line, str):
            fail(f"line {n} must be a notation line (text), not {show(line)}", code="save.line", line=n)
        if len(line) > MAX_LINE_CHARS:
            fail(f"line {n} has {len(line)} characters; a line has at most {MAX_LINE_CHARS}",
                 code="save.line", line=n)
        if "\n" in line or "\r" in line:
            fail(f"line {n} holds a line break; each entry is one line", code="save.line", line=n)
    checkpoint = data.get("checkpoint")
    if checkpoint is not None and not isinstance(checkpoint, dict):
        fail(f"checkpoint must be a JSON object, not {show(checkpoint)}")
    return dict(options), list(lines), checkpoint


def check_checkpoint(replayed: dict, checkpoint: dict) -> None:
    """Refuse a checkpoint that is not exactly the replayed state (`GameState.to_json()`),
    naming the first differing field."""
    replayed = json.loads(json.dumps(replayed))
    diff = first_difference(replayed, checkpoint)
    if diff is not None:
        path, mine, theirs = diff
        raise CorruptSave(f"the checkpoint is not the position its lines reach: {path or 'the state'} "
                          f"is {theirs} in the checkpoint, {mine} by the lines", code="save.checkpoint",
                          field=path)


def first_difference(mine: Any, theirs: Any, path: str = "") -> tuple[str, str, str] | None:
    """(path, replayed value, checkpoint value) of the first difference, walking `mine` (the
    engine's own state, so the recursion is as shallow as the state, however deep `theirs` is)."""
    if isinstance(mine, dict):
        if not isinstance(theirs, dict):
            return path, show(mine), show(theirs)
        for k in mine:
            if k not in theirs:
                return _join(path, k), show(mine[k]), "missing"
        for k in theirs:
            if k not in mine:
                return _join(path, k), "missing", show(theirs[k])
        for k, v in mine.items():
            d = first_difference(v, theirs[k], _join(path, k))
            if d is not None:
                return d
        return None
    if isinstance(mine, list):
        if not isinstance(theirs, list):
            return path, show(mine), show(theirs)
        for i, v in enumerate(mine):
            if i >= len(theirs):
                return f"{path}[{i}]", show(v), "missing"
            d = first_difference(v, theirs[i], f"{path}[{i}]")
            if d is not None:
                return d
        if len(theirs) > len(mine):
            return f"{path}[{len(mine)}]", "missing", show(theirs[len(mine)])
        return None
    if type(mine) is not type(theirs) or mine != theirs:
        return path, show(mine), show(theirs)
    return None


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else str(key)


def record_text(options: dict[str, str], lines: list[str], comment: str | None = None) -> str:
    """A game record (docs/notation.md): a title comment, the options header, the lines."""
    out = ["# Rubicon game record"]
    if comment:
        out.extend(f"# {c}" for c in comment.split("\n"))
    out.extend(f"Option {k}: {v}" for k, v in options.items())
    out.extend(lines)
    return "\n".join(out) + "\n"

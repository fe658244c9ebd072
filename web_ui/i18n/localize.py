"""A viewer's state with the texts of the reader's language added, built per request.

`localize(state)` returns a copy of a `Snapshot.for_viewer` dict (plus whatever the blueprint
added) where each pending decision has `text`, each log entry `said` (its effects in words) and
`board` (what to do on the board), the table part's instructions and messages their `text` by
code, and a refusal its `text`. Nothing is added that the state did not already carry: the
texts are built from the params this viewer may see.
"""
from __future__ import annotations

from typing import Any

from .messages import (
    render_ask,
    render_decision,
    render_effect,
    render_instruction,
    render_refusal,
    render_table_item,
    render_waiting,
)


def localize(state: dict[str, Any]) -> dict[str, Any]:
    """A snapshot for the page, with a text in the request's language beside every decision, log entry, instruction
    and message."""
    out = dict(state)
    out["pending"] = [{**d, "text": render_decision(d)} for d in state.get("pending") or ()]
    out["log"] = [_entry(e) for e in state.get("log") or ()]
    table = state.get("table")
    if isinstance(table, dict):
        out["table"] = localize_table(table)
        out["table"]["waiting_text"] = render_waiting(out, table)
    return out


def _entry(entry: dict[str, Any]) -> dict[str, Any]:
    effects = entry.get("effects") or ()
    said = [t for t in (render_effect(e) for e in effects) if t]
    board = [t for t in (render_instruction(e) for e in effects) if t]
    return {**entry, "said": said, "board": board}


def localize_table(table: dict[str, Any]) -> dict[str, Any]:
    """The table part of a snapshot with its instructions and messages given texts in the request's language."""
    out = dict(table)
    for key in ("instructions", "messages"):
        items = table.get(key)
        if isinstance(items, list):
            out[key] = [{**i, "text": render_table_item(i, step=key == "instructions")} if isinstance(i, dict)
                        else i for i in items]
    if isinstance(table.get("ask"), dict):
        out["ask"] = {**table["ask"], "prompt": render_ask(table["ask"])}
    return out


def localize_refusal(refusal: dict[str, Any] | None) -> dict[str, Any] | None:
    """A refusal with its text in the request's language (None stays None)."""
    if refusal is None:
        return None
    return {**refusal, "text": render_refusal(refusal)}

"""Feedback at the table: the panel's buzzer and LEDs, and the messages each viewer reads.

Owns the callback the session is given (`Feedback`: `(kind, side)` with kind "ok" (a placement
read, whatever the rules say of it: the verdict is on the placer's phone alone, docs/table-trust.md),
"illegal" (what the whole room sees: a block of the side that may not act moved, a stray tag, a
refused Done) or "your_turn" as `firmware_bridge.panel.Panel.feedback` takes them (your_turn lights that side
alone), "your_turn_too" (a simultaneous step: light this side as well, no beep) or "off" (that
side's LED off: nothing to do); `panel_feedback(panel)` adapts a Panel and never lets a panel
fault stop the game), and `Messages`: the latest
refusals and notices per viewer, each {"code", "rule", "params", "text"}. A message that names
a hidden block is only ever given to that block's owner: callers pass the redacted form (or
nothing) for everyone else.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from engine import IllegalAction

Feedback = Callable[[str, str], None]
VIEWERS = ("public", "Caesar", "Pompeius")
KEPT = 5     # messages kept per viewer (the latest first)

log = logging.getLogger(__name__)


class _Panel(Protocol):
    def feedback(self, kind: str, side: str) -> None: ...

    def set_status(self, side: str, colour: str) -> None: ...


def panel_feedback(panel: _Panel) -> Feedback:
    """The session's feedback callback driving a `Panel` (a broken buzzer is logged, not fatal)."""
    def feedback(kind: str, side: str) -> None:
        try:
            if kind == "off":
                panel.set_status(side, "off")
            elif kind == "your_turn_too":
                panel.set_status(side, "blue")
            else:
                panel.feedback(kind, side)
        except Exception as exc:   # the panel is a convenience: the game goes on without it
            log.warning("panel feedback %s for %s failed: %r", kind, side, exc)
    return feedback


def message(code: str, text: str, params: dict[str, Any] | None = None, rule: str | None = None) -> dict[str, Any]:
    return {"code": code, "rule": rule, "params": dict(params or {}), "text": text}


def from_refusal(exc: IllegalAction) -> dict[str, Any]:
    data = exc.to_json()
    return message(data.get("code") or "table.refused", data.get("text") or str(exc), data.get("params"),
                   data.get("rule"))


class Messages:
    """The latest messages per viewer ("public", "Caesar", "Pompeius")."""

    def __init__(self) -> None:
        self._by: dict[str, list[dict[str, Any]]] = {v: [] for v in VIEWERS}

    def add(self, viewer: str, msg: dict[str, Any]) -> None:
        kept = self._by[viewer]
        kept.insert(0, msg)
        del kept[KEPT:]

    def clear(self, viewer: str) -> None:
        self._by[viewer] = []

    def of(self, viewer: str) -> list[dict[str, Any]]:
        return [dict(m) for m in self._by[viewer]]

"""Feedback at the table: the panel's buzzer and LEDs, and the messages each viewer reads.

Owns the callback the session is given (`Feedback`: `(kind, side)` with kind "ok" (a placement
read, whatever the rules say of it: the verdict is on the placer's phone alone, docs/table-trust.md),
"illegal" (what the whole room sees: a block of the side that may not act moved, a stray tag, a
refused Done) or "your_turn" as `firmware_bridge.panel.Panel.feedback` takes them (your_turn lights that side
alone), "your_turn_too" (a simultaneous step: light this side as well, no beep) or "off" (that
side's LED off: nothing to do); `panel_feedback(panel)` adapts a Panel and never lets a panel
fault stop the game), and the `MessageBoard`: the refusals and notices of the table with their
lifecycle.

A message has an id, an audience (the viewers it concerns: the phone of the side that caused it;
the public, hence the TV and both phones, only for what the whole room sees anyway: a stray tag, the
dice tray), a cause (the side or device it came from) and a clearing condition (`CLEARS`): it
lives until that condition holds, until the game moves on (a commit, an undo, a new game: every
message but a lasting one), until its cause's next request is taken, or until a newer message of
the same topic supersedes it. The session settles the board before each snapshot, so snapshots
carry the live messages only. A message that names a hidden block is only ever given to that
block's owner: its audience is his side alone.

    board = MessageBoard()
    board.post(message("table.in-hand", "...", {"block": "Legio 8"}), audience=("Caesar",), cause="Caesar",
               clears="set-down", subject=12, topic=("Caesar", "request"))
    board.settle(Facts(position=7, in_hand=frozenset()))   # Legio 8 was set down: the message is gone
    board.live("Caesar")     # [] now
"""
from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
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
    """A message as the snapshots carry it: its code, rule, parameters and an English text for logs."""
    return {"code": code, "rule": rule, "params": dict(params or {}), "text": text}


def from_refusal(exc: IllegalAction) -> dict[str, Any]:
    """The message of an engine refusal, with its code, rule and parameters."""
    data = exc.to_json()
    return message(data.get("code") or "table.refused", data.get("text") or str(exc), data.get("params"),
                   data.get("rule"))


@dataclass(frozen=True)
class Facts:
    """What the table knows now, as the clearing conditions read it (blocks by engine id, tags by
    uid, sides by name); built by the session after every change, never shown to anyone."""
    position: int = 0                              # counts the game's moves on (commits, undos, new games)
    away: frozenset[int] = frozenset()             # blocks not where the game has them (or in hand)
    refused: frozenset[int] = frozenset()          # blocks standing on a refused placement
    in_hand: frozenset[int] = frozenset()          # the acting side's blocks in hand
    strays: frozenset[str] = frozenset()           # tags naming no block, or on no reader
    asking: frozenset[str] = frozenset()           # sides with a question open
    placing: frozenset[str] = frozenset()          # sides with placements their Done would apply
    board_right: bool = True
    tray_up: bool = False


# When a message goes away (besides the game moving on, which ends every message but a lasting one):
# the condition's name, shown with the message, and the test of it on the table's facts now.
CLEARS: dict[str, Callable[[Any, Facts], bool]] = {
    "play": lambda subject, f: False,                                  # only the game moving on
    "block-home": lambda subject, f: subject not in f.away,            # the block is back where the game has it
    "placement-withdrawn": lambda subject, f: subject not in f.refused,   # the refused placement was taken back
    "set-down": lambda subject, f: subject not in f.in_hand,           # the block in hand was set down
    "tag-gone": lambda subject, f: subject not in f.strays,            # the stray tag was taken off
    "board-right": lambda subject, f: f.board_right,                   # the board matches the game
    "answered": lambda subject, f: subject not in f.asking,            # his question was answered
    "placed": lambda subject, f: subject in f.placing,                 # he set a block down for Done
    "tray-up": lambda subject, f: f.tray_up,                           # the dice tray is back
}


@dataclass
class Posted:
    """One message on the board (see the module docstring); `subject` is what its condition
    looks at and is never shown; `since` is the position it was first settled at."""
    id: str
    body: dict[str, Any]
    audience: tuple[str, ...]
    cause: str
    clears: str
    subject: Any = None
    topic: tuple | None = None
    lasting: bool = False
    since: int | None = None

    def shown(self) -> dict[str, Any]:
        """The message as a page receives it: code, rule, params and text, its id, cause and clearing condition."""
        return {**self.body, "params": dict(self.body.get("params") or {}), "id": self.id,
                "cause": self.cause, "clears": self.clears}


class MessageBoard:
    """The table's live messages (see the module docstring). Touched by the session's owner thread only."""

    def __init__(self) -> None:
        self._posted: list[Posted] = []     # oldest first

    def post(self, body: dict[str, Any], *, audience: tuple[str, ...] | str, cause: str, clears: str = "play",
             subject: Any = None, topic: tuple | None = None, lasting: bool = False) -> str:
        """Show `body` ({"code", "rule", "params", "text"}) to `audience` ("public" alone: every viewer)
        until `clears` holds; a message of the same `topic` before it is superseded. Its id."""
        if clears not in CLEARS:
            raise ValueError(f"unknown clearing condition {clears!r}")
        viewers = VIEWERS if audience == "public" or audience == ("public",) else (
            (audience,) if isinstance(audience, str) else tuple(audience))
        if topic is not None:
            self._posted = [p for p in self._posted if p.topic != topic]
        # A random id, not a count: a gap in the ids one viewer sees would tell that another was
        # told something (a refused placement of his: what his block may be).
        posted = Posted("m" + secrets.token_hex(6), dict(body), viewers, cause, clears, subject, topic, lasting)
        self._posted.append(posted)
        for viewer in VIEWERS:       # a viewer reads the latest KEPT: older ones are over
            mine = [p for p in self._posted if viewer in p.audience]
            for old in mine[:-KEPT]:
                old.audience = tuple(v for v in old.audience if v != viewer)
        self._posted = [p for p in self._posted if p.audience]
        return posted.id

    def settle(self, facts: Facts) -> None:
        """Drop every message whose condition holds now, or that the game moving on ended."""
        kept = []
        for p in self._posted:
            if p.since is None:
                p.since = facts.position     # posted by the intent being published: live from here
            moved_on = p.since != facts.position and not p.lasting
            if not moved_on and not CLEARS[p.clears](p.subject, facts):
                kept.append(p)
        self._posted = kept

    def taken(self, cause: str) -> None:
        """`cause`'s request was taken: what was said of his earlier requests is over."""
        self._posted = [p for p in self._posted if not (p.cause == cause and p.topic == (cause, "request"))]

    def drop(self, topic: tuple) -> None:
        """Take down every message of `topic`."""
        self._posted = [p for p in self._posted if p.topic != topic]

    def forget(self) -> None:
        """A new game: nothing said of the old one applies (a lasting message is about the table: kept)."""
        self._posted = [p for p in self._posted if p.lasting]

    def live(self, viewer: str) -> list[dict[str, Any]]:
        """`viewer`'s live messages, the latest first."""
        return [p.shown() for p in reversed(self._posted) if viewer in p.audience]

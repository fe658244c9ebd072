"""Whose hands may touch which block on the virtual table.

At a real table each player lifts and sets down his own blocks only; the readers cannot tell
whose hand it was (docs/table-trust.md). The virtual table can: every request comes from a
browser paired with one side, so it lets that browser handle

- the blocks that side owns now (`state.owner`: a Jupiter defector that has moved, Cleopatra
  after she changed side, are their new owner's),
- the block the table tells it to handle for another side: Jupiter's defector, which the
  Jupiter player sends before it is his (2.1), and the Pi's blocks, which the human player
  handles blind, as the table instructs (docs/bot.md),

and nothing else. The answer depends only on what that side already knows (the colours on the
board, its own blocks, the defector it picked in the open), so a refusal tells a probing browser
nothing: every block of the other side is refused alike.

    hands = handled_by(session.snapshot(), "Caesar", bot_sides=("Pompeius",), printed=catalog_sides)
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Protocol

from engine import SIDES


class SnapshotLike(Protocol):
    """The parts of `rubicon.table.session.Snapshot` read here."""
    @property
    def private(self) -> Mapping[str, Mapping[str, Any]]:
        """Each side's private view."""

    @property
    def pending(self) -> Mapping[str, tuple[Mapping[str, Any], ...]]:
        """The decisions each viewer waits on."""


def owners(snap: SnapshotLike, printed: Mapping[str, str]) -> dict[str, str]:
    """Block key -> the side that owns it now: its printed side, unless a side's own view lists
    it on the map (a block off the map is its printed side's again)."""
    out = dict(printed)
    for side in SIDES:
        for entry in (snap.private.get(side) or {}).get("own_blocks", []):
            out[entry["block"]] = side
    return out


def handled_by(snap: SnapshotLike, side: str, *, bot_sides: Collection[str],
               printed: Mapping[str, str]) -> frozenset[str]:
    """The block keys `side`'s browser may lift and set down now (see the module docstring)."""
    if side not in SIDES or side in bot_sides:
        return frozenset()
    owner = owners(snap, printed)
    hands = {block for block, who in owner.items() if who == side or who in bot_sides}
    return frozenset(hands | sent_by(snap, side))


def sent_by(snap: SnapshotLike, side: str) -> frozenset[str]:
    """Jupiter's defector while `side` sends it (its pending jupiter-send names it to him)."""
    out = set()
    for decision in snap.pending.get(side, ()):
        if decision.get("kind") == "jupiter-send" and decision.get("actor") == side:
            block = (decision.get("params") or {}).get("block")
            if isinstance(block, str):
                out.add(block)
    return frozenset(out)

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


class SidePartLike(Protocol):
    """The parts of one side's `rubicon.table.snapshots.SidePart` read here."""
    @property
    def view(self) -> Mapping[str, Any]:
        """The side's private view."""

    @property
    def pending(self) -> tuple[Mapping[str, Any], ...]:
        """The decisions the side waits on, as he sees them."""


class SnapshotLike(Protocol):
    """The parts of `rubicon.table.snapshots.Snapshot` read here."""
    def side(self, side: str) -> SidePartLike:
        """One side's part."""


def owners(snap: SnapshotLike, printed: Mapping[str, str]) -> dict[str, str]:
    """Block key -> the side that owns it now: its printed side, unless a side's own view lists
    it on the map (a block off the map is its printed side's again)."""
    out = dict(printed)
    for side in SIDES:
        for entry in snap.side(side).view.get("own_blocks", []):
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
    for decision in (snap.side(side).pending if side in SIDES else ()):
        if decision.get("kind") == "jupiter-send" and decision.get("actor") == side:
            block = (decision.get("params") or {}).get("block")
            if isinstance(block, str):
                out.add(block)
    return frozenset(out)

"""What each side saw: the game's log as Caesar, Pompeius or the public (None) saw it.

Owns `Entry` (one applied action with its effects) and `history_for(entries, viewer)`. A
viewer sees his own actions in full, public actions in full, and the other side's hidden parts
redacted (companion-notes.md "Hidden information at the table"): "Pompeius discards a card",
"Pompeius plays a card" until both cards are revealed, "Pompeius moves a block Roma-Capua",
"Pompeius levies a block in Athenae", the deal shows only the viewer's own hand, Jupiter's
blind pick is named to its owner (and to the Jupiter player when it defects) until the
defector has moved, regroups, winter navis and disbanding name the place, not the block.
The effects of each entry are shown as the viewer may see them (`Effect.as_seen`), and the
action itself as data (`engine.action_dicts`: type and params) redacted alike: a hidden block,
card or hand is left out of the params and the entry's `action` says `"redacted": true`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .action_dicts import TYPE_OF, action_data
from .actions import (
    AddStep,
    Deal,
    Disband,
    Discard,
    JupiterPick,
    Levy,
    Move,
    NavisToPort,
    Play,
    Regroup,
    Retreat,
    card_name,
    loc_name,
)
from .board import CHANCE, SIDES, actor_name
from .effects import Effects


@dataclass(slots=True)
class Entry:
    """One applied action: its notation line and effects (None until named: the journal,
    engine.undo, names them when first asked). Treat it as immutable once named (not frozen
    only because one is built on every apply)."""
    action: Any
    text: str
    effects: Effects | None

    @property
    def actor(self) -> int:
        """The actor id of the action (0 Caesar, 1 Pompeius, 2 chance)."""
        return self.action.actor


def _where(entry: Entry, kinds: tuple[str, ...], field: str) -> str:
    """The place a redacted line names, read from the action's own block effect."""
    b = entry.action.block
    for e in entry.effects or ():
        if e.block == b and e.kind in kinds:
            return e.params[field]
    return "?"


def _redacted_text(entry: Entry, viewer: int | None) -> str:
    """The line as a viewer who may not see the action's hidden part reads it."""
    a = entry.action
    who = actor_name(a.actor)
    if isinstance(a, Deal):
        if viewer is None:
            return "Chance deals 6 cards to each player"
        mine = a.hand(viewer)
        return (f"Chance deals {SIDES[viewer]}: {' '.join(card_name(c) for c in mine)}; "
                f"{SIDES[1 - viewer]}: {len(a.hand(1 - viewer))} cards")
    if isinstance(a, Discard):
        return f"{who} discards a card"
    if isinstance(a, Play):
        return f"{who} plays a card"
    if isinstance(a, Move):
        return f"{who} moves a block {'-'.join(map(loc_name, a.path))}"
    if isinstance(a, Levy):
        return f"{who} levies a block in {loc_name(a.loc)}"
    if isinstance(a, AddStep):
        return f"{who} adds a step to a block in {_where(entry, ('block.strength',), 'at')}"
    if isinstance(a, JupiterPick):
        return f"Chance picks a block in {_where(entry, ('jupiter.picked',), 'at')}"
    if isinstance(a, Regroup):
        return f"{who} regroups a block to {loc_name(a.loc)}"
    if isinstance(a, Retreat):
        return f"{who} retreats a block" + ("" if a.loc is None else f" to {loc_name(a.loc)}")
    if isinstance(a, NavisToPort):
        return f"{who} winters a block in {loc_name(a.loc)}"
    if isinstance(a, Disband):
        return f"{who} disbands a block in {_where(entry, ('block.to_pool',), 'from')}"
    return f"{who} acts with a block"


def _redacted_data(entry: Entry, viewer: int | None) -> dict[str, Any]:
    """The action as data for a viewer who may not see its hidden part: what `_redacted_text` says."""
    a = entry.action
    params: dict[str, Any] = {}
    if isinstance(a, Deal):
        params = {"count": len(a.caesar)}
        if viewer is not None:
            params["own"] = [card_name(c) for c in a.hand(viewer)]
    elif isinstance(a, Move):
        params = {"path": [loc_name(p) for p in a.path]}
    elif isinstance(a, (Levy, Regroup, NavisToPort)):
        params = {"location": loc_name(a.loc)}
    elif isinstance(a, AddStep):
        params = {"location": _where(entry, ('block.strength',), 'at')}
    elif isinstance(a, JupiterPick):
        params = {"location": _where(entry, ('jupiter.picked',), 'at')}
    elif isinstance(a, Retreat):
        params = {"location": None if a.loc is None else loc_name(a.loc)}
    elif isinstance(a, Disband):
        params = {"location": _where(entry, ('block.to_pool',), 'from')}
    return {"type": TYPE_OF[type(a)], "actor": actor_name(a.actor), "params": params, "redacted": True}


def _sees_action(entry: Entry, viewer: int | None, revealed_play: bool) -> bool:
    a = entry.action
    if viewer is not None and a.actor == viewer:
        return True
    if isinstance(a, Deal):
        return False
    if isinstance(a, Discard):
        return False
    if isinstance(a, Play):
        return revealed_play
    if isinstance(a, JupiterPick):
        pick = next((e for e in entry.effects or () if e.kind == "jupiter.picked"), None)
        return pick is not None and pick.visible_to(viewer)
    if getattr(a, "block", None) is not None and a.actor != CHANCE:
        return bool(entry.effects is not None and entry.effects.block_shown)
    return True


def history_for(entries: list[Entry], viewer: int | None, since: int = 0) -> list[dict[str, Any]]:
    """The log as `viewer` (0, 1 or None = public) saw it: one dict per applied action from
    index `since` on, {"index", "actor", "text", "action", "effects"}. The effects of those entries must
    be named (`Journal.name`)."""
    if viewer not in (None, 0, 1):
        raise ValueError("a history is seen by Caesar, Pompeius or the public (None)")
    # A card played face down is seen once both are revealed: the plays since the last reveal.
    shown_plays: set[int] = set()
    pending: list[int] = []
    since = max(0, since)
    for i in range(since, len(entries)):
        entry = entries[i]
        if isinstance(entry.action, Play):
            pending.append(i)
        if entry.effects is not None and any(e.kind == "cards.revealed" for e in entry.effects):
            shown_plays.update(pending)
            pending = []
        elif isinstance(entry.action, Deal):
            pending = []
    out = []
    for i in range(since, len(entries)):
        entry = entries[i]
        full = _sees_action(entry, viewer, i in shown_plays)
        effects = entry.effects or ()
        if full and isinstance(entry.action, Play):
            seen = [e.to_json() if e.kind == "card.chosen" else e.as_seen(viewer) for e in effects]
        else:
            seen = [e.as_seen(viewer) for e in effects]
        out.append({"index": i, "actor": actor_name(entry.action.actor),
                    "text": entry.text if full else _redacted_text(entry, viewer),
                    "action": action_data(entry.action) if full else _redacted_data(entry, viewer), "effects": seen})
    return out


__all__ = ["Entry", "history_for"]

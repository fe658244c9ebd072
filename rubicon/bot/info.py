"""What one side may know: `InfoState` (now) and `Memory` (what it has seen over time).

The only path from a `Game` to the bot is `information_state(game, side, memory)`: it reads
`game.view(side)` (the public view plus that side's own blocks, levy pool and cards) and the
side's legal actions (a player at the table is told what he may do; the list is a function of
his information: tests/bot/test_never_peeks.py changes hidden facts and checks that the list
and the decision stay the same). The bot never holds the `Game`, the opponent's hand, his
unrevealed blocks or the undealt deck.

`Memory` keeps what the view forgets: the opponent's blocks revealed in battles (where and at
what strength they were last seen) and how many dice it has seen rolled.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from engine import SIDES, Action, TakeBack


@dataclass
class Memory:
    """What `side` has seen over the game, fed with its own views (`observe`)."""
    side: int
    seen: dict[str, tuple[str, int]] = field(default_factory=dict)   # enemy key -> (location, strength)
    rolls_seen: int = 0
    _last_roll: object = None

    def observe(self, view: dict) -> None:
        """Take in one view of this side (any moment; cheap when nothing is being fought)."""
        fight = view.get("fight")
        if fight:
            enemy = SIDES[1 - self.side]
            for entry in fight["revealed"].get(enemy, ()):
                self.seen[entry["block"]] = (fight["location"], entry["strength"])
            roll = fight.get("last_roll")
            if roll is not None and roll != self._last_roll:
                self.rolls_seen += 1
            self._last_roll = roll
        for key in view.get("eliminated", ()) + view.get("dead_leaders", ()):
            self.seen.pop(key, None)

    def copy(self) -> Memory:
        """An independent copy, for a search that must not change what the bot remembers."""
        return Memory(self.side, dict(self.seen), self.rolls_seen, self._last_roll)


@dataclass(frozen=True)
class InfoState:
    """One side's information at a decision: its view, its legal actions, its memory."""
    side: int
    view: dict
    legal: tuple[Action, ...]
    seen: dict[str, tuple[str, int]]

    def digest(self) -> str:
        """A stable text of everything in this information state (tests compare them)."""
        import json
        return json.dumps([self.side, self.view, [str(a) for a in self.legal], sorted(self.seen.items())],
                          sort_keys=True, default=str)


def from_view(side: int, view: dict, legal_actions, memory: Memory | None = None) -> InfoState:
    """The same information state built from what a table session gives one side (its view and
    its legal actions, the snapshot's `SidePart`): how the bot plays at the table."""
    if memory is not None:
        memory.observe(view)
    legal = tuple(a for a in legal_actions if not isinstance(a, TakeBack))
    return InfoState(side, copy.deepcopy(view), legal, dict(memory.seen) if memory else {})


def information_state(game, side: int, memory: Memory | None = None) -> InfoState:
    """The bot's one door to the game: the side's view and legal actions, plus its memory."""
    view = game.view(SIDES[side])
    if memory is not None:
        memory.observe(view)
    legal = tuple(a for a in game.legal_actions(SIDES[side]) if not isinstance(a, TakeBack))
    return InfoState(side, copy.deepcopy(view), legal, dict(memory.seen) if memory else {})

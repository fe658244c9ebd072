"""The journal of a game: every applied action with its effects, and undo back to the barrier.

Owns `Journal`: the entries (`history.Entry`), the undo barrier (the entry after the last one
that revealed hidden information or consumed chance: a deal, dice, Jupiter's pick, both cards
turned up, a battle's blocks tipped forward, a block named in public such as Jupiter's defector,
Cleopatra, a block eliminated face up) and a few checkpoints: copies of the state taken before
an entry, one every `CHECKPOINT_EVERY` entries. Undo restores the newest checkpoint before the
last entry and replays the entries since (every entry, chance included, is an explicit action,
so the replay is exact), minus the last. Unused, it costs one `GameState.copy` per
`CHECKPOINT_EVERY` actions; an undo replays fewer than `CHECKPOINT_EVERY` actions. Checkpoints
older than the barrier are dropped but the newest of them. Actions applied with `effects=False`
are barriers too ("untracked": nothing is known of what they revealed) and take no checkpoint.
"""
from __future__ import annotations

from . import flow
from .board import actor_name
from .effects import Effects
from .errors import IllegalAction
from .history import Entry, history_for
from .phases import phase_module
from .state import GameState

BARRIER_WORDS = {
    "deal": "the cards were dealt", "dice": "dice were rolled", "jupiter-pick": "Jupiter's block was picked",
    "chance": "chance was consumed", "card-reveal": "the cards were revealed",
    "battle-reveal": "a battle's blocks were revealed", "jupiter-defector": "Jupiter's defector was named",
    "cleopatra": "Cleopatra was revealed", "elimination": "a block was eliminated face up",
    "untracked": "the action was applied without effects",
}

# The rule that makes the barrier's information public (None: not a rule of the game).
BARRIER_RULE = {"deal": "2.1", "card-reveal": "2.1", "dice": "7.4", "battle-reveal": "7.1",
                "elimination": "7.5", "cleopatra": "8.1"}


CHECKPOINT_EVERY = 32


class Journal:
    """Entries, the undo barrier and the checkpoints of one `Game`."""

    __slots__ = ("entries", "barrier_at", "checkpoints")

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.barrier_at = 0   # entries before this index are final
        # (i, the state before entries[i]), i increasing; the states are never mutated
        self.checkpoints: list[tuple[int, GameState]] = []

    def copy(self) -> Journal:
        j = Journal()
        j.entries = list(self.entries)
        j.barrier_at = self.barrier_at
        j.checkpoints = list(self.checkpoints)   # the states are shared: never mutated
        return j

    def before(self, state: GameState, action, tracked: bool) -> None:
        """Called before `action` is applied: take a checkpoint when the last is far behind."""
        n = len(self.entries)
        cps = self.checkpoints
        if tracked and (not cps or n - cps[-1][0] >= CHECKPOINT_EVERY):
            older = [c for c in cps if c[0] < self.barrier_at][-1:]
            self.checkpoints = older + [c for c in cps if c[0] >= self.barrier_at] + [(n, state.copy())]

    def record(self, action, text: str, effects: Effects | None) -> Entry:
        entry = Entry(action, text, effects)
        self.entries.append(entry)
        if entry.barrier is not None:
            self.barrier_at = len(self.entries)
        return entry

    def barrier(self) -> dict | None:
        """Why the last action cannot be undone (None when it can)."""
        if not self.entries:
            return {"barrier": "start", "action": None, "index": None,
                    "reason": "nothing has been played"}
        last = self.entries[-1]
        kind = last.barrier
        if kind is None:
            return None
        # The line as everyone saw it: whoever asks must not learn a hand or a blind pick here.
        public = history_for(self.entries, None, since=len(self.entries) - 1)[0]["text"]
        return {"barrier": kind, "action": public, "index": len(self.entries) - 1,
                "reason": BARRIER_WORDS.get(kind, kind)}

    def check_undo(self, side: int | None = None) -> None:
        """Raise the refusal `undo(state, side)` would give (IllegalAction), or return. `side`
        (0, 1; None: whoever) is who asks: he takes back only his own action."""
        why = self.barrier()
        if why is not None:
            if why["barrier"] == "start":
                raise IllegalAction("undo: nothing has been played", code="undo.nothing", params={})
            raise IllegalAction(f"undo: {why['action']} cannot be taken back: {why['reason']}",
                                rule=BARRIER_RULE.get(why["barrier"]), code="undo.barrier", params=why)
        last = self.entries[-1].action.actor
        if side is not None and side != last:
            asker = actor_name(side)
            raise IllegalAction(f"undo: {asker} takes back only his own action; the last is {actor_name(last)}'s",
                                code="undo.other-side", params={"side": asker, "actor": actor_name(last)})

    def undo(self, state: GameState, side: int | None = None) -> Entry:
        """Take back the last entry: `state` becomes exactly what it was before it."""
        self.check_undo(side)
        last = len(self.entries) - 1
        # A checkpoint at or before the barrier is always kept, and the barrier is <= last.
        at, saved = next(c for c in reversed(self.checkpoints) if c[0] <= last)
        fresh = saved.copy()
        for entry in self.entries[at:last]:
            phase_module(fresh.phase).apply(fresh, entry.action)
            flow.settle(fresh)
        state.__dict__.update(fresh.__dict__)   # keep the object: callers hold game.state
        self.checkpoints = [c for c in self.checkpoints if c[0] <= last]
        return self.entries.pop()


__all__ = ["Journal", "BARRIER_WORDS", "BARRIER_RULE", "CHECKPOINT_EVERY"]

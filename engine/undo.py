"""The journal of a game: every applied action with its effects, and undo back to the barrier.

Owns `Journal`: the entries (`history.Entry`), the undo barrier (the entry after the last one
that revealed hidden information or consumed chance: a deal, dice, Jupiter's pick, both cards
turned up, a battle's blocks tipped forward, a block named in public such as Jupiter's defector,
Cleopatra, a block eliminated face up) and one checkpoint: a copy of the state taken just before
the first player action after the barrier. Undo restores that copy and replays the actions
since, minus the last, so it costs nothing while unused except one `GameState.copy` per run of
player actions after a barrier. Actions applied with `effects=False` are barriers too
("untracked"): nothing is known of what they revealed.
"""
from __future__ import annotations

from . import flow
from .board import CHANCE
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


class Journal:
    """Entries, the undo barrier and the checkpoint of one `Game`."""

    __slots__ = ("entries", "barrier_at", "checkpoint", "checkpoint_at")

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.barrier_at = 0                        # entries before this index are final
        self.checkpoint: GameState | None = None   # the state when entries[checkpoint_at] began
        self.checkpoint_at = -1

    def copy(self) -> Journal:
        j = Journal()
        j.entries = list(self.entries)
        j.barrier_at = self.barrier_at
        j.checkpoint, j.checkpoint_at = self.checkpoint, self.checkpoint_at   # never mutated: shared
        return j

    def before(self, state: GameState, action, tracked: bool) -> None:
        """Called before `action` is applied: keep the checkpoint if it may be undone."""
        if tracked and getattr(action, "actor", CHANCE) != CHANCE and self.checkpoint_at < self.barrier_at:
            self.checkpoint = state.copy()
            self.checkpoint_at = len(self.entries)

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

    def check_undo(self) -> None:
        """Raise the refusal `undo` would give (IllegalAction), or return."""
        why = self.barrier()
        if why is not None:
            if why["barrier"] == "start":
                raise IllegalAction("undo: nothing has been played", code="undo.nothing", params={})
            raise IllegalAction(f"undo: {why['action']} cannot be taken back: {why['reason']}",
                                rule=BARRIER_RULE.get(why["barrier"]), code="undo.barrier", params=why)

    def undo(self, state: GameState) -> Entry:
        """Take back the last entry: `state` becomes exactly what it was before it."""
        self.check_undo()
        # The last entry is a tracked player action, so `before` took the checkpoint for it.
        assert self.checkpoint is not None and self.checkpoint_at <= len(self.entries) - 1
        fresh = self.checkpoint.copy()
        for entry in self.entries[self.checkpoint_at:-1]:
            phase_module(fresh.phase).apply(fresh, entry.action)
            flow.settle(fresh)
        state.__dict__.update(fresh.__dict__)   # keep the object: callers hold game.state
        return self.entries.pop()


__all__ = ["Journal", "BARRIER_WORDS", "BARRIER_RULE"]

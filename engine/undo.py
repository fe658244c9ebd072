"""The journal of a game: every applied action, its effects named on demand, and undo back to
the barrier.

Owns `Journal`: the entries (`history.Entry`), their effects (named when first asked: from the
snapshot taken before the last action while the state is still the one it made, else by
replaying the entries from the nearest checkpoint), the undo barrier (an entry that revealed
hidden information or consumed chance: a deal, dice, Jupiter's pick, both cards turned up, a
battle's blocks tipped forward, a block named in public such as Jupiter's defector, Cleopatra, a
block eliminated face up) and the checkpoints: copies of the state taken before an entry, one
every `CHECKPOINT_EVERY` entries (the oldest thinned out past `MAX_CHECKPOINTS`). Undo restores
the newest checkpoint before the last entry and replays the entries since (every entry, chance
included, is an explicit action, so the replay is exact), minus the last. Unused, the journal
costs one `effects.capture` per action and one `GameState.copy` per `CHECKPOINT_EVERY` actions;
an unchecked apply (`Game.apply(checked=False)`, trusted callers) costs neither.
"""
from __future__ import annotations

from . import flow
from .board import CHANCE, actor_name
from .effects import CHANCE_BARRIER, Effects, Snapshot, capture, compute
from .errors import IllegalAction
from .history import Entry, history_for
from .phases import phase_module
from .state import GameState

BARRIER_WORDS = {
    "deal": "the cards were dealt", "dice": "dice were rolled", "jupiter-pick": "Jupiter's block was picked",
    "chance": "chance was consumed", "card-reveal": "the cards were revealed",
    "battle-reveal": "a battle's blocks were revealed", "jupiter-defector": "Jupiter's defector was named",
    "cleopatra": "Cleopatra was revealed", "elimination": "a block was eliminated face up",
}

# The rule that makes the barrier's information public (None: not a rule of the game).
BARRIER_RULE = {"deal": "2.1", "card-reveal": "2.1", "dice": "7.4", "battle-reveal": "7.1",
                "elimination": "7.5", "cleopatra": "8.1"}


CHECKPOINT_EVERY = 32
MAX_CHECKPOINTS = 48   # past this, every other of the older checkpoints is dropped (long saves)
_KEEP_RECENT = 8       # the newest checkpoints are never thinned: undo and fresh effects replay from them


class Journal:
    """Entries, their effects (named on demand), the undo barrier and the checkpoints of one `Game`."""

    __slots__ = ("entries", "checkpoints", "last")

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        # (i, the state before entries[i]), i increasing; the states are never mutated
        self.checkpoints: list[tuple[int, GameState]] = []
        # (i, the snapshot taken before entries[i]): while the state is the one entries[i] made,
        # its effects are named from this, without a replay
        self.last: tuple[int, Snapshot] | None = None

    def copy(self) -> Journal:
        """A journal for a copy of the game: the entries and checkpoint states are shared (never mutated)."""
        j = Journal()
        j.entries = list(self.entries)
        j.checkpoints = list(self.checkpoints)
        j.last = self.last
        return j

    def before(self, state: GameState, keep: bool = True) -> Snapshot | None:
        """Called before an action is applied to `state`: take a checkpoint when the last is far
        behind; return the snapshot its effects will be named from. `keep=False` (an unchecked
        apply: trusted callers, who seldom ask) takes neither: its effects, and an undo across
        it, replay from an earlier checkpoint (the first, before entry 0, is always taken)."""
        n = len(self.entries)
        cps = self.checkpoints
        if not cps or (keep and n - cps[-1][0] >= CHECKPOINT_EVERY):
            if len(cps) >= MAX_CHECKPOINTS:
                old, recent = cps[:-_KEEP_RECENT], cps[-_KEEP_RECENT:]
                cps = self.checkpoints = old[::2] + recent
            cps.append((n, state.copy()))
        return capture(state) if keep else None

    def record(self, action, text: str, before: Snapshot | None, effects: Effects | None) -> Entry:
        """Add the entry of `action` just applied (`before`: the snapshot `before` returned;
        `effects`: named already, or None to name them when asked)."""
        entry = Entry(action, text, effects)
        self.entries.append(entry)
        self.last = None if before is None else (len(self.entries) - 1, before)
        return entry

    # --- effects, named on demand -------------------------------------------------------------
    def effects(self, i: int, state: GameState) -> Effects:
        """The effects of entries[i] (`state`: the game's state now, after the last entry)."""
        entry = self.entries[i]
        if entry.effects is None:
            self.name(i, i + 1, state)
        assert entry.effects is not None
        return entry.effects

    def name(self, first: int, end: int, state: GameState) -> None:
        """Name the effects of entries[first:end] that have none yet: the last one from its
        snapshot, the others by one replay from the nearest checkpoint."""
        entries = self.entries
        end = min(end, len(entries))
        last = self.last
        if last is not None and last[0] == end - 1 == len(entries) - 1 and entries[end - 1].effects is None:
            entries[end - 1].effects = compute(last[1], state, entries[end - 1].action)
            end -= 1
        missing = [i for i in range(max(0, first), end) if entries[i].effects is None]
        if not missing:
            return
        at, saved = next(c for c in reversed(self.checkpoints) if c[0] <= missing[0])
        self._replay(saved.copy(), at, missing[-1] + 1)

    def _replay(self, fresh: GameState, at: int, end: int) -> GameState:
        """Apply entries[at:end] to `fresh` (the state before entries[at]), naming the effects
        of those that have none; returns `fresh`."""
        for entry in self.entries[at:end]:
            before = capture(fresh) if entry.effects is None else None
            phase_module(fresh.phase).apply(fresh, entry.action)
            flow.settle(fresh)
            if before is not None:
                entry.effects = compute(before, fresh, entry.action)
        return fresh

    def barrier_of(self, i: int, state: GameState) -> str | None:
        """What entries[i] revealed or what chance it consumed (None: nothing, it may be undone)."""
        action = self.entries[i].action
        if action.actor == CHANCE:   # compute() says the same without naming anything
            return CHANCE_BARRIER.get(type(action).__name__, "chance")
        return self.effects(i, state).barrier

    # --- undo ---------------------------------------------------------------------------------
    def barrier(self, state: GameState) -> dict | None:
        """Why the last action cannot be undone (None when it can)."""
        if not self.entries:
            return {"barrier": "start", "action": None, "index": None,
                    "reason": "nothing has been played"}
        kind = self.barrier_of(len(self.entries) - 1, state)
        if kind is None:
            return None
        # The line as everyone saw it: whoever asks must not learn a hand or a blind pick here.
        self.effects(len(self.entries) - 1, state)
        public = history_for(self.entries, None, since=len(self.entries) - 1)[0]["text"]
        return {"barrier": kind, "action": public, "index": len(self.entries) - 1,
                "reason": BARRIER_WORDS.get(kind, kind)}

    def check_undo(self, state: GameState, side: int | None = None) -> None:
        """Raise the refusal `undo(state, side)` would give (IllegalAction), or return. `side`
        (0, 1; None: whoever) is who asks: he takes back only his own action."""
        why = self.barrier(state)
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
        self.check_undo(state, side)
        last = len(self.entries) - 1
        at, saved = next(c for c in reversed(self.checkpoints) if c[0] <= last)
        fresh = self._replay(saved.copy(), at, last)   # names the effects of the entries it replays
        state.__dict__.update(fresh.__dict__)   # keep the object: callers hold game.state
        self.checkpoints = [c for c in self.checkpoints if c[0] <= last]
        self.last = None
        return self.entries.pop()


__all__ = ["Journal", "BARRIER_WORDS", "BARRIER_RULE", "CHECKPOINT_EVERY"]

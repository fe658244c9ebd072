"""Where a table's chance comes from: the one place that decides whether the deal, Jupiter's
pick and the dice can be foreseen.

- `ChanceSource`: the randomness itself. `SystemChance` (the default of `rubicon run`) draws
  every outcome from the operating system's CSPRNG (`secrets.SystemRandom`) when it is needed:
  no seed exists, so no record, state directory or earlier game tells what comes next.
  `SeededChance(seed)` is reproducible (tests, self-play, benchmarks): the outcome drawn at
  action n of a game comes from `random.Random(f"rubicon-{purpose}/{seed}/{n}")`.
- `RandomChance` / `TableChance`: which chance decisions the session draws itself from a source
  (every one; or all but the dice, which the tray rolls).

A drawn outcome is a notation line the session journals like any action, so a resumed game
replays the recorded outcomes and draws only those not yet recorded; nothing recorded is drawn
again.

    source = SystemChance()                       # or SeededChance(7) in a test
    session = TableSession(journal, chance=TableChance(source))
    faces = source.rng("tray").randint(1, 6)      # the virtual tray's die
"""
from __future__ import annotations

import random
import secrets
from typing import Protocol

from engine import Game, sample_chance


class ChanceSource(Protocol):
    """The randomness of one table."""

    def rng(self, purpose: str, step: int | None = None) -> random.Random:
        """The RNG to draw `purpose` ("chance": the deal and Jupiter's pick; "dice": a roll on the
        phone; "tray": the virtual tray; "bot": the bot's own seed) at `step` (actions so far in
        the game; None: a stream that goes on from draw to draw)."""
        ...


class SystemChance:
    """Every draw from the operating system's CSPRNG: nothing to seed, nothing to foresee."""

    def __init__(self) -> None:
        self._rng = secrets.SystemRandom()

    def rng(self, purpose: str, step: int | None = None) -> random.Random:
        """The OS's CSPRNG, whatever the purpose: nothing a record holds predicts it."""
        return self._rng


class SeededChance:
    """Reproducible draws from `seed` (tests, self-play, benchmarks; never a real table's
    default): a draw at a step depends on (purpose, seed, step) only, so asking again at the same
    step draws the same; a stream (step None) is one RNG per purpose."""

    def __init__(self, seed: int | str):
        self.seed = seed
        self._streams: dict[str, random.Random] = {}

    def rng(self, purpose: str, step: int | None = None) -> random.Random:
        """The seeded stream for `purpose` (one per purpose, or one per step when `step` is given), the same for
        the same seed."""
        if step is not None:
            return random.Random(f"rubicon-{purpose}/{self.seed}/{step}")
        if purpose not in self._streams:
            self._streams[purpose] = random.Random(f"rubicon-{purpose}/{self.seed}")
        return self._streams[purpose]


def chance_source(source: ChanceSource | int | str | None) -> ChanceSource:
    """`source` itself; an explicit seed (int or str) -> `SeededChance`; None -> `SystemChance`."""
    if source is None:
        return SystemChance()
    if isinstance(source, (int, str)):
        return SeededChance(source)
    return source


def unpredictable_seed(source: ChanceSource) -> str:
    """A seed for a component's own RNG (the bot's) drawn from `source`: 128 CSPRNG bits from a
    `SystemChance`, the same every time from a `SeededChance`."""
    return f"{source.rng('bot').getrandbits(128):032x}"


class RandomChance:
    """The session draws every chance outcome itself (self-play, tests, a table without a tray),
    from `source` (a `ChanceSource`; an int or str: a seed for `SeededChance`; None: the system's
    CSPRNG). `table_kinds` are the chance decisions left to the table."""

    default_table_kinds: tuple[str, ...] = ()

    def __init__(self, source: ChanceSource | int | str | None = None, table_kinds: tuple[str, ...] | None = None):
        self.source = chance_source(source)
        self.table_kinds = frozenset(self.default_table_kinds if table_kinds is None else table_kinds)

    def supplies(self, game: Game) -> bool:
        """Whether the session draws the chance decision `game` waits for (not one for the table)."""
        return not any(d.actor == "Chance" and d.kind in self.table_kinds for d in game.pending())

    def outcome(self, game: Game) -> str:
        """The chance line for the decision `game` waits for, drawn now."""
        return str(sample_chance(game, self.source.rng("chance", len(game.history))))


class TableChance(RandomChance):
    """Like `RandomChance`, but the battle dice wait for the table (the tray, or a roll or faces
    on the phone); the session draws what no sensor gives (the deal, Jupiter's blind pick)."""

    default_table_kinds = ("dice",)

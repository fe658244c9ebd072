"""The bot's levels and `Bot`, the object that decides for one side.

Each level is the heuristic policy (`heuristic.choose`) with its own weights, measured to beat
the level below it (docs/bot.md): `random` (uniform among the legal actions), `easy` (the
heuristic with a novice's slips, `heuristic.NOVICE`), `medium`, the default (`heuristic.BASE`),
`hard` (the weights tuned by matches, `heuristic.TUNED` / `TUNED_CAESAR`), `expert` (hard's
weights with the winter's VP in view, each command decision scored over `samples`
determinizations: `heuristic.choose_sampled`). A search budget
(`Bot(..., iterations=N)`, `bench/bot_match.py --budget hard=N`) adds a determinized search
(`search.search`) at the phases the level names; it is not a level because it has not been
shown to beat the heuristic it rolls out with (docs/bot.md).

A `Bot` gets an `InfoState` (never a `Game`): `info.information_state(game, side, bot.memory)`
builds it. Its decisions are reproducible: decision n of a bot seeded `seed` draws from
`random.Random(f"rubicon-bot/{seed}/{side}/{n}")`, and an iteration budget never reads the clock.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine import Action

from . import heuristic
from .determinize import determinize, supported
from .info import InfoState, Memory
from .search import search


@dataclass(frozen=True)
class Level:
    """One bot level: its name, how much it searches (iterations, root width, a time cap), its heuristic's weights
    and the help text of `rubicon selfplay`."""
    name: str
    iterations: int = 0      # 0: no search
    width: int = 0           # root candidates searched
    time_budget: float | None = None   # seconds per decision, a cap on top of the iterations
    help: str = ""
    style: heuristic.Style = heuristic.BASE   # the heuristic's weights (policy and rollouts)
    caesar_style: heuristic.Style | None = None   # other weights when playing Caesar (the side behind)
    search_at: tuple[str, ...] = ("discard", "card", "command", "battle")   # phases searched
    horizon: int = 1         # game turns a rollout plays on (0: to the next winter)
    samples: int = 1         # determinizations a command decision is scored over
    policy: Callable[[InfoState, random.Random], Action] | None = None   # decides instead (bench opponents)


LEVELS: dict[str, Level] = {
    "random": Level("random", help="uniform among the legal actions"),
    "easy": Level("easy", style=heuristic.NOVICE,
                  help="the heuristic with a novice's slips: two decisions in five at random"),
    "medium": Level("medium", style=heuristic.BASE,
                    help="the heuristic: strong cards, attacks it can win, vacant cities, levies, fire or retreat"),
    "hard": Level("hard", style=heuristic.TUNED, caesar_style=heuristic.TUNED_CAESAR,
                  width=6, search_at=("discard", "card"), horizon=0,
                  help="the heuristic with weights tuned by matches (winter supply, card order, Caesar "
                       "attacks at even odds)"),
    "expert": Level("expert", style=heuristic.EXPERT, caesar_style=heuristic.EXPERT_CAESAR, samples=8,
                    width=6, search_at=("discard", "card"), horizon=0,
                    help="hard, with every attack judged over eight draws of the enemy's hidden strengths "
                         "and VP cities attacked at the last turns when the winter would lose the game"),
}
DEFAULT_LEVEL = "medium"


class Bot:
    """Decides for `side` (0 Caesar, 1 Pompeius) at `level`, from its information only."""

    def __init__(self, side: int, level: str = DEFAULT_LEVEL, seed: int | str = 0, *,
                 iterations: int | None = None, time_budget: float | None = None):
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
        base = LEVELS[level]
        self.side, self.seed = side, seed
        self.level = replace(base, iterations=base.iterations if iterations is None else iterations,
                             time_budget=base.time_budget if time_budget is None else time_budget)
        self.style = self.level.caesar_style if side == 0 and self.level.caesar_style else self.level.style
        self.memory = Memory(side)
        self.decisions = 0
        self.last_stats: dict = {}

    @property
    def needs_view(self) -> bool:
        """Whether the bot decides from its side's view (every level but random, which only needs the legal
        actions)."""
        return self.level.name != "random"

    def observe(self, view: dict) -> None:
        """Show the bot a view of its side (after actions it did not take, e.g. a battle's dice)."""
        self.memory.observe(view)

    def searches(self, info: InfoState) -> bool:
        """Whether this decision will be searched (it may take seconds: the table says so)."""
        return bool(self.level.iterations) and len(info.legal) > 1 and \
            info.view.get("phase") in self.level.search_at and supported(info)

    def decide(self, info: InfoState, progress: Callable[[int, int], None] | None = None) -> Action:
        """One of `info.legal`. `progress(done, total)`: called as a search goes (`search.search`)."""
        if info.side != self.side:
            raise ValueError(f"this bot plays side {self.side}, not {info.side}")
        if not info.legal:
            raise ValueError("no legal action to choose from")
        rng = random.Random(f"rubicon-bot/{self.seed}/{self.side}/{self.decisions}")
        self.decisions += 1
        self.last_stats = {}
        legal = list(info.legal)
        if self.level.name == "random":
            return rng.choice(legal)
        if len(legal) == 1:
            return legal[0]
        if self.level.policy is not None:
            return self.level.policy(info, rng)
        if self.level.iterations and info.view.get("phase") in self.level.search_at and supported(info):
            action, self.last_stats = search(info, rng, self.level.iterations, self.level.width,
                                             self.level.time_budget, self.style, self.level.horizon,
                                             (self.level.caesar_style or self.level.style, self.level.style),
                                             progress)
            return action
        if self.level.samples > 1 and info.view.get("phase") == "command" and supported(info):
            states = [determinize(info, rng) for _ in range(self.level.samples)]
            return heuristic.choose_sampled(states, self.side, legal, rng, self.style)
        return heuristic.choose(determinize(info, rng), self.side, legal, rng, self.style)

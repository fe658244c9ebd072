"""The mutable game state and its low-level bookkeeping.

Owns: where every block is (a location id, or POOL / ELIMINATED / DEAD), its current side and
steps, the moved flags, the incremental indices (blocks and per-side counts per location, each
side's blocks on the map, how often they changed), the cards (hands, yearly discards, chosen
and revealed cards), the command-phase bookkeeping
(`CommandState`), attack bookkeeping per contested location (`Battle`), VP, and the JSON form
(for views, debugging and save checkpoints: a state is never loaded from JSON, a saved game is
replayed from its record, `engine/saves.py`). Rules live in the phase modules; they validate
first, then call the mutators here.
"""
from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .board import BOARD, CAESAR, CHANCE, CLEOPATRA, POMPEIUS, actor_name

POOL, ELIMINATED, DEAD = -1, -2, -3   # off-map places: standing in the levy pool, face-up, leader trophy
FIRST_YEAR, LAST_YEAR, TURNS_PER_YEAR = 705, 709, 5



class Phase(StrEnum):
    """The phases of a game turn, in order, and the end: a `Phase` is its name ("command"), as
    `GameState.phase`, views and JSON hold it."""
    DEAL = "deal"
    DISCARD = "discard"
    CARD = "card"
    COMMAND = "command"
    BATTLE = "battle"
    WINTER = "winter"
    OVER = "over"


DEAL, DISCARD, CARD, COMMAND = Phase.DEAL, Phase.DISCARD, Phase.CARD, Phase.COMMAND
BATTLE, WINTER, OVER = Phase.BATTLE, Phase.WINTER, Phase.OVER
PHASES = tuple(Phase)

DEFAULT_OPTIONS = {"winter_order": "v1.01"}
OPTION_CHOICES = {"winter_order": ("v1.01", "first-edition")}

OFF_MAP_NAMES = {POOL: "pool", ELIMINATED: "eliminated", DEAD: "dead"}


def other(side: int) -> int:
    """The other side."""
    return 1 - side


@dataclass
class Battle:
    """Attack bookkeeping for one contested location (6.12-6.14, 7.3).

    `entries` lists (block, edge, side) in order of arrival (edge None: arrived without
    moving, e.g. Cleopatra changing side in place). The attacker's main attack is `main_edge`
    (the first edge he entered by, unless he declared another); attacker blocks that entered by
    another edge, and every defender block that entered, are reserves.
    """
    loc: int
    attacker: int
    main_edge: int | None
    entries: list[tuple[int, int | None, int]] = field(default_factory=list)
    attacker_edges: list[int] = field(default_factory=list)
    defenders_left: int = 0          # defending blocks that moved away (pinning, 6.13)

    def is_reserve(self, block: int) -> bool:
        """Whether `block` entered this battle as a reserve (7.3)."""
        for b, e, s in self.entries:
            if b == block:
                return s != self.attacker or e != self.main_edge
        return False

    def reserves(self) -> list[int]:
        """The blocks that entered as reserves: by another road than the main attack, or Player 2's response."""
        return [b for b, e, s in self.entries if s != self.attacker or e != self.main_edge]

    def main_force(self) -> list[int]:
        """The attacker's blocks that entered by the main attack."""
        return [b for b, e, s in self.entries if s == self.attacker and e == self.main_edge]

    def to_json(self) -> dict:
        """The battle's bookkeeping as JSON-safe data."""
        return {"loc": self.loc, "attacker": self.attacker, "main_edge": self.main_edge,
                "entries": [list(x) for x in self.entries], "attacker_edges": list(self.attacker_edges),
                "defenders_left": self.defenders_left}

    def copy(self) -> Battle:
        """An independent copy."""
        return Battle(self.loc, self.attacker, self.main_edge, list(self.entries),
                      list(self.attacker_edges), self.defenders_left)


@dataclass
class CommandState:
    """One player's command phase: what his card allows and what he has done so far."""
    side: int
    card: int                  # effective card kind (Apollo resolved)
    mp: int
    lp: int
    event: str | None          # effective event name, if the card is an event
    mp_used: int = 0
    lp_used: int = 0
    activated: list[int] = field(default_factory=list)   # locations activated by a group move
    levying: bool = False      # a levy was made: no more movement (6.4)
    amphibious_open: bool = True   # no non-amphibious move yet (6.3)
    amphibious_seas: list[int] = field(default_factory=list)
    event_done: bool = False   # Jupiter/Vulcan resolved
    jupiter_loc: int | None = None
    jupiter_block: int | None = None   # picked block waiting for its destination
    log: list[str] = field(default_factory=list)     # undoable actions of this phase, as notation
    # The state when the phase began (its own cmd.snapshot None), for take-back: never mutated,
    # so copies share it; take-back copies it and replays `log`.
    snapshot: GameState | None = None

    _LISTS = ("activated", "amphibious_seas", "log")

    @property
    def jupiter_target(self) -> int:
        """The location Jupiter was invoked on (only asked for once it was)."""
        if self.jupiter_loc is None:
            raise RuntimeError("Jupiter has not been invoked")
        return self.jupiter_loc

    @property
    def defector(self) -> int:
        """Jupiter's picked block waiting for its destination (only asked for while it waits)."""
        if self.jupiter_block is None:
            raise RuntimeError("no Jupiter defector is waiting")
        return self.jupiter_block

    def to_json(self) -> dict:
        """The command phase's bookkeeping as JSON-safe data."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        for k in self._LISTS:
            d[k] = list(d[k])
        d["snapshot"] = self.snapshot.to_json() if self.snapshot is not None else None
        return d

    def copy(self) -> CommandState:
        """An independent copy (the take-back snapshot shared: never mutated)."""
        c = CommandState.__new__(CommandState)
        c.__dict__.update(self.__dict__)
        for k in self._LISTS:
            setattr(c, k, list(getattr(self, k)))
        return c


class GameState:
    """Everything that changes during a game. Phase modules validate, then mutate via methods."""

    def __init__(self, options: dict | None = None, *, empty: bool = False):
        opts = dict(DEFAULT_OPTIONS)
        for k, v in (options or {}).items():
            if k not in OPTION_CHOICES:
                raise ValueError(f"unknown rules option {k!r} (known: {', '.join(OPTION_CHOICES)})")
            if v not in OPTION_CHOICES[k]:
                raise ValueError(f"rules option {k} must be one of {', '.join(OPTION_CHOICES[k])}, not {v!r}")
            opts[k] = v
        self.options = opts
        n, nl = BOARD.n_blocks, BOARD.n_locs
        self.year = FIRST_YEAR
        self.turn = 1
        self.phase = DEAL
        self.loc = [POOL] * n
        self.owner = [b.side for b in BOARD.blocks]
        self.steps = [b.max_steps for b in BOARD.blocks]
        self.moved = [False] * n
        self.at: list[list[int]] = [[] for _ in range(nl)]
        self.count: list[list[int]] = [[0, 0] for _ in range(nl)]
        # Per side, its blocks on the map in id order: the listings walk these instead of all
        # 63 blocks. Kept by place/lift/change_side, the only mutators of on-map blocks (as
        # `at` and `count` are); tests recount them at every step of random games.
        self.fielded: list[list[int]] = [[], []]
        # `count` by side first (side_count[s][l] == count[l][s]): a listing reads one side's
        # row whole instead of building it from `count`. Kept by the same three mutators.
        self.side_count: list[list[int]] = [[0] * nl, [0] * nl]
        # How many times each side's blocks on the map changed (placed, lifted, changed side):
        # a cache of what depends on one side's positions checks it (engine.movement's walks).
        self.side_changes = [0, 0]
        # engine.movement's walks of this command phase (not copied, not in to_json)
        self.walk_cache: tuple | None = None
        self.hands: list[list[int]] = [[], []]
        self.discards: list[int | None] = [None, None]
        self.chosen: list[int | None] = [None, None]
        # Revealed cards of this year, one entry per game turn: [played C, played P, effective C,
        # effective P, cancelled]
        self.revealed: list[list] = []
        self.player1: int | None = None
        self.cmd: CommandState | None = None
        self.road_use = [0] * BOARD.n_edges
        self.battles: dict[int, Battle] = {}
        self.result: dict | None = None
        self.ext: dict[str, Any] = {}   # JSON-safe state owned by plug-in phases (battle, winter)
        # Keep the take-back snapshot of each command phase (a copy of the state when it
        # begins). Not a rule of the game and not in to_json: `Game(take_back=False)` turns
        # it off for callers that never take back (self-play, rollouts, replays).
        self.take_back = True
        # False only in a kept copy (`frozen_copy`): its location indices are left out
        self.indexed = True
        if not empty:
            for b, l in BOARD.setup_map.items():
                self.place(b, l)

    # --- queries -------------------------------------------------------------------------
    @property
    def command(self) -> CommandState:
        """The command phase's bookkeeping; only asked for while a command phase is under way."""
        cmd = self.cmd
        if cmd is None:
            raise RuntimeError(f"no command phase is under way (phase {self.phase})")
        return cmd

    @property
    def p1(self) -> int:
        """Player 1 of the game turn; only asked for once the cards are revealed."""
        p1 = self.player1
        if p1 is None:
            raise RuntimeError(f"no Player 1 before the cards are revealed (phase {self.phase})")
        return p1

    def friendly(self, loc: int, side: int) -> bool:
        """Whether only `side`'s blocks stand in `loc`."""
        c = self.count[loc]
        return c[side] > 0 and c[1 - side] == 0

    def vacant(self, loc: int) -> bool:
        """Whether no block stands in `loc`."""
        c = self.count[loc]
        return c[0] == 0 and c[1] == 0

    def contested(self, loc: int) -> bool:
        """Whether blocks of both sides stand in `loc`."""
        c = self.count[loc]
        return c[0] > 0 and c[1] > 0

    def friendly_or_vacant(self, loc: int, side: int) -> bool:
        """Whether no enemy of `side` stands in `loc`."""
        return self.count[loc][1 - side] == 0

    def contested_locations(self) -> list[int]:
        """Every location holding blocks of both sides."""
        return [l for l in range(BOARD.n_locs) if self.count[l][0] and self.count[l][1]]

    def blocks_at(self, loc: int, side: int | None = None) -> list[int]:
        """The blocks in `loc` (of `side` only, if given), in id order."""
        if side is None:
            return list(self.at[loc])
        return [b for b in self.at[loc] if self.owner[b] == side]

    def strength(self, b: int) -> int:
        """Block `b`'s strength: steps times its strength per step (elephant 2)."""
        return self.steps[b] * BOARD.blocks[b].strength_per_step

    def dead(self, b: int) -> bool:
        """Whether block `b` is a dead leader."""
        return self.loc[b] == DEAD

    def vp(self, side: int) -> int:
        """`side`'s VP: friendly cities' values plus one per dead enemy leader (1.2)."""
        v = sum(BOARD.vp[l] for l in range(BOARD.n_locs) if BOARD.vp[l] and self.friendly(l, side))
        return v + sum(1 for b in BOARD.leaders[1 - side] if self.loc[b] == DEAD)

    def year_index(self) -> int:
        """The year as 1..5 (705 is 1)."""
        return self.year - FIRST_YEAR + 1

    # --- mutators (no validation: callers validate first) ---------------------------------
    def place(self, b: int, loc: int) -> None:
        """Put an off-map block on the map."""
        self.loc[b] = loc
        insort(self.at[loc], b)   # sorted: the order of legal actions never depends on history
        side = self.owner[b]
        self.count[loc][side] += 1
        self.side_count[side][loc] += 1
        self.side_changes[side] += 1
        insort(self.fielded[side], b)

    def lift(self, b: int) -> None:
        """Take a block off its map location (it must be on the map)."""
        l = self.loc[b]
        self.at[l].remove(b)
        side = self.owner[b]
        self.count[l][side] -= 1
        self.side_count[side][l] -= 1
        self.side_changes[side] += 1
        self.fielded[side].remove(b)

    def relocate(self, b: int, loc: int) -> None:
        """Move block `b` to `loc` (no validation)."""
        self.lift(b)
        self.place(b, loc)

    def change_side(self, b: int, side: int) -> None:
        """Block `b` now belongs to `side` (Jupiter, Cleopatra; no validation)."""
        l = self.loc[b]
        if l >= 0:
            old = self.owner[b]
            self.count[l][old] -= 1
            self.count[l][side] += 1
            self.side_count[old][l] -= 1
            self.side_count[side][l] += 1
            self.side_changes[old] += 1
            self.side_changes[side] += 1
            self.fielded[old].remove(b)
            insort(self.fielded[side], b)
        self.owner[b] = side

    def eliminate(self, b: int) -> str:
        """A block is eliminated (7.5). Returns what happened: "dead" (leader: trophy, gone for
        good), "cleopatra" (she joins the other side at strength I where she stands) or
        "eliminated" (face up in its printed side's levy pool until the year ends)."""
        info = BOARD.blocks[b]
        if info.type == CLEOPATRA:
            self.change_side(b, 1 - self.owner[b])
            self.steps[b] = 1
            return "cleopatra"
        self.lift(b)
        self.owner[b] = info.side
        self.moved[b] = False
        self.steps[b] = info.max_steps
        if info.is_leader:
            self.loc[b] = DEAD
            return "dead"
        self.loc[b] = ELIMINATED
        return "eliminated"

    def disband(self, b: int) -> None:
        """Back to the printed side's levy pool, standing, at full strength (8.x)."""
        self.lift(b)
        info = BOARD.blocks[b]
        self.owner[b] = info.side
        self.moved[b] = False
        self.steps[b] = info.max_steps
        self.loc[b] = POOL

    def reduce(self, b: int) -> str | None:
        """One step loss; at the last step the block is eliminated (returns `eliminate`'s answer)."""
        if self.steps[b] > 1:
            self.steps[b] -= 1
            return None
        return self.eliminate(b)

    # --- copying and JSON ----------------------------------------------------------------
    def copy(self) -> GameState:
        """An independent copy (the take-back snapshot shared: never mutated)."""
        s = self._copy_fields()
        if self.indexed:
            s.at = list(map(list.copy, self.at))
            s.count = list(map(list.copy, self.count))
            s.fielded = [self.fielded[0][:], self.fielded[1][:]]
            s.side_count = [self.side_count[0][:], self.side_count[1][:]]
        else:
            s._reindex()
        return s

    def frozen_copy(self) -> GameState:
        """A copy to keep and copy again, never to read positions from or play on (the take-back
        point of a command phase, taken at every command phase): the location indices (`at`,
        `count`, `fielded`, `side_count`, derived from `loc` and `owner`) are left out, which
        makes it about three times cheaper; its `copy()` rebuilds them."""
        s = self._copy_fields()
        s.at, s.count, s.fielded, s.side_count = [], [], [[], []], [[], []]
        s.indexed = False
        return s

    def _reindex(self) -> None:
        """Build the location indices from `loc` and `owner` (ids in increasing order, as `place` keeps them)."""
        nl = BOARD.n_locs
        self.at = [[] for _ in range(nl)]
        self.count = [[0, 0] for _ in range(nl)]
        self.fielded = [[], []]
        self.side_count = [[0] * nl, [0] * nl]
        at, count, fielded, side_count, owner = self.at, self.count, self.fielded, self.side_count, self.owner
        for b, l in enumerate(self.loc):
            if l >= 0:
                side = owner[b]
                at[l].append(b)
                count[l][side] += 1
                side_count[side][l] += 1
                fielded[side].append(b)
        self.indexed = True

    def _copy_fields(self) -> GameState:
        """A copy of everything but the location indices."""
        s = GameState.__new__(GameState)
        s.options = dict(self.options)
        s.year, s.turn, s.phase = self.year, self.turn, self.phase
        s.loc, s.owner, s.steps, s.moved = self.loc[:], self.owner[:], self.steps[:], self.moved[:]
        s.indexed = True
        s.side_changes = self.side_changes[:]
        s.walk_cache = None
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.discards, s.chosen = self.discards[:], self.chosen[:]
        s.revealed = list(map(list.copy, self.revealed))
        s.player1 = self.player1
        s.cmd = self.cmd.copy() if self.cmd else None
        s.road_use = self.road_use[:]
        s.battles = {k: v.copy() for k, v in self.battles.items()}
        s.result = dict(self.result) if self.result else None
        s.ext = json_copy(self.ext) if self.ext else {}
        s.take_back = self.take_back
        return s

    def to_json(self) -> dict:
        """The whole state as JSON-safe data (views, debugging, save checkpoints; never loaded)."""
        return {
            "options": dict(self.options), "year": self.year, "turn": self.turn, "phase": self.phase,
            "blocks": list(map(list, zip(self.loc, self.owner, self.steps, self.moved, strict=True))),
            "hands": [list(h) for h in self.hands], "discards": list(self.discards),
            "chosen": list(self.chosen), "revealed": [list(r) for r in self.revealed],
            "player1": self.player1, "cmd": self.cmd.to_json() if self.cmd else None,
            "road_use": {str(e): n for e, n in enumerate(self.road_use) if n} if any(self.road_use) else {},
            "battles": [b.to_json() for b in self.battles.values()],
            "result": self.result, "ext": json_copy(self.ext) if self.ext else {},
        }


def json_copy(x):
    """A copy of plug-in data as JSON holds it (tuples become lists)."""
    if isinstance(x, dict):
        return {k: json_copy(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_copy(v) for v in x]
    return x


__all__ = ["GameState", "Battle", "CommandState", "POOL", "ELIMINATED", "DEAD", "CHANCE",
           "CAESAR", "POMPEIUS", "other", "actor_name", "Phase", "PHASES",
           "DEAL", "DISCARD", "CARD", "COMMAND", "BATTLE", "WINTER", "OVER"]

"""The battle, winter and end-of-game actions: immutable values whose `str()` is the notation line.

`parse_battle_action(line)` is the inverse of `str()` for every action defined here and
returns None for a line that is not one of them (so the game's parser can try others).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.board import BOARD


def _b(block: int) -> str:
    return BOARD.blocks[block].key


def _l(location: int) -> str:
    return BOARD.loc_names[location]


class BattleAction:
    """Base of the actions defined in this module."""


@dataclass(frozen=True)
class ChooseBattle(BattleAction):
    location: int

    def __str__(self) -> str:
        return f"battle {_l(self.location)}"


@dataclass(frozen=True)
class Fire(BattleAction):
    block: int

    def __str__(self) -> str:
        return f"fire {_b(self.block)}"


@dataclass(frozen=True)
class Pass(BattleAction):
    block: int

    def __str__(self) -> str:
        return f"pass {_b(self.block)}"


@dataclass(frozen=True)
class Retreat(BattleAction):
    """Retreat to `destination` (None: the block cannot retreat and is eliminated)."""

    block: int
    destination: int | None
    by_sea: bool = False

    def __str__(self) -> str:
        if self.destination is None:
            return f"retreat {_b(self.block)} nowhere"
        via = " by sea" if self.by_sea else ""
        return f"retreat {_b(self.block)}{via} to {_l(self.destination)}"


@dataclass(frozen=True)
class Hit(BattleAction):
    block: int

    def __str__(self) -> str:
        return f"hit {_b(self.block)}"


@dataclass(frozen=True)
class Roll(BattleAction):
    """Chance: the faces of the dice a firing block rolled, in order."""

    faces: tuple[int, ...]

    def __str__(self) -> str:
        return "roll " + " ".join(str(f) for f in self.faces)


@dataclass(frozen=True)
class Regroup(BattleAction):
    block: int
    destination: int

    def __str__(self) -> str:
        return f"regroup {_b(self.block)} to {_l(self.destination)}"


@dataclass(frozen=True)
class EndRegroup(BattleAction):
    def __str__(self) -> str:
        return "end regroup"


@dataclass(frozen=True)
class NavisToPort(BattleAction):
    block: int
    port: int

    def __str__(self) -> str:
        return f"winter port {_b(self.block)} to {_l(self.port)}"


@dataclass(frozen=True)
class Disband(BattleAction):
    block: int

    def __str__(self) -> str:
        return f"disband {_b(self.block)}"


@dataclass(frozen=True)
class EndDisband(BattleAction):
    def __str__(self) -> str:
        return "end disband"


_PATTERNS: list[tuple[re.Pattern, object]] = [
    (re.compile(r"battle (.+)"), lambda m: ChooseBattle(_L(m[1]))),
    (re.compile(r"fire (.+)"), lambda m: Fire(_B(m[1]))),
    (re.compile(r"pass (.+)"), lambda m: Pass(_B(m[1]))),
    (re.compile(r"retreat (.+) nowhere"), lambda m: Retreat(_B(m[1]), None)),
    (re.compile(r"retreat (.+) by sea to (.+)"), lambda m: Retreat(_B(m[1]), _L(m[2]), True)),
    (re.compile(r"retreat (.+) to (.+)"), lambda m: Retreat(_B(m[1]), _L(m[2]))),
    (re.compile(r"hit (.+)"), lambda m: Hit(_B(m[1]))),
    (re.compile(r"roll( [1-6])*"), lambda m: Roll(tuple(int(x) for x in m[0].split()[1:]))),
    (re.compile(r"regroup (.+) to (.+)"), lambda m: Regroup(_B(m[1]), _L(m[2]))),
    (re.compile(r"end regroup"), lambda m: EndRegroup()),
    (re.compile(r"winter port (.+) to (.+)"), lambda m: NavisToPort(_B(m[1]), _L(m[2]))),
    (re.compile(r"disband (.+)"), lambda m: Disband(_B(m[1]))),
    (re.compile(r"end disband"), lambda m: EndDisband()),
]


def parse_battle_action(line: str) -> BattleAction | None:
    """The action whose notation is `line`, or None if the line is none of this module's.

    Raises UnknownName when the line has this module's shape but names an unknown block
    or location."""
    text = " ".join(line.split())
    for pattern, build in _PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            return build(match)
    return None


def _B(name: str) -> int:
    return BOARD.block(name)


def _L(name: str) -> int:
    return BOARD.location(name)

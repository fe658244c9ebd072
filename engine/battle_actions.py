"""The battle and winter actions (7.x, 8.x), in the notation of `engine.actions`.

Each class is registered with `register_action`, so `parse_action(str(a)) == a`:
    Caesar fights Tarraco [with Mars]       Chance rolls 1 4 6
    Pompeius fires Legio 5                  Pompeius takes the hit on Legio 6
    Caesar retreats Legio 7 to Narbo        Caesar retreats Legio 7 by sea to Massilia
    Caesar retreats Legio 7 nowhere         Pompeius passes Cleopatra
    Caesar regroups Legio 7 to Narbo        Caesar ends regroup
    Caesar winters Navis 2 in Ravenna       Pompeius disbands Legio 1
    Pompeius ends disbanding
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .actions import (_ACTOR, Action, _block, _block_then, _loc, actor_name, loc_name,
                      register_action)
from .board import BOARD, side_index
from .errors import ParseError
from .state import CHANCE


def _re(p: str) -> re.Pattern:
    return re.compile(p, re.I)


def _label(block: int, actor: int) -> str:
    return BOARD.block_label(block, actor)


def _to_place(prefix: str):
    """A parser for "<prefix> <location>" after a block name."""
    def parse(text: str) -> int:
        t = text.strip()
        if not t.lower().startswith(prefix + " "):
            raise ParseError(f"expected '{prefix} <location>' after the block, not {t!r}")
        return _loc(t[len(prefix) + 1:])
    return parse


@register_action
@dataclass(frozen=True, slots=True)
class ChooseBattle(Action):
    """Player 1 picks the next battle; `surprise`: his Mars/Neptune applies to it."""
    actor: int
    loc: int
    surprise: str | None = None
    PATTERN = _re(r"fights\s+(.+?)(?:\s+with\s+(mars|neptune))?")

    def __str__(self):
        extra = f" with {self.surprise}" if self.surprise else ""
        return f"{actor_name(self.actor)} fights {loc_name(self.loc)}{extra}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor, _loc(m.group(1)), m.group(2).capitalize() if m.group(2) else None)


class _BlockAction(Action):
    __slots__ = ()
    VERB = ""

    def __str__(self):
        return f"{actor_name(self.actor)} {self.VERB} {_label(self.block, self.actor)}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor, _block(m.group(1), actor))


@register_action
@dataclass(frozen=True, slots=True)
class Fire(_BlockAction):
    actor: int
    block: int
    VERB = "fires"
    PATTERN = _re(r"fires\s+(.+)")


@register_action
@dataclass(frozen=True, slots=True)
class Pass(_BlockAction):
    actor: int
    block: int
    VERB = "passes"
    PATTERN = _re(r"passes\s+(.+)")


@register_action
@dataclass(frozen=True, slots=True)
class Hit(_BlockAction):
    """The owner picks which of his equally strongest blocks takes the next hit (7.4)."""
    actor: int
    block: int
    VERB = "takes the hit on"
    PATTERN = _re(r"takes\s+the\s+hit\s+on\s+(.+)")


@register_action
@dataclass(frozen=True, slots=True)
class Disband(_BlockAction):
    actor: int
    block: int
    VERB = "disbands"
    PATTERN = _re(r"disbands\s+(.+)")


@register_action
@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Retreat to `dest` (None: the block must retreat, cannot, and is eliminated)."""
    actor: int
    block: int
    dest: int | None
    by_sea: bool = False
    PATTERN = _re(r"retreats\s+(.+)")

    def __str__(self):
        who = f"{actor_name(self.actor)} retreats {_label(self.block, self.actor)}"
        if self.dest is None:
            return who + " nowhere"
        return f"{who}{' by sea' if self.by_sea else ''} to {loc_name(self.dest)}"

    @classmethod
    def from_match(cls, actor, m):
        text = m.group(1)
        if text.lower().endswith(" nowhere"):
            return cls(actor, _block(text[:-8], actor), None)

        def where(rest: str):
            r = rest.strip()
            if r.lower().startswith("by sea "):
                return _to_place("to")(r[7:]), True
            return _to_place("to")(r), False
        b, (dest, by_sea) = _block_then(actor, text, where)
        return cls(actor, b, dest, by_sea)


@register_action
@dataclass(frozen=True, slots=True)
class Regroup(Action):
    actor: int
    block: int
    dest: int
    PATTERN = _re(r"regroups\s+(.+)")

    def __str__(self):
        return f"{actor_name(self.actor)} regroups {_label(self.block, self.actor)} to {loc_name(self.dest)}"

    @classmethod
    def from_match(cls, actor, m):
        b, dest = _block_then(actor, m.group(1), _to_place("to"))
        return cls(actor, b, dest)


@register_action
@dataclass(frozen=True, slots=True)
class NavisToPort(Action):
    """Winter: a navis at sea goes to a friendly port on that sea (8.2)."""
    actor: int
    block: int
    port: int
    PATTERN = _re(r"winters\s+(.+)")

    def __str__(self):
        return f"{actor_name(self.actor)} winters {_label(self.block, self.actor)} in {loc_name(self.port)}"

    @classmethod
    def from_match(cls, actor, m):
        b, port = _block_then(actor, m.group(1), _to_place("in"))
        return cls(actor, b, port)


@register_action
@dataclass(frozen=True, slots=True)
class EndRegroup(Action):
    actor: int
    PATTERN = _re(r"ends\s+regroup")

    def __str__(self):
        return f"{actor_name(self.actor)} ends regroup"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor)


@register_action
@dataclass(frozen=True, slots=True)
class EndDisband(Action):
    actor: int
    PATTERN = _re(r"ends\s+disbanding")

    def __str__(self):
        return f"{actor_name(self.actor)} ends disbanding"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor)


@register_action
@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Chance: the faces of the dice a firing block rolled, in order."""
    faces: tuple[int, ...]
    actor = CHANCE
    PATTERN = _re(r"rolls((?:\s+[1-6])+)")
    CHANCE_ONLY = True

    def __str__(self):
        return "Chance rolls " + " ".join(str(f) for f in self.faces)

    @classmethod
    def from_match(cls, actor, m):
        return cls(tuple(int(x) for x in m.group(1).split()))


_CLASSES = (ChooseBattle, Fire, Pass, Hit, Disband, Retreat, Regroup, NavisToPort, EndRegroup,
            EndDisband, Roll)


def parse_battle_action(line: str):
    """The hook `engine.actions.EXTENSION_PARSERS` calls for a line its registry did not know
    (it may run before this module registered its classes): one of ours, or None."""
    m = _ACTOR.match(line)
    if not m:
        return None
    who = m.group(1).lower()
    actor = CHANCE if who == "chance" else side_index(who)
    for cls in _CLASSES:
        mm = cls.PATTERN.fullmatch(m.group(2))
        if mm and cls.CHANCE_ONLY == (actor == CHANCE):
            return cls.from_match(actor, mm)
    return None

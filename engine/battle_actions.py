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

from dataclasses import dataclass

from .actions import (_ACTOR, Action, _action, _block, _block_then, _levy_place, _loc, _re,
                      _sent_place, actor_name, loc_name, register_action)
from .board import BOARD, side_index
from .errors import ParseError
from .state import CHANCE


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


Fire = _action("Fire", "A block fires on its battle turn (7.2, 7.4).", "actor block",
               r"fires\s+(?P<block>.+)", "fires {block}")
Pass = _action("Pass", "A block passes its battle turn (7.2).", "actor block",
               r"passes\s+(?P<block>.+)", "passes {block}")
Hit = _action("Hit", "The owner picks which of his equally strongest blocks takes the next hit (7.4).",
              "actor block", r"takes\s+the\s+hit\s+on\s+(?P<block>.+)", "takes the hit on {block}")
Disband = _action("Disband", "Winter: a block goes back to the levy pool, for supply or by choice (8.3, 8.5).",
                  "actor block", r"disbands\s+(?P<block>.+)", "disbands {block}")
Regroup = _action("Regroup", "A victorious block moves to an adjacent friendly or vacant location (7.7, 7.83).",
                  "actor block loc", r"regroups\s+(?P<block__loc>.+)", "regroups {block} to {loc}",
                  after_block=_sent_place)
NavisToPort = _action("NavisToPort", "Winter: a navis at sea goes to a friendly port on that sea (8.2).",
                      "actor block loc", r"winters\s+(?P<block__loc>.+)", "winters {block} in {loc}",
                      after_block=_levy_place)
EndRegroup = _action("EndRegroup", "The victor ends his regroup (7.7).", "actor", r"ends\s+regroup",
                     "ends regroup")
EndDisband = _action("EndDisband", "Winter: the player ends his voluntary disbanding (8.5).", "actor",
                     r"ends\s+disbanding", "ends disbanding")


@register_action
@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Retreat to `loc` (None: the block must retreat, cannot, and is eliminated)."""
    actor: int
    block: int
    loc: int | None
    by_sea: bool = False
    PATTERN = _re(r"retreats\s+(.+)")

    def __str__(self):
        who = f"{actor_name(self.actor)} retreats {BOARD.block_label(self.block, self.actor)}"
        if self.loc is None:
            return who + " nowhere"
        return f"{who}{' by sea' if self.by_sea else ''} to {loc_name(self.loc)}"

    @classmethod
    def from_match(cls, actor, m):
        text = m.group(1)
        if text.lower().endswith(" nowhere"):
            return cls(actor, _block(text[:-8], actor), None)

        def where(rest: str):
            r = rest.strip()
            if r.lower().startswith("by sea "):
                return _sent_place(r[7:]), True
            return _sent_place(r), False
        b, (loc, by_sea) = _block_then(actor, text, where)
        return cls(actor, b, loc, by_sea)


@register_action
@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Chance: the faces of the dice a firing block rolled, in order."""
    faces: tuple[int, ...]
    actor = CHANCE
    PATTERN = _re(r"rolls((?:\s+\d+)+)")
    CHANCE_ONLY = True

    def __str__(self):
        return "Chance rolls " + " ".join(str(f) for f in self.faces)

    @classmethod
    def from_match(cls, actor, m):
        faces = tuple(int(x) for x in m.group(1).split())
        if any(not 1 <= f <= 6 for f in faces):
            raise ParseError(f"7.4 a die shows 1 to 6, not {' '.join(map(str, faces))}")
        return cls(faces)


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

"""The action vocabulary and its one text form (the notation line, docs/notation.md).

Owns: every action value of the game, as a frozen dataclass a type checker can see (one card
played, one block moved or levied, a battle turn, a winter choice, a chance outcome, ...);
`str(action)` = the notation line; `parse_action(line)` = its inverse. Names are resolved
against the game data case-insensitively (aliases accepted). Rules live elsewhere: an action
here is only well-formed, never judged legal.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, ClassVar

from .board import BOARD, CAESAR, CHANCE, CHANCE_NAME, POMPEIUS, AmbiguousName, UnknownName, actor_name
from .errors import ParseError

MAX_LINE = 1000
_ACTOR = re.compile(r"^\s*(caesar|pompeius|pompey|chance)\s+(.*?)\s*$", re.I)
_PATH_SPLIT = re.compile(r"\s*[-–—]\s*")


def loc_name(loc: int) -> str:
    """The printed name of location id `loc`."""
    return BOARD.loc_names[loc]


def card_name(c: int) -> str:
    """The printed name of card kind `c` ("3/2", "Apollo")."""
    return BOARD.cards[c].name


def _re(p: str) -> re.Pattern:
    return re.compile(p, re.I)


# --- reading names ----------------------------------------------------------------------------
def _loc(text: str) -> int:
    try:
        return BOARD.location(text)
    except UnknownName as e:
        raise ParseError(str(e), code="notation.unknown-location", params={"name": text.strip()}) from None


def _card(text: str) -> int:
    try:
        return BOARD.card(text)
    except UnknownName as e:
        raise ParseError(str(e), code="notation.unknown-card", params={"name": text.strip()}) from None


def _block(text: str, actor: int) -> int:
    try:
        return BOARD.block(text, actor if actor in (CAESAR, POMPEIUS) else None)
    except UnknownName as e:
        raise ParseError(str(e), code="notation.unknown-block", params={"name": text.strip()}) from None


def _path(text: str) -> tuple[int, ...]:
    parts = _PATH_SPLIT.split(text.strip())
    if len(parts) < 2 or not all(parts):
        raise ParseError(f"a path names two or more locations joined by '-', not {text!r}",
                         code="notation.path", params={"text": text})
    return tuple(_loc(p) for p in parts)


def _place(text: str) -> int:
    """ "in Roma", "at Roma" or "Roma"."""
    t = text.strip()
    if t.lower().startswith(("in ", "at ")):
        t = t[3:]
    return _loc(t)


def _destination(text: str) -> int:
    """ "to Roma"."""
    t = text.strip()
    if not t.lower().startswith("to "):
        raise ParseError(f"expected 'to <location>' after the block, not {t!r}", code="notation.to",
                         params={"text": t})
    return _loc(t[3:])


def _block_then(actor: int, text: str, rest: Callable[[str], object]) -> tuple[int, object]:
    """Split "Legio 13 Ravenna-Roma" into a block and whatever follows, trying the longest
    block name first (block names have at most three words)."""
    words = text.split()
    if len(words) < 2:
        raise ParseError(f"expected a block name and more in {text!r}", code="notation.block-then",
                         params={"text": text})
    for k in range(min(3, len(words) - 1), 0, -1):
        try:
            b = BOARD.block(" ".join(words[:k]), actor if actor in (CAESAR, POMPEIUS) else None)
        except AmbiguousName as e:
            raise ParseError(str(e), code="notation.ambiguous-block", params={"name": " ".join(words[:k])}) from None
        except UnknownName:
            continue
        return b, rest(" ".join(words[k:]))
    # Name the whole text: the shortest prefix tried ("Legio") would mislead.
    raise ParseError(f"unknown block: no block name starts {text!r}", code="notation.unknown-block",
                     params={"name": text})


def _label(b: int, actor: int) -> str:
    return BOARD.block_label(b, actor)


# --- the actions --------------------------------------------------------------------------------
class Action:
    """Base of every action: a frozen dataclass with an `actor` (CAESAR, POMPEIUS or CHANCE).
    PATTERN matches the line after the actor; `parse(actor, match)` builds the action from it;
    `__str__` writes the whole line."""
    __slots__ = ()
    PATTERN: ClassVar[re.Pattern] = re.compile(r"(?!)")
    CHANCE_ONLY: ClassVar[bool] = False
    if TYPE_CHECKING:       # every action has an actor: a field, or CHANCE on chance actions
        @property
        def actor(self) -> int: ...

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> Action:
        """The action of `actor` whose line (after the actor) PATTERN matched as `m`."""
        raise NotImplementedError

    @classmethod
    def from_line(cls, line: str) -> Action:
        """The action a notation line denotes, which must be of this class (ParseError else):
        `Move.from_line("Caesar moves Legio 13 Ravenna-Roma")`. What `repr` writes."""
        action = parse_action(line)
        if not isinstance(action, cls):
            raise ParseError(f"not a {cls.__name__} line: {line!r}", code="notation.wrong-kind",
                             params={"line": line, "kind": cls.__name__})
        return action

    def __repr__(self) -> str:
        """`Move.from_line('Caesar moves Legio 13 Ravenna-Roma')`: it evaluates back to an equal
        action (`from engine import Move`). A malformed action (an id out of range, made by
        hand) shows its fields instead."""
        try:
            return f"{type(self).__name__}.from_line({str(self)!r})"
        except (IndexError, KeyError, TypeError, ValueError, AttributeError):
            shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))   # type: ignore[arg-type]
            return f"{type(self).__name__}({shown})"

    def to_json(self) -> str:
        """The notation line (JSON-safe)."""
        return str(self)


@dataclass(frozen=True, slots=True, repr=False)
class Deal(Action):
    """Chance: the yearly deal of six cards to each player (2.1)."""
    caesar: tuple[int, ...]
    pompeius: tuple[int, ...]
    actor: ClassVar[int] = CHANCE
    CHANCE_ONLY: ClassVar[bool] = True
    PATTERN: ClassVar[re.Pattern] = _re(
        r"deals\s+caesar\s*:?\s*(?P<caesar>.*?)\s*;\s*pompe(?:ius|y)\s*:?\s*(?P<pompeius>.*)")

    def hand(self, side: int) -> tuple[int, ...]:
        """The hand dealt to `side` (0 Caesar, 1 Pompeius): sorted card kinds."""
        return self.caesar if side == CAESAR else self.pompeius

    def __str__(self) -> str:
        return (f"Chance deals Caesar: {' '.join(map(card_name, self.caesar))}; "
                f"Pompeius: {' '.join(map(card_name, self.pompeius))}")

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> Deal:
        def hand(t: str) -> tuple[int, ...]:
            return tuple(sorted(_card(c) for c in t.split()))
        return cls(hand(m.group("caesar")), hand(m.group("pompeius")))


@dataclass(frozen=True, slots=True, repr=False)
class Discard(Action):
    """A player discards one card of his new hand, face down (2.1)."""
    actor: int
    card: int
    PATTERN: ClassVar[re.Pattern] = _re(r"discards\s+(?P<card>\S+)")

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} discards {card_name(self.card)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> Discard:
        return cls(actor, _card(m.group("card")))


@dataclass(frozen=True, slots=True, repr=False)
class Play(Action):
    """A player chooses his card for the game turn, face down (2.1)."""
    actor: int
    card: int
    PATTERN: ClassVar[re.Pattern] = _re(r"plays\s+(?P<card>\S+)")

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} plays {card_name(self.card)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> Play:
        return cls(actor, _card(m.group("card")))


@dataclass(frozen=True, slots=True, repr=False)
class Move(Action):
    """One block moves along a path of locations (land, navis or amphibious; 6.1-6.3)."""
    actor: int
    block: int
    path: tuple[int, ...]
    PATTERN: ClassVar[re.Pattern] = _re(r"moves\s+(?P<rest>.+)")

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} moves {_label(self.block, self.actor)} {'-'.join(map(loc_name, self.path))}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> Move:
        b, path = _block_then(actor, m.group("rest"), _path)
        return cls(actor, b, path)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True, repr=False)
class DeclareMain(Action):
    """The attacker names the road (or sea border) of his main attack on a location (7.3)."""
    actor: int
    loc: int
    origin: int
    PATTERN: ClassVar[re.Pattern] = _re(r"declares\s+main\s+attack\s+on\s+(?P<loc>.+?)\s+from\s+(?P<origin>.+)")

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} declares main attack on {loc_name(self.loc)} from {loc_name(self.origin)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> DeclareMain:
        return cls(actor, _loc(m.group("loc")), _loc(m.group("origin")))


@dataclass(frozen=True, slots=True, repr=False)
class _BlockPlaceAction(Action):
    """An action of one player that puts one block in a location: "VERB block PREP location"
    (PREP "in": a place, "in" or "at" read alike; "to": a destination)."""
    actor: int
    block: int
    loc: int
    VERB: ClassVar[str] = ""
    PREP: ClassVar[str] = "in"

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} {self.VERB} {_label(self.block, self.actor)} {self.PREP} {loc_name(self.loc)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> _BlockPlaceAction:
        b, loc = _block_then(actor, m.group("rest"), _place if cls.PREP == "in" else _destination)
        assert isinstance(loc, int)
        return cls(actor, b, loc)


@dataclass(frozen=True, slots=True, repr=False)
class Levy(_BlockPlaceAction):
    """A new block from the levy pool enters a city at one step (6.4)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"levies\s+(?P<rest>.+)")
    VERB: ClassVar[str] = "levies"


@dataclass(frozen=True, slots=True, repr=False)
class _BlockAction(Action):
    """An action of one player on one block; VERB is its notation."""
    actor: int
    block: int
    VERB: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} {self.VERB} {_label(self.block, self.actor)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> _BlockAction:
        return cls(actor, _block(m.group("block"), actor))


@dataclass(frozen=True, slots=True, repr=False)
class AddStep(_BlockAction):
    """One levy point adds one step to a block on the map (6.4)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"adds\s+(?:a\s+|one\s+)?step\s+to\s+(?P<block>.+)")
    VERB: ClassVar[str] = "adds a step to"


@dataclass(frozen=True, slots=True, repr=False)
class _PlayerAction(Action):
    """An action with nothing but its actor; VERB is its notation."""
    actor: int
    VERB: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} {self.VERB}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> _PlayerAction:
        return cls(actor)


@dataclass(frozen=True, slots=True, repr=False)
class EndCommand(_PlayerAction):
    """The player ends his command phase (unused MP and LP are lost)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"ends\s+command")
    VERB: ClassVar[str] = "ends command"


@dataclass(frozen=True, slots=True, repr=False)
class TakeBack(_PlayerAction):
    """The player takes back his last move, levy or step of this command phase."""
    PATTERN: ClassVar[re.Pattern] = _re(r"takes\s+back")
    VERB: ClassVar[str] = "takes back"


@dataclass(frozen=True, slots=True, repr=False)
class InvokeJupiter(Action):
    """Jupiter: the player names a location holding enemy blocks next to a friendly city."""
    actor: int
    loc: int
    PATTERN: ClassVar[re.Pattern] = _re(r"invokes\s+jupiter\s+on\s+(?P<loc>.+)")

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} invokes Jupiter on {loc_name(self.loc)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> InvokeJupiter:
        return cls(actor, _loc(m.group("loc")))


@dataclass(frozen=True, slots=True, repr=False)
class JupiterPick(Action):
    """Chance: the enemy block Jupiter's player touches blind."""
    block: int
    actor: ClassVar[int] = CHANCE
    CHANCE_ONLY: ClassVar[bool] = True
    PATTERN: ClassVar[re.Pattern] = _re(r"picks\s+(?P<block>.+)")

    def __str__(self) -> str:
        return f"Chance picks {_label(self.block, CHANCE)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> JupiterPick:
        return cls(_block(m.group("block"), CHANCE))


@dataclass(frozen=True, slots=True, repr=False)
class JupiterSend(_BlockPlaceAction):
    """Jupiter: the defecting block moves at once to an adjacent friendly city."""
    PATTERN: ClassVar[re.Pattern] = _re(r"sends\s+(?P<rest>.+)")
    VERB: ClassVar[str] = "sends"
    PREP: ClassVar[str] = "to"


@dataclass(frozen=True, slots=True, repr=False)
class InvokeVulcan(Action):
    """Vulcan: every block in the named enemy city loses one step."""
    actor: int
    loc: int
    PATTERN: ClassVar[re.Pattern] = _re(r"invokes\s+vulcan\s+on\s+(?P<loc>.+)")

    def __str__(self) -> str:
        return f"{actor_name(self.actor)} invokes Vulcan on {loc_name(self.loc)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> InvokeVulcan:
        return cls(actor, _loc(m.group("loc")))


# --- battle and winter (7.x, 8.x) ---------------------------------------------------------------
@dataclass(frozen=True, slots=True, repr=False)
class ChooseBattle(Action):
    """Player 1 picks the next battle; `surprise`: his Mars/Neptune applies to it."""
    actor: int
    loc: int
    surprise: str | None = None
    PATTERN: ClassVar[re.Pattern] = _re(r"fights\s+(.+?)(?:\s+with\s+(mars|neptune))?")

    def __str__(self) -> str:
        extra = f" with {self.surprise}" if self.surprise else ""
        return f"{actor_name(self.actor)} fights {loc_name(self.loc)}{extra}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> ChooseBattle:
        return cls(actor, _loc(m.group(1)), m.group(2).capitalize() if m.group(2) else None)


@dataclass(frozen=True, slots=True, repr=False)
class Fire(_BlockAction):
    """A block fires on its battle turn (7.2, 7.4)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"fires\s+(?P<block>.+)")
    VERB: ClassVar[str] = "fires"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(_BlockAction):
    """A block passes its battle turn (7.2)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"passes\s+(?P<block>.+)")
    VERB: ClassVar[str] = "passes"


@dataclass(frozen=True, slots=True, repr=False)
class Hit(_BlockAction):
    """The owner picks which of his equally strongest blocks takes the next hit (7.4)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"takes\s+the\s+hit\s+on\s+(?P<block>.+)")
    VERB: ClassVar[str] = "takes the hit on"


@dataclass(frozen=True, slots=True, repr=False)
class Disband(_BlockAction):
    """Winter: a block goes back to the levy pool, for supply or by choice (8.3, 8.5)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"disbands\s+(?P<block>.+)")
    VERB: ClassVar[str] = "disbands"


@dataclass(frozen=True, slots=True, repr=False)
class Regroup(_BlockPlaceAction):
    """A victorious block moves to an adjacent friendly or vacant location (7.7, 7.83)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"regroups\s+(?P<rest>.+)")
    VERB: ClassVar[str] = "regroups"
    PREP: ClassVar[str] = "to"


@dataclass(frozen=True, slots=True, repr=False)
class NavisToPort(_BlockPlaceAction):
    """Winter: a navis at sea goes to a friendly port on that sea (8.2)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"winters\s+(?P<rest>.+)")
    VERB: ClassVar[str] = "winters"


@dataclass(frozen=True, slots=True, repr=False)
class EndRegroup(_PlayerAction):
    """The victor ends his regroup (7.7)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"ends\s+regroup")
    VERB: ClassVar[str] = "ends regroup"


@dataclass(frozen=True, slots=True, repr=False)
class EndDisband(_PlayerAction):
    """Winter: the player ends his voluntary disbanding (8.5)."""
    PATTERN: ClassVar[re.Pattern] = _re(r"ends\s+disbanding")
    VERB: ClassVar[str] = "ends disbanding"


@dataclass(frozen=True, slots=True, repr=False)
class Retreat(Action):
    """Retreat to `loc` (None: the block must retreat, cannot, and is eliminated)."""
    actor: int
    block: int
    loc: int | None
    by_sea: bool = False
    PATTERN: ClassVar[re.Pattern] = _re(r"retreats\s+(?P<rest>.+)")

    def __str__(self) -> str:
        who = f"{actor_name(self.actor)} retreats {_label(self.block, self.actor)}"
        if self.loc is None:
            return who + " nowhere"
        return f"{who}{' by sea' if self.by_sea else ''} to {loc_name(self.loc)}"

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> Retreat:
        text = m.group("rest")
        if text.lower().endswith(" nowhere"):
            return cls(actor, _block(text[:-8], actor), None)

        def where(rest: str) -> tuple[int, bool]:
            r = rest.strip()
            if r.lower().startswith("by sea "):
                return _destination(r[7:]), True
            return _destination(r), False
        b, place = _block_then(actor, text, where)
        assert isinstance(place, tuple)
        return cls(actor, b, place[0], place[1])


@dataclass(frozen=True, slots=True, repr=False)
class Roll(Action):
    """Chance: the faces of the dice a firing block rolled, in order."""
    faces: tuple[int, ...]
    actor: ClassVar[int] = CHANCE
    CHANCE_ONLY: ClassVar[bool] = True
    PATTERN: ClassVar[re.Pattern] = _re(r"rolls((?:\s+\d+)+)")

    def __str__(self) -> str:
        return "Chance rolls " + " ".join(str(f) for f in self.faces)

    @classmethod
    def parse(cls, actor: int, m: re.Match) -> Roll:
        faces = tuple(int(x) for x in m.group(1).split())
        if any(not 1 <= f <= 6 for f in faces):
            raise ParseError(f"7.4 a die shows 1 to 6, not {' '.join(map(str, faces))}", code="notation.die-face",
                             params={"faces": list(faces)})
        return cls(faces)


# Every action class, in the order lines are tried (the first pattern that matches wins).
ACTIONS: tuple[type[Action], ...] = (
    Deal, Discard, Play, Move, DeclareMain, Levy, AddStep, EndCommand, TakeBack, InvokeJupiter,
    JupiterPick, JupiterSend, InvokeVulcan, ChooseBattle, Fire, Pass, Hit, Disband, Regroup,
    NavisToPort, EndRegroup, EndDisband, Retreat, Roll)


_LINE_CACHE_MAX = 50_000
_line_cache: dict = {}


def line_of(action: Action) -> str:
    """`str(action)`, remembered per action value (equal actions have equal lines; the listing
    hands out the same values again and again). Raises what `str` raises for a malformed one."""
    try:
        text = _line_cache.get(action)
    except TypeError:   # unhashable: a malformed action, a list where a tuple belongs
        return str(action)
    if text is None:
        text = str(action)
        if len(_line_cache) >= _LINE_CACHE_MAX:
            _line_cache.clear()
        _line_cache[action] = text
    return text


def parse_action(line: str) -> Action:
    """The action a notation line denotes. Raises ParseError saying what is wrong."""
    if not isinstance(line, str):
        raise ParseError(f"an action line must be text, not {type(line).__name__}", code="notation.not-text",
                         params={"type": type(line).__name__})
    if len(line) > MAX_LINE:
        raise ParseError(f"an action line has at most {MAX_LINE} characters, this one {len(line)}",
                         code="notation.too-long", params={"limit": MAX_LINE, "length": len(line)})
    line = " ".join(line.split())   # one space between words keeps the patterns linear
    m = _ACTOR.match(line)
    if not m:
        raise ParseError(f"a line starts with Caesar, Pompeius or Chance: {line!r}", code="notation.actor",
                         params={"line": line})
    who = m.group(1).lower()
    actor = CHANCE if who == "chance" else (CAESAR if who == "caesar" else POMPEIUS)
    rest = m.group(2)
    for cls in ACTIONS:
        mm = cls.PATTERN.fullmatch(rest)
        if mm:
            if cls.CHANCE_ONLY != (actor == CHANCE):
                who_may = CHANCE_NAME if cls.CHANCE_ONLY else "a player"
                raise ParseError(f"only {who_may} can do that: {line!r}", code="notation.wrong-actor",
                                 params={"line": line, "who": who_may})
            return cls.parse(actor, mm)
    raise ParseError(f"not an action of the notation: {line!r}", code="notation.unknown-verb",
                     params={"line": line})


def action_from_json(x: str) -> Action:
    """The action of its JSON form (the notation line): `parse_action`."""
    return parse_action(x)

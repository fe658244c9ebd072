"""The action vocabulary and its one text form (the notation line).

Owns: the immutable action values (one block moved, one block levied, one card played, one
chance outcome, ...), `str(action)` = the notation line, and `parse_action(line)` = its
inverse. Names are resolved against the game data case-insensitively (aliases accepted).
Plug-in phases add their own action classes with `register_action` (see docs/engine-design.md).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .board import BOARD, CAESAR, POMPEIUS, SIDES, UnknownName
from .errors import ParseError
from .state import CHANCE

_ACTOR = re.compile(r"^\s*(caesar|pompeius|pompey|chance)\s+(.*?)\s*$", re.I)
_PATH_SPLIT = re.compile(r"\s*[-–—]\s*")


def actor_name(actor: int) -> str:
    return "Chance" if actor == CHANCE else SIDES[actor]


def loc_name(l: int) -> str:
    return BOARD.loc_names[l]


def card_name(c: int) -> str:
    return BOARD.cards[c].name


def _loc(text: str) -> int:
    try:
        return BOARD.location(text)
    except UnknownName as e:
        raise ParseError(str(e)) from None


def _card(text: str) -> int:
    try:
        return BOARD.card(text)
    except UnknownName as e:
        raise ParseError(str(e)) from None


def _block(text: str, actor: int | None) -> int:
    try:
        return BOARD.block(text, actor if actor in (CAESAR, POMPEIUS) else None)
    except UnknownName as e:
        raise ParseError(str(e)) from None


def _path(text: str) -> tuple[int, ...]:
    parts = _PATH_SPLIT.split(text.strip())
    if len(parts) < 2 or not all(parts):
        raise ParseError(f"a path names two or more locations joined by '-', not {text!r}")
    return tuple(_loc(p) for p in parts)


def _block_then(actor: int | None, text: str, rest_parser):
    """Split "Legio 13 Ravenna-Roma" into a block and whatever follows, trying the longest
    block name first (block names have at most three words)."""
    words = text.split()
    errors = []
    for k in range(min(3, len(words) - 1), 0, -1):
        try:
            b = BOARD.block(" ".join(words[:k]), actor if actor in (CAESAR, POMPEIUS) else None)
        except UnknownName as e:
            errors.append(str(e))
            continue
        return b, rest_parser(" ".join(words[k:]))
    raise ParseError(errors[-1] if errors else f"expected a block name and more in {text!r}")


class Action:
    """Base of the actions defined here. Subclasses are frozen dataclasses with an `actor`
    (0, 1 or CHANCE). Plug-in phases may use their own classes (see EXTENSION_PARSERS)."""
    __slots__ = ()
    PATTERN: re.Pattern = re.compile(r"(?!)")
    CHANCE_ONLY = False

    @classmethod
    def from_match(cls, actor: int, m: re.Match) -> "Action":
        raise NotImplementedError

    def to_json(self) -> str:
        return str(self)


_REGISTRY: list[type[Action]] = []


def register_action(cls: type[Action]) -> type[Action]:
    """Make `parse_action` know a new action class (decorator)."""
    _REGISTRY.append(cls)
    return cls


def parse_action(line: str) -> Action:
    """The action a notation line denotes. Raises ParseError saying what is wrong."""
    if not isinstance(line, str):
        raise ParseError(f"an action line must be text, not {type(line).__name__}")
    m = _ACTOR.match(line)
    if not m:
        found = _parse_extension(line)
        if found is not None:
            return found
        raise ParseError(f"a line starts with Caesar, Pompeius or Chance: {line.strip()!r}")
    who = m.group(1).lower()
    actor = CHANCE if who == "chance" else (CAESAR if who == "caesar" else POMPEIUS)
    rest = m.group(2)
    for cls in _REGISTRY:
        mm = cls.PATTERN.fullmatch(rest)
        if mm:
            if cls.CHANCE_ONLY != (actor == CHANCE):
                who_may = "Chance" if cls.CHANCE_ONLY else "a player"
                raise ParseError(f"only {who_may} can do that: {line.strip()!r}")
            return cls.from_match(actor, mm)
    found = _parse_extension(line)
    if found is not None:
        return found
    raise ParseError(f"not an action of the notation: {line.strip()!r}")


# Parsers of plug-in phases' own actions ("module:function", imported lazily); each takes a
# line and returns an action or None.
EXTENSION_PARSERS = ["engine.battle_actions:parse_battle_action"]
_ext_cache: list = []


def _parse_extension(line: str):
    if not _ext_cache:
        import importlib
        for spec in EXTENSION_PARSERS:
            mod, _, fn = spec.partition(":")
            try:
                _ext_cache.append(getattr(importlib.import_module(mod), fn))
            except (ModuleNotFoundError, AttributeError):
                continue
        _ext_cache.append(lambda _line: None)
    for parser in _ext_cache:
        found = parser(line.strip())
        if found is not None:
            return found
    return None


def action_from_json(x) -> Action:
    return parse_action(x)


def _re(p: str) -> re.Pattern:
    return re.compile(p, re.I)


@register_action
@dataclass(frozen=True, slots=True)
class Deal(Action):
    """Chance: the yearly deal of six cards to each player (2.1)."""
    caesar: tuple[int, ...]
    pompeius: tuple[int, ...]
    actor = CHANCE
    PATTERN = _re(r"deals\s+caesar\s*:?\s*(.*?)\s*;\s*pompe(?:ius|y)\s*:?\s*(.*)")
    CHANCE_ONLY = True

    def __str__(self):
        return (f"Chance deals Caesar: {' '.join(map(card_name, self.caesar))}; "
                f"Pompeius: {' '.join(map(card_name, self.pompeius))}")

    @classmethod
    def from_match(cls, actor, m):
        return cls(tuple(sorted(_card(c) for c in m.group(1).split())),
                   tuple(sorted(_card(c) for c in m.group(2).split())))

    def hand(self, side: int) -> tuple[int, ...]:
        return self.caesar if side == CAESAR else self.pompeius


@register_action
@dataclass(frozen=True, slots=True)
class Discard(Action):
    """A player discards one card of his new hand, face down (2.1)."""
    actor: int
    card: int
    PATTERN = _re(r"discards\s+(\S+)")

    def __str__(self):
        return f"{actor_name(self.actor)} discards {card_name(self.card)}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor, _card(m.group(1)))


@register_action
@dataclass(frozen=True, slots=True)
class Play(Action):
    """A player chooses his card for the game turn, face down (2.1)."""
    actor: int
    card: int
    PATTERN = _re(r"plays\s+(\S+)")

    def __str__(self):
        return f"{actor_name(self.actor)} plays {card_name(self.card)}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor, _card(m.group(1)))


@register_action
@dataclass(frozen=True, slots=True)
class Move(Action):
    """One block moves along a path of locations (land, navis or amphibious; 6.1-6.3)."""
    actor: int
    block: int
    path: tuple[int, ...]
    PATTERN = _re(r"moves\s+(.+)")

    def __str__(self):
        return (f"{actor_name(self.actor)} moves {BOARD.block_label(self.block, self.actor)} "
                f"{'-'.join(map(loc_name, self.path))}")

    @classmethod
    def from_match(cls, actor, m):
        b, path = _block_then(actor, m.group(1), _path)
        return cls(actor, b, path)


@register_action
@dataclass(frozen=True, slots=True)
class DeclareMain(Action):
    """The attacker names the road (or sea border) of his main attack on a location (7.3)."""
    actor: int
    loc: int
    origin: int
    PATTERN = _re(r"declares\s+main\s+attack\s+on\s+(.+?)\s+from\s+(.+)")

    def __str__(self):
        return f"{actor_name(self.actor)} declares main attack on {loc_name(self.loc)} from {loc_name(self.origin)}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor, _loc(m.group(1)), _loc(m.group(2)))


def _levy_place(text: str) -> int:
    t = text.strip()
    if t.lower().startswith(("in ", "at ")):
        t = t[3:]
    return _loc(t)


@register_action
@dataclass(frozen=True, slots=True)
class Levy(Action):
    """A new block from the levy pool enters a city at one step (6.4)."""
    actor: int
    block: int
    loc: int
    PATTERN = _re(r"levies\s+(.+)")

    def __str__(self):
        return f"{actor_name(self.actor)} levies {BOARD.block_label(self.block, self.actor)} in {loc_name(self.loc)}"

    @classmethod
    def from_match(cls, actor, m):
        b, loc = _block_then(actor, m.group(1), _levy_place)
        return cls(actor, b, loc)


@register_action
@dataclass(frozen=True, slots=True)
class AddStep(Action):
    """One levy point adds one step to a block on the map (6.4)."""
    actor: int
    block: int
    PATTERN = _re(r"adds\s+(?:a\s+|one\s+)?step\s+to\s+(.+)")

    def __str__(self):
        return f"{actor_name(self.actor)} adds a step to {BOARD.block_label(self.block, self.actor)}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor, _block(m.group(1), actor))


@register_action
@dataclass(frozen=True, slots=True)
class EndCommand(Action):
    """The player ends his command phase (unused MP and LP are lost)."""
    actor: int
    PATTERN = _re(r"ends\s+command")

    def __str__(self):
        return f"{actor_name(self.actor)} ends command"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor)


@register_action
@dataclass(frozen=True, slots=True)
class TakeBack(Action):
    """The player takes back his last move, levy or step of the current command phase."""
    actor: int
    PATTERN = _re(r"takes\s+back")

    def __str__(self):
        return f"{actor_name(self.actor)} takes back"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor)


@register_action
@dataclass(frozen=True, slots=True)
class InvokeJupiter(Action):
    """Jupiter: the player names a location holding enemy blocks next to a friendly city."""
    actor: int
    loc: int
    PATTERN = _re(r"invokes\s+jupiter\s+on\s+(.+)")

    def __str__(self):
        return f"{actor_name(self.actor)} invokes Jupiter on {loc_name(self.loc)}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor, _loc(m.group(1)))


@register_action
@dataclass(frozen=True, slots=True)
class JupiterPick(Action):
    """Chance: the enemy block Jupiter's player touches blind."""
    block: int
    actor = CHANCE
    PATTERN = _re(r"picks\s+(.+)")
    CHANCE_ONLY = True

    def __str__(self):
        return f"Chance picks {BOARD.block_label(self.block, None)}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(_block(m.group(1), None))


@register_action
@dataclass(frozen=True, slots=True)
class JupiterSend(Action):
    """Jupiter: the defecting block moves at once to an adjacent friendly city."""
    actor: int
    block: int
    loc: int
    PATTERN = _re(r"sends\s+(.+)")

    def __str__(self):
        return f"{actor_name(self.actor)} sends {BOARD.block_label(self.block, None)} to {loc_name(self.loc)}"

    @classmethod
    def from_match(cls, actor, m):
        def dest(t):
            t = t.strip()
            if not t.lower().startswith("to "):
                raise ParseError(f"expected 'to <city>' after the block, not {t!r}")
            return _loc(t[3:])
        b, loc = _block_then(None, m.group(1), dest)
        return cls(actor, b, loc)


@register_action
@dataclass(frozen=True, slots=True)
class InvokeVulcan(Action):
    """Vulcan: every block in the named enemy city loses one step."""
    actor: int
    loc: int
    PATTERN = _re(r"invokes\s+vulcan\s+on\s+(.+)")

    def __str__(self):
        return f"{actor_name(self.actor)} invokes Vulcan on {loc_name(self.loc)}"

    @classmethod
    def from_match(cls, actor, m):
        return cls(actor, _loc(m.group(1)))

"""The action vocabulary and its one text form (the notation line).

Owns: the immutable action values (one block moved, one block levied, one card played, one
chance outcome, ...), `str(action)` = the notation line, and `parse_action(line)` = its
inverse. Names are resolved against the game data case-insensitively (aliases accepted).
Plug-in phases either declare classes here the same way (`register_action`) or keep their own
and add a line parser to `EXTENSION_PARSERS` (see docs/engine-design.md).
"""
from __future__ import annotations

import re
from dataclasses import make_dataclass

from .board import BOARD, CAESAR, POMPEIUS, SIDES, AmbiguousName, UnknownName
from .errors import ParseError
from .state import CHANCE

MAX_LINE = 1000
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
    if len(words) < 2:
        raise ParseError(f"expected a block name and more in {text!r}")
    for k in range(min(3, len(words) - 1), 0, -1):
        try:
            b = BOARD.block(" ".join(words[:k]), actor if actor in (CAESAR, POMPEIUS) else None)
        except AmbiguousName as e:
            raise ParseError(str(e)) from None
        except UnknownName:
            continue
        return b, rest_parser(" ".join(words[k:]))
    # Name the whole text: the shortest prefix tried ("Legio") would mislead.
    raise ParseError(f"unknown block: no block name starts {text!r}")


class Action:
    """Base of the actions defined here: frozen dataclasses with an `actor` (0, 1 or CHANCE)
    described by two class attributes. PATTERN matches the line after the actor; its named
    groups are fields (a group `block__X` holds a block name followed by field X, read by
    AFTER_BLOCK). TEXT formats the fields back. Plug-in phases may use their own classes
    (see EXTENSION_PARSERS)."""
    __slots__ = ()
    PATTERN: re.Pattern = re.compile(r"(?!)")
    TEXT = ""
    CHANCE_ONLY = False
    AFTER_BLOCK = None

    def __str__(self):
        actor = self.actor
        shown = {f: _SHOW[f](getattr(self, f), actor) for f in self.__dataclass_fields__ if f != "actor"}
        return f"{actor_name(actor)} " + self.TEXT.format(**shown)

    @classmethod
    def from_match(cls, actor: int, m: re.Match) -> "Action":
        args = {}
        for name, text in m.groupdict().items():
            if name.startswith("block__"):
                args["block"], args[name[7:]] = _block_then(actor, text, cls.AFTER_BLOCK)
            else:
                args[name] = _READ[name](text, actor)
        if "actor" in cls.__dataclass_fields__:
            args["actor"] = actor
        return cls(**args)

    def to_json(self) -> str:
        return str(self)


def _cards_text(cards, actor):
    return " ".join(map(card_name, cards))


_SHOW = {
    "card": lambda c, actor: card_name(c),
    "loc": lambda l, actor: loc_name(l),
    "origin": lambda l, actor: loc_name(l),
    "block": lambda b, actor: BOARD.block_label(b, actor),
    "path": lambda p, actor: "-".join(map(loc_name, p)),
    "caesar": _cards_text,
    "pompeius": _cards_text,
}
_READ = {
    "card": lambda t, actor: _card(t),
    "loc": lambda t, actor: _loc(t),
    "origin": lambda t, actor: _loc(t),
    "block": _block,
    "caesar": lambda t, actor: tuple(sorted(_card(c) for c in t.split())),
    "pompeius": lambda t, actor: tuple(sorted(_card(c) for c in t.split())),
}


_REGISTRY: list[type[Action]] = []


def register_action(cls: type[Action]) -> type[Action]:
    """Make `parse_action` know a new action class (decorator)."""
    _REGISTRY.append(cls)
    return cls


def parse_action(line: str) -> Action:
    """The action a notation line denotes. Raises ParseError saying what is wrong."""
    if not isinstance(line, str):
        raise ParseError(f"an action line must be text, not {type(line).__name__}")
    if len(line) > MAX_LINE:
        raise ParseError(f"an action line has at most {MAX_LINE} characters, this one {len(line)}")
    line = " ".join(line.split())   # one space between words keeps the patterns linear
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


def _levy_place(text: str) -> int:
    t = text.strip()
    if t.lower().startswith(("in ", "at ")):
        t = t[3:]
    return _loc(t)


def _sent_place(text: str) -> int:
    t = text.strip()
    if not t.lower().startswith("to "):
        raise ParseError(f"expected 'to <city>' after the block, not {t!r}")
    return _loc(t[3:])


def _action(name: str, doc: str, fields: str, pattern: str, text: str, *, chance: bool = False,
            after_block=None, methods: dict | None = None) -> type[Action]:
    """Declare and register one action class: a frozen dataclass with the given int fields
    (`path` and the hands of a deal are tuples)."""
    ns = {"__doc__": doc, "__module__": __name__, "PATTERN": _re(pattern), "TEXT": text,
          "CHANCE_ONLY": chance, "AFTER_BLOCK": staticmethod(after_block) if after_block else None,
          **(methods or {})}
    if chance:
        ns["actor"] = CHANCE
    cls = make_dataclass(name, [(f, tuple if f in ("path", "caesar", "pompeius") else int) for f in fields.split()],
                         bases=(Action,), namespace=ns, frozen=True, slots=True)
    return register_action(cls)


Deal = _action(
    "Deal", "Chance: the yearly deal of six cards to each player (2.1).", "caesar pompeius",
    r"deals\s+caesar\s*:?\s*(?P<caesar>.*?)\s*;\s*pompe(?:ius|y)\s*:?\s*(?P<pompeius>.*)",
    "deals Caesar: {caesar}; Pompeius: {pompeius}", chance=True,
    methods={"hand": lambda self, side: self.caesar if side == CAESAR else self.pompeius})
Discard = _action("Discard", "A player discards one card of his new hand, face down (2.1).",
                  "actor card", r"discards\s+(?P<card>\S+)", "discards {card}")
Play = _action("Play", "A player chooses his card for the game turn, face down (2.1).",
               "actor card", r"plays\s+(?P<card>\S+)", "plays {card}")
Move = _action("Move", "One block moves along a path of locations (land, navis or amphibious; 6.1-6.3).",
               "actor block path", r"moves\s+(?P<block__path>.+)", "moves {block} {path}", after_block=_path)
DeclareMain = _action(
    "DeclareMain", "The attacker names the road (or sea border) of his main attack on a location (7.3).",
    "actor loc origin", r"declares\s+main\s+attack\s+on\s+(?P<loc>.+?)\s+from\s+(?P<origin>.+)",
    "declares main attack on {loc} from {origin}")
Levy = _action("Levy", "A new block from the levy pool enters a city at one step (6.4).",
               "actor block loc", r"levies\s+(?P<block__loc>.+)", "levies {block} in {loc}", after_block=_levy_place)
AddStep = _action("AddStep", "One levy point adds one step to a block on the map (6.4).",
                  "actor block", r"adds\s+(?:a\s+|one\s+)?step\s+to\s+(?P<block>.+)", "adds a step to {block}")
EndCommand = _action("EndCommand", "The player ends his command phase (unused MP and LP are lost).",
                     "actor", r"ends\s+command", "ends command")
TakeBack = _action("TakeBack", "The player takes back his last move, levy or step of this command phase.",
                   "actor", r"takes\s+back", "takes back")
InvokeJupiter = _action("InvokeJupiter", "Jupiter: the player names a location holding enemy blocks next to a "
                        "friendly city.", "actor loc", r"invokes\s+jupiter\s+on\s+(?P<loc>.+)", "invokes Jupiter on {loc}")
JupiterPick = _action("JupiterPick", "Chance: the enemy block Jupiter's player touches blind.",
                      "block", r"picks\s+(?P<block>.+)", "picks {block}", chance=True)
JupiterSend = _action("JupiterSend", "Jupiter: the defecting block moves at once to an adjacent friendly city.",
                      "actor block loc", r"sends\s+(?P<block__loc>.+)", "sends {block} to {loc}",
                      after_block=_sent_place)
InvokeVulcan = _action("InvokeVulcan", "Vulcan: every block in the named enemy city loses one step.",
                       "actor loc", r"invokes\s+vulcan\s+on\s+(?P<loc>.+)", "invokes Vulcan on {loc}")

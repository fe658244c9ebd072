"""Dice at the table: which roll the game waits for, where its faces may come from, what each
viewer is told. No I/O and no threads: the table session's owner thread calls it.

Owns the battle roll's path from a die to the journal (rules 7.4):
- `asked(game)`: the roll the game waits for (the chance decision of kind "dice": how many dice,
  the firing block, whose block), or None;
- where the faces may come from: the tray (`DiceRolled` over the serial bridge), a roll on the
  phone (`RollDice`: the session draws them) or faces typed on the phone (`TypeDice`). The
  table option "dice source" (`DiceSource`: tray | phone | typed) says which; when no dice tray
  is up, the phone and typed faces are accepted whatever the option says (the fallback);
- refusals (`TableRefusal`, an `IllegalAction`, with a `dice.*` code): dice when none were asked, a roll of the wrong
  size, a crooked die, faces from a source that is not the one in use; each is also posted on the
  table's message board for every viewer (the tray is on the table: both sides and the TV see it),
  until the game moves on or a newer roll is refused; the tray gone is said until it is back;
- after a roll (and the hits chosen after it), what to do on the board: `instruction` of each
  effect (engine/effects.py), per viewer, so only a block's owner reads its name;
- the devices' status (`DeviceUp`/`DeviceDown`), keyed by event source ("dice@/dev/ttyACM0").

The chance outcomes no sensor gives (the deal, Jupiter's blind pick) are drawn by the session
from its chance source (rubicon/table/chance.py: `TableChance` leaves the dice to the table).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine import (
    BOARD,
    SIDES,
    Decision,
    Game,
    Hit,
    IllegalAction,
    Roll,
    UnknownName,
    instruction,
    parse_action,
    sample_chance,
)

from ..errors import RubiconError, TableRefusal
from .feedback import MessageBoard
from .sensed_board import SensorEventLike, field_of

DICE_SOURCES = ("tray", "phone", "typed")
VIEWERS = ("public", "Caesar", "Pompeius")
MAX_DICE = 4            # a block of strength IV rolls four dice (7.4); the tray has four pockets
DICE_RULE = "7.4"
# The sensor events (firmware_bridge.events, read by kind) the dice desk takes.
DICE_EVENTS = frozenset({"dice_rolled", "dice_state", "device_up", "device_down", "diagnostic"})
# What a sensed board's reconciliation already says ("remove Legio 8 from Genua"): with a board,
# a roll's instructions keep only what sensors cannot see (strength, facing, tipping).
# What a board drawn from the game (the virtual table) shows by itself: nothing to turn, tip or stand up.
DRAWN_FROM_GAME = frozenset({"block.strength", "block.side", "block.returned", "battle.begun", "battle.round",
                             "battle.ended"})
PLACES_SENSED = frozenset({"block.moved", "block.placed", "block.to_pool", "block.eliminated", "block.off_map",
                           "block.returned"})


# --- intents the phones send (carried out by the session's owner thread) ----------------------
@dataclass(frozen=True)
class RollDice:
    """`source` (a side) asks the session to roll the dice the game waits for (the phone's
    button when the tray is down or the players chose the phone)."""
    source: str


@dataclass(frozen=True)
class TypeDice:
    """`source` (a side) types the faces of real dice rolled by hand."""
    source: str
    faces: tuple[int, ...]


@dataclass(frozen=True)
class DiceSource:
    """`source` (a side) sets the table option "dice source" to tray, phone or typed."""
    source: str
    value: str


def asked(game: Game | None) -> Decision | None:
    """The dice roll the game waits for (a chance decision of kind "dice"), or None."""
    if game is None:
        return None
    for decision in game.pending():
        if decision.actor == "Chance" and decision.kind == "dice":
            return decision
    return None


def _viewer_arg(name: str) -> str | None:
    return None if name == "public" else name


class DiceDesk:
    """The dice and devices part of the table (see the module docstring). Touched by the
    session's owner thread only."""

    def __init__(self, source: str = "tray", messages: MessageBoard | None = None):
        self.source = _checked_source(source)
        self.devices: dict[str, str] = {}            # event source -> "up" | "down"
        # The sources that are dice trays: a real tray's ("dice@/dev/ttyACM0") by its name, any
        # other (the virtual table's "virtual-tray") by the kind its handshake gave.
        self._trays: set[str] = set()
        self.messages = messages if messages is not None else MessageBoard()
        self.instructions: dict[str, list[dict[str, Any]]] = {v: [] for v in VIEWERS}
        self._said_down = False      # "the tray is down" was said: say when it is back

    # --- where the dice come from ----------------------------------------------------------
    @property
    def tray_up(self) -> bool:
        """Whether a dice tray is connected and working."""
        return any(status == "up" and (name.startswith("dice") or name in self._trays)
                   for name, status in self.devices.items())

    def fallback(self) -> bool:
        """True when the phone and typed faces are accepted whatever the option says."""
        return not self.tray_up

    def accepts(self, via: str) -> bool:
        """Whether faces from `via` (tray | phone | typed) are taken now."""
        if via == "tray":
            return self.source == "tray"
        return self.source == via or (self.source == "tray" and self.fallback())

    # --- intents and events -> a chance line, or a refusal ---------------------------------
    def roll_from_event(self, game: Game | None, event: SensorEventLike) -> str | None:
        """The chance line a tray event (a `firmware_bridge.events` event of a DICE_EVENTS kind)
        makes; None for one that changes no game (a device coming or going, the dice rolling, a
        diagnostic about something else); TableRefusal for a roll that cannot be taken."""
        kind = event.kind
        if kind in ("device_up", "device_down"):
            if field_of(event, "device_kind", "") == "dice":
                self._trays.add(event.source)
            self._device(game, event.source, kind == "device_up", str(field_of(event, "reason", "")))
            return None
        if kind == "dice_state":
            if field_of(event, "state") == "crooked":
                raise TableRefusal("a die is not flat (crooked): roll the dice again", code="dice.crooked",
                                   params={"source": event.source})
            return None
        if kind == "diagnostic":
            if field_of(event, "code") != "dice_mismatch":
                return None
            raise _wrong_count(self._decision(game, "tray"), None, str(field_of(event, "detail", "")))
        self.devices.setdefault(event.source, "up")
        return self._line(game, "tray", tuple(field_of(event, "faces", ())))

    def roll_on_phone(self, game: Game | None, side: str, rng: random.Random) -> str:
        """The faces drawn by the session for `side`'s phone: exactly the dice asked for."""
        self._decision(game, "phone", side)
        assert game is not None     # a decision was found, so there is a game
        return str(sample_chance(game, rng))

    def typed(self, game: Game | None, side: str, faces: object) -> str:
        """The chance line of faces typed on `side`'s phone."""
        decision = self._decision(game, "typed", side)
        clean = _faces(faces)
        return self._line(game, "typed", clean, decision)

    def set_source(self, side: str, value: str) -> None:
        """Set where rolls come from (the tray, rolled on the phone, or typed: DICE_SOURCES), as `side` asked;
        told to both sides."""
        self.source = _checked_source(value)
        self.note({"code": "dice.source-set", "rule": None, "params": {"source": value, "by": side},
                   "text": f"{side} set the dice source to {value}"}, topic=("dice", "source"))

    def _decision(self, game: Game | None, via: str, side: str | None = None) -> Decision:
        decision = asked(game)
        if decision is None:
            raise TableRefusal("no dice are asked for now: this roll is not taken", rule=DICE_RULE,
                               code="dice.not-asked", params={"via": via})
        if not self.accepts(via):
            raise TableRefusal(f"the dice come from the {self.source} now, not the {via} (table option "
                               f"'dice source')", code="dice.source", params={"source": self.source, "via": via})
        if side is not None and side != decision.params["side"]:
            raise TableRefusal(f"{decision.params['side']} rolls for his own block, not {side}", rule=DICE_RULE,
                               code="dice.not-your-roll", params={"side": side, "by": decision.params["side"]})
        return decision

    def _line(self, game: Game | None, via: str, faces: tuple[int, ...], decision: Decision | None = None) -> str:
        decision = decision or self._decision(game, via)
        if len(faces) != decision.params["dice"]:
            raise _wrong_count(decision, len(faces))
        line = str(Roll(tuple(faces)))
        parse_action(line)   # the notation's own check of the faces
        return line

    # --- devices ---------------------------------------------------------------------------
    def _device(self, game: Game | None, source: str, up: bool, reason: str) -> None:
        was_tray_up = self.tray_up
        self.devices[source] = "up" if up else "down"
        if self.source != "tray" or was_tray_up == self.tray_up:
            return
        if self.tray_up:
            if not self._said_down:
                return          # the first connection is no news
            self._said_down = False
            self.note({"code": "dice.tray-up", "rule": None, "params": {"device": source},
                       "text": "the dice tray is back: roll the dice on the tray"}, topic=("dice", "tray"))
        else:
            self._said_down = True
            pending = asked(game)
            during = " for the roll asked now" if pending is not None else ""
            self.note({"code": "dice.tray-down", "rule": None, "params": {"device": source, "reason": reason},
                       "text": f"the dice tray is not connected: roll on the phone or type the faces{during}"},
                      topic=("dice", "tray"), clears="tray-up", lasting=True)

    # --- what each viewer is told ----------------------------------------------------------
    def note(self, message: dict[str, Any], topic: tuple, clears: str = "play", lasting: bool = False) -> str:
        """Post a message for every viewer (the tray is on the table); a newer one of `topic`
        supersedes it, and the game moving on ends it (but a `lasting` one)."""
        return self.messages.post(message, audience="public", cause="dice", clears=clears, topic=topic,
                                  lasting=lasting)

    def forget(self) -> None:
        """A new game or an undo: the instructions of before no longer apply (its messages end with
        the game moving on)."""
        for viewer in VIEWERS:
            self.instructions[viewer] = []

    def refused(self, exc: IllegalAction) -> str:
        """A refused roll, told to both sides and the public (everyone sees the tray); its id."""
        return self.note({"code": exc.code, "rule": exc.rule, "params": dict(exc.params), "text": str(exc)},
                         topic=("dice", "refused"))

    def applied(self, game: Game, line: str, index: int = -1) -> None:
        """After each line the session commits: a roll's effects become what to do on the board
        (replacing the last roll's), a hit taken by choice adds its own, anything else ends them."""
        action = parse_action(line)
        if isinstance(action, Roll):
            for viewer in VIEWERS:
                self.instructions[viewer] = []
        elif not isinstance(action, Hit):
            for viewer in VIEWERS:
                self.instructions[viewer] = []
            return
        effects: list = game.effects_at(index) or []
        for viewer in VIEWERS:
            name = _viewer_arg(viewer)
            seen_as = None if name is None else _side_index(name)
            for effect in effects:
                text = instruction(effect, name)
                if text is not None:
                    self.instructions[viewer].append(
                        {"code": effect.kind, "params": effect.as_seen(seen_as)["params"], "text": text})

    def table_part(self, game: Game | None, viewer: str) -> dict[str, Any]:
        """`dice`, `devices`, `instructions` of one viewer's table part."""
        decision = asked(game)
        dice = None
        if decision is not None:
            seen = decision.for_viewer(_viewer_arg(viewer)).params
            by = seen.get("side", "")
            # `block`: None when this viewer may not know it (the pages then say "a block of <by>");
            # `via`: where it is rolled (tray | phone), `mine`: whether this viewer rolls it.
            dice = {"count": seen["dice"], "block": _block_name(seen.get("block"), viewer), "by": by,
                    "location": seen.get("location"), "sources": [v for v in DICE_SOURCES if self.accepts(v)],
                    "via": self.via(), "mine": viewer == by}
        return {"dice": dice, "devices": dict(self.devices), "instructions": list(self.instructions[viewer])}

    def merge(self, parts: dict[str, dict[str, Any]], game: Game | None, board_sensed: bool,
              shown_by_board: frozenset[str] = frozenset()) -> dict[str, dict[str, Any]]:
        """Each viewer's table part (`parts`, from the physical table or the plain one) with the
        dice added: the roll asked, what to do after a roll after
        the board's own instructions (with a sensed board, only what sensors cannot see), the
        devices of both, and where the dice asked come from (`waiting.dice`: tray or phone).
        `shown_by_board`: the effects' codes the board shows by itself (PhysicalTable.shown_by_itself)."""
        via = None if asked(game) is None else self.via()
        out = {}
        for viewer in VIEWERS:
            part, dice = dict(parts.get(viewer) or {}), self.table_part(game, viewer)
            steps = [i for i in dice["instructions"] if not (board_sensed and i["code"] in PLACES_SENSED)
                     and i["code"] not in shown_by_board]
            part["instructions"] = list(part.get("instructions") or []) + steps
            part["devices"] = {**(part.get("devices") or {}), **dice["devices"]}
            part["dice"] = dice["dice"]
            part["waiting"] = {**(part.get("waiting") or {}), "dice": via}
            part.setdefault("ask", None)
            out[viewer] = part
        return out

    def via(self) -> str:
        """Where the dice asked are rolled now: on the tray (when it is the source and up), else on the phone."""
        return "tray" if self.accepts("tray") and self.tray_up else "phone"


def _block_name(key: object, viewer: str) -> str | None:
    """The firing block (revealed in battle, so public) as `viewer` reads it: its owner by the
    name printed on it ("Antonius"), anyone else by the notation's key ("C Antonius")."""
    if not isinstance(key, str) or not key:
        return None
    try:
        block = BOARD.block(key)
    except (UnknownName, KeyError, ValueError):
        return key
    return BOARD.block_label(block, _side_index(viewer)) if viewer in SIDES else key


def _side_index(name: str) -> int:
    return 0 if name == "Caesar" else 1


def _checked_source(value: object) -> str:
    if value not in DICE_SOURCES:
        raise TableRefusal(f"the dice source is one of {', '.join(DICE_SOURCES)}, not {value!r}",
                           code="table.option", params={"field": "dice source", "value": str(value)})
    return str(value)


def _faces(faces: object) -> tuple[int, ...]:
    """Typed faces as a tuple of 1..6; TableRefusal naming the field otherwise."""
    items: list[object] = []
    if isinstance(faces, str):
        items.extend(faces.split())
    elif isinstance(faces, (list, tuple)):
        items.extend(faces)
    clean: list[int] = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, str)) or not str(item).strip().isdigit():
            break
        clean.append(int(item))
    if not items or len(clean) != len(items) or len(clean) > MAX_DICE or any(not 1 <= f <= 6 for f in clean):
        raise TableRefusal(f"faces are 1 to {MAX_DICE} numbers, each 1 to 6, not {faces!r}"[:200], rule=DICE_RULE,
                           code="dice.faces", params={"field": "faces", "value": str(faces)[:40]})
    return tuple(clean)


def _wrong_count(decision: Decision, rolled: int | None, detail: str = "") -> TableRefusal:
    p = decision.params
    what = (f"{rolled} {'die' if rolled == 1 else 'dice'}" if rolled is not None
            else f"a roll of another size ({detail})")
    return TableRefusal(f"{p['block']} rolls {p['dice']} {'die' if p['dice'] == 1 else 'dice'}, not {what}: "
                        f"roll again with {p['dice']}", rule=DICE_RULE, code="dice.wrong-count",
                        params={"count": p["dice"], "rolled": rolled, "block": p["block"]})


class RollRefused(RubiconError, ValueError):
    """The table refused the virtual tray's roll (no die of it was wanted, a roll already taken):
    `refusal` its JSON (code, rule, params, text), `message` the live message that says it, `faces`
    the dice the table did not take. The page
    that rolled is answered so, not with faces the journal does not hold."""

    def __init__(self, refusal: dict[str, Any], message: str | None, faces: tuple[int, ...] = ()):
        super().__init__(refusal.get("text") or refusal.get("code"))
        self.refusal, self.message, self.faces = refusal, message, faces

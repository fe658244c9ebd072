"""The one-reader build: a single RFID reader beside the map; a block tapped on it is offered on
its owner's phone.

Owns, for the table session's owner thread (no I/O, no threads), what a tap means. The map is not
sensed: a player taps a block on the reader, his phone asks what it does now (its legal moves by
the shortest paths, its levy and the strengths the levy points allow, fire, pass, retreat,
regroup, disband, Jupiter's send ...), he sets the block down where it goes and picks that option
on the phone, which applies it (journal first, like any action). Done (the panel's or the phone's)
ends his decision (the command, the regroup ...). Battles, retreats and levies go the same way;
choices that name no block (cards, battles to fight, dice) stay on the phone.

Hidden information: a tap is told to one side only, the side whose decision the block has a use
in (its owner; Jupiter's player for the defecting block), or else its owner ("nothing to do with
it now"). The other phone and the TV learn nothing of it: not the block, not that it was read,
not its options; the room hears the same beep for every block read. A tap is forgotten when the
game moves on (any line applied), when the other side is the one who acts, or at the next tap.

It is a `PhysicalTable` (its feedback, messages, turn lights, refusals and device list), judging
taps instead of placements:

    table = OneReaderTable(reader_map, registry.block_of)    # the reader map's scan pad is the reader
    table.sense(TagSeen("readers", reader=0, uid=...), game)
    table.parts(game)["Caesar"]["ask"]      # {"kind": "tap", "block", "options": [{"text", "value", "lines"}]}
    lines = table.answer("Caesar", "Genua-Roma", game)   # the lines the session applies
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import BOARD, POOL, SIDES, Game, Levy, Move, describe, parse_actor

from ..errors import TableRefusal
from . import placements
from .feedback import VIEWERS, message
from .physical import PhysicalTable
from .placements import Candidate
from .sensed_board import SensorEventLike, field_of


@dataclass(frozen=True)
class Tap:
    """A block tapped by `side` while the game stood at `lines` actions, and what it may do."""
    block: int
    lines: int
    options: tuple[Candidate, ...]


def tap_options(game: Game, side: str, block: int) -> list[Candidate]:
    """Every legal use of `block` by `side` now: moves by the shortest paths to each destination
    (labelled by path and contact, as a placement's question labels them), a levy at each strength
    the levy points allow, and any other action on the block (fire, pass, retreat, regroup,
    disband ...). Built from the legal actions alone (no search per destination): a tap is answered
    within a pass of the reader."""
    legal = [a for a in game.legal_actions(side) if getattr(a, "block", None) == block]
    shortest: dict[int, int] = {}
    for a in legal:
        if isinstance(a, Move):
            shortest[a.path[-1]] = min(shortest.get(a.path[-1], len(a.path)), len(a.path))
    out: list[Candidate] = []
    for action in legal:
        if isinstance(action, Move):
            if len(action.path) == shortest[action.path[-1]]:
                option = describe(game.state, action.actor, block, action.path)
                label = "-".join(option.path) + (f" ({option.contact})" if option.contact else "")
                out.append(Candidate(label, (str(action),)))
        elif isinstance(action, Levy):
            out.extend(placements.candidates(game, side, "command", block, POOL, BOARD.loc_names[action.loc]))
        else:
            out.append(Candidate(str(action), (str(action),)))
    return out


class OneReaderTable(PhysicalTable):
    """The table of the one-reader build (see the module docstring)."""

    def __init__(self, reader_map: Any, block_of: Callable[[str], str | None], feedback=None):
        super().__init__(reader_map, block_of, feedback)
        self.block_of = block_of
        self.reader = reader_map.scan_pad            # the one reader (a full map's scan pad serves too)
        self.place_name = reader_map.name(self.reader)
        self._taps: dict[str, Tap] = {}              # side -> his latest tap
        self._on_reader: dict[str, int] = {}          # UID -> block, while its tag is on the reader

    # --- events ----------------------------------------------------------------------------
    def sense(self, event: SensorEventLike, game: Game | None) -> None:
        """A sensor event of the one reader: a tag set on it is a tap (the block's options to the side who may use
        it); devices coming and going are kept; the map is not sensed."""
        if event.kind in ("device_up", "device_down"):
            self.devices[event.source] = "up" if event.kind == "device_up" else "down"
            return
        if event.kind not in ("tag_seen", "tag_gone") or int(field_of(event, "reader", -1)) != self.reader:
            return      # the map is not sensed in this build: only the reader beside it counts
        uid = str(field_of(event, "uid", "")).upper()
        if event.kind == "tag_gone":
            self._on_reader.pop(uid, None)
            return
        key = self.block_of(uid)
        if key is None:
            msg = message("table.unknown-tag", f"the tag {uid} on {self.place_name} names no block of the game",
                          {"uid": uid, "at": self.place_name})
            # Everyone sees the tag on the reader; nothing on the map tracks it, so it lasts a play.
            self.messages.post(msg, audience="public", cause="table", topic=("table", "unknown-tag"))
            return
        block = BOARD.block(key)
        self._on_reader[uid] = block
        if game is not None:
            self.tap(block, game)

    def tap(self, block: int, game: Game) -> None:
        """`block` was read on the reader: its options to the one side who may use it now."""
        owner = SIDES[game.state.owner[block]]
        for side in [s for s in game.current_players() if s in SIDES and s not in self.automated]:
            options = tap_options(game, side, block)
            if options:
                self._taps[side] = Tap(block, len(game.history), tuple(options))
                self._buzz("ok", side)
                return
        if owner in self.automated:
            return      # the Pi's block: the Pi plays it, the person only carries it out
        self._taps.pop(owner, None)
        label = BOARD.block_label(block, game.state.owner[block])
        self.messages.post(message("table.tap-nothing", f"{label}: nothing to do with it now", {"block": label}),
                           audience=(owner,), cause=owner, topic=(owner, "tap"))
        self._buzz("ok", owner)      # the same beep as a block with options: the room learns nothing

    def _current(self, side: str, game: Game) -> Tap | None:
        tap = self._taps.get(side)
        return tap if tap is not None and tap.lines == len(game.history) else None

    # --- intents ---------------------------------------------------------------------------
    def answer(self, side: str, option: str, game: Game) -> list[str]:
        """`side` picked what his tapped block did: its lines, for the session to apply."""
        tap = self._current(side, game)
        if tap is None:
            raise TableRefusal(f"there is no question for {side} now", code="table.stale-answer",
                               params={"option": option})
        for candidate in tap.options:
            if candidate.label == option:
                return list(candidate.lines)
        labels = [c.label for c in tap.options]
        raise TableRefusal(f"{option!r} is not one of the options ({'; '.join(labels)})",
                           code="table.unknown-option", params={"option": option})

    def done(self, side: str, game: Game) -> list[str]:
        """Done ends `side`'s decision made by blocks (his command, regroup, disbanding)."""
        end = placements.end_line(game, side) if side in game.current_players() else None
        if end is None:
            now = ", ".join(game.current_players()) or "nobody"
            raise TableRefusal(f"{side} has nothing to confirm with Done now (waiting for {now})",
                               code="table.done-not-yours", params={"side": side, "awaited": now})
        return [end]

    def confirm(self, side: str, game: Game) -> bool:
        """Nothing to confirm as sensed: the one-reader build senses no board."""
        raise TableRefusal("the board matches: there is nothing to confirm", code="table.nothing-to-override")

    def accepted(self, side: str) -> None:
        """`side`'s request was applied: his tap and what was said of his earlier requests are over."""
        self._taps.pop(side, None)
        self.messages.taken(side)
        self.messages.drop((side, "tap"))

    # --- what each viewer reads -------------------------------------------------------------
    def _tap_ask(self, game: Game, viewer: str) -> dict[str, Any] | None:
        tap = self._current(viewer, game) if viewer in SIDES else None
        if tap is None:
            return None
        label = BOARD.block_label(tap.block, parse_actor(viewer))
        where = _where(game, tap.block)
        return {"kind": "tap", "block": label, "at": where,
                "prompt": f"{label} ({where}): set it down where it goes, then choose here what it did",
                "options": [{"text": c.label, "value": c.label, "lines": list(c.lines)} for c in tap.options]}

    def parts(self, game: Game) -> dict[str, dict[str, Any]]:
        """Snapshot.table: per viewer the waiting line, his messages, his own tap's question, the
        devices; nothing to put right (the map is not sensed)."""
        out: dict[str, dict[str, Any]] = {}
        for viewer in VIEWERS:
            ask = self._tap_ask(game, viewer)
            # What holds play up besides the game's decisions (the words: web_ui/i18n, render_waiting).
            waiting = {"board": None, "ask": viewer if ask else None, "dice": None}
            mine = sorted(BOARD.block_label(b, parse_actor(viewer)) for b in self._on_reader.values()
                          if viewer in SIDES and SIDES[game.state.owner[b]] == viewer)
            out[viewer] = {"waiting": waiting, "instructions": [], "messages": [],
                           "ask": ask, "placements": [], "left": None, "dice": None, "devices": dict(self.devices),
                           "on_reader": mine}
        return out


def _where(game: Game, block: int) -> str:
    loc = game.state.loc[block]
    if loc >= 0:
        return BOARD.loc_names[loc]
    side = SIDES[BOARD.blocks[block].side]
    return f"{side} levy pool" if loc == POOL else f"{side} eliminated"

"""The sensed board: which block the readers say is where, from TagSeen/TagGone alone.

Owns the table's picture of the wooden blocks, built only from sensor events through the
reader map (reader index -> location, levy pool, eliminated area, scan pad) and the tag
registry (UID -> block key such as "C Legio 8"). It knows no rules. A block is in one of three
states: on a place (a map location or an off-map area, by the reader map's name; on a shared sensing zone, its
reader's first location, `zone()` giving all of them), *in hand*
(lifted, not yet set down: never "left the board"; on the scan pad too), or never seen. Tags that
name no block and tags on a reader the map does not know are kept apart, as are silent readers:
a silent reader's blocks stay where they were last seen (silence is not "the blocks left").

    board = SensedBoard(ReaderMap.load(), registry.block_of)
    change = board.apply(TagSeen("board", reader=29, uid="04A1B2C3"))   # -> Change
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

_READER_IN_DETAIL = re.compile(r"reader (\d+)")


class SensorEventLike(Protocol):
    """A `firmware_bridge.events.SensorEvent`, read by its `kind` and fields: the web app imports
    the session, and must not reach the drivers' package, even indirectly (import contracts)."""
    @property
    def source(self) -> str:
        """The device the event came from."""

    @property
    def kind(self) -> str:
        """The event type (tag_seen, tag_gone, dice_rolled...)."""


def field_of(event: SensorEventLike, name: str, default: Any = None) -> Any:
    """Field `name` of a sensor event, or `default` for an event without it."""
    return getattr(event, name, default)


class _Place(Protocol):
    location: str
    kind: str

    @property
    def locations(self) -> tuple[str, ...]:
        """Every location the reader senses: more than one for a shared sensing zone."""


class ReaderLookup(Protocol):
    """The part of the drivers' reader map the sensed board reads: what each reader senses."""

    @property
    def places(self) -> Sequence[_Place]:
        """Every reader's place."""

    def place(self, index: int) -> _Place:
        """What reader `index` senses; KeyError for a reader the map does not list."""


@dataclass(frozen=True)
class Change:
    """What one sensor event changed. `kind`: "set" (a block set down), "lifted", "scanned" (on
    the scan pad), "unknown-tag", "no-reader" (a tag on a reader the map lacks), "silent",
    "back", "none"."""
    kind: str
    block: str | None = None
    place: str | None = None     # where it was set down / lifted from / the silent reader's place
    uid: str | None = None


class SensedBoard:
    """Blocks by place as the readers report them (see the module docstring)."""

    def __init__(self, reader_map: ReaderLookup, block_of: Callable[[str], str | None]):
        self.reader_map = reader_map
        self.block_of = block_of
        self.place_of: dict[str, str] = {}      # block key -> place name where it stands
        self.in_hand: dict[str, str] = {}       # block key -> place it was lifted from
        self.unknown: dict[str, str] = {}       # UID of no block -> place name
        self.off_reader: dict[str, int] = {}    # UID -> reader index the map does not know
        self.silent: set[str] = set()           # place names whose reader does not answer
        # A place name (a reader's first location) -> every location its antenna senses: a shared
        # zone's block stands on one of them, which the table settles by the rules (physical.py).
        self._zones: dict[str, tuple[str, ...]] = {}
        for p in reader_map.places:
            for name in p.locations:
                self._zones[name] = tuple(p.locations)

    def zone(self, place: str | None) -> tuple[str, ...]:
        """The locations a block sensed on `place` may stand on: the place alone, or every location of
        its shared zone; () for None (nowhere)."""
        if place is None:
            return ()
        return self._zones.get(place, (place,))

    def senses(self, place: str) -> bool:
        """Whether a reader senses `place` (a board without pool readers does not sense the levy pools
        nor the eliminated areas: the engine knows which blocks are there)."""
        return place in self._zones

    def _place_name(self, reader: int) -> str | None:
        try:
            return self.reader_map.place(reader).location
        except KeyError:
            return None

    def _kind(self, reader: int) -> str | None:
        try:
            return self.reader_map.place(reader).kind
        except KeyError:
            return None

    def apply(self, event: SensorEventLike) -> Change:
        """Take one sensor event into the picture; what it changed."""
        if event.kind in ("tag_seen", "tag_gone"):
            reader, uid = int(field_of(event, "reader", -1)), str(field_of(event, "uid", ""))
            return self._tag(event.kind == "tag_seen", reader, uid)
        code = field_of(event, "code")
        if event.kind == "diagnostic" and code in ("reader_silent", "reader_back"):
            match = _READER_IN_DETAIL.search(str(field_of(event, "detail", "")))
            place = self._place_name(int(match.group(1))) if match else None
            if place is None:
                return Change("none")
            if code == "reader_silent":
                self.silent.add(place)
                return Change("silent", place=place)
            self.silent.discard(place)
            return Change("back", place=place)
        return Change("none")

    def _tag(self, seen: bool, reader: int, uid: str) -> Change:
        uid = uid.upper()
        place = self._place_name(reader)
        if place is None:
            if seen:
                self.off_reader[uid] = reader
                return Change("no-reader", uid=uid)
            self.off_reader.pop(uid, None)
            return Change("none", uid=uid)
        block = self.block_of(uid)
        if block is None:
            if seen:
                self.unknown[uid] = place
                return Change("unknown-tag", place=place, uid=uid)
            self.unknown.pop(uid, None)
            return Change("none", place=place, uid=uid)
        if seen and self._kind(reader) == "scan_pad":   # shown to the Pi to be read: still in hand
            previous = self.place_of.pop(block, None) or self.in_hand.get(block)
            if previous is not None:
                self.in_hand[block] = previous
            return Change("scanned", block, place, uid)
        if seen:
            self.in_hand.pop(block, None)
            self.place_of[block] = place
            return Change("set", block, place, uid)
        if self.place_of.get(block) != place:
            return Change("none", block, place, uid)   # a late report of a tag already elsewhere
        del self.place_of[block]
        self.in_hand[block] = place
        return Change("lifted", block, place, uid)

    def where(self, block: str) -> str | None:
        """The place a block stands on, None when in hand or never seen."""
        return self.place_of.get(block)

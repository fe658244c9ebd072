"""The virtual table: the physical board, the dice tray and the panel, in software.

Where every tagged block stands (a reader of the map, a levy pool, an eliminated area, or in
someone's hand), with tags, readers and dice that produce exactly the sensor events the real
devices produce (`firmware_bridge.events`). Nothing here knows the rules: like the real table it
lets anyone put any block anywhere, and the table session judges what the events mean.

    virtual = VirtualTable(sink=lambda event: session.submit(Sense(event)))
    virtual.plug_in()                           # the board, tray and panel say they are up
    virtual.set_up_705()                        # every block where the 705 set-up puts it
    token = virtual.tokens_at("Genua")[0]       # an opaque handle on a block, as a hand finds it
    virtual.move(token, "Roma")                 # TagGone at Genua's reader, TagSeen at Roma's
    virtual.roll(3)                             # DiceRolled with three faces
    virtual.press("Caesar", "done")             # the panel's Done button

Blocks are handled by opaque tokens, random per table, so a page can move a block without being
told what it is: `for_viewer(side)` names only that side's own blocks, as a player at a real
table reads only the labels turned towards him. A page moves a block with the set of blocks its
side may handle (rubicon/table/handling.py): any other block is refused alike, and nothing moves.

    virtual.move(token, "Roma", hands=handled_by(snapshot, "Caesar", ...))
"""
from __future__ import annotations

import random
import secrets
import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from firmware_bridge.board.block_catalog import BlockCatalog
from firmware_bridge.board.reader_map import SIDES, ReaderMap, ReaderPlace
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.events import DeviceUp, DiceRolled, PanelPressed, SensorEvent, TagGone, TagSeen
from firmware_bridge.shared.errors import BridgeValueError

# One source per virtual device, as each real device has its own ("dice@/dev/ttyACM0").
BOARD_SOURCE, TRAY_SOURCE, PANEL_SOURCE = "virtual-board", "virtual-tray", "virtual-panel"
IN_HAND = "hand"
PANEL_BUTTONS = ("done",)

Sink = Callable[[SensorEvent], None]


class VirtualTableError(BridgeValueError):
    """A request the virtual table cannot carry out (an unknown block token or place): `field`
    names the request's field that is wrong (the pages render it by code, in the reader's
    language); the English text says what is expected. `code`: the refusal's code."""

    def __init__(self, message: str, field: str, code: str = "virtual.bad-field"):
        super().__init__(message)
        self.field = field
        self.code = code


def not_your_block() -> VirtualTableError:
    """The one refusal of a block the mover may not handle: the same whichever block it is."""
    return VirtualTableError("this browser handles its own side's blocks only (and those the table tells it to "
                             "handle): that block is not one of them", "token", "virtual.not-your-block")


@dataclass(frozen=True)
class Place:
    """Where a block can be put: a map location (the locations of a shared sensing zone each a place of
    their own, on the zone's one reader), a side's levy pool or eliminated area, the scan pad; named as
    the pages name it."""
    key: str            # "Genua", "pool:Caesar", "eliminated:Pompeius", "scan_pad"
    reader: int | None  # None: no reader senses it (a board without pool readers): a block put there is gone
    kind: str           # city / sea / levy_pool / eliminated / scan_pad
    side: str | None


class VirtualTable:
    """The software board (see the module docstring). Thread-safe: pages call it concurrently."""

    def __init__(self, sink: Sink, *, reader_map: ReaderMap | None = None,
                 catalog: BlockCatalog | None = None, seed: int | None = None, rng: random.Random | None = None):
        self._sink = sink
        self.reader_map = reader_map or with_off_map_readers(ReaderMap.load())
        self.catalog = catalog or BlockCatalog.load()
        # The tray's dice, drawn when rolled: `rng` (the table gives its chance source's tray stream),
        # else the system's CSPRNG, unless given a seed as tests do.
        self._rng = rng or (random.SystemRandom() if seed is None else random.Random(f"virtual-tray/{seed}"))
        self._lock = threading.Lock()
        self.places = {p.key: p for p in _places(self.reader_map)}
        ids = list(self.catalog.blocks)
        self._uid = _random_uids(ids)
        self._token = {b: secrets.token_urlsafe(6) for b in ids}
        self._block_of_token = {t: b for b, t in self._token.items()}
        self._where: dict[str, str] = {b: IN_HAND for b in ids}   # block id -> place key or IN_HAND
        # When each block was last set down: the pages draw a place's blocks in that order, each
        # new one at the right end, as the table counts the Pi's rows (docs/bot.md).
        self._arrived: dict[str, int] = {}
        self._arrivals = 0
        # Called (under the board's lock) after a block changed place, sensed or not (a hand, a pool
        # no reader senses): the application keeps the arrangement for its next start.
        self.on_change: Callable[[], None] | None = None

    # --- what the sensors are told about -------------------------------------------------------
    def registry(self) -> TagRegistry:
        """The tag registry of this table's tags (what enrollment would have written)."""
        return TagRegistry(tags={uid: block for block, uid in self._uid.items()})

    def plug_in(self) -> None:
        """The virtual devices come up, as real ones answer their handshake: the session then
        asks this tray for the dice and shows the devices as up."""
        for source, kind in ((BOARD_SOURCE, "board"), (TRAY_SOURCE, "dice"), (PANEL_SOURCE, "panel")):
            self._sink(DeviceUp(source, device_kind=kind, firmware="virtual"))

    def set_up_705(self) -> None:
        """Every block where the 705 set-up puts it: map blocks on their locations, the rest in
        their side's levy pool."""
        wanted = {b: loc for loc, ids in self.catalog.setup_map.items() for b in ids}
        for side in SIDES:
            wanted.update({b: f"pool:{side}" for b in self.catalog.levy_pools[side]})
        self.arrange(wanted)

    def arrange(self, where: dict[str, str]) -> None:
        """Put each named block (block id -> place key) where given, lifting it first if it stands
        elsewhere; blocks not named stay. Used to lay out a resumed game's board. Set down in
        the order of their random tokens: the order of a place's blocks tells nothing of them."""
        for block in sorted(where, key=lambda b: self._token.get(b, "")):
            key = where[block]
            if block not in self._uid:
                raise VirtualTableError(f"unknown block {block!r}", "block")
            self._put(block, key)

    def set_out(self, views: dict[str, dict[str, Any]]) -> None:
        """Every block where the game has it, from each side's own view (`layout_from_views`): a new
        game's set-up in one step, as the page's "Set out the blocks" asks."""
        self.arrange(layout_from_views(views, self.catalog))

    # --- what hands and dice do ----------------------------------------------------------------
    def move(self, token: object, to: object, *, hands: Collection[str] | None = None) -> None:
        """Lift the block `token` names (if it stands somewhere) and set it down on `to` (a place key,
        or "hand" to keep holding it). `hands`: the block ids the mover may handle (None: any, as
        the set-up does); any other block is refused (`virtual.not-your-block`) and stays."""
        block = self._block(token)
        key = self._place_key(to)
        if hands is not None and block not in hands:
            raise not_your_block()
        self._put(block, key)

    def lift(self, token: object, *, hands: Collection[str] | None = None) -> None:
        """Take the block `token` into the hand (of `hands`, if given), as a player lifting it off the board."""
        self.move(token, IN_HAND, hands=hands)

    def roll(self, count: object) -> tuple[int, ...]:
        """Roll `count` dice (1-4) in the tray; the faces go to the sink as the tray reports them.
        Returns once the sink has (the table's sink returns after the roll's line is committed:
        the page shows no faces the journal does not hold)."""
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 4:
            raise VirtualTableError(f"`count` must be a number of dice from 1 to 4, not {count!r:.40}", "count")
        with self._lock:
            faces = tuple(self._rng.randint(1, 6) for _ in range(count))
        self._sink(DiceRolled(TRAY_SOURCE, faces=faces))
        return faces

    def press(self, side: str, button: object) -> None:
        """Press a button of `side`'s half of the panel."""
        if side not in SIDES:
            raise VirtualTableError(f"`side` must be Caesar or Pompeius, not {side!r}", "side")
        if button not in PANEL_BUTTONS:
            raise VirtualTableError(f"`button` must be one of {', '.join(PANEL_BUTTONS)}, not {button!r:.40}",
                                    "button")
        self._sink(PanelPressed(PANEL_SOURCE, side=side, button=button))

    # --- what a person at the table sees -------------------------------------------------------
    def tokens_at(self, key: str) -> list[str]:
        """The tokens of the blocks at place `key`."""
        with self._lock:
            return [self._token[b] for b, where in self._where.items() if where == key]

    def where(self, block: str) -> str:
        """Where block id `block` stands (a place key or "hand"); for tests and the set-up."""
        return self._where[block]

    def for_viewer(self, side: str | None, hands: Collection[str] | None = None,
                   known: Collection[str] = (), details: Mapping[str, Mapping[str, Any]] | None = None
                   ) -> dict[str, Any]:
        """The board as `side` sees it at a real table: every block's colour and place, and the
        names of `side`'s own blocks only (None: a spectator reads no label) and of `known` (a
        block of the other colour this side knows, Jupiter's defector it sends). `hands`: the
        blocks this side may handle (`rubicon.table.handling`), each marked "movable". `details`:
        what the viewer knows of a block besides its label (block id -> fields, e.g. its strength
        turned towards its owner), added to the entries of the blocks it reads the label of only."""
        with self._lock:
            blocks = []
            for block, key in self._where.items():
                owner = self.catalog.blocks[block].side
                entry: dict[str, Any] = {"token": self._token[block], "side": owner, "at": key}
                if owner == side or block in known:
                    entry["label"] = self.catalog.blocks[block].name
                    entry.update((details or {}).get(block, {}))
                if hands is not None:
                    entry["movable"] = block in hands
                blocks.append(entry)
            # In the order they were set down (the set-up's by random token, never by block id): what
            # every viewer saw happen, and the order the table's instructions count the Pi's blocks in.
            arrived = {self._token[b]: n for b, n in self._arrived.items()}
        blocks.sort(key=lambda e: (arrived.get(e["token"], 0), e["token"]))
        places = [{"key": p.key, "kind": p.kind, "side": p.side} for p in self.places.values()]
        return {"blocks": blocks, "places": places}

    # --- inside --------------------------------------------------------------------------------
    def _block(self, token: object) -> str:
        block = self._block_of_token.get(token) if isinstance(token, str) else None
        if block is None:
            raise VirtualTableError("`token` names no block of this table (reload the page: the table was reset?)",
                                    "token")
        return block

    def _place_key(self, key: object) -> str:
        if not isinstance(key, str) or (key != IN_HAND and key not in self.places):
            shown = repr(key)[:40]
            raise VirtualTableError(f"`to` must be a map location, pool:SIDE, eliminated:SIDE, scan_pad or hand, "
                                    f"not {shown}", "to")
        return key

    def _put(self, block: str, key: object) -> None:
        key = self._place_key(key)
        events: list[SensorEvent] = []
        with self._lock:
            old = self._where[block]
            if old == key:
                return
            uid = self._uid[block]
            gone = None if old == IN_HAND else self.places[old].reader
            seen = None if key == IN_HAND else self.places[key].reader
            if gone is not None:
                events.append(TagGone(BOARD_SOURCE, reader=gone, uid=uid))
            if seen is not None:
                events.append(TagSeen(BOARD_SOURCE, reader=seen, uid=uid))
            if seen is not None:
                self._arrivals += 1
                self._arrived[block] = self._arrivals
            self._where[block] = key
            # Sent while holding the lock so two pages moving blocks at once reach the session
            # in the order the board changed.
            for event in events:
                self._sink(event)
            if self.on_change is not None:
                self.on_change()


def with_off_map_readers(reader_map: ReaderMap) -> ReaderMap:
    """`reader_map` with a reader under each side's levy pool and eliminated area it lacks. The
    virtual board senses them (software costs nothing): the table then knows the order the Pi's
    pool blocks were set down in, so a levy of the Pi's names the pool block to take by its
    position in the row as the page shows it (docs/bot.md), never one among all of them at random."""
    have = {(p.kind, p.side) for p in reader_map.places}
    index = max(p.index for p in reader_map.places)
    extra = []
    for side in SIDES:
        for kind, name in (("levy_pool", f"{side} levy pool"), ("eliminated", f"{side} eliminated")):
            if (kind, side) not in have:
                index += 1
                extra.append(ReaderPlace(index, name, kind, side))
    if not extra:
        return reader_map
    return ReaderMap(reader_map.bus, reader_map.places + tuple(extra))


def _random_uids(blocks: list[str]) -> dict[str, str]:
    """A fresh 4-byte UID per block, as a bag of new tags would have (never the cascade tag 0x88)."""
    uids: dict[str, str] = {}
    while len(uids) < len(blocks):
        raw = secrets.token_bytes(4)
        uid = raw.hex().upper()
        if raw[0] != 0x88 and uid not in uids.values():
            uids[blocks[len(uids)]] = uid
    return uids


def _places(reader_map: ReaderMap) -> Iterable[Place]:
    """Every place of the map's readers, then each side's pool and eliminated area no reader senses."""
    keys = set()
    for p in reader_map.places:
        if p.kind in ("levy_pool", "eliminated"):
            key = f"{'pool' if p.kind == 'levy_pool' else 'eliminated'}:{p.side}"
            keys.add(key)
            yield Place(key, p.index, p.kind, p.side)
        elif p.kind == "scan_pad":
            yield Place("scan_pad", p.index, p.kind, p.side)
        else:
            for name in p.locations:
                yield Place(name, p.index, p.kind, p.side)
    for side in SIDES:
        for prefix, kind in (("pool", "levy_pool"), ("eliminated", "eliminated")):
            if f"{prefix}:{side}" not in keys:
                yield Place(f"{prefix}:{side}", None, kind, side)


def layout_from_views(views: dict[str, dict[str, Any]], catalog: BlockCatalog) -> dict[str, str]:
    """Where the engine's board puts every block (block id -> place key), from each side's own
    view: its blocks on the map, its levy pool, and the rest (eliminated for good) in its
    eliminated area. A resumed virtual table starts so, as a real board left untouched would."""
    where: dict[str, str] = {}
    for side in SIDES:
        view = views.get(side) or {}
        for entry in view.get("own_blocks", []):
            where[entry["block"]] = entry["location"]
        for block in view.get("own_levy_pool", []):
            where[block] = f"pool:{side}"
    for block, info in catalog.blocks.items():
        where.setdefault(block, f"eliminated:{info.side}")
    return where

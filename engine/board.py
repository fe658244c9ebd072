"""The static game data, loaded once from `engine/data/*.json` into indexed structures.

Owns: small integer ids for locations, edges (roads and sea borders) and blocks; adjacency
with road class; port<->sea and sea<->sea borders; city values and major ports; block
ratings, steps and levy cities; the card kinds; the 705 set-up; and name lookup (names and
aliases, case-insensitive). Everything here is immutable; use `BOARD` (built on import).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

from .errors import AmbiguousName, UnknownName

DATA_DIR = Path(__file__).with_name("data")


class Side(StrEnum):
    """The two players, by the name the API speaks ("Caesar", "Pompeius"): a `Side` is that
    string (`Side.CAESAR == "Caesar"`, a dict key, JSON). `.id` is the int the state and the
    actions use (0, 1: it indexes per-side lists); the third actor, who supplies the deal, the
    dice and Jupiter's blind pick, is `CHANCE` (2), named `CHANCE_NAME`."""
    CAESAR = "Caesar"
    POMPEIUS = "Pompeius"

    @property
    def id(self) -> int:
        """0 for Caesar, 1 for Pompeius: the side's index in the state and in actions."""
        return 0 if self is Side.CAESAR else 1

    @property
    def other(self) -> Side:
        """The opponent."""
        return Side.POMPEIUS if self is Side.CAESAR else Side.CAESAR

    @classmethod
    def of(cls, side_id: int) -> Side:
        """The side whose id is `side_id` (0 or 1)."""
        return (Side.CAESAR, Side.POMPEIUS)[side_id]


# The state stores plain ints (JSON, list indices); `Side.of(x)` / `SIDES[x]` give the name.
CAESAR: Final = 0
POMPEIUS: Final = 1
CHANCE: Final = 2
# By id: the one list of the sides' names. Its items are `Side`s, typed as the strings they are.
SIDES: Final[tuple[str, str]] = (Side.CAESAR, Side.POMPEIUS)
CHANCE_NAME: Final = "Chance"                 # the chance actor's one name (notation, players, decisions, logs)
SIDE_ALIASES = {"caesar": CAESAR, "pompeius": POMPEIUS, "pompey": POMPEIUS}

MAJOR, MINOR, STRAIT, SEA = "major", "minor", "strait", "sea"
# Blocks that may cross an edge of each class per player turn (6.11). Sea borders have no limit.
ROAD_LIMIT = {MAJOR: 4, MINOR: 2, STRAIT: 2}
STRAIT_ATTACK_LIMIT = 1
# Pluto: raised limits for moves into enemy or contested locations (rulings).
PLUTO_LIMIT = {MAJOR: 6, MINOR: 3, STRAIT: 2}

LEADER, LEGION, EQUITATUS, ELEPHANT = "leader", "legion", "equitatus", "elephant"
AUXILIA, BALLISTA, NAVIS, CLEOPATRA = "auxilia", "ballista", "navis", "cleopatra"


def side_index(name: str) -> int:
    """The id (0, 1) of a side named "Caesar", "Pompeius" or "Pompey" (any case). UnknownName else."""
    try:
        return SIDE_ALIASES[name.strip().lower()]
    except KeyError:
        raise UnknownName(f"unknown side {name!r} (Caesar or Pompeius)") from None


def actor_name(actor: int) -> str:
    """"Caesar", "Pompeius" or "Chance": the one place an actor id becomes its name."""
    return CHANCE_NAME if actor == CHANCE else SIDES[actor]


def parse_actor(actor: object, *, allow_chance: bool = True) -> int:
    """An actor id from what callers pass: a `Side`, 0/1/2, or a name ("Caesar", "Pompeius",
    "Pompey", "Chance", any case). The one place names and ids are converted. Raises
    UnknownName for anything else."""
    if isinstance(actor, bool):
        raise UnknownName(f"unknown side {actor!r} (Caesar, Pompeius or Chance)")
    if isinstance(actor, int):
        if actor in (CAESAR, POMPEIUS):
            return int(actor)
        if actor == CHANCE and allow_chance:
            return CHANCE
    elif isinstance(actor, str):
        key = actor.strip().lower()
        if key in SIDE_ALIASES:
            return SIDE_ALIASES[key]
        if key == "chance" and allow_chance:
            return CHANCE
    raise UnknownName(f"unknown side {actor!r} (Caesar, Pompeius{' or Chance' if allow_chance else ''})")


def normalize(name: str) -> str:
    """A name as lookups compare it: lower case, straight apostrophes, single spaces."""
    return " ".join(name.lower().replace("’", "'").split())


@dataclass(frozen=True, slots=True)
class BlockInfo:
    """One block's printed data (facts file): key, name, side, type, steps, initiative, firepower, levy city."""
    id: int
    key: str            # the facts file's id: "C Legio 13", "P Pompeius", "Cleopatra"
    name: str           # printed name: "Legio 13"
    side: int           # printed side
    type: str
    max_steps: int
    initiative: str     # ballista: defending initiative
    initiative_attacking: str
    firepower: int
    levy_city: int | None
    strength_per_step: int

    @property
    def is_leader(self) -> bool:
        """Whether the block is a leader (dies for good, scores for the enemy)."""
        return self.type == LEADER

    @property
    def is_navis(self) -> bool:
        """Whether the block is a navis (moves by sea borders only)."""
        return self.type == NAVIS


@dataclass(frozen=True, slots=True)
class CardKind:
    """One kind of card: its printed name, event (or None), move and levy values and copies in the deck."""
    id: int
    name: str
    event: bool
    move: int
    levy: int
    count: int


class Board:
    """Indexed map, blocks and cards. Build once (see `BOARD`)."""

    def __init__(self, data_dir: Path = DATA_DIR):
        mp = json.loads((data_dir / "map.json").read_text(encoding="utf-8"))
        self._names: dict[str, int] = {}
        locs = mp["locations"]
        self.loc_names = tuple(l["name"] for l in locs)
        self.n_locs = len(locs)
        for i, l in enumerate(locs):
            for n in [l["name"], *l["aliases"]]:
                self._add_name(self._names, n, i, "location")
        self.loc_kind = tuple(l["kind"] for l in locs)
        self.is_sea = tuple(k == "sea" for k in self.loc_kind)
        self.is_city = tuple(not s for s in self.is_sea)
        self.is_port = tuple(k in ("port", "major_port") for k in self.loc_kind)
        self.is_major_port = tuple(k == "major_port" for k in self.loc_kind)
        self.vp = tuple(int(l["vp"]) for l in locs)
        self.map_xy = tuple(tuple(l.get("map_xy") or ()) for l in locs)

        # Edges: roads first, then sea borders; one id per unordered pair.
        self._ends_built: list[tuple[int, int]] = []
        self._classes_built: list[str] = []
        self._edge: dict[tuple[int, int], int] = {}
        land: list[list[tuple[int, int]]] = [[] for _ in locs]
        seaadj: list[list[tuple[int, int]]] = [[] for _ in locs]
        for a, b, cls in mp["roads"]:
            if cls not in ROAD_LIMIT:
                raise ValueError(f"map.json: road {a}-{b} has unknown class {cls!r}")
            e = self._new_edge(a, b, cls)
            ia, ib = self._ends_built[e]
            land[ia].append((ib, e))
            land[ib].append((ia, e))
        for a, b in mp["sea_borders"]:
            e = self._new_edge(a, b, SEA)
            ia, ib = self._ends_built[e]
            if not (self.is_sea[ia] or self.is_sea[ib]):
                raise ValueError(f"map.json: sea border {a}-{b} joins two cities")
            for x in (ia, ib):
                if not self.is_sea[x] and not self.is_port[x]:
                    raise ValueError(f"map.json: sea border {a}-{b}: {self.loc_names[x]} is not a port")
            seaadj[ia].append((ib, e))
            seaadj[ib].append((ia, e))
        self.edge_ends: tuple[tuple[int, int], ...] = tuple(self._ends_built)
        self.edge_class: tuple[str, ...] = tuple(self._classes_built)
        self.n_edges = len(self.edge_ends)
        self.land_adj = tuple(tuple(sorted(x)) for x in land)
        self.sea_adj = tuple(tuple(sorted(x)) for x in seaadj)
        self.port_seas = tuple(
            tuple(n for n, _ in seaadj[i]) if not self.is_sea[i] else () for i in range(self.n_locs))
        self.sea_ports = tuple(
            tuple(n for n, _ in seaadj[i] if not self.is_sea[n]) if self.is_sea[i] else ()
            for i in range(self.n_locs))
        self.sea_seas = tuple(
            tuple(n for n, _ in seaadj[i] if self.is_sea[n]) if self.is_sea[i] else ()
            for i in range(self.n_locs))
        # Any neighbour by road or sea border (Jupiter's "adjacent").
        self.neighbours = tuple(
            tuple(sorted({n for n, _ in land[i]} | {n for n, _ in seaadj[i]})) for i in range(self.n_locs))

        bd = json.loads((data_dir / "blocks.json").read_text(encoding="utf-8"))["blocks"]
        blocks = []
        self._block_names: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self._block_keys: dict[str, int] = {}
        for i, b in enumerate(bd):
            side = int(side_index(b["side"]))   # plain ints in the hot tables
            levy = b.get("levy_city")
            info = BlockInfo(
                id=i, key=b["id"], name=b["name"], side=side, type=b["type"],
                max_steps=int(b["max_steps"]),
                initiative=b.get("initiative") or b["initiative_defending"],
                initiative_attacking=b.get("initiative") or b["initiative_attacking"],
                firepower=int(b["firepower"]),
                levy_city=self.location(levy) if levy else None,
                strength_per_step=int(b.get("strength_per_step", 1)))
            blocks.append(info)
            for n in [b["name"], *b.get("aliases", [])]:
                self._add_name(self._block_names[side], n, i, "block")
            self._add_name(self._block_keys, b["id"], i, "block")
        self.blocks = tuple(blocks)
        self.n_blocks = len(blocks)
        self.leaders = tuple(tuple(b.id for b in blocks if b.side == s and b.is_leader) for s in (0, 1))
        self.cleopatra = next(b.id for b in blocks if b.type == CLEOPATRA)

        cd = json.loads((data_dir / "cards.json").read_text(encoding="utf-8"))["cards"]
        self.cards = tuple(CardKind(id=i, name=c["name"], event=bool(c.get("event")),
                                    move=int(c.get("move", 0)), levy=int(c.get("levy", 0)),
                                    count=int(c["count"])) for i, c in enumerate(cd))
        self._card_names: dict[str, int] = {}
        for c in self.cards:
            self._add_name(self._card_names, c.name, c.id, "card")
        self.deck = tuple(sorted(c.id for c in self.cards for _ in range(c.count)))

        su = json.loads((data_dir / "setup_705.json").read_text(encoding="utf-8"))
        setup_map: dict[int, int] = {}
        setup_pool: list[int] = []
        for sname in SIDES:
            s = side_index(sname)
            for loc, names in su[sname]["map"].items():
                for n in names:
                    setup_map[self.block(n, s)] = self.location(loc)
            setup_pool.extend(self.block(n, s) for n in su[sname]["levy_pool"])
        placed = sorted([*setup_map, *setup_pool])
        if placed != list(range(self.n_blocks)):
            raise ValueError("setup_705.json must place every block exactly once")
        self.setup_map = setup_map
        self.setup_pool = tuple(setup_pool)

    # --- construction helpers -------------------------------------------------------------
    @staticmethod
    def _add_name(table: dict[str, int], name: str, value: int, what: str) -> None:
        key = normalize(name)
        if table.get(key, value) != value:
            raise ValueError(f"ambiguous {what} name {name!r}")
        table[key] = value

    def _new_edge(self, a: str, b: str, cls: str) -> int:
        ia, ib = self.location(a), self.location(b)
        if ia == ib or (ia, ib) in self._edge:
            raise ValueError(f"map.json: duplicate or looping edge {a}-{b}")
        e = len(self._ends_built)
        self._ends_built.append((ia, ib))
        self._classes_built.append(cls)
        self._edge[(ia, ib)] = self._edge[(ib, ia)] = e
        return e

    # --- lookup ---------------------------------------------------------------------------
    def location(self, name: str) -> int:
        """The id of a location by name or alias (any case); UnknownName else."""
        try:
            return self._names[normalize(name)]
        except KeyError:
            raise UnknownName(f"unknown location {name!r}") from None

    def edge(self, a: int, b: int) -> int | None:
        """The road or sea border joining two locations, or None."""
        return self._edge.get((a, b))

    def edge_name(self, e: int) -> str:
        """A road or sea border as its two ends: "Ravenna–Roma"."""
        a, b = self.edge_ends[e]
        return f"{self.loc_names[a]}–{self.loc_names[b]}"

    def block(self, name: str, side: int | None = None) -> int:
        """A block by printed name within a printed side, or by its key ("P Legio 1")."""
        key = normalize(name)
        if key in self._block_keys:
            return self._block_keys[key]
        if key.startswith(("c ", "p ")):
            s = CAESAR if key[0] == "c" else POMPEIUS
            if key[2:] in self._block_names[s]:
                return self._block_names[s][key[2:]]
        if side is not None and key in self._block_names[side]:
            return self._block_names[side][key]
        hits = {t[key] for t in self._block_names if key in t}
        if len(hits) == 1:
            return hits.pop()
        if hits:
            raise AmbiguousName(f"block name {name!r} is ambiguous: prefix it with C or P")
        raise UnknownName(f"unknown block {name!r}")

    def card(self, name: str) -> int:
        """The card kind named ("3/2", "Apollo", any case); UnknownName else."""
        try:
            return self._card_names[normalize(name)]
        except KeyError:
            raise UnknownName(f"unknown card {name!r}") from None

    def block_label(self, b: int, actor: int | None) -> str:
        """How notation names block b when `actor` acts with it: the printed name when the
        block is printed on the actor's side (or is Cleopatra), else its prefixed key."""
        info = self.blocks[b]
        if info.type == CLEOPATRA or info.side == actor:
            return info.name
        return info.key


BOARD = Board()

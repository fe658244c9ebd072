"""One battle (rules 7.1-7.8) as a self-contained sub-state machine.

A `Battle` owns what exists only while a battle is fought: its round, which blocks have
had their battle turn, reserves still to arrive, the dice a firing block waits for, hits
still to assign, retreat and regroup road use, and the winner. Everything else (where
blocks stand, their steps, who controls a location, elimination consequences) lives in
the game and is reached through the narrow `BattleWorld` interface, so the battle can
be driven by the real game state or tested on its own.

Turn order per round: defender A, attacker A, defender B, ... D (Mars/Neptune: in round
1 every attacking letter first). Within one letter and side the owner picks which block
acts; that block fires, retreats (not in round 1) or passes. In round 4 attacking blocks
must retreat; one that cannot is eliminated (`Retreat` to nowhere).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Protocol

from engine.battle_actions import (
    BattleAction, EndRegroup, Fire, Hit, Pass, Regroup, Retreat, Roll,
)
from engine.board import BOARD, MAJOR, MINOR, STRAIT

LETTERS = ("A", "B", "C", "D")
LAST_ROUND = 4
RETREAT_LIMIT = {MAJOR: 4, MINOR: 2, STRAIT: 1}
REGROUP_LIMIT = {MAJOR: 4, MINOR: 2, STRAIT: 2}
CHANCE = "chance"


class IllegalBattleAction(ValueError):
    """An action the battle's current situation does not allow; names the rule."""


class BattleWorld(Protocol):
    """What a battle needs from the game around it (ids are the board's integers)."""

    def side_of(self, block: int) -> int: ...
    def blocks_at(self, location: int) -> Iterable[int]: ...
    def strength_of(self, block: int) -> int: ...
    def control(self, location: int) -> int | None:
        """The side holding `location` alone; None when vacant or contested."""
    def is_vacant(self, location: int) -> bool: ...
    def take_hit(self, block: int, by_side: int) -> None:
        """One step off `block`; below one step it is eliminated (7.5)."""
    def eliminate(self, block: int, by_side: int) -> None: ...
    def move(self, block: int, destination: int) -> None: ...


def initiative(block: int, attacking: bool) -> str:
    info = BOARD.blocks[block]
    return info.initiative_attacking if attacking else info.initiative


def sea_neighbours(location: int) -> tuple[int, ...]:
    """Where a navis may go from `location` in one step: seas of a port; seas and ports of a sea."""
    if BOARD.is_sea[location]:
        return BOARD.sea_seas[location] + BOARD.sea_ports[location]
    return BOARD.port_seas[location]


@dataclass
class Battle:
    """The state of one battle; JSON-able through `to_json`/`from_json`."""

    location: int
    attacker: int
    defender: int
    surprise: bool = False
    round: int = 1
    reserves: set[int] = field(default_factory=set)
    # Per side, the locations its blocks came from to enter (or reinforce) the battle.
    entries: tuple[set[int], set[int]] = field(default_factory=lambda: (set(), set()))
    acted: set[int] = field(default_factory=set)
    firing: int | None = None
    hits: int = 0
    # Per side, blocks retreated/regrouped this round/battle along each road (edge id).
    retreat_use: tuple[dict[int, int], dict[int, int]] = field(default_factory=lambda: ({}, {}))
    sea_retreated: set[int] = field(default_factory=set)
    regroup_use: tuple[dict[int, int], dict[int, int]] = field(default_factory=lambda: ({}, {}))
    winner: int | None = None
    over: bool = False
    regrouping: bool = False
    disrupted: set[int] = field(default_factory=set)

    # ----------------------------------------------------------------- queries
    @property
    def sides(self) -> tuple[int, int]:
        return (self.attacker, self.defender)

    def blocks(self, world: BattleWorld, side: int) -> list[int]:
        return [b for b in world.blocks_at(self.location) if world.side_of(b) == side]

    def engaged(self, world: BattleWorld, side: int) -> list[int]:
        """Blocks of `side` that fight now (reserves wait for round 2)."""
        return [b for b in world.blocks_at(self.location)
                if world.side_of(b) == side and b not in self.reserves]

    def slot_order(self) -> list[tuple[int, str]]:
        if self.surprise and self.round == 1:
            return [(self.attacker, x) for x in LETTERS] + [(self.defender, x) for x in LETTERS]
        return [(s, x) for x in LETTERS for s in (self.defender, self.attacker)]

    def eligible(self, world: BattleWorld) -> list[int]:
        """Blocks that may take the current battle turn (all of one side and letter)."""
        waiting = [b for b in world.blocks_at(self.location)
                   if b not in self.acted and b not in self.reserves]
        if not waiting:
            return []
        for side, letter in self.slot_order():
            attacking = side == self.attacker
            found = [b for b in waiting
                     if world.side_of(b) == side and initiative(b, attacking) == letter]
            if found:
                return sorted(found)
        return []

    def hit_candidates(self, world: BattleWorld) -> list[int]:
        """The strongest targetable blocks of the side taking the pending hits (7.4)."""
        pool = self.engaged(world, 1 - world.side_of(self.firing))
        if not pool:
            return []
        top = max(world.strength_of(b) for b in pool)
        return sorted(b for b in pool if world.strength_of(b) == top)

    def to_act(self, world: BattleWorld) -> int | str | None:
        """The side (or CHANCE) whose decision the battle waits for; None once finished."""
        if self.over:
            return self.winner if self.regrouping else None
        if self.firing is not None:
            if self.hits == 0:
                return CHANCE
            return 1 - world.side_of(self.firing)
        found = self.eligible(world)
        return world.side_of(found[0]) if found else None

    # ----------------------------------------------------------------- retreats
    def retreat_destinations(self, world: BattleWorld, block: int) -> list[tuple[int, bool]]:
        """Legal (destination, by_sea) pairs for `block` retreating now (7.6, 7.82)."""
        side = world.side_of(block)
        attacking = side == self.attacker
        enemy_entries = self.entries[1 - side]
        own_entries = self.entries[side]
        here = self.location
        out: list[tuple[int, bool]] = []

        def allowed(dest: int) -> bool:
            ctl = world.control(dest)
            if ctl == side:
                return True
            if not world.is_vacant(dest):
                return False
            return dest in own_entries if attacking else dest not in enemy_entries

        if BOARD.blocks[block].is_navis:
            for dest in sea_neighbours(here):
                if BOARD.is_sea[dest]:
                    ok = allowed(dest)
                else:  # a port on the battle's sea (7.82)
                    ok = world.control(dest) == side or (
                        attacking and dest in own_entries and world.is_vacant(dest))
                if ok:
                    out.append((dest, False))
            return out
        use = self.retreat_use[side]
        for dest, edge in BOARD.land_adj[here]:
            if use.get(edge, 0) < RETREAT_LIMIT[BOARD.edge_class[edge]] and allowed(dest):
                out.append((dest, False))
        if side not in self.sea_retreated:
            for sea in BOARD.port_seas[here]:
                if world.control(sea) != side:
                    continue
                for port in BOARD.sea_ports[sea]:
                    if port != here and world.control(port) == side and (port, True) not in out:
                        out.append((port, True))
        return out

    def regroup_destinations(self, world: BattleWorld, block: int) -> list[int]:
        """Where a victorious block may regroup (7.7, 7.83): adjacent friendly or vacant."""
        side = world.side_of(block)
        if BOARD.blocks[block].is_navis:
            return [d for d in sea_neighbours(self.location)
                    if world.control(d) == side or world.is_vacant(d)]
        use = self.regroup_use[side]
        return [d for d, edge in BOARD.land_adj[self.location]
                if use.get(edge, 0) < REGROUP_LIMIT[BOARD.edge_class[edge]]
                and (world.control(d) == side or world.is_vacant(d))]

    # ----------------------------------------------------------------- actions
    def legal_actions(self, world: BattleWorld) -> list[BattleAction]:
        """The decisions open now (empty while the dice are awaited: see `dice_needed`)."""
        if self.over:
            if not self.regrouping:
                return []
            acts: list[BattleAction] = [EndRegroup()]
            for b in sorted(self.blocks(world, self.winner)):
                acts.extend(Regroup(b, d) for d in self.regroup_destinations(world, b))
            return acts
        if self.firing is not None:
            if self.hits == 0:
                return []
            cands = self.hit_candidates(world)
            return [Hit(b) for b in cands]
        acts = []
        for b in self.eligible(world):
            attacking = world.side_of(b) == self.attacker
            dests = self.retreat_destinations(world, b) if self.round > 1 else []
            if self.round == LAST_ROUND and attacking:
                acts.extend(Retreat(b, d, s) for d, s in dests)
                if not dests:
                    acts.append(Retreat(b, None, False))
                continue
            acts.append(Fire(b))
            acts.extend(Retreat(b, d, s) for d, s in dests)
            acts.append(Pass(b))
        return acts

    def dice_needed(self, world: BattleWorld) -> int:
        """How many dice the pending roll needs (0: no roll pending)."""
        if self.firing is not None and self.hits == 0 and not self.over:
            return world.strength_of(self.firing)
        return 0

    def apply(self, world: BattleWorld, action: BattleAction) -> None:
        """Validate and apply one action; raises IllegalBattleAction and changes nothing."""
        if isinstance(action, Roll):
            need = self.dice_needed(world)
            if not need:
                raise IllegalBattleAction("7.4: no block is waiting for its dice")
            if len(action.faces) != need or any(not 1 <= f <= 6 for f in action.faces):
                raise IllegalBattleAction(f"7.4: the firing block rolls {need} dice, faces 1-6")
            firer = self.firing
            fp = BOARD.blocks[firer].firepower
            self.hits = sum(1 for f in action.faces if f <= fp)
            self.acted.add(firer)
            self._assign_hits(world)
            return
        if action not in self.legal_actions(world):
            raise IllegalBattleAction(f"7.2: {action} is not a legal battle action now")
        if isinstance(action, Hit):
            self._hit(world, action.block)
            self._assign_hits(world)
        elif isinstance(action, Fire):
            self.firing = action.block
            self.hits = 0
        elif isinstance(action, Pass):
            self.acted.add(action.block)
            self._advance(world)
        elif isinstance(action, Retreat):
            self._retreat(world, action)
            self._advance(world)
        elif isinstance(action, Regroup):
            if not BOARD.blocks[action.block].is_navis:
                edge = BOARD.edge(self.location, action.destination)
                use = self.regroup_use[self.winner]
                use[edge] = use.get(edge, 0) + 1
            world.move(action.block, action.destination)
            if not self.blocks(world, self.winner):
                self.regrouping = False
        elif isinstance(action, EndRegroup):
            self.regrouping = False

    @property
    def finished(self) -> bool:
        """True once the battle is over and its regroup is done."""
        return self.over and not self.regrouping

    # ----------------------------------------------------------------- internals
    def _retreat(self, world: BattleWorld, action: Retreat) -> None:
        block, side = action.block, world.side_of(action.block)
        self.acted.add(block)
        if action.destination is None:
            world.eliminate(block, 1 - side)
            return
        if action.by_sea:
            self.sea_retreated.add(side)
        elif not BOARD.blocks[block].is_navis:
            edge = BOARD.edge(self.location, action.destination)
            use = self.retreat_use[side]
            use[edge] = use.get(edge, 0) + 1
        world.move(block, action.destination)

    def _hit(self, world: BattleWorld, block: int) -> None:
        firer_side = world.side_of(self.firing)
        main_before = self._main_alive(world)
        world.take_hit(block, firer_side)
        self.hits -= 1
        self._check_disruption(world, main_before)

    def _assign_hits(self, world: BattleWorld) -> None:
        while self.hits > 0:
            cands = self.hit_candidates(world)
            if not cands:
                self.hits = 0
                break
            if len(cands) > 1:
                return  # the owner chooses among equals
            self._hit(world, cands[0])
        self.firing = None
        self._advance(world)

    def _main_alive(self, world: BattleWorld) -> tuple[bool, bool]:
        return (bool(self.engaged(world, 0)), bool(self.engaged(world, 1)))

    def _check_disruption(self, world: BattleWorld, before: tuple[bool, bool]) -> None:
        """7.31: a side whose main force died in round 1 has its reserves disrupted."""
        if self.round != 1:
            return
        for side in (0, 1):
            if not before[side] or side in self.disrupted or self.engaged(world, side):
                continue
            waiting = [b for b in self.blocks(world, side) if b in self.reserves]
            if not waiting:
                continue
            self.disrupted.add(side)
            for b in waiting:
                world.take_hit(b, 1 - side)
            if side == self.defender:
                self.attacker, self.defender = self.defender, self.attacker

    def _advance(self, world: BattleWorld) -> None:
        """Close rounds and the battle while nobody has a decision to make."""
        while True:
            present = [False, False]
            for b in world.blocks_at(self.location):
                present[world.side_of(b)] = True
            if not (present[0] and present[1]):
                self._finish(0 if present[0] else 1 if present[1] else None)
                return
            if self.eligible(world):
                return
            if self.round == LAST_ROUND:
                for b in self.blocks(world, self.attacker):
                    world.eliminate(b, self.defender)  # 7.62: failed forced retreat
                continue
            self.round += 1
            self.acted.clear()
            self.retreat_use[0].clear()
            self.retreat_use[1].clear()
            self.sea_retreated.clear()
            self.reserves.clear()

    def _finish(self, winner: int | None) -> None:
        self.over = True
        self.winner = winner
        self.regrouping = winner is not None
        self.firing = None
        self.hits = 0

    def start(self, world: BattleWorld) -> None:
        """Settle what needs no decision (e.g. a side with only reserves in round 1)."""
        self._advance(world)

    # ----------------------------------------------------------------- JSON
    def to_json(self) -> dict:
        return {
            "location": self.location, "attacker": self.attacker, "defender": self.defender,
            "surprise": self.surprise, "round": self.round, "reserves": sorted(self.reserves),
            "entries": [sorted(e) for e in self.entries],
            "acted": sorted(self.acted), "firing": self.firing, "hits": self.hits,
            "retreat_use": [sorted(u.items()) for u in self.retreat_use],
            "sea_retreated": sorted(self.sea_retreated),
            "regroup_use": [sorted(u.items()) for u in self.regroup_use],
            "winner": self.winner, "over": self.over, "regrouping": self.regrouping,
            "disrupted": sorted(self.disrupted),
        }

    @classmethod
    def from_json(cls, data: dict) -> "Battle":
        return cls(
            location=data["location"], attacker=data["attacker"], defender=data["defender"],
            surprise=data["surprise"], round=data["round"], reserves=set(data["reserves"]),
            entries=tuple(set(e) for e in data["entries"]), acted=set(data["acted"]),
            firing=data["firing"], hits=data["hits"],
            retreat_use=tuple({int(k): v for k, v in u} for u in data["retreat_use"]),
            sea_retreated=set(data["sea_retreated"]),
            regroup_use=tuple({int(k): v for k, v in u} for u in data["regroup_use"]),
            winner=data["winner"], over=data["over"], regrouping=data["regrouping"],
            disrupted=set(data["disrupted"]),
        )

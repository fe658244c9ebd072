"""One battle (rules 7.1-7.8) as a self-contained sub-state machine.

A `Fight` owns what exists only while one battle is fought: its round, which blocks have
had their battle turn, reserves still to arrive, the block waiting for its dice, hits still
to assign, retreat and regroup road use, and the winner. Its data is one JSON-safe dict (kept
in `GameState.ext`, so copying and saving the game need nothing special); `Fight` is a thin
view over it. Block positions, steps, sides and elimination stay in `GameState` and are
reached through its queries and mutators (`at`, `owner`, `strength`, `friendly`, `vacant`,
`reduce`, `eliminate`, `relocate`).

Turn order per round: defender A, attacker A, defender B, ... D (Mars/Neptune: in round 1
every attacking letter first). Within one letter and side the owner picks which block acts;
it fires, retreats (not in round 1) or passes. In round 4 attacking blocks must retreat; one
that cannot is eliminated (`Retreat` with no destination).
"""
from __future__ import annotations

from .actions import EndRegroup, Fire, Hit, Pass, Regroup, Retreat, Roll
from .board import BOARD, CHANCE, MAJOR, MINOR, STRAIT
from .errors import IllegalAction

LETTERS = ("A", "B", "C", "D")
LAST_ROUND = 4
RETREAT_LIMIT = {MAJOR: 4, MINOR: 2, STRAIT: 1}      # per battle round (7.61)
REGROUP_LIMIT = {MAJOR: 4, MINOR: 2, STRAIT: 2}      # per battle (7.7, 6.11)
IS_NAVIS = tuple(b.is_navis for b in BOARD.blocks)
FIREPOWER = tuple(b.firepower for b in BOARD.blocks)
INITIATIVE = (tuple(b.initiative for b in BOARD.blocks),             # defending
              tuple(b.initiative_attacking for b in BOARD.blocks))   # attacking


def sea_neighbours(location: int) -> tuple[int, ...]:
    """Where a navis may go in one step: the seas of a port; the seas and ports of a sea."""
    if BOARD.is_sea[location]:
        return BOARD.sea_seas[location] + BOARD.sea_ports[location]
    return BOARD.port_seas[location]


def new_fight(loc: int, attacker: int, reserves: list[int], entries: tuple[list[int], list[int]],
              surprise: bool = False, navis_origins: dict[int, int] | None = None) -> dict:
    """The data of a battle about to be fought. `entries[side]`: locations that side's blocks
    came from to start or reinforce the battle (attacking blocks, land and navis alike, may
    retreat to any of them that is vacant: 7.62, 7.82); `navis_origins`: where each navis that
    moved in came from (kept for saves; the retreat rules read `entries`, see
    docs/engine-design.md "Battles: readings")."""
    return {
        "loc": loc, "attacker": attacker, "defender": 1 - attacker, "surprise": surprise,
        "round": 1, "reserves": sorted(reserves), "entries": [sorted(set(e)) for e in entries],
        "navis_origins": sorted((navis_origins or {}).items()),
        "acted": [], "firing": None, "hits": 0, "retreat_use": [[], []], "sea_retreated": [],
        "regroup_use": [[], []], "winner": None, "over": False, "regrouping": False,
        "disrupted": [], "last_roll": None,
    }


class Fight:
    """Rules of one battle over its data dict `d` and the game state."""

    __slots__ = ("d", "state")

    def __init__(self, data: dict, state):
        self.d = data
        self.state = state

    # ----------------------------------------------------------------- queries
    @property
    def loc(self) -> int:
        """The location fought over."""
        return self.d["loc"]

    @property
    def attacker(self) -> int:
        """The attacking side (0 or 1) of this battle."""
        return self.d["attacker"]

    @property
    def defender(self) -> int:
        """The defending side (the attacker's opponent, or the other side once disruption swapped them)."""
        return self.d["defender"]

    @property
    def finished(self) -> bool:
        """The battle is over and its regroup is done."""
        return self.d["over"] and not self.d["regrouping"]

    def blocks(self, side: int) -> list[int]:
        """The blocks of `side` in the battle's location, reserves included."""
        owner = self.state.owner
        return [b for b in self.state.at[self.d["loc"]] if owner[b] == side]

    def engaged(self, side: int) -> list[int]:
        """Blocks of `side` that fight now (reserves wait for round 2)."""
        owner, reserves = self.state.owner, self.d["reserves"]
        return [b for b in self.state.at[self.d["loc"]] if owner[b] == side and b not in reserves]

    def slot_order(self) -> list[tuple[int, str]]:
        """The order of turns this round as (side, initiative letter): defender before attacker per letter,
        attackers first in a Mars/Neptune round 1."""
        att, dfd = self.d["attacker"], self.d["defender"]
        if self.d["surprise"] and self.d["round"] == 1:
            return [(att, x) for x in LETTERS] + [(dfd, x) for x in LETTERS]
        return [(s, x) for x in LETTERS for s in (dfd, att)]

    def eligible(self) -> list[int]:
        """Blocks that may take the current battle turn (all of one side and letter). None
        once a side has no engaged block left (round 1, only its reserves still to arrive):
        the other side's remaining turns of the round could hit nothing and pass by themselves."""
        d = self.d
        acted, reserves = d["acted"], d["reserves"]
        waiting = [b for b in self.state.at[d["loc"]] if b not in acted and b not in reserves]
        if not waiting or (reserves and self.nothing_to_hit()):
            return []
        owner, att = self.state.owner, d["attacker"]
        for side, letter in self.slot_order():
            ini = INITIATIVE[side == att]
            found = [b for b in waiting if owner[b] == side and ini[b] == letter]
            if found:
                return found
        return []

    def nothing_to_hit(self) -> bool:
        """A side has no engaged block left while the battle goes on (only reserves there)."""
        owner, reserves = self.state.owner, self.d["reserves"]
        engaged = [False, False]
        for b in self.state.at[self.d["loc"]]:
            if b not in reserves:
                engaged[owner[b]] = True
        return not (engaged[0] and engaged[1])

    def hit_candidates(self) -> list[int]:
        """The strongest targetable blocks of the side taking the pending hits (7.4)."""
        pool = self.engaged(1 - self.state.owner[self.d["firing"]])
        if not pool:
            return []
        strength = self.state.strength
        top = max(strength(b) for b in pool)
        return [b for b in pool if strength(b) == top]

    def to_act(self) -> int | None:
        """The side (or CHANCE) whose decision the battle waits for; None once finished."""
        d = self.d
        if d["over"]:
            return d["winner"] if d["regrouping"] else None
        if d["firing"] is not None:
            return CHANCE if d["hits"] == 0 else 1 - self.state.owner[d["firing"]]
        found = self.eligible()
        return self.state.owner[found[0]] if found else None

    def dice_needed(self) -> int:
        """How many dice the pending roll needs (0: no roll pending)."""
        d = self.d
        if d["firing"] is not None and d["hits"] == 0 and not d["over"]:
            return self.state.strength(d["firing"])
        return 0

    # ----------------------------------------------------------------- retreats and regroups
    def retreat_destinations(self, block: int) -> list[tuple[int, bool]]:
        """Legal (destination, by_sea) pairs for `block` retreating now (7.6, 7.82)."""
        st, d = self.state, self.d
        side = st.owner[block]
        attacking = side == d["attacker"]
        own_entries, enemy_entries = d["entries"][side], d["entries"][1 - side]
        here = d["loc"]
        out: list[tuple[int, bool]] = []

        def allowed(dest: int) -> bool:
            """Attackers: friendly, or vacant by their own roads (7.62). Defenders: friendly or
            vacant, never by a road the attacker used (7.63)."""
            if attacking:
                return st.friendly(dest, side) or (dest in own_entries and st.vacant(dest))
            return dest not in enemy_entries and st.friendly_or_vacant(dest, side)

        if IS_NAVIS[block]:
            for dest in sea_neighbours(here):
                if st.friendly(dest, side):
                    ok = True
                elif attacking:   # vacant: a sea or port the attacking navis came from (7.82)
                    ok = dest in own_entries and st.vacant(dest)
                else:             # vacant seas the attacker did not come from; no vacant port
                    ok = BOARD.is_sea[dest] and st.vacant(dest) and dest not in enemy_entries
                if ok:
                    out.append((dest, False))
            return out
        used = d["retreat_use"][side]
        for dest, edge in BOARD.land_adj[here]:
            if used.count(edge) < RETREAT_LIMIT[BOARD.edge_class[edge]] and allowed(dest):
                out.append((dest, False))
        if side not in d["sea_retreated"]:
            for sea in BOARD.port_seas[here]:
                if not st.friendly(sea, side):
                    continue
                for port in BOARD.sea_ports[sea]:
                    if port != here and st.friendly(port, side) and (port, True) not in out:
                        out.append((port, True))
        return out

    def regroup_destinations(self, block: int) -> list[int]:
        """Where a victorious block may regroup (7.7, 7.83): adjacent friendly or vacant."""
        st, d = self.state, self.d
        side = st.owner[block]
        if IS_NAVIS[block]:
            return [x for x in sea_neighbours(d["loc"]) if st.friendly_or_vacant(x, side)]
        used = d["regroup_use"][side]
        return [x for x, edge in BOARD.land_adj[d["loc"]]
                if used.count(edge) < REGROUP_LIMIT[BOARD.edge_class[edge]]
                and st.friendly_or_vacant(x, side)]

    # ----------------------------------------------------------------- actions
    def legal_actions(self) -> list:
        """The decisions open now (empty while dice are awaited: see `dice_needed`)."""
        d, owner = self.d, self.state.owner
        if d["over"]:
            if not d["regrouping"]:
                return []
            side = d["winner"]
            acts: list = [EndRegroup(side)]
            for b in self.blocks(side):
                acts.extend(Regroup(side, b, x) for x in self.regroup_destinations(b))
            return acts
        if d["firing"] is not None:
            if d["hits"] == 0:
                return []
            return [Hit(owner[b], b) for b in self.hit_candidates()]
        acts = []
        rnd = d["round"]
        for b in self.eligible():
            side = owner[b]
            dests = self.retreat_destinations(b) if rnd > 1 else []
            if rnd == LAST_ROUND and side == d["attacker"]:
                acts.extend(Retreat(side, b, x, s) for x, s in dests)
                if not dests:
                    acts.append(Retreat(side, b, None))
                continue
            acts.append(Fire(side, b))
            acts.extend(Retreat(side, b, x, s) for x, s in dests)
            acts.append(Pass(side, b))
        return acts

    def apply(self, action, listed: bool = False) -> None:
        """Validate and apply one action; raises IllegalAction (naming the rule) and changes
        nothing when the action is not legal now. `listed`: the action was listed just now by
        `legal_actions` (a trusted caller's): not checked again."""
        d = self.d
        if isinstance(action, Roll):
            need = self.dice_needed()
            if not need:
                raise IllegalAction("no block is waiting for its dice", rule="7.4", code="battle.no-dice-due")
            faces = action.faces
            if not isinstance(faces, tuple) or len(faces) != need:
                given = len(faces) if isinstance(faces, tuple) else None
                raise IllegalAction(f"the firing block rolls {need} dice (one per strength point), not "
                                    f"{given if given is not None else repr(faces)}", rule="7.4",
                                    code="battle.dice-count", params={"need": need, "given": given})
            if any(type(f) is not int or not 1 <= f <= 6 for f in faces):
                raise IllegalAction(f"a die shows 1 to 6, not {' '.join(map(str, faces))}", rule="7.4",
                                    code="battle.dice-faces", params={"faces": [repr(f) for f in faces]})
            firer = d["firing"]
            d["hits"] = sum(1 for f in faces if f <= FIREPOWER[firer])
            d["last_roll"] = [firer, list(faces), d["hits"]]    # dice are public (rulings)
            d["acted"].append(firer)
            self._assign_hits()
            return
        if not listed and action not in self.legal_actions():   # engine.battle_refusals says why, before this
            raise IllegalAction(f"{action} is not a legal battle action now", rule="7.2", code="battle.not-legal")
        if isinstance(action, Hit):
            self._hit(action.block)
            self._assign_hits()
        elif isinstance(action, Fire):
            d["firing"] = action.block
            d["hits"] = 0
        elif isinstance(action, Pass):
            d["acted"].append(action.block)
            self._advance()
        elif isinstance(action, Retreat):
            self._retreat(action)
            self._advance()
        elif isinstance(action, Regroup):
            if not IS_NAVIS[action.block]:
                d["regroup_use"][d["winner"]].append(BOARD.edge(d["loc"], action.loc))
            self.state.relocate(action.block, action.loc)
            if not self.blocks(d["winner"]):
                d["regrouping"] = False
        elif isinstance(action, EndRegroup):
            d["regrouping"] = False

    def start(self) -> None:
        """Settle what needs no decision yet."""
        self._advance()

    # ----------------------------------------------------------------- internals
    def _retreat(self, action: Retreat) -> None:
        d, st = self.d, self.state
        block, side = action.block, st.owner[action.block]
        d["acted"].append(block)
        if action.loc is None:
            st.eliminate(block)    # 7.6: cannot retreat when required
            return
        if action.by_sea:
            d["sea_retreated"].append(side)
        elif not IS_NAVIS[block]:
            d["retreat_use"][side].append(BOARD.edge(d["loc"], action.loc))
        st.relocate(block, action.loc)

    def _hit(self, block: int) -> None:
        alive = (bool(self.engaged(0)), bool(self.engaged(1)))
        self.state.reduce(block)
        self.d["hits"] -= 1
        if self.d["round"] == 1:
            self._check_disruption(alive)

    def _assign_hits(self) -> None:
        d = self.d
        while d["hits"] > 0:
            cands = self.hit_candidates()
            if not cands:
                d["hits"] = 0      # excess hits are lost
                break
            if len(cands) > 1:
                return             # the owner chooses among equals
            self._hit(cands[0])
        d["firing"] = None
        self._advance()

    def _check_disruption(self, alive_before: tuple[bool, bool]) -> None:
        """7.31: a side whose main force was eliminated in round 1 has its reserves disrupted;
        a disrupted defender makes the attacker the defender for the rest of the battle."""
        d = self.d
        for side in (0, 1):
            if not alive_before[side] or side in d["disrupted"] or self.engaged(side):
                continue
            waiting = [b for b in self.blocks(side) if b in d["reserves"]]
            if not waiting:
                continue
            d["disrupted"].append(side)
            for b in waiting:
                self.state.reduce(b)
            if side == d["defender"]:
                d["attacker"], d["defender"] = d["defender"], d["attacker"]

    def _advance(self) -> None:
        """Close rounds and the battle while nobody has a decision to make."""
        d, st = self.d, self.state
        while True:
            count = st.count[d["loc"]]
            if not (count[0] and count[1]):
                self._finish(0 if count[0] else 1 if count[1] else None)
                return
            if self.eligible():
                return
            if d["round"] == LAST_ROUND:
                for b in self.blocks(d["attacker"]):
                    st.eliminate(b)    # 7.62: attackers still there after round 4
                continue
            d["round"] += 1
            d["acted"] = []
            d["retreat_use"] = [[], []]
            d["sea_retreated"] = []
            d["reserves"] = []

    def _finish(self, winner: int | None) -> None:
        d = self.d
        d["over"] = True
        d["winner"] = winner
        d["regrouping"] = winner is not None
        d["firing"] = None
        d["hits"] = 0

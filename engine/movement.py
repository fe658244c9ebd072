"""Block movement in the command phase (6.1-6.3): group moves, road limits, straits, stopping
on contact, attack bookkeeping, pinning, response moves, navis and amphibious movement, and
the movement effects of Mars, Neptune, Mercury and Pluto.

`move_error` is the one definition of a legal move; `legal_moves` lists candidate paths and
keeps those `move_error` accepts; `apply_move` performs an accepted move. The `*_error`
functions return a structured `IllegalAction` (codes in docs/refusals.md) or None.
"""
from __future__ import annotations

from . import paths
from .actions import DeclareMain, Move
from .board import BOARD, PLUTO_LIMIT, ROAD_LIMIT, SEA, SIDES, STRAIT, STRAIT_ATTACK_LIMIT
from .errors import IllegalAction
from .state import OFF_MAP_NAMES, Battle, GameState

NO_MOVE_EVENTS = ("Jupiter", "Vulcan")


def _name(l: int) -> str:
    return BOARD.loc_names[l]


def _label(b: int, side: int) -> str:
    return BOARD.block_label(b, side)


def status(state: GameState, loc: int, side: int) -> str:
    """How `loc` stands for `side`: "friendly", "enemy", "contested" or "vacant"."""
    c = state.count[loc]
    if c[side] and c[1 - side]:
        return "contested"
    if c[1 - side]:
        return "enemy"
    return "friendly" if c[side] else "vacant"


def max_path_steps(event: str | None) -> int:
    """How many locations a block of a group move may go: 3 with Mercury, else 2."""
    return 3 if event == "Mercury" else 2


def max_attack_step(event: str | None) -> int:
    """The furthest step on which a block may enter an enemy or contested location: 2 with Mercury, else 1."""
    return 2 if event == "Mercury" else 1


def road_limit(cls: str, hostile: bool, event: str | None) -> int:
    """How many blocks of one side may cross a road of class `cls` this player turn (6.11; Pluto raises it into
    hostile places)."""
    if hostile and event == "Pluto":
        return PLUTO_LIMIT[cls]
    if hostile and cls == STRAIT:
        return STRAIT_ATTACK_LIMIT
    return ROAD_LIMIT[cls]


def _no(code: str, rule: str | None, message: str, **params) -> IllegalAction:
    return IllegalAction(message, rule=rule, code=code, params=params)


def move_error(state: GameState, side: int, b: int, path: tuple[int, ...]) -> IllegalAction | None:
    """Why `side` may not move block b along `path` now, or None if he may."""
    if not 0 <= b < BOARD.n_blocks:
        return _no("id.no-block", None, f"no block number {b}", number=b)
    if len(path) < 2:
        return _no("move.path-too-short", "6.1", "a move names the start and at least one more location")
    bad = next((x for x in path if not 0 <= x < BOARD.n_locs), None)
    if bad is not None:
        return _no("id.no-location", None, f"no location number {bad}", number=bad)
    err = block_error(state, side, b)
    if err:
        return err
    start = state.loc[b]
    if path[0] != start:
        return _no("move.not-at-start", "6.1", f"{_label(b, side)} stands in {_name(start)}, not in {_name(path[0])}",
                   block=_label(b, side), location=_name(start), named=_name(path[0]))
    return path_error(state, side, b, path)


def block_error(state: GameState, side: int, b: int) -> IllegalAction | None:
    """Why block b cannot move at all now (whatever the path), or None."""
    cmd = state.command
    label = _label(b, side)
    if state.owner[b] != side:
        return _no("move.not-own-block", "6.1", f"{label} is not a {SIDES[side]} block",
                   block=label, side=SIDES[side])
    start = state.loc[b]
    if start < 0:
        return _no("move.off-map", "6.1", f"{label} is not on the map ({OFF_MAP_NAMES[start]})",
                   block=label, place=OFF_MAP_NAMES[start])
    if state.moved[b]:
        return _no("move.already-moved", "6.1", f"a block moves once per game turn: {label} has already moved",
                   block=label)
    if cmd.levying:
        return _no("move.after-levy", "6.4", "levies come after all movement: no move after a levy")
    if cmd.mp == 0:
        card = BOARD.cards[cmd.card].name
        return _no("move.card-gives-none", "2.1", f"the {card} card gives no move (its event is its action)",
                   card=card)
    return None


def path_error(state: GameState, side: int, b: int, path: tuple[int, ...]) -> IllegalAction | None:
    """Why b (which `block_error` lets move, standing in path[0]) may not take `path`."""
    navis = BOARD.blocks[b].is_navis
    if not navis:
        is_sea = BOARD.is_sea
        for x in path:
            if is_sea[x]:
                return _amphibious_error(state, side, b, path)
    start = path[0]
    err = group_move_error(state, side, b, start)
    if err:
        return err
    if state.battles:
        err = pin_error(state, side, start, path[1])
        if err:
            return err
    ev = state.command.event
    steps = len(path) - 1
    if steps > (limit := max_path_steps(ev)):
        label = _label(b, side)
        if navis:   # navis never move in Mercury's group move (group_move_error): its limit is 6.2's
            return _no("move.too-far", "6.2", f"navis move one or two seas; {label} was given {steps}",
                       block=label, steps=steps, limit=limit)
        if ev == "Mercury":
            return _no("move.too-far", "2.1", f"Mercury: at most three locations for a block of its group; "
                       f"{label} was given {steps}", block=label, steps=steps, limit=limit)
        return _no("move.too-far", "6.1", f"blocks move one or two locations (three only with Mercury); "
                   f"{label} was given {steps}", block=label, steps=steps, limit=limit)
    for i in range(1, len(path)):
        a, c = path[i - 1], path[i]
        e = BOARD.edge(a, c)
        if e is None:
            return _no("move.not-adjacent", "6.2" if navis else "6.1",
                       f"no road or sea border joins {_name(a)} and {_name(c)}", **{"from": _name(a), "to": _name(c)})
        cls = BOARD.edge_class[e]
        if navis and cls != SEA:
            return _no("move.navis-by-road", "6.2", f"navis move only across sea borders: {_name(a)}–{_name(c)} "
                       f"is a {cls} road", **{"from": _name(a), "to": _name(c), "road": cls})
        err = step_error(state, side, a, c, e, i, i == steps)
        if err:
            return err
    return None


def group_move_error(state: GameState, side: int, b: int, start: int) -> IllegalAction | None:
    """Why block b may not leave `start` in a group move (land or navis) at all now."""
    cmd = state.command
    ev = cmd.event
    navis = BOARD.blocks[b].is_navis
    if ev is not None:
        label = _label(b, side)
        if ev == "Mars" and navis:
            return _no("event.land-blocks-only", "2.1", f"Mars: only land blocks move in its group move; {label} "
                       f"is a navis", event=ev, block=label)
        if ev == "Neptune" and not navis:
            return _no("event.navis-only", "2.1", f"Neptune: only navis move in its group move; {label} is not "
                       f"a navis", event=ev, block=label)
        if ev in ("Mercury", "Pluto") and navis:
            return _no("event.no-navis", "2.1", f"{ev}: navis do not move in its group move", event=ev, block=label)
    if cmd.mp_used >= cmd.mp and start not in cmd.activated:
        return no_mp_left(state, start)
    if navis and start in cmd.amphibious_seas:
        keep = sum(1 for x in state.at[start] if x != b and state.owner[x] == side and BOARD.blocks[x].is_navis)
        if keep < 1:
            return _no("move.navis-must-stay", "6.3", f"one navis must stay in {_name(start)} until the command "
                       f"phase ends: an amphibious move crossed it", sea=_name(start))
    return None


def no_mp_left(state: GameState, start: int) -> IllegalAction:
    """Every MP of the card is spent: on activated locations and on amphibious blocks (1 each)."""
    cmd = state.command
    card = BOARD.cards[cmd.card].name
    activated = len(cmd.activated)
    amphibious = cmd.mp_used - activated
    spent = [f"{activated} on location{'s' if activated != 1 else ''} activated"] if activated else []
    if amphibious:
        spent.append(f"{amphibious} on amphibious block{'s' if amphibious != 1 else ''}")
    return _no("move.no-mp-left", "6.1", f"no move point left to activate {_name(start)}: the {card} card gives "
               f"{cmd.mp} MP, all spent ({', '.join(spent) or 'none'})", location=_name(start), card=card,
               mp=cmd.mp, activated=activated, amphibious=amphibious)


def step_error(state: GameState, side: int, a: int, c: int, e: int, i: int, last: bool) -> IllegalAction | None:
    """The rules of step i (1-based) of a group move, from a to c across edge e; `last`: the
    move ends in c."""
    ev = state.command.event
    cls = BOARD.edge_class[e]
    hostile = state.count[c][1 - side] > 0
    if hostile:
        if not last:
            st = status(state, c, side)
            return _no("move.must-stop", "6.1", f"blocks entering an enemy or contested location stop: {_name(c)} "
                       f"is {st}", location=_name(c), status=st)
        if i > max_attack_step(ev):
            if ev == "Mercury":
                return _no("move.attack-too-far", "2.1", "Mercury: a block attacks on its first or second step, "
                           f"not its third ({_name(c)})", location=_name(c), step=i, limit=2)
            st = status(state, c, side)
            return _no("move.attack-too-far", "6.12", f"blocks attack or reinforce only from an adjacent "
                       f"location: {_name(c)} is {st} and {i} locations away", location=_name(c), status=st,
                       step=i, limit=1)
    if cls != SEA:
        used = state.road_use[e]
        # every limit is at least 1, so only a road already used can be full
        if used and used + 1 > (lim := road_limit(cls, hostile, ev)):
            into = " into a defended city" if hostile and cls == STRAIT else ""
            pluto = ", Pluto's" if hostile and ev == "Pluto" else ""
            return _no("move.road-limit", "6.11", f"road limit: {_name(a)}–{_name(c)} {cls} road{into} already "
                       f"carries {used} {SIDES[side]} block{'s' if used != 1 else ''} this turn (limit {lim}){pluto}",
                       **{"from": _name(a), "to": _name(c), "road": cls, "used": used, "limit": lim,
                          "side": SIDES[side]})
    return None


def _amphibious_error(state: GameState, side: int, b: int, path: tuple[int, ...]) -> IllegalAction | None:
    cmd = state.command
    if cmd.event:
        return _no("move.event-not-amphibious", "6.3", f"{cmd.event}: its one group move cannot be amphibious "
                   f"(amphibious movement costs 1 MP per block)", event=cmd.event)
    start, dest = path[0], path[-1]
    if (len(path) < 3 or BOARD.is_sea[start] or BOARD.is_sea[dest] or dest == start
            or not all(BOARD.is_sea[x] for x in path[1:-1])):
        # 6.3: "from one port to any other Friendly or Vacant port across one or more adjacent seas"
        return _no("move.amphibious-shape", "6.3", "a land block moves by sea only amphibiously: port, one or "
                   "more seas, another port (it never stops at sea, nor mixes land and sea movement)")
    if not cmd.amphibious_open:
        return _no("move.amphibious-not-first", "6.3", "amphibious moves come before any other move of the "
                   "player turn")
    if not BOARD.is_port[start]:
        return _no("move.amphibious-not-port", "6.3", f"amphibious moves start in a port; {_name(start)} is not one",
                   location=_name(start))
    for i in range(1, len(path)):
        if BOARD.edge(path[i - 1], path[i]) is None:
            return _no("move.not-adjacent", "6.3", f"{_name(path[i - 1])} and {_name(path[i])} do not border",
                       **{"from": _name(path[i - 1]), "to": _name(path[i])})
    for s in path[1:-1]:
        if not state.friendly(s, side):
            st = status(state, s, side)
            return _no("move.amphibious-sea", "6.3", f"amphibious moves cross only friendly seas: {_name(s)} is {st}",
                       sea=_name(s), status=st)
    if not state.friendly_or_vacant(dest, side):
        st = status(state, dest, side)
        return _no("move.amphibious-enemy-port", "6.3", f"amphibious moves never go to enemy or contested ports: "
                   f"{_name(dest)} is {st}", location=_name(dest), status=st)
    if cmd.mp_used >= cmd.mp:
        card = BOARD.cards[cmd.card].name
        return _no("move.amphibious-no-mp", "6.3", f"amphibious movement costs 1 MP per block: all {cmd.mp} MP "
                   f"of the {card} card are spent", card=card, mp=cmd.mp)
    return pin_error(state, side, start, path[1])


def pin_error(state: GameState, side: int, start: int, nxt: int) -> IllegalAction | None:
    """Pinning (6.13), which binds Player 2 only, in locations Player 1 attacked."""
    bt = state.battles.get(start)
    if bt is None or bt.attacker == side or side == state.player1:
        return None
    e = BOARD.edge(start, nxt)
    if e is not None and e in bt.attacker_edges:
        kind = "sea border" if BOARD.edge_class[e] == SEA else "road"
        return _no("move.pinned-road", "6.13", f"unpinned blocks may not leave {_name(start)} by the "
                   f"{BOARD.edge_name(e)} {kind} the attacker used", location=_name(start),
                   road=BOARD.edge_name(e))
    pins = sum(1 for x in bt.main_force() if state.loc[x] == start)
    here = sum(1 for x in state.at[start] if state.owner[x] == side and not state.moved[x])
    pinned = min(pins, here + bt.defenders_left)
    if here - 1 < pinned:
        return _no("move.pinned", "6.13", f"pinning: {pins} attacking block{'s' if pins != 1 else ''} (reserves "
                   f"excluded) pin {pinned} defending block{'s' if pinned != 1 else ''} in {_name(start)}; no more "
                   f"may leave", location=_name(start), attackers=pins, pinned=pinned)
    return None


def apply_move(state: GameState, side: int, b: int, path: tuple[int, ...]) -> None:
    """Perform a move that `move_error` accepted."""
    cmd = state.command
    start, dest = path[0], path[-1]
    if not BOARD.blocks[b].is_navis and BOARD.is_sea[path[1]]:
        cmd.mp_used += 1
        for s in path[1:-1]:
            if s not in cmd.amphibious_seas:
                cmd.amphibious_seas.append(s)
    else:
        cmd.amphibious_open = False
        if start not in cmd.activated:
            cmd.activated.append(start)
            cmd.mp_used += 1
        crossed = []   # 6.11 limits blocks per road: a block that takes one road twice counts once
        for i in range(1, len(path)):
            e = BOARD.edge(path[i - 1], path[i])
            assert e is not None, "move_error accepted the path: its steps border"
            if BOARD.edge_class[e] != SEA and e not in crossed:
                crossed.append(e)
                used = state.road_use[e] = state.road_use[e] + 1
                if state.walk_cache is not None:
                    cap_friendly, cap_hostile = _road_caps(cmd.event)
                    if used == cap_friendly[e] or used == cap_hostile[e]:
                        state.walk_cache = None   # a road just filled up: the walks change
    left = state.battles.get(start)
    if left is not None and left.attacker != side:
        left.defenders_left += 1
    hostile = state.count[dest][1 - side] > 0
    state.relocate(b, dest)
    state.moved[b] = True
    if hostile:
        e = BOARD.edge(path[-2], dest)
        assert e is not None, "move_error accepted the path: its steps border"
        bt = state.battles.get(dest)
        if bt is None:
            bt = state.battles[dest] = Battle(dest, side, e)
        bt.entries.append((b, e, side))
        if side == bt.attacker and e not in bt.attacker_edges:
            bt.attacker_edges.append(e)


def legal_moves(state: GameState, side: int) -> list[Move]:
    """Every legal land and navis group move of `side` now, and the amphibious moves worth
    offering (`_amphibious_moves`), block by block in id order; each block's group moves in
    the order of a depth-first walk of its `paths.PathTree` (last-found path explored first).
    The checks are `path_error`'s, made one step at a time along the precomputed paths.
    `moves_by_block` is the same walk without making the moves (the lazy listing); the
    equivalence tests keep the two in step. This one stays inline: it is the table's listing,
    and making the moves during the walk is cheaper than after it."""
    cmd = state.command
    if cmd.levying or cmd.mp == 0:
        return []
    out: list[Move] = []
    append = out.append
    ev = cmd.event
    depth = max_path_steps(ev)
    attack_steps = max_attack_step(ev)
    cap_friendly, cap_hostile = _road_caps(ev)
    can_activate = cmd.mp_used < cmd.mp
    amphibious = ev is None and cmd.amphibious_open and can_activate
    activated = cmd.activated
    other = 1 - side
    locs, owner, moved = state.loc, state.owner, state.moved
    enemy = None   # blocks of the other side per location, read once the first walk starts
    seas = None    # seas friendly to side, found once the first amphibious move is sought
    road_use, battles = state.road_use, state.battles
    no_navis = ev in _NO_NAVIS_EVENTS
    for b in range(BOARD.n_blocks):
        start = locs[b]
        if start < 0 or owner[b] != side or moved[b]:
            continue
        if not can_activate and start not in activated:
            continue
        # block_error has nothing left to refuse: off-map, owner, moved, levying and MP are checked
        navis = _IS_NAVIS[b]
        if navis:
            group_ok = not no_navis and (start not in cmd.amphibious_seas
                                         or group_move_error(state, side, b, start) is None)
        else:
            group_ok = ev != "Neptune"
        if group_ok:
            if enemy is None:
                enemy = [c[other] for c in state.count]
            moves = _cached_moves(side, b, start)
            tree = _TREES_OF_BLOCK[b][start]
            bt = battles.get(start) if battles else None
            pinning = bt is not None and bt.attacker != side and side != state.player1
            stack = [(tree.roots, 1)]
            while stack:
                steps, i = stack.pop()
                for nxt, e, index, below in steps:
                    if pinning and i == 1 and pin_error(state, side, start, nxt):
                        continue
                    hostile = enemy[nxt]
                    if hostile:
                        if i > attack_steps or road_use[e] >= cap_hostile[e]:
                            continue
                    elif road_use[e] >= cap_friendly[e]:
                        continue
                    m = moves[index]
                    if m is None:
                        m = moves[index] = Move(side, b, tree.paths[index])
                    append(m)
                    if i < depth and not hostile and below:
                        stack.append((below, i + 1))
        if amphibious and not navis and BOARD.is_port[start]:
            if seas is None:
                seas = friendly_seas(state, side)
            out.extend(_amphibious_moves(state, side, b, start, seas))
    return out




def moves_by_block(state: GameState, side: int) -> list[tuple[int, int, list[int], list]]:
    """`legal_moves` before its moves are made: per block that has a legal move, in id order,
    (block, start, the indices in its path tree of its group moves in listing order, the paths
    of its amphibious moves). Blocks of one kind (land or navis) standing together have the
    same moves, so each location is walked once and the lists are shared between them: do not
    mutate them. `len(group) + len(amphibious)` is the block's number of moves."""
    cmd = state.command
    if cmd.levying or cmd.mp == 0:
        return []
    out: list[tuple[int, int, list[int], list]] = []
    ev = cmd.event
    depth = max_path_steps(ev)
    attack_steps = max_attack_step(ev)
    cap_friendly, cap_hostile = _road_caps(ev)
    can_activate = cmd.mp_used < cmd.mp
    amphibious = ev is None and cmd.amphibious_open and can_activate
    activated = cmd.activated
    other = 1 - side
    locs, moved = state.loc, state.moved
    enemy = None   # blocks of the other side per location, read once the first walk starts
    seas = None    # seas friendly to side, found once the first amphibious move is sought
    road_use, battles = state.road_use, state.battles
    no_navis = ev in _NO_NAVIS_EVENTS
    # (start, navis) -> (group indices, amphibious paths): the moves of every such block there
    walked: dict[tuple[int, bool], tuple[list[int], list]] = {}
    # (start, navis) -> group indices, remembered across the listings of this command phase:
    # a walk reads only the other side's positions and which roads are full, so it holds until
    # the other side's blocks change (state.side_changes) or a road fills up (apply_move
    # drops the cache); never with pinning, which reads the side's own blocks
    cache = state.walk_cache
    if cache is None or cache[0] is not cmd or cache[1] != side or cache[2] != state.side_changes[other]:
        cache = state.walk_cache = (cmd, side, state.side_changes[other], {})
    walks = cache[3]
    for b in state.fielded[side]:   # on the map, of side, in id order
        if moved[b]:
            continue
        start = locs[b]
        if not can_activate and start not in activated:
            continue
        # block_error has nothing left to refuse: off-map, owner, moved, levying and MP are checked
        navis = _IS_NAVIS[b]
        found = walked.get((start, navis))
        if found is None:
            # group_move_error reads b only to leave it out of the navis that must stay: the
            # same answer for every navis of side in start
            if navis:
                group_ok = not no_navis and (start not in cmd.amphibious_seas
                                             or group_move_error(state, side, b, start) is None)
            else:
                group_ok = ev != "Neptune"
            group: list[int] = []
            bt = battles.get(start) if battles and group_ok else None
            pinning = bt is not None and bt.attacker != side and side != state.player1
            known = walks.get((start, navis)) if group_ok and not pinning else None
            if known is not None:
                group = known
            elif group_ok:
                if enemy is None:
                    enemy = state.side_count[other]
                add = group.append
                stack = [(_TREES_OF_BLOCK[b][start].roots, 1)]
                while stack:
                    steps, i = stack.pop()
                    for nxt, e, index, below in steps:
                        if pinning and i == 1 and pin_error(state, side, start, nxt):
                            continue
                        hostile = enemy[nxt]
                        if hostile:
                            if i > attack_steps or road_use[e] >= cap_hostile[e]:
                                continue
                        elif road_use[e] >= cap_friendly[e]:
                            continue
                        add(index)
                        if i < depth and not hostile and below:
                            stack.append((below, i + 1))
                if not pinning:
                    walks[(start, navis)] = group
            by_sea: list = []
            if amphibious and not navis and BOARD.is_port[start]:
                if seas is None:
                    seas = friendly_seas(state, side)
                by_sea = _amphibious_paths(state, side, b, start, seas)
            found = walked[(start, navis)] = (group, by_sea)
        if found[0] or found[1]:
            out.append((b, start, found[0], found[1]))
    return out


def move_of(side: int, b: int, start: int, index: int) -> Move:
    """The Move of b's group move `index` of its path tree from `start` (`moves_by_block`)."""
    moves = _cached_moves(side, b, start)
    m = moves[index]
    if m is None:
        m = moves[index] = Move(side, b, _TREES_OF_BLOCK[b][start].paths[index])
    return m


def amphibious_move(side: int, b: int, p: tuple[int, ...]) -> Move:
    """The Move of b's amphibious move along `p` (`moves_by_block`), made once."""
    m = _amphibious_cache.get((side, b, p))
    if m is None:
        if len(_amphibious_cache) >= _ROUTES_MAX:
            _amphibious_cache.clear()
        m = _amphibious_cache[(side, b, p)] = Move(side, b, p)
    return m


_IS_NAVIS = tuple(b.is_navis for b in BOARD.blocks)
_TREES_OF_BLOCK = paths.TREES_OF_BLOCK
_NO_NAVIS_EVENTS = ("Mars", "Mercury", "Pluto")   # group_move_error: land blocks only
_NO_LIMIT = 1 << 30   # sea borders carry any number of blocks
_road_caps_by_event: dict = {}
_move_cache: dict[tuple[int, int, int], list] = {}


def _road_caps(ev: str | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per edge, the road_use at which step_error refuses one more block: into a friendly or
    vacant location, and into an enemy or contested one (road_limit; sea borders: never)."""
    caps = _road_caps_by_event.get(ev)
    if caps is None:
        caps = _road_caps_by_event[ev] = tuple(
            tuple(_NO_LIMIT if cls == SEA else road_limit(cls, hostile, ev) for cls in BOARD.edge_class)
            for hostile in (False, True))
    return caps


def _cached_moves(side: int, b: int, start: int) -> list:
    """The Move values of b's paths from `start`, made on first use (actions are immutable)."""
    moves = _move_cache.get((side, b, start))
    if moves is None:
        moves = _move_cache[(side, b, start)] = [None] * len(_TREES_OF_BLOCK[b][start].paths)
    return moves


def _amphibious_moves(state: GameState, side: int, b: int, start: int,
                      seas: frozenset | None = None) -> list[Move]:
    """The amphibious moves of b worth offering (`_amphibious_paths`)."""
    return [amphibious_move(side, b, p) for p in _amphibious_paths(state, side, b, start, seas)]


def _amphibious_paths(state: GameState, side: int, b: int, start: int,
                      seas: frozenset | None = None) -> list[tuple[int, ...]]:
    """The paths of the amphibious moves of b worth offering: for each destination port,
    every legal route through friendly seas whose set of crossed seas is minimal. The route is
    a real choice (6.3: a navis must stay in each sea crossed), but a route crossing more seas
    than another to the same port binds more navis for the same MP; such routes are accepted,
    not listed. `seas`: the seas friendly to `side` now, if the caller has them. The same for
    every land block of side in `start` (path_error reads b only to tell land from navis)."""
    if seas is None:
        seas = friendly_seas(state, side)
    out = []
    vacant_or_friendly = state.count
    other = 1 - side
    for port, routes in _amphibious_routes(start, seas):
        if vacant_or_friendly[port][other]:
            continue   # 6.3: never to an enemy or contested port (path_error would refuse each)
        kept: list[frozenset] = []
        for p, crossed in routes:
            if path_error(state, side, b, p) is None and not any(k < crossed for k in kept):
                kept.append(crossed)
                out.append(p)
    return out


_SEAS = tuple(l for l in range(BOARD.n_locs) if BOARD.is_sea[l])
_ROUTES_MAX = 20_000   # distinct (start port, friendly seas) pairs remembered
_routes_cache: dict[tuple[int, frozenset], tuple] = {}
_amphibious_cache: dict[tuple[int, int, tuple[int, ...]], Move] = {}


def friendly_seas(state: GameState, side: int) -> frozenset:
    """The seas friendly to `side` now."""
    mine, theirs = state.side_count[side], state.side_count[1 - side]
    return frozenset(s for s in _SEAS if mine[s] and not theirs[s])


def _amphibious_routes(start: int, seas: frozenset) -> tuple:
    """The candidate amphibious routes from port `start` through the seas `seas` (friendly):
    per destination port (in id order), for each set of seas crossed the shortest route (then
    the first in id order), sorted by (length, route); each with its set of seas crossed."""
    key = (start, seas)
    found = _routes_cache.get(key)
    if found is not None:
        return found
    by_port: dict[int, dict[frozenset, tuple[int, ...]]] = {}
    stack: list[tuple[int, ...]] = [(start, s) for s in BOARD.port_seas[start] if s in seas]
    while stack:
        route = stack.pop()
        sea = route[-1]
        crossed = frozenset(route[1:])
        for port in BOARD.sea_ports[sea]:
            if port != start:
                known = by_port.setdefault(port, {}).get(crossed)
                if known is None or (len(route), route) < (len(known) - 1, known[:-1]):
                    by_port[port][crossed] = route + (port,)
        for s2 in BOARD.sea_seas[sea]:
            if s2 not in route and s2 in seas:
                stack.append(route + (s2,))
    found = tuple((port, tuple((p, frozenset(p[1:-1])) for p in sorted(by_port[port].values(),
                                                                        key=lambda p: (len(p), p))))
                  for port in sorted(by_port))
    if len(_routes_cache) >= _ROUTES_MAX:
        _routes_cache.clear()
    _routes_cache[key] = found
    return found


def declare_main_error(state: GameState, side: int, loc: int, origin: int,
                       confirm: bool = False) -> IllegalAction | None:
    """Why `side` may not name the road from `origin` as his main attack on `loc` (7.3).
    `confirm`: the battle phase's declaration, where naming the current main attack keeps it."""
    bt = state.battles.get(loc)
    where, whence = _name(loc), _name(origin)
    if bt is None or bt.attacker != side:
        return _no("main.not-attacking", "7.3", f"{SIDES[side]} is not attacking {where}",
                   side=SIDES[side], location=where)
    e = BOARD.edge(origin, loc)
    if e is None or e not in bt.attacker_edges:
        return _no("main.not-entered", "7.3", f"{SIDES[side]} did not enter {where} from {whence}",
                   side=SIDES[side], location=where, origin=whence)
    if e == bt.main_edge and not confirm:
        return _no("main.already", "7.3", f"{BOARD.edge_name(e)} is already the main attack on {where}",
                   road=BOARD.edge_name(e), location=where, origin=whence)
    if confirm and e not in main_attack_choices(state, bt):
        return _no("main.none-left", "7.3", f"none of {SIDES[side]}'s blocks that entered {where} from "
                   f"{whence} is still there", side=SIDES[side], location=where, origin=whence)
    return None


def main_attack_choices(state: GameState, bt: Battle) -> list[int]:
    """The roads (or sea borders) the attacker entered `bt.loc` by that still bring blocks
    of his to its battle, in the order first used."""
    here = {e for b, e, s in bt.entries
            if s == bt.attacker and state.loc[b] == bt.loc and state.owner[b] == s}
    return [e for e in bt.attacker_edges if e in here]


def legal_declarations(state: GameState, side: int) -> list[DeclareMain]:
    """The main-attack declarations `side` may make now (7.3): another road he entered a battle by."""
    out = []
    for loc, bt in state.battles.items():
        if bt.attacker == side:
            for e in bt.attacker_edges:
                if e != bt.main_edge:
                    a, c = BOARD.edge_ends[e]
                    out.append(DeclareMain(side, loc, a if c == loc else c))
    return out

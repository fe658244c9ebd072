"""Levies (6.4): new blocks from the levy pool and steps added to blocks on the map.

Owns the placement rules (leaders, auxilia, ballista: any friendly city; legions, equitatus,
elephant: their named city, friendly; navis: a friendly major port; steps: friendly city, navis
only in port), the levy points, and the availability of Octavian and Brutus. The `*_error`
functions return a structured `IllegalAction` (codes in docs/refusals.md) or None.
"""
from __future__ import annotations

from operator import itemgetter

from .actions import AddStep, Levy
from .board import AUXILIA, BALLISTA, BOARD, LEADER, NAVIS, SIDES
from .errors import IllegalAction
from .movement import status
from .state import DEAD, ELIMINATED, OFF_MAP_NAMES, POOL, GameState

ANY_FRIENDLY_CITY = (LEADER, AUXILIA, BALLISTA)
# The third leader of each side, in the levy pool at the start: leviable once another leader of
# his side is dead (3.21, 7.51).
RESERVE_LEADERS = tuple(
    next(b for b in BOARD.leaders[s] if b in BOARD.setup_pool) for s in (0, 1))


def _name(l: int) -> str:
    return BOARD.loc_names[l]


def reserve_leader_available(state: GameState, b: int) -> bool:
    """Whether a reserve leader `b` (Octavian, Brutus) may be levied: a leader of his side is dead."""
    side = BOARD.blocks[b].side
    return any(state.loc[x] == DEAD for x in BOARD.leaders[side] if x != b)


def _no(code: str, rule: str | None, message: str, **params) -> IllegalAction:
    return IllegalAction(message, rule=rule, code=code, params=params)


def _points_error(state: GameState) -> IllegalAction | None:
    cmd = state.command
    if cmd.lp_used >= cmd.lp:
        card = BOARD.cards[cmd.card].name
        if cmd.lp == 0:   # Jupiter, Vulcan, Mars, Neptune, Mercury and Pluto give no levy
            return _no("levy.card-gives-none", "2.1", f"the {card} card gives no levy point", card=card)
        return _no("levy.no-lp-left", "6.4", f"no levy point left: the card gives {cmd.lp} and "
                   f"{cmd.lp_used} are spent ({card})", card=card, lp=cmd.lp, spent=cmd.lp_used)
    return None


def _friendly_city_error(state: GameState, side: int, loc: int) -> IllegalAction | None:
    if BOARD.is_sea[loc]:
        return _no("levy.at-sea", "6.4", f"new blocks and steps are raised in cities, not at sea ({_name(loc)})",
                   location=_name(loc))
    if not state.friendly(loc, side):
        st = status(state, loc, side)
        return _no("levy.not-friendly-city", "6.4", f"new blocks and steps are raised only in a friendly city "
                   f"(held by your blocks, not contested): {_name(loc)} is {st}", location=_name(loc), status=st)
    return None


def levy_error(state: GameState, side: int, b: int, loc: int) -> IllegalAction | None:
    """Why `side` may not levy block `b` in `loc` now, or None."""
    if not 0 <= b < BOARD.n_blocks:
        return _no("id.no-block", None, f"no block number {b}", number=b)
    info = BOARD.blocks[b]
    label = BOARD.block_label(b, side)
    if info.side != side:
        return _no("levy.not-own-pool", "6.4", f"{label} is not in the {SIDES[side]} levy pool",
                   block=label, side=SIDES[side])
    where = state.loc[b]
    if where == ELIMINATED:
        return _no("levy.eliminated-this-year", "5.2", f"{label} was eliminated this year: it cannot be levied "
                   f"until the next year", block=label)
    if where == DEAD:
        return _no("levy.dead-leader", "7.51", f"{label} is dead: leaders are eliminated for good", block=label)
    if where != POOL:
        return _no("levy.on-map", "6.4", f"{label} is on the map, not in the levy pool", block=label)
    if b in RESERVE_LEADERS and not reserve_leader_available(state, b):
        return _no("levy.leader-not-available", "7.51", f"{label} becomes available only when another "
                   f"{SIDES[side]} leader is dead", block=label, side=SIDES[side])
    err = _points_error(state) or _friendly_city_error(state, side, loc)
    if err:
        return err
    if info.type == NAVIS:
        if not BOARD.is_major_port[loc]:
            return _no("levy.not-major-port", "6.4", f"navis are built in a friendly major port; {_name(loc)} is "
                       f"not a major port", block=label, location=_name(loc))
    elif info.type not in ANY_FRIENDLY_CITY and info.levy_city is not None and info.levy_city != loc:
        return _no("levy.not-named-city", "6.4", f"{label} is levied only in {_name(info.levy_city)}, its named "
                   f"city", block=label, city=_name(info.levy_city), location=_name(loc))
    return None


def add_step_error(state: GameState, side: int, b: int) -> IllegalAction | None:
    """Why `side` may not add a step to block `b` now, or None."""
    if not 0 <= b < BOARD.n_blocks:
        return _no("id.no-block", None, f"no block number {b}", number=b)
    label = BOARD.block_label(b, side)
    if state.owner[b] != side:
        return _no("step.not-own-block", "6.4", f"{label} is not a {SIDES[side]} block", block=label,
                   side=SIDES[side])
    loc = state.loc[b]
    if loc < 0:
        place = OFF_MAP_NAMES[loc]
        return _no("step.off-map", "6.4", f"steps are added to blocks on the map; {label} is not ({place})",
                   block=label, place=place)
    info = BOARD.blocks[b]
    if state.steps[b] >= info.max_steps:
        return _no("step.full-strength", "3.11", f"{label} is already at full strength", block=label)
    if info.is_navis and BOARD.is_sea[loc]:
        return _no("step.navis-at-sea", "6.4", f"steps are added to navis only in port, never at sea "
                   f"({_name(loc)})", block=label, location=_name(loc))
    return _points_error(state) or _friendly_city_error(state, side, loc)


def apply_levy(state: GameState, side: int, b: int, loc: int) -> None:
    """Perform a levy `levy_error` accepted: one LP, the block enters at one step."""
    state.command.lp_used += 1
    state.command.levying = True
    state.steps[b] = 1
    state.place(b, loc)
    state.moved[b] = True   # levied blocks cannot move this turn


def apply_add_step(state: GameState, side: int, b: int) -> None:
    """Perform an added step `add_step_error` accepted: one LP, one step."""
    state.command.lp_used += 1
    state.command.levying = True
    state.steps[b] += 1


def legal_levies(state: GameState, side: int) -> list:
    """Every levy and added step `side` may make now, block by block in id order (a pool
    block's levies in city order). The checks are `levy_error`'s and `add_step_error`'s,
    made once per listing: the friendly cities first, then each block against them."""
    if _points_error(state):
        return []
    other = 1 - side
    count = state.count
    cities = [l for l in _CITIES if count[l][side] and not count[l][other]]
    if not cities:
        return []
    friendly = set(cities)
    out: list = []
    locs, owner, steps = state.loc, state.owner, state.steps
    cache = _cached_levies(side)
    for b in range(BOARD.n_blocks):
        where = locs[b]
        if where == POOL and _PRINTED_SIDE[b] == side:
            kind = _LEVY_KIND[b]
            if kind == _NAVIS:
                places = [l for l in cities if BOARD.is_major_port[l]]
            elif kind == _ANYWHERE:
                places = cities
            else:
                places = [kind] if kind in friendly else []
            if places and b in RESERVE_LEADERS and not reserve_leader_available(state, b):
                continue
            # places are friendly cities fit for the block: levy_error would accept each
            mine = cache[b]
            for l in places:
                a = mine[l]
                if a is None:
                    a = mine[l] = Levy(side, b, l)
                out.append(a)
        elif where >= 0 and owner[b] == side and steps[b] < _MAX_STEPS[b] and where in friendly:
            # add_step_error: on the map, not at full strength, in a friendly city (never at sea)
            a = cache[b][_ADD_STEP]
            if a is None:
                a = cache[b][_ADD_STEP] = AddStep(side, b)
            out.append(a)
    return out


def levies_by_block(state: GameState, side: int) -> list[tuple[int, list[int] | None]]:
    """`legal_levies` before its actions are made: per block with a levy or an added step, in
    id order, (block, the cities it may be levied in, in `legal_levies`'s order) or (block,
    None) for its added step. The city lists may be shared: do not mutate them."""
    cmd = state.command
    if cmd.lp_used >= cmd.lp:   # _points_error
        return []
    other = 1 - side
    locs, steps = state.loc, state.steps
    fielded = state.fielded[side]
    mine, theirs = state.side_count[side], state.side_count[other]
    cities = [l for l in _CITIES if mine[l] and not theirs[l]]
    if not cities:
        return []
    friendly = set(cities)
    ports = None
    out: list[tuple[int, list[int] | None]] = []
    for b in _PRINTED_BLOCKS[side]:
        if locs[b] == POOL:
            kind = _LEVY_KIND[b]
            if kind == _NAVIS:
                if ports is None:
                    ports = [l for l in cities if BOARD.is_major_port[l]]
                places = ports
            elif kind == _ANYWHERE:
                places = cities
            else:
                places = [kind] if kind in friendly else []
            if places and not (b in RESERVE_LEADERS and not reserve_leader_available(state, b)):
                out.append((b, places))
    # add_step_error: on the map, not at full strength, in a friendly city (never at sea)
    steps_out: list[tuple[int, list[int] | None]] = [
        (b, None) for b in fielded if steps[b] < _MAX_STEPS[b] and locs[b] in friendly]
    if steps_out:
        if out:   # one list in id order (a block is in the pool or on the map, never both)
            out.extend(steps_out)
            out.sort(key=_first)
        else:
            out = steps_out
    return out


def levy_of(side: int, b: int, loc: int | None) -> Levy | AddStep:
    """b's Levy into `loc`, or its AddStep (loc None), made once (`levies_by_block`)."""
    mine = _cached_levies(side)[b]
    slot = _ADD_STEP if loc is None else loc
    a = mine[slot]
    if a is None:
        a = mine[slot] = AddStep(side, b) if loc is None else Levy(side, b, loc)
    return a


_CITIES = tuple(l for l in range(BOARD.n_locs) if BOARD.is_city[l])
_PRINTED_SIDE = tuple(b.side for b in BOARD.blocks)
_MAX_STEPS = tuple(b.max_steps for b in BOARD.blocks)
_PRINTED_BLOCKS = tuple(tuple(b for b in range(BOARD.n_blocks) if _PRINTED_SIDE[b] == s) for s in (0, 1))
_first = itemgetter(0)
_NAVIS, _ANYWHERE = -1, -2
# Where a pool block may be levied: any friendly major port (navis), any friendly city
# (ANY_FRIENDLY_CITY types) or its named city.
_LEVY_KIND = tuple(_NAVIS if b.type == NAVIS else _ANYWHERE if b.type in ANY_FRIENDLY_CITY else b.levy_city
                   for b in BOARD.blocks)
_ADD_STEP = BOARD.n_locs   # the AddStep's slot after one Levy slot per location
_levy_cache: list[list[list] | None] = [None, None]


def _cached_levies(side: int) -> list[list]:
    """Per block, its Levy values by location and its AddStep, made on first use (actions are
    immutable)."""
    cache = _levy_cache[side]
    if cache is None:
        cache = _levy_cache[side] = [[None] * (BOARD.n_locs + 1) for _ in range(BOARD.n_blocks)]
    return cache

"""Moves by endpoints: the legal moves that take one block from where it was lifted to where
it was set down, and what each implies.

At the table a player lifts a block and sets it down; several legal paths may join the two
places (other roads, other seas crossed, a different road into a battle). `moves_between`
lists exactly the `Move` actions among `Game.legal_actions` with that block and those
endpoints (group moves by road or sea, and amphibious moves as the listing offers them), each
as a `MoveOption`: its path, the MP it costs now, its contact with the enemy (attack,
reinforcement of one's own attack, response to the enemy's), whether the block arrives in the
main attack or as a reserve (7.3), the roads and sea borders used with their class, and the
seas crossed. Read-only: nothing here changes the state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import command_phase, movement
from .actions import Move
from .board import BOARD, UnknownName, parse_actor
from .errors import ParseError
from .state import COMMAND, GameState

ATTACK, REINFORCE, RESPONSE = "attack", "reinforce", "response"
MAIN, RESERVE = "main", "reserve"


@dataclass(frozen=True)
class MoveOption:
    """One legal move between two endpoints and what it implies."""
    action: Move
    path: tuple[str, ...]                  # location names, origin first
    mp: int                                # MP it costs now: 0 from an activated location
    contact: str | None                    # "attack" | "reinforce" | "response" | None
    arrives_as: str | None                 # "main" | "reserve" (7.3) | None: no battle there
    borders: tuple[tuple[str, str], ...]   # ("From–To" as travelled, its class: major|minor|strait|sea)
    amphibious: bool
    seas: tuple[str, ...]                  # seas passed through (each binds a navis, 6.3)

    @property
    def attacks(self) -> bool:
        """Whether the move starts a new battle."""
        return self.contact == ATTACK

    @property
    def reinforces(self) -> bool:
        """Whether the move reinforces a battle its side attacks."""
        return self.contact == REINFORCE

    @property
    def response(self) -> bool:
        """Whether the move responds to a battle the enemy attacks (6.14)."""
        return self.contact == RESPONSE

    def to_json(self) -> dict[str, Any]:
        """The option as JSON-safe data (the move as its notation line)."""
        return {"move": str(self.action), "path": list(self.path), "mp": self.mp, "contact": self.contact,
                "arrives_as": self.arrives_as, "amphibious": self.amphibious, "seas": list(self.seas),
                "borders": [{"border": n, "class": c} for n, c in self.borders]}


def moves_between(state: GameState, side: int, block: int, origin: int, dest: int) -> list[MoveOption]:
    """Every legal move of `side` taking `block` from `origin` to `dest` now, shortest first.
    Empty when there is none (not his command, the block is not in `origin`, cannot move...),
    and when `dest` is `origin`: a move back to its start is legal (the Mercury ruling) but is
    made by its notation line, as a block set down where it was lifted has not moved."""
    if not _may_move(state, side) or not _ids_ok(block, origin, dest):
        return []
    if state.loc[block] != origin or origin == dest or movement.block_error(state, side, block):
        return []
    paths = [p for p in _group_paths(state, side, block, origin, dest)
             if movement.move_error(state, side, block, p) is None]
    paths.extend(m.path for m in _amphibious(state, side, block, origin) if m.path[-1] == dest)
    paths.sort(key=lambda p: (len(p), p))
    return [describe(state, side, block, p) for p in paths]


def describe(state: GameState, side: int, block: int, path: tuple[int, ...]) -> MoveOption:
    """What moving `block` along `path` (a legal move now) implies."""
    cmd = state.command
    origin, dest = path[0], path[-1]
    amphibious = not BOARD.blocks[block].is_navis and BOARD.is_sea[path[1]]
    edges: list[int] = []
    for i in range(1, len(path)):
        e = BOARD.edge(path[i - 1], path[i])
        assert e is not None, "a legal path follows roads and sea borders"
        edges.append(e)
    names = BOARD.loc_names
    contact = arrives = None
    if state.count[dest][1 - side]:
        bt = state.battles.get(dest)
        if bt is None:
            contact, arrives = ATTACK, MAIN   # a new battle: its first road is the main attack
        elif bt.attacker == side:
            contact, arrives = REINFORCE, MAIN if edges[-1] == bt.main_edge else RESERVE
        else:
            contact, arrives = RESPONSE, RESERVE
    return MoveOption(
        action=Move(side, block, tuple(path)),
        path=tuple(names[x] for x in path),
        mp=1 if amphibious or origin not in cmd.activated else 0,
        contact=contact, arrives_as=arrives,
        borders=tuple((f"{names[path[i]]}–{names[path[i + 1]]}", BOARD.edge_class[e]) for i, e in enumerate(edges)),
        amphibious=amphibious,
        seas=tuple(BOARD.loc_names[x] for x in path[1:-1] if BOARD.is_sea[x]))


def resolve_endpoints(side, block, origin, dest) -> tuple[int, int, int, int]:
    """Side, block and locations as ids, from ids or names (a block's printed name is read on
    `side`'s side). An unknown or ambiguous name is a ParseError."""
    try:
        s = parse_actor(side, allow_chance=False)
        b = block if isinstance(block, int) else BOARD.block(str(block), s)
        o, d = (x if isinstance(x, int) else BOARD.location(str(x)) for x in (origin, dest))
    except UnknownName as exc:   # AmbiguousName too
        raise ParseError(str(exc), code="endpoints.unknown-name") from None
    return s, b, o, d


def _may_move(state: GameState, side: int) -> bool:
    cmd = state.cmd   # None outside the command phase: no move then
    return (state.phase == COMMAND and cmd is not None and cmd.side == side
            and command_phase.current_players(state) == (side,)
            and cmd.event not in movement.NO_MOVE_EVENTS)


def _ids_ok(block: int, origin: int, dest: int) -> bool:
    return (0 <= block < BOARD.n_blocks and 0 <= origin < BOARD.n_locs and 0 <= dest < BOARD.n_locs)


def _group_paths(state: GameState, side: int, block: int, origin: int, dest: int) -> list[tuple[int, ...]]:
    """Candidate group-move paths (road, or sea for a navis) from origin to dest within the
    card's reach, through locations free of enemy blocks (`move_error` decides the rest)."""
    adj = BOARD.sea_adj if BOARD.blocks[block].is_navis else BOARD.land_adj
    depth = movement.max_path_steps(state.command.event)
    enemy = state.count
    out = []
    stack: list[tuple[int, ...]] = [(origin,)]
    while stack:
        path = stack.pop()
        for nxt, _ in adj[path[-1]]:
            # a path may pass a location twice, dest included (the Mercury ruling)
            if nxt == dest:
                out.append(path + (nxt,))
            if len(path) < depth and not enemy[nxt][1 - side]:
                stack.append(path + (nxt,))
    return out


def _amphibious(state: GameState, side: int, block: int, origin: int) -> list[Move]:
    """The amphibious moves the listing offers this block (the same gate as `legal_moves`)."""
    cmd = state.command
    if (BOARD.blocks[block].is_navis or cmd.event is not None or not cmd.amphibious_open
            or cmd.mp_used >= cmd.mp or not BOARD.is_port[origin]):
        return []
    # The listing keeps, per port, the routes with a minimal set of seas (movement's rule).
    return movement._amphibious_moves(state, side, block, origin)


__all__ = ["MoveOption", "moves_between", "describe", "resolve_endpoints",
           "ATTACK", "REINFORCE", "RESPONSE", "MAIN", "RESERVE"]

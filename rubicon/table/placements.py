"""Placements: a block set down by the acting player, as the legal action(s) it can mean.

Owns which decisions are made by setting blocks down (a command's moves and levies, Jupiter's
send, a retreat, regroups, winter navis to port, disbanding), the candidate actions for one
block taken from where the engine has it to where it was set down (`Game.moves_between` for
moves, `legal_actions` for the rest), the levy's strength choice (rotation cannot be sensed:
the phone asks), and the engine's refusal when nothing fits (`Game.explain`). No I/O, no state:
every call reads the `Game` it is given.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine import (
    BOARD,
    POOL,
    Action,
    AddStep,
    Disband,
    EndCommand,
    EndDisband,
    EndRegroup,
    Game,
    IllegalAction,
    JupiterSend,
    Levy,
    Move,
    NavisToPort,
    Regroup,
    Retreat,
    parse_actor,
)

from ..errors import TableRefusal
from .reconcile import on_map, pool_place

_ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")

# Decision kind (engine.pending) -> the action types a placement may mean during it.
PLACING: dict[str, tuple[type[Action], ...]] = {
    "command": (Move, Levy), "jupiter-send": (JupiterSend,), "battle-turn": (Retreat,),
    "regroup": (Regroup,), "navis-to-port": (NavisToPort,), "supply": (Disband,), "disband": (Disband,),
}
# Done ends these decisions with this line (after the placements).
ENDS = (EndCommand, EndRegroup, EndDisband)


def placing(game: Game) -> tuple[str, str, str] | None:
    """(side, decision kind, rule) of the player whose decision is made by placing blocks now."""
    for d in game.pending():
        if d.actor in ("Caesar", "Pompeius") and d.kind in PLACING:
            return d.actor, d.kind, d.rule
    return None


@dataclass(frozen=True)
class Candidate:
    """One meaning of a placement: the lines it becomes and how the phone shows it (`strength`:
    a levy's strength, when that is what tells the meanings apart)."""
    label: str
    lines: tuple[str, ...]
    strength: str | None = None


def _loc(place: str) -> int | None:
    return BOARD.location(place) if on_map(place) else None


def candidates(game: Game, side: str, kind: str, block: int, origin: int, place: str) -> list[Candidate]:
    """Every legal meaning of `block` taken from `origin` (engine location) to `place` now."""
    dest = _loc(place)
    types = PLACING[kind]
    out: list[Candidate] = []
    if Move in types and origin >= 0 and dest is not None:
        options = game.moves_between(side, block, origin, dest)
        # The shortest paths only: a longer way to the same place is asked for on the phone only
        # when it is as short as another (the player meant one of those, not a detour).
        shortest = min((len(o.path) for o in options), default=0)
        for opt in (o for o in options if len(o.path) == shortest):
            label = "-".join(opt.path) + (f" ({opt.contact})" if opt.contact else "")
            out.append(Candidate(label, (str(opt.action),)))
    legal = [a for a in game.legal_actions(side) if isinstance(a, types) and not isinstance(a, Move)]
    for a in legal:
        if getattr(a, "block", None) != block:
            continue
        if isinstance(a, Levy):
            if origin == POOL and a.loc == dest:
                out.extend(_levy_strengths(game, side, a))
        elif isinstance(a, Disband):
            if place == pool_place(BOARD.blocks[block].side):
                out.append(Candidate(str(a), (str(a),)))
        elif isinstance(a, Retreat):
            if a.loc is not None and a.loc == dest:
                out.append(Candidate(str(a), (str(a),)))
        elif getattr(a, "loc", None) == dest:
            out.append(Candidate(str(a), (str(a),)))
    return out


def _levy_strengths(game: Game, side: str, levy: Levy) -> list[Candidate]:
    """A levy at one step, and at each higher strength the levy points still allow (added steps)."""
    trial = game.copy()
    trial.apply(levy)
    lines = [str(levy)]
    per_step = BOARD.blocks[levy.block].strength_per_step
    label = BOARD.block_label(levy.block, levy.actor)
    where = BOARD.loc_names[levy.loc]
    out = [Candidate(f"{label} in {where} at {_ROMAN[per_step]}", tuple(lines), _ROMAN[per_step])]
    step = AddStep(levy.actor, levy.block)
    for steps in range(2, BOARD.blocks[levy.block].max_steps + 1):
        if trial.explain(step) is not None:
            break
        trial.apply(step)
        lines.append(str(step))
        out.append(Candidate(f"{label} in {where} at {_ROMAN[steps * per_step]}", tuple(lines),
                             _ROMAN[steps * per_step]))
    return out


def refusal(game: Game, side: str, kind: str, rule: str, block: int, origin: int, place: str) -> IllegalAction:
    """Why `block` may not go from `origin` to `place` now: the engine's own refusal of the
    nearest action, or a table refusal naming the decision's rule."""
    s = parse_actor(side, allow_chance=False)
    dest = _loc(place)
    label = BOARD.block_label(block, s)
    guess: Action | None = None
    if kind == "command" and dest is not None:
        guess = Levy(s, block, dest) if origin == POOL else Move(s, block, (origin, dest)) if origin >= 0 else None
    if guess is not None:
        exc = game.explain(guess)
        if exc is not None and isinstance(guess, Move) and exc.code == "move.not-adjacent" and dest is not None:
            exc = _by_sea(game, s, block, origin, dest) or exc
        if exc is not None:
            return exc
    if dest is None:
        return TableRefusal(f"{label} cannot be set on the {place} now", rule=rule, code="table.placement-off-map",
                            params={"block": label, "place": place})
    return TableRefusal(f"{label} cannot go to {place} now", rule=rule, code="table.placement-illegal",
                        params={"block": label, "place": place})


def _by_sea(game: Game, side: int, block: int, origin: int, dest: int) -> IllegalAction | None:
    """A land block set from one port in another that no road joins meant an amphibious move
    (6.3): the engine's reason against the shortest one (one sea between), rather than "not
    adjacent" (e.g. an amphibious move after a land move)."""
    if BOARD.blocks[block].is_navis or not (BOARD.is_port[origin] and BOARD.is_port[dest]):
        return None
    for sea in BOARD.port_seas[origin]:
        if dest in BOARD.sea_ports[sea]:
            return game.explain(Move(side, block, (origin, sea, dest)))
    return None


def end_line(game: Game, side: str) -> str | None:
    """The line with which Done ends `side`'s decision now, if it has one."""
    for a in game.legal_actions(side):
        if isinstance(a, ENDS):
            return str(a)
    return None

"""The engine API: `Game` (OpenSpiel-style chance nodes and information states).

    g = Game()                         # 705 set-up, default rules options
    g.current_players()                # ["chance"], ["Caesar", "Pompeius"], ["Caesar"], ...
    g.apply(sample_chance(g, rng))     # the deal, dice, Jupiter's pick: explicit chance actions
    g.legal_actions("Caesar")          # player actions only
    g.apply("Caesar plays 3/2")        # an Action or its notation line; IllegalAction if not legal
    g.explain("Caesar plays 3/2")      # the IllegalAction apply would raise, or None; changes nothing
    g.view("Pompeius"); g.to_json(); Game.from_json(...); g.copy()

`apply` validates completely before it changes anything, so a refused action leaves the game
exactly as it was.
"""
from __future__ import annotations

import random

from . import card_phase, flow
from .actions import Action, parse_action
from .board import CHANCE, SIDES, UnknownName, parse_actor
from .endpoints import moves_between as _moves_between
from .endpoints import resolve_endpoints
from .errors import IllegalAction
from .pending import pending as _pending
from .phases import phase_module
from .state import OVER, WINTER, GameState
from .views import view as _view

CHANCE_NAME = "chance"   # how current_players() names the chance actor


def _side_arg(side: object) -> int | None:
    """None (everyone / the public), or an actor id from a Side, an id or a name."""
    if side is None:
        return None
    try:
        return parse_actor(side)
    except UnknownName as exc:
        raise IllegalAction(str(exc), code="game.unknown-side", params={"side": repr(side)}) from None


class Game:
    """One game of Julius Caesar. Wraps a `GameState`; phase modules do the rules."""

    def __init__(self, options: dict | None = None, *, state: GameState | None = None):
        self.state = state if state is not None else GameState(options)
        self.history: list[str] = []   # notation lines applied through this object (records)

    # --- whose turn -------------------------------------------------------------------------
    def current_player_ids(self) -> tuple[int, ...]:
        if self.state.phase == OVER:
            return ()
        return tuple(phase_module(self.state.phase).current_players(self.state))

    def current_players(self) -> list[str]:
        return [CHANCE_NAME if p == CHANCE else SIDES[p] for p in self.current_player_ids()]

    def is_chance_node(self) -> bool:
        return self.current_player_ids() == (CHANCE,)

    # --- actions ----------------------------------------------------------------------------
    def legal_actions(self, side=None) -> list[Action]:
        """Player actions open now: of `side`, or of every current player. Chance actions are
        never listed: take them from the table or from `sample_chance`."""
        if self.state.phase == OVER:
            return []
        mod = phase_module(self.state.phase)
        players = self.current_player_ids()
        sides = players if side is None else (_side_arg(side),)
        out: list[Action] = []
        for s in sides:
            if s != CHANCE and s in players:
                out.extend(mod.legal_actions(self.state, s))
        return out

    def apply(self, action: Action | str) -> Action:
        """Perform one action (or notation line). Raises IllegalAction naming the rule and
        leaves the game unchanged when the action is not legal now."""
        action = _perform(self.state, action)
        self.history.append(str(action))
        return action

    def explain(self, action: Action | str) -> IllegalAction | None:
        """What `apply` would say about `action` now: its refusal, or None if it is legal.
        Changes nothing: the action is applied, by `apply`'s own path, to a copy."""
        try:
            _perform(self.state.copy(), action)
        except IllegalAction as refusal:
            return refusal
        return None

    def sample_chance(self, rng: random.Random) -> Action:
        return sample_chance(self, rng)

    # --- what the game waits for (engine.pending, engine.endpoints) -------------------------
    def pending(self) -> list:
        """One `Decision` per actor the game waits for; `d.for_viewer(v)` is what v may see."""
        return _pending(self.state)

    def moves_between(self, side, block, origin, dest) -> list:
        """Every legal move of `side` taking `block` from `origin` to `dest` now, as
        `MoveOption`s (names or ids; an unknown name is a ParseError)."""
        return _moves_between(self.state, *resolve_endpoints(side, block, origin, dest))

    # --- end --------------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.state.phase == OVER

    def result(self) -> dict | None:
        """{"winner": "Caesar" | "Pompeius" | None (draw), "reason": ..., "vp": {...}} or None."""
        r = self.state.result
        if r is None:
            return None
        w = r["winner"]
        return {"winner": None if w is None else SIDES[w], "reason": r["reason"],
                "vp": {SIDES[s]: r["vp"][s] for s in (0, 1)}}

    # --- information ------------------------------------------------------------------------
    def view(self, side=None) -> dict:
        return _view(self.state, _side_arg(side))

    def vp(self, side) -> int:
        return self.state.vp(_side_arg(side))

    # --- persistence ------------------------------------------------------------------------
    def to_json(self) -> dict:
        return self.state.to_json()

    @classmethod
    def from_json(cls, data: dict) -> Game:
        return cls(state=GameState.from_json(data))

    def copy(self) -> Game:
        g = Game(state=self.state.copy())
        g.history = list(self.history)
        return g


def _perform(state: GameState, action: Action | str) -> Action:
    """Validate and perform one action on `state` (the one path of `apply` and `explain`)."""
    if isinstance(action, str):
        action = parse_action(action)
    try:
        str(action)   # every well-formed action has a notation line
        if getattr(action, "actor", CHANCE) not in (0, 1, CHANCE):
            raise ValueError("no such actor")   # -1 would pass for Pompeius in SIDES[-1]
    except (IndexError, KeyError, TypeError, ValueError, AttributeError):
        raise IllegalAction(f"malformed action (an id out of range): {action!r}", code="action.malformed",
                            params={"action": repr(action)}) from None
    if state.phase == OVER:
        reason = state.result["reason"]
        raise IllegalAction(f"the game is over ({reason})", rule="1.2", code="game.over", params={"reason": reason})
    if state.phase == WINTER:   # a command after turn 5 was cancelled: say so (the winter module would not)
        err = card_phase.cancelled_turn_error(state, action)
        if err is not None:
            raise err
    phase_module(state.phase).apply(state, action)
    flow.settle(state)
    return action


def sample_chance(game: Game | GameState, rng: random.Random) -> Action:
    """The chance action the table would supply now (a seeded `random.Random`; never the
    global RNG). Accepts a `Game` or a bare `GameState`."""
    if isinstance(game, GameState):
        game = Game(state=game)
    if not game.is_chance_node():
        now = ", ".join(game.current_players()) or "nobody"
        raise IllegalAction(f"no chance action is due: waiting for {now}", code="turn.chance-not-due",
                            params={"awaited": now})
    return phase_module(game.state.phase).sample_chance(game.state, rng)

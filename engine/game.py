"""The engine API: `Game` (OpenSpiel-style chance nodes and information states).

    g = Game()                         # 705 set-up, default rules options
    g.current_players()                # ["Chance"], ["Caesar", "Pompeius"], ["Caesar"], ...
    g.apply(sample_chance(g, rng))     # the deal, dice, Jupiter's pick: explicit chance actions
    g.legal_actions("Caesar")          # player actions only
    g.apply("Caesar plays 3/2")        # an Action or its notation line; IllegalAction if not legal
    g.effects_at(-1)                   # what it changed (engine.effects), named when first asked
    g.legal_listing(); g.legal_count(); g.legal_at(i)   # the same, lazily (engine.listing)
    g.explain("Caesar plays 3/2")      # the IllegalAction apply would raise, or None; changes nothing
    g.history_for("Caesar"); g.can_undo(); g.undo()   # engine.history, engine.undo
    g.view("Pompeius"); g.save(); Game.load(...); g.copy()

`apply` validates completely before it changes anything, so a refused action leaves the game
exactly as it was.

Trusted callers that play the engine's own listing and never take back (self-play, bots'
rollouts, the replay of a journal already checked) may opt out of two costs, never by default:
`Game(options, take_back=False)` keeps no take-back snapshot (a copy of the state at each
command phase; `TakeBack` is then neither listed nor accepted, code "command.take-back-off") and
`apply(action, checked=False)` performs an action without validating it (a listed move, levy,
added step, end of command, discard, play, battle action, winter disband or navis to port is
not checked again; the others go through their phase's `apply`). An unlisted action applied unchecked
corrupts the game.
"""
from __future__ import annotations

import random

from . import battle, card_phase, command_phase, flow, winter
from .actions import Action, TakeBack, line_of, parse_action
from .board import CAESAR, CHANCE, CHANCE_NAME, POMPEIUS, SIDES, UnknownName, parse_actor
from .effects import Effects, compute
from .endpoints import moves_between as _moves_between
from .endpoints import resolve_endpoints
from .errors import CorruptSave, IllegalAction
from .history import history_for as _history_for
from .listing import Listing
from .listing import listing as _listing
from .pending import pending as _pending
from .phases import phase_module
from .saves import check_checkpoint, make_save, read_save, record_text
from .state import BATTLE, CARD, COMMAND, DISCARD, LAST_YEAR, OVER, WINTER, GameState
from .undo import Journal
from .victory import ROME, Outcome
from .victory import outcome as _outcome
from .views import view as _view


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

    def __init__(self, options: dict | None = None, *, state: GameState | None = None,
                 take_back: bool = True):
        self.state = state if state is not None else GameState(options)
        if not take_back:
            self.state.take_back = False
        self.history: list[str] = []   # notation lines applied through this object (records)
        self._journal = Journal()       # entries, effects named on demand, undo barrier, checkpoints
        # Played from the 705 set-up: only then is `history` the whole record (a position built
        # by hand has no record to save).
        self.from_setup = state is None

    # --- whose turn -------------------------------------------------------------------------
    def current_player_ids(self) -> tuple[int, ...]:
        """Who acts now, as actor ids (0, 1, CHANCE); empty once the game is over."""
        if self.state.phase == OVER:
            return ()
        return tuple(phase_module(self.state.phase).current_players(self.state))

    def current_players(self) -> list[str]:
        """Who acts now, by name ("Caesar", "Pompeius", CHANCE_NAME); empty once over."""
        return [CHANCE_NAME if p == CHANCE else SIDES[p] for p in self.current_player_ids()]

    def is_chance_node(self) -> bool:
        """Whether the game waits for a chance action (deal, dice, Jupiter's pick)."""
        return self.current_player_ids() == (CHANCE,)

    # --- actions ----------------------------------------------------------------------------
    def legal_actions(self, side=None, take_back: bool = False) -> list[Action]:
        """Player actions open now: of `side`, or of every current player. `take_back=True`
        adds the command phase's `TakeBack` when it is open (the table's undo button; a bot or
        a search never wants it). Chance actions are never listed: take them from the table or
        from `sample_chance`."""
        state = self.state
        if state.phase == OVER:
            return []
        mod = phase_module(state.phase)
        players = tuple(mod.current_players(state))
        sides = players if side is None else (_side_arg(side),)
        out: list[Action] = []
        for s in sides:
            if s != CHANCE and s in players:
                out.extend(mod.legal_actions(state, s))
        if not take_back and state.phase == COMMAND and out and type(out[-1]) is TakeBack:
            out.pop()   # the command phase lists it last (engine.command_phase.legal_actions)
        return out

    def legal_listing(self, side=None, take_back: bool = False) -> Listing:
        """`legal_actions(side, take_back)` as a lazy sequence (engine.listing): its length and
        its i-th action, in the same order, without making the list.
        `rng.choice(game.legal_listing())` draws what `rng.choice(game.legal_actions())` would.
        Valid until the game changes."""
        s = _side_arg(side)
        return _listing(self.state, None if s is None else (s,), take_back)

    def legal_count(self, side=None, take_back: bool = False) -> int:
        """`len(legal_actions(side, take_back))`, without making the list."""
        return len(self.legal_listing(side, take_back))

    def legal_at(self, i: int, side=None, take_back: bool = False) -> Action:
        """`legal_actions(side, take_back)[i]`, without making the list (IndexError out of range)."""
        return self.legal_listing(side, take_back)[i]

    def apply(self, action: Action | str, effects: bool = False, checked: bool = True) -> Effects | None:
        """Perform one action (or notation line). Raises IllegalAction naming the rule and
        leaves the game unchanged when the action is not legal now. Its effects (what changed,
        automatic consequences included, engine.effects) are named when first asked for
        (`effects_at`, `history_for`, `can_undo`, `undo`); `effects=True` names them now and
        returns them (else None). `checked=False` (trusted callers only, see the module
        docstring): the action is one the engine listed just now and is performed without
        validation."""
        if isinstance(action, str):
            action = parse_action(action)
        state = self.state
        before = self._journal.before(state, checked or effects)
        if checked:
            action = _perform(state, action)
        else:
            _perform_listed(state, action)
        fx = compute(before, state, action) if before is not None and effects else None
        text = _notation(action)
        self._journal.record(action, text, before, fx)
        self.history.append(text)
        return fx

    # --- what each side saw, undo --------------------------------------------------------------
    def history_for(self, viewer=None, since: int = 0) -> list[dict]:
        """The log as `viewer` ("Caesar", "Pompeius" or None = public) saw it: per action its
        index, actor, text and effects as seen (engine.history); `since`: from that index on."""
        v = _side_arg(viewer)
        if v == CHANCE:
            raise ValueError("Chance has no history of its own")
        self._journal.name(since, len(self.history), self.state)
        return _history_for(self._journal.entries, v, since)

    def effects_at(self, index: int = -1) -> Effects:
        """The effects of the action at `index` of `history` (the last by default), named now if
        they were not yet."""
        n = len(self.history)
        if not -n <= index < n:
            raise IndexError(f"no action at index {index}: {n} applied")
        return self._journal.effects(index % n, self.state)

    def can_undo(self, side=None) -> bool:
        """Whether `undo(side)` would take back the last action (engine.undo: the barrier)."""
        try:
            self._journal.check_undo(self.state, _side_arg(side))
        except IllegalAction:
            return False
        return True

    def undo(self, side=None) -> Action:
        """Take back the last action, if nothing hidden was revealed and no chance consumed
        since; the state, history and effects become exactly what they were. `side`
        ("Caesar"/"Pompeius", optional): who asks; only his own action is taken back. Refused
        with IllegalAction (code "undo.barrier", "undo.nothing" or "undo.other-side"), the game
        unchanged. Returns the action taken back."""
        entry = self._journal.undo(self.state, _side_arg(side))
        self.history.pop()
        return entry.action

    def explain(self, action: Action | str) -> IllegalAction | None:
        """What `apply` would say about `action` now: its refusal, or None if it is legal.
        Changes nothing: the action is applied, by `apply`'s own path, to a copy."""
        try:
            _perform(self.state.copy(), action)
        except IllegalAction as refusal:
            return refusal
        return None

    def sample_chance(self, rng: random.Random) -> Action:
        """The chance action due now, drawn from `rng` (`sample_chance`)."""
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
        """Whether the game has ended (`outcome()` says how)."""
        return self.state.phase == OVER

    def outcome(self) -> Outcome | None:
        """How the game ended (`engine.victory.Outcome`: winner, code, year, VP, reason), or None
        while it goes on."""
        st = self.state
        if st.result is None:
            return None
        rome = next((s for s in (CAESAR, POMPEIUS) if st.friendly(ROME, s)), None)
        return _outcome(st.result, st.year, rome, st.year >= LAST_YEAR)

    def result(self) -> dict | None:
        """`outcome()` as JSON-safe data: {"winner": "Caesar" | "Pompeius" | None (a draw),
        "code", "rule", "year", "vp": {"Caesar": n, "Pompeius": n}, "reason"}, or None."""
        o = self.outcome()
        return None if o is None else o.to_json()

    # --- information ------------------------------------------------------------------------
    def view(self, side=None) -> dict:
        """The information state of `side` (None: the public one): engine.views."""
        return _view(self.state, _side_arg(side))

    def vp(self, side) -> int:
        """The victory points `side` holds now."""
        s = _side_arg(side)
        if s not in (0, 1):
            raise IllegalAction(f"only Caesar and Pompeius score VP, not {side!r}", code="game.unknown-side",
                                params={"side": repr(side)})
        return self.state.vp(s)

    # --- persistence: a saved game is its record (engine/saves.py) -------------------------
    def save(self, checkpoint: bool = True) -> dict:
        """The save: rules options and every line since the set-up, with the state as a
        checkpoint (a cross-check on load, never loaded). ValueError for a position built by hand.
        A game without take-back saves no checkpoint during a game turn: its state lacks the
        take-back snapshot the replay on load keeps."""
        if not self.from_setup:
            raise ValueError("this game was not played from the 705 set-up: it has no record to save")
        keep = checkpoint and (self.state.take_back or self.state.cmd is None)
        return make_save(self.state.options, self.history, self.state.to_json() if keep else None)

    def save_text(self, comment: str | None = None) -> str:
        """The save as a record people read (docs/notation.md); `notation.replay` loads it."""
        if not self.from_setup:
            raise ValueError("this game was not played from the 705 set-up: it has no record to save")
        return record_text(self.state.options, self.history, comment)

    @classmethod
    def load(cls, data) -> Game:
        """The game a save spells, replayed line by line from the 705 set-up. Raises
        `CorruptSave`: its structure (code `save.format`), the first illegal line (`save.line`,
        `.line`, `.error` the IllegalAction), a checkpoint the lines do not reach (`save.checkpoint`)."""
        options, lines, checkpoint = read_save(data)
        game = cls(options)
        for n, line in enumerate(lines, start=1):
            try:
                game.apply(line)
            except IllegalAction as exc:
                raise CorruptSave(f"line {n} of the save is refused: {exc}", code="save.line", line=n,
                                  error=exc) from None
        if checkpoint is not None:
            check_checkpoint(game.state.to_json(), checkpoint)
        return game

    def to_json(self) -> dict:
        """The old name of `save()`."""
        return self.save()

    @classmethod
    def from_json(cls, data) -> Game:
        """The old name of `load()`."""
        return cls.load(data)

    def copy(self) -> Game:
        """An independent copy: state, history and journal (undo, effects) alike."""
        g = Game(state=self.state.copy())
        g.history = list(self.history)
        g._journal = self._journal.copy()
        g.from_setup = self.from_setup
        return g


_notation = line_of   # `str(action)`, remembered per action value (engine.actions)


def _perform(state: GameState, action: Action | str) -> Action:
    """Validate and perform one action on `state` (the one path of `apply` and `explain`)."""
    if isinstance(action, str):
        action = parse_action(action)
    try:
        _notation(action)   # every well-formed action has a notation line
        if getattr(action, "actor", CHANCE) not in (0, 1, CHANCE):
            raise ValueError("no such actor")   # -1 would pass for Pompeius in SIDES[-1]
    except (IndexError, KeyError, TypeError, ValueError, AttributeError):
        raise IllegalAction(f"malformed action (an id out of range): {action!r}", code="action.malformed",
                            params={"action": repr(action)}) from None
    if state.phase == OVER:
        reason = state.result["reason"] if state.result else "over"
        raise IllegalAction(f"the game is over ({reason})", rule="1.2", code="game.over", params={"reason": reason})
    if state.phase == WINTER:   # a command after turn 5 was cancelled: say so (the winter module would not)
        err = card_phase.cancelled_turn_error(state, action)
        if err is not None:
            raise err
    phase_module(state.phase).apply(state, action)
    flow.settle(state)
    return action


def _perform_listed(state: GameState, action: Action) -> None:
    """Perform an action the engine listed now, without validating it (`apply(checked=False)`)."""
    listed = _LISTED.get(state.phase)
    if listed is not None:
        listed(state, action)
    else:
        phase_module(state.phase).apply(state, action)
    flow.settle(state)


# Each phase's trusted apply (engine.game's `checked=False`); the others apply through `apply`.
_LISTED = {COMMAND: command_phase.apply_listed, CARD: card_phase.apply_listed, DISCARD: card_phase.apply_listed,
           BATTLE: battle.apply_listed, WINTER: winter.apply_listed}


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

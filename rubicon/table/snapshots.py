"""What readers of the table see: the immutable `Snapshot` the session's owner thread publishes
after every change, and how it is built from the game, the table's parts and the notes.

The game's parts (each side's view, legal actions, pending decisions, log) are rebuilt only when
the game itself changed (`GameParts`: a new `Game` object on each commit or undo); the table's part
(the physical table, the dice desk, the live messages, the journal's health) is new each time.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from engine import Action, Decision, Game, Side, action_data, actor_name, line_of, parse_action, parse_actor

from .dice import DiceDesk
from .feedback import Facts, MessageBoard
from .physical import PhysicalTable, plain_parts

LOG_SHOWN = 60   # log entries each viewer's snapshot carries (the whole log: Game.history_for)


@dataclass(frozen=True, kw_only=True)
class PublicPart:
    """What everyone may see (the TV, a guest, both phones): the public view, the decisions the
    game waits for as the public sees them, the end of the public log and the table's public part."""
    view: dict[str, Any]
    pending: tuple[dict[str, Any], ...]
    log: tuple[dict[str, Any], ...]          # the last LOG_SHOWN entries
    table: dict[str, Any] | None


@dataclass(frozen=True, kw_only=True)
class SidePart:
    """What one side may see: its private view, its legal actions (engine values, the undo among
    them: no notation), the decisions as he sees them (his own with their options as data), his
    log, whether he may take back his last action and his part of the table."""
    view: dict[str, Any]
    legal: tuple[Action, ...]
    pending: tuple[dict[str, Any], ...]
    log: tuple[dict[str, Any], ...]          # the last LOG_SHOWN entries
    can_undo: bool
    table: dict[str, Any] | None

    def options(self) -> tuple[dict[str, Any], ...]:
        """His own options now, each as data ({"line", "type", "actor", "params"}: `pending_views`),
        in the order of `legal`, the take-back ("type": "take-back") among them."""
        return tuple(option for decision in self.pending for option in decision["options"])


@dataclass(frozen=True, kw_only=True)
class Snapshot:
    """The game as it stood after one change. Nothing in it may be mutated; `for_viewer`
    returns only what that viewer may see (None: the public, e.g. the TV)."""
    version: int
    game_id: int | None
    waiting_for: tuple[str, ...]
    public: PublicPart
    sides: Mapping[Side, SidePart]              # each side's own part (`side(name)`)
    lines: int                                   # actions applied so far
    result: dict[str, Any] | None
    problem: str | None = None                   # why the journal could not be replayed, if so
    notes: dict[str, Any] = field(default_factory=dict)   # public notes (`Note`), e.g. "bot"

    def side(self, side: Side | str) -> SidePart:
        """The part of `side` (a `Side` or its name; "caesar", "P" as the API reads them)."""
        return self.sides[Side(actor_name(parse_actor(side, allow_chance=False)))]

    def side_views(self) -> dict[str, dict[str, Any]]:
        """Each side's private view, keyed by its `Side` (e.g. to lay the virtual table out)."""
        return {s: part.view for s, part in self.sides.items()}

    def for_viewer(self, viewer: str | None) -> dict[str, Any]:
        """The snapshot as `viewer` may see it: a side's private view, pending decisions, log and messages, or only
        the public ones for None (the TV, a guest)."""
        base = {"version": self.version, "waiting_for": list(self.waiting_for), "lines": self.lines,
                "result": self.result, "problem": self.problem, "notes": dict(self.notes)}
        if viewer is None:
            public = self.public
            return {**base, "view": public.view, "pending": list(public.pending), "log": list(public.log),
                    "table": public.table}
        part = self.side(viewer)
        return {**base, "view": part.view, "legal": [line_of(a) for a in part.legal], "pending": list(part.pending),
                "log": list(part.log), "can_undo": part.can_undo, "table": part.table}


def no_game_snapshot(version: int, game_id: int | None, problem: str | None, table: dict[str, dict[str, Any]],
                     notes: dict[str, Any]) -> Snapshot:
    """The snapshot while no game can be played (the journal could not be replayed): empty parts."""
    return Snapshot(version=version, game_id=game_id, waiting_for=(),
                    public=PublicPart(view={}, pending=(), log=(), table=table.get("public")),
                    sides={s: SidePart(view={}, legal=(), pending=(), log=(), can_undo=False, table=table.get(s))
                           for s in Side},
                    lines=0, result=None, problem=problem, notes=notes)


def game_snapshot(game: Game, *, version: int, game_id: int | None, table: dict[str, dict[str, Any]],
                  notes: dict[str, Any], parts: GameParts) -> Snapshot:
    """The snapshot of `game`: its parts (made once per game object, `parts`) with the table's."""
    made = parts.of(game)
    return Snapshot(version=version, game_id=game_id, waiting_for=made.waiting_for,
                    public=replace(made.public, table=table.get("public")),
                    sides={s: replace(part, table=table.get(s)) for s, part in made.sides.items()},
                    lines=made.lines, result=made.result, problem=None, notes=notes)


@dataclass(frozen=True, kw_only=True)
class _Made:
    """The game's share of a snapshot (its parts without the table's)."""
    waiting_for: tuple[str, ...]
    public: PublicPart
    sides: dict[Side, SidePart]
    lines: int
    result: dict[str, Any] | None


class GameParts:
    """The game's share of a snapshot, made once per game object: a sensor event or a table
    intent re-uses it (only the table part is new); immutable, so snapshots share it safely."""

    def __init__(self) -> None:
        self._of: Game | None = None
        self._made: _Made | None = None

    def of(self, game: Game) -> _Made:
        """The parts of `game` (the table's parts left None)."""
        if self._of is not game or self._made is None:
            pending, log = pending_views(game), log_views(game)
            self._made = _Made(
                waiting_for=tuple(game.current_players()),
                public=PublicPart(view=game.view(None), pending=pending["public"], log=log["public"], table=None),
                sides={s: SidePart(view=game.view(s),
                                   legal=tuple(game.legal_actions(s, take_back=True)),   # the undo button too
                                   pending=pending[s], log=log[s], can_undo=game.can_undo(s), table=None)
                       for s in Side},
                lines=len(game.history), result=game.result())
            self._of = game
        return self._made


def table_views(game: Game | None, *, physical: PhysicalTable | None, dice: DiceDesk, messages: MessageBoard,
                position: int, notes: dict[str, Any], health: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Snapshot.table: the physical table's parts (or the plain ones), with the dice asked and
    what to do after a roll added, the devices of both, and each viewer's live messages (the
    message board settled on the table as it stands now, `position` counting the game's moves);
    `health`: the journal's messages (storage_health.py), said to every viewer, the TV included."""
    parts = physical.parts(game) if physical is not None and game is not None else plain_parts()
    shown = physical.shown_by_itself if physical is not None else frozenset()
    views = dice.merge(parts, game, board_sensed=physical is not None, shown_by_board=shown)
    facts = physical.facts if physical is not None and game is not None else Facts()
    messages.settle(replace(facts, position=position, tray_up=dice.tray_up))
    # Devices not working, what to check (devices.py: said until the device is up again).
    devices = [lasting(m, "devices", "device-up") for m in notes.get("devices") or ()]
    views = {viewer: {**part, "messages": devices + messages.live(viewer)} for viewer, part in views.items()}
    if "bot" in notes:   # the bot's explained moves (public: rubicon/table/bot_explain.py)
        views = {**views, "public": {**views.get("public", {}), "bot": notes["bot"]}}
    if health:
        views = {viewer: {**part, "messages": list(part.get("messages") or []) + health}
                 for viewer, part in views.items()}
    return views


def lasting(message: dict[str, Any], cause: str, clears: str) -> dict[str, Any]:
    """A message said beside the board's (a device down, the journal's health) in the board's shape:
    its id (by code: one such message per code at a time), cause and what ends it."""
    return {**message, "id": message.get("id") or f"m-{message.get('code')}", "cause": cause, "clears": clears}


def pending_views(game: Game) -> dict[str, tuple[dict[str, Any], ...]]:
    """The decisions the game waits for, as the public and each side may see them; each option
    (the actor's own legal actions: only he sees them) as data, {"line", "type", "actor",
    "params"} (engine.action_dicts), so no reader parses the notation back; a command's last
    action (`params.last`, his own) likewise as `params.last_action`."""
    decisions = game.pending()
    return {name: tuple(_decision_view(d.for_viewer(viewer)) for d in decisions)
            for name, viewer in (("public", None), ("Caesar", "Caesar"), ("Pompeius", "Pompeius"))}


@lru_cache(maxsize=8192)
def _option(action: Action) -> dict[str, Any]:
    """One option as data. The same actions stay legal move after move (immutable values), so each
    is made once and shared by the snapshots, which nothing mutates."""
    return {"line": line_of(action), **action_data(action)}


def _decision_view(decision: Decision) -> dict[str, Any]:
    out = decision.to_json()
    out["options"] = [_option(a) for a in decision.options]
    last = out["params"].get("last")
    if isinstance(last, str):
        out["params"]["last_action"] = action_data(parse_action(last))
    return out


def log_views(game: Game) -> dict[str, tuple[dict[str, Any], ...]]:
    """The end of the game's log as the public and each side saw it (nothing hidden from them)."""
    since = max(0, len(game.history) - LOG_SHOWN)
    return {name: tuple(game.history_for(viewer, since=since))
            for name, viewer in (("public", None), ("Caesar", "Caesar"), ("Pompeius", "Pompeius"))}

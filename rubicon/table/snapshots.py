"""What readers of the table see: the immutable `Snapshot` the session's owner thread publishes
after every change, and how it is built from the game, the table's parts and the notes.

The game's parts (each side's view, legal actions, pending decisions, log) are rebuilt only when
the game itself changed (`GameParts`: a new `Game` object on each commit or undo); the table's part
(the physical table, the dice desk, the live messages, the journal's health) is new each time.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from engine import Action, Decision, Game, action_data, actor_name, line_of, parse_action, parse_actor

from .dice import DiceDesk
from .feedback import Facts, MessageBoard
from .physical import PhysicalTable, plain_parts

LOG_SHOWN = 60   # log entries each viewer's snapshot carries (the whole log: Game.history_for)
SIDES = ("Caesar", "Pompeius")


@dataclass(frozen=True)
class Snapshot:
    """The game as it stood after one change. Nothing in it may be mutated; `for_viewer`
    returns only what that viewer may see (None: the public, e.g. the TV)."""
    version: int
    game_id: int | None
    waiting_for: tuple[str, ...]
    public: dict[str, Any]
    private: dict[str, dict[str, Any]]          # "Caesar"/"Pompeius" -> that side's view
    legal: dict[str, tuple[str, ...]]           # "Caesar"/"Pompeius" -> his legal lines now
    pending: dict[str, tuple[dict[str, Any], ...]]   # "public"/"Caesar"/"Pompeius" -> decisions as seen
    log: dict[str, tuple[dict[str, Any], ...]]       # the last LOG_SHOWN entries of the log as each saw it
    can_undo: dict[str, bool]                         # "Caesar"/"Pompeius" -> may take back his last action
    lines: int                                   # actions applied so far
    result: dict[str, Any] | None
    problem: str | None = None                   # why the journal could not be replayed, if so
    table: dict[str, dict[str, Any]] = field(default_factory=dict)   # "public"/"Caesar"/"Pompeius" -> table part
    notes: dict[str, Any] = field(default_factory=dict)   # public notes (`Note`), e.g. "bot"

    def for_viewer(self, viewer: str | None) -> dict[str, Any]:
        """The snapshot as `viewer` may see it: a side's private view, pending decisions, log and messages, or only
        the public ones for None (the TV, a guest)."""
        base = {"version": self.version, "waiting_for": list(self.waiting_for), "lines": self.lines,
                "result": self.result, "problem": self.problem, "notes": dict(self.notes)}
        if viewer is None:
            return {**base, "view": self.public, "pending": list(self.pending["public"]),
                    "log": list(self.log["public"]), "table": self.table.get("public")}
        side = actor_name(parse_actor(viewer, allow_chance=False))
        return {**base, "view": self.private[side], "legal": list(self.legal[side]),
                "pending": list(self.pending[side]), "log": list(self.log[side]), "can_undo": self.can_undo[side],
                "table": self.table.get(side)}


def no_game_snapshot(version: int, game_id: int | None, problem: str | None, table: dict[str, dict[str, Any]],
                     notes: dict[str, Any]) -> Snapshot:
    """The snapshot while no game can be played (the journal could not be replayed): empty parts."""
    return Snapshot(version=version, game_id=game_id, waiting_for=(), public={},
                    private={s: {} for s in SIDES}, legal={s: () for s in SIDES},
                    pending={"public": (), **{s: () for s in SIDES}}, log={"public": (), **{s: () for s in SIDES}},
                    can_undo={s: False for s in SIDES}, lines=0, result=None, problem=problem, table=table,
                    notes=notes)


class GameParts:
    """The game's share of a snapshot, made once per game object: a sensor event or a table
    intent re-uses it (only the table part is new); immutable, so snapshots share it safely."""

    def __init__(self) -> None:
        self._of: Game | None = None
        self._parts: dict[str, Any] = {}

    def of(self, game: Game) -> dict[str, Any]:
        """The parts of `game` as `Snapshot` keyword arguments."""
        if self._of is not game:
            self._parts = dict(
                waiting_for=tuple(game.current_players()),
                public=game.view(None), private={s: game.view(s) for s in SIDES},
                legal={s: tuple(str(a) for a in game.legal_actions(s, take_back=True))   # the undo button too
                       for s in SIDES},
                pending=pending_views(game), log=log_views(game),
                can_undo={s: game.can_undo(s) for s in SIDES},
                lines=len(game.history), result=game.result())
            self._of = game
        return self._parts


def table_views(game: Game | None, *, physical: PhysicalTable | None, dice: DiceDesk, messages: MessageBoard,
                position: int, notes: dict[str, Any], health: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Snapshot.table: the physical table's parts (or the plain ones), with the dice asked and
    what to do after a roll added, the devices of both, and each viewer's live messages (the
    message board settled on the table as it stands now, `position` counting the game's moves);
    `health`: the journal's messages (storage_health.py), said to every viewer, the TV included."""
    parts = physical.parts(game) if physical is not None and game is not None else plain_parts()
    views = dice.merge(parts, game, board_sensed=physical is not None)
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

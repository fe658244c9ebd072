"""The table session: the one owner of the game being played.

Everything that changes the game — a phone's answer, the bot's decision, a chance outcome from
the tray or the session's chance source (rubicon/table/chance.py), a new game — is an *intent*
put on one queue and carried out by one owner thread, in order; nothing else ever touches the
`Game`. An accepted action is written to the journal (on disk) before it is acknowledged, chance
outcomes included (a resume replays them, never draws them again), and a refused one changes
nothing. Readers (the web app, the TV, tests) never see the `Game`: after every change the owner
publishes an immutable `Snapshot`, and `wait_for_change` lets a reader sleep until the next one.

    session = TableSession(Journal(state_dir / "journal.sqlite3"), chance=RandomChance())
    session.start()                      # rebuilds the current game from the journal, or starts one
    outcome = session.act("Caesar", "Caesar plays 3/2")   # waits for the owner thread's verdict
    snap = session.snapshot()            # the latest Snapshot; snap.for_viewer("Pompeius") is his part
    session.stop()
"""
from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from engine import (
    Action,
    Decision,
    Game,
    IllegalAction,
    RecordError,
    UnknownName,
    action_data,
    actor_name,
    line_of,
    parse_action,
    parse_actor,
)

from ..journal import Journal, StorageError
from ..lifecycle import Lifecycle
from .chance import ChanceSource, RandomChance, SystemChance
from .dice import DICE_EVENTS, DiceDesk, DiceSource, RollDice, TypeDice
from .feedback import Facts, MessageBoard
from .physical import PhysicalTable, plain_parts
from .sensed_board import SensorEventLike, field_of

LOG_SHOWN = 60   # log entries each viewer's snapshot carries (the whole log: Game.history_for)

# After the disk refused a write (full, read-only, permission), the session tries a small write this
# often and clears the message (and draws a chance outcome left due) once one goes through.
STORAGE_RETRY_S = 5.0

# An answer is awaited at most this long by `act` (a guard against a dead owner thread, never a
# way to synchronise: the owner answers as soon as it has carried the intent out).
ANSWER_TIMEOUT_S = 30.0


# --- intents ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Act:
    """`source` ("Caesar", "Pompeius", "chance") asks for one notation line to be applied. A
    phone paired with Caesar may only send Caesar's lines; chance lines come from the tray."""
    source: str
    line: str


@dataclass(frozen=True)
class Undo:
    """`source` takes back his last action (a sensor misread, a wrong tap), as long as nothing
    hidden was revealed and no chance was consumed since (the engine's undo barrier)."""
    source: str


@dataclass(frozen=True)
class NewGame:
    """Abandon nothing (the old game stays in the journal) and start a new current game."""
    options: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class VoteNewGame:
    """`source` ("Caesar"/"Pompeius", from his own phone) asks for a new game (`agree`), accepts
    the other side's offer, or withdraws or declines it (not `agree`: the offer is gone). The new
    game starts once every side in `voters` (the human sides: the Pi's side has no say) agreed;
    the old one stays in the journal. The offer is public: every viewer sees who asked."""
    source: str
    agree: bool
    voters: tuple[str, ...] = ("Caesar", "Pompeius")


@dataclass(frozen=True)
class Refresh:
    """Publish a new snapshot though the game did not change (something shown beside the game
    changed, e.g. a phone was paired), so live views update."""


@dataclass(frozen=True)
class Ping:
    """Answered at once and changes nothing: the service watchdog's proof that the owner thread
    is alive and taking intents (a hung game is then restarted by systemd)."""


@dataclass(frozen=True)
class Sense:
    """A sensor event (a tag set down or lifted, a panel button, a device up or down) for the
    physical table (rubicon/table/physical.py). A panel's Done press is carried out as `Done`."""
    event: SensorEventLike


@dataclass(frozen=True)
class Done:
    """`source` ("Caesar"/"Pompeius": the panel button or the phone) confirms his placements:
    they become notation lines, applied like `Act` (journal first), ending his decision."""
    source: str


@dataclass(frozen=True)
class Answer:
    """`source`'s phone answers the table's open question (`table[side]["ask"]`) with one option;
    in the one-reader build the option is the tapped block's action, applied like Done's lines."""
    source: str
    option: str


@dataclass(frozen=True)
class Confirm:
    """`source` accepts the board as sensed despite the differences shown (a reader that cannot
    see a block); once both players confirmed the same differences, play goes on over them."""
    source: str


# Notes about the table rather than the game: a new game keeps them.
TABLE_NOTES = frozenset({"devices"})


@dataclass(frozen=True)
class Note:
    """Show `value` (JSON-safe, public: every viewer gets it) under `key` in the snapshots, e.g.
    the bot's explained moves ("bot", also the public table part's `bot`); None removes it. A new
    game clears the notes."""
    key: str
    value: Any


@dataclass(frozen=True)
class RetryStorage:
    """The session's own retry after storage trouble (see STORAGE_RETRY_S)."""


@dataclass(frozen=True)
class Stop:
    """Ends the owner thread (queued like any intent, so everything before it is carried out)."""


Intent = (Act | Undo | NewGame | VoteNewGame | Refresh | Ping | Sense | Done | Answer | Confirm | RollDice | TypeDice
          | DiceSource | Note | RetryStorage | Stop)


@dataclass(frozen=True)
class Outcome:
    """The owner thread's verdict on one intent. `accepted`: the lines applied (an accepted
    action, then any chance outcomes the session supplied itself); `refusal`: why not;
    `message`: the id of the live message saying that refusal on the pages it concerns (the
    table's message board), if the session posted one."""
    version: int
    accepted: tuple[str, ...] = ()
    refusal: dict[str, Any] | None = None
    message: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the intent was carried out (no refusal)."""
        return self.refusal is None


# --- snapshots -------------------------------------------------------------------------------
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


class TableSession(Lifecycle):
    """The one owner of the game (see the module docstring); start(), stop(), close() and `with` as
    every thread owner (rubicon.lifecycle)."""

    def __init__(self, journal: Journal, *, chance: RandomChance | None = None,
                 options: dict[str, str] | None = None, physical: PhysicalTable | None = None,
                 dice_source: str = "tray"):
        self.journal = journal
        self.physical = physical      # None: no sensed board (phones only)
        self.chance = chance          # None: chance outcomes come from the table (tray, Jupiter pick)
        # A roll on the phone is drawn from the same source (without one: the system's CSPRNG).
        self.chance_source: ChanceSource = chance.source if chance is not None else SystemChance()
        # The table's live messages (rubicon/table/feedback.py), settled before each snapshot: the
        # physical table's and the dice desk's refusals and notices, each with its clearing condition.
        self.messages = physical.messages if physical is not None else MessageBoard()
        self.dice = DiceDesk(dice_source, self.messages)   # the dice and devices part; owner thread only
        self._plays = 0     # counts the game moving on (commit, undo, new game): ends most messages
        self._default_options = dict(options or {})
        self._queue: queue.Queue[tuple[Intent, Future]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._changed = threading.Condition()
        self._snapshot: Snapshot | None = None
        self._version = 0
        self._game_id: int | None = None
        self._game: Game | None = None     # touched only by the owner thread once started
        self._problem: str | None = None
        self._notes: dict[str, Any] = {}
        self._stopped = False
        self._parts_of: Game | None = None     # the game whose snapshot parts `_parts` holds
        self._parts: dict[str, Any] = {}
        # Called by the owner thread with the side of a Done (panel, virtual table or phone) that the
        # game would refuse; True takes the press as its own: web_ui's pairing consent to a new code.
        self.done_hook: Callable[[str], bool] | None = None
        # Shown to every viewer while it lasts: the disk's refusal of the last write (storage.*),
        # or what the journal's check found and recovered at start (journal.recovered).
        self._storage: dict[str, Any] | None = None
        self._recovered: dict[str, Any] | None = None
        self.storage_retry_s = STORAGE_RETRY_S
        self._retry: threading.Timer | None = None

    # --- life cycle ------------------------------------------------------------------------
    stop_timeout = ANSWER_TIMEOUT_S

    def _on_start(self) -> None:
        """Rebuild the current game from the journal (or start one) and start the owner thread."""
        try:
            self._load_current()
        except StorageError as exc:    # the game is loaded, the chance due after it could not be written
            if self._game is None:
                raise
            self._storage_refused(exc)
        self._thread = threading.Thread(target=self._run, name="table-session", daemon=True)
        self._thread.start()

    def _on_stop(self, timeout: float) -> None:
        """Carry out what is queued, then stop; readers waiting for a change are woken."""
        if self._thread is None:
            return
        self.submit(Stop())
        self._thread.join(timeout)
        self._thread = None
        if self._retry is not None:
            self._retry.cancel()
        with self._changed:
            self._stopped = True
            self._changed.notify_all()

    @property
    def stopped(self) -> bool:
        """Whether the session has stopped: readers waiting for a change should give up."""
        return self._stopped

    # --- the queue -------------------------------------------------------------------------
    def submit(self, intent: Intent) -> Future:
        """Queue an intent; the future resolves to its `Outcome` once the owner carried it out."""
        fut: Future = Future()
        if self._stopped:
            fut.set_result(Outcome(self._version, refusal=IllegalAction(
                "the table is stopping: nothing more is accepted", code="table.stopped").to_json()))
            return fut
        self._queue.put((intent, fut))
        return fut

    def act(self, source: str, line: str, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """Play notation `line` for `source` and wait for the outcome."""
        return self.submit(Act(source, line)).result(timeout)

    def undo(self, source: str, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """Take back `source`'s last action, where the rules allow it, and wait for the outcome."""
        return self.submit(Undo(source)).result(timeout)

    def sense(self, event: SensorEventLike, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """Feed one sensor event and wait for the outcome."""
        return self.submit(Sense(event)).result(timeout)

    def done(self, source: str, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """`source` pressed Done: commit what the board shows, and wait for the outcome."""
        return self.submit(Done(source)).result(timeout)

    def answer(self, source: str, option: str, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """`source` chose `option` in a question the table asked him, and wait for the outcome."""
        return self.submit(Answer(source, option)).result(timeout)

    def confirm(self, source: str, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """`source` says the board is right as sensed, and wait for the outcome."""
        return self.submit(Confirm(source)).result(timeout)

    def new_game(self, options: dict[str, str] | None = None, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """Start a new game with `options` (the old one stays in the journal) and wait for the outcome."""
        return self.submit(NewGame(dict(options or {}))).result(timeout)

    def note(self, key: str, value: Any, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """Set the table note `key` (shown on the pages) to `value`, and wait for the outcome."""
        return self.submit(Note(key, value)).result(timeout)

    def vote_new_game(self, source: str, agree: bool, voters: tuple[str, ...] = ("Caesar", "Pompeius"),
                      timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """`source` offers, accepts or declines a new game (`agree`); it starts once every one of `voters` agreed."""
        return self.submit(VoteNewGame(source, agree, tuple(voters))).result(timeout)

    # --- readers ---------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        """The newest snapshot (immutable, shared); RuntimeError before start()."""
        with self._changed:
            if self._snapshot is None:
                raise RuntimeError("the table session has not started")
            return self._snapshot

    def wait_for_change(self, version: int, timeout: float) -> Snapshot:
        """The first snapshot newer than `version`, or the current one after `timeout` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._stopped or (self._snapshot is not None
                                                             and self._snapshot.version > version), timeout)
            assert self._snapshot is not None
            return self._snapshot

    # --- the owner thread ------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            intent, fut = self._queue.get()
            if isinstance(intent, Stop):
                fut.set_result(Outcome(self._version))
                return
            try:
                outcome = self._carry_out(intent)
            except StorageError as exc:    # nothing was written, and the game did not change
                outcome = self._storage_refused(exc)
            except Exception as exc:   # an intent must never kill the owner thread
                fut.set_exception(exc)
                continue
            fut.set_result(outcome)

    def _carry_out(self, intent: Intent) -> Outcome:
        """One intent, by its type (`HANDLERS`: the one dispatch of the owner thread)."""
        return HANDLERS[type(intent)](self, intent)

    def _ping(self, intent: Ping) -> Outcome:
        return Outcome(self._version)

    def _refresh(self, intent: Refresh) -> Outcome:
        self._publish()
        return Outcome(self._version)

    def _note(self, intent: Note) -> Outcome:
        if intent.value is None:
            self._notes.pop(intent.key, None)
        else:
            self._notes[intent.key] = intent.value
        self._publish()
        return Outcome(self._version)

    def _new_game_intent(self, intent: NewGame) -> Outcome:
        self._new_game(intent.options or self._default_options)
        return Outcome(self._version)

    def _retry_intent(self, intent: RetryStorage) -> Outcome:
        return self._retry_storage()

    def _sense(self, intent: Sense) -> Outcome:
        """A sensor event: a panel's Done press is a Done; the tray's events go to the dice desk;
        the rest to the physical table."""
        event = intent.event
        if event.kind == "panel_pressed" and field_of(event, "button") == "done":
            return self._table(Done(str(field_of(event, "side", ""))))
        if event.kind in DICE_EVENTS and (event.kind != "diagnostic" or field_of(event, "code") == "dice_mismatch"):
            return self._sense_dice(event)
        return self._table(intent)

    def _undo(self, intent: Undo) -> Outcome:
        game = self._game
        if game is None:
            return self._refused(self._no_game())
        trial = game.copy()
        try:
            trial.undo(intent.source)
        except IllegalAction as exc:
            return self._refused(exc)
        except (UnknownName, ValueError):
            return self._refused(_unknown_source(intent.source))
        assert self._game_id is not None
        self.journal.truncate(self._game_id, len(trial.history))   # on disk before it is acknowledged
        self._game = trial
        self._plays += 1
        self.dice.forget()
        self._publish()
        return Outcome(self._version)

    def _act(self, intent: Act) -> Outcome:
        game = self._game
        if game is None:
            return self._refused(self._no_game())
        try:
            source = parse_actor(intent.source)
        except UnknownName:
            return self._refused(_unknown_source(intent.source))
        try:
            action = parse_action(intent.line)
            if action.actor != source:
                raise IllegalAction(
                    f"{actor_name(source)} cannot send {actor_name(action.actor)}'s action ({intent.line})",
                    code="table.not-your-action", params={"source": actor_name(source),
                                                          "actor": actor_name(action.actor)})
            applied = self._play([action])
        except IllegalAction as exc:
            return self._refused(exc)
        self._publish()
        return Outcome(self._version, applied)

    def _table(self, intent: Sense | Done | Answer | Confirm) -> Outcome:
        """An intent of the physical table (rubicon/table/physical.py): a refusal is also that
        side's message and a buzz; Done's lines are applied like Act's, journal first."""
        table = self.physical
        if isinstance(intent, Sense):
            if table is not None:
                table.sense(intent.event, self._game)
            self._publish()
            return Outcome(self._version)
        if table is None:
            if isinstance(intent, Done) and self._done_taken(intent.source):
                return Outcome(self._version)
            return self._refused(IllegalAction("no physical table is attached to this session",
                                               code="table.no-table"))
        game = self._game
        if game is None:
            return self._refused(self._no_game())
        if intent.source not in ("Caesar", "Pompeius"):
            return self._refused(_unknown_source(intent.source))
        try:
            if isinstance(intent, Answer):
                lines: list[str] = table.answer(intent.source, intent.option, game)
            elif isinstance(intent, Confirm):
                table.confirm(intent.source, game)
                lines = []
            else:
                lines = table.done(intent.source, game)
            applied = self._play(lines) if lines else ()     # every line on disk, in one transaction, first
        except IllegalAction as exc:
            if isinstance(intent, Done) and self._done_taken(intent.source):
                return Outcome(self._version)
            said = table.refused(intent.source, exc)
            self._publish()
            return self._refused(exc, said)
        self.messages.taken(intent.source)    # his request was taken: its earlier refusal is over
        if applied:
            table.accepted(intent.source)
        self._publish()
        return Outcome(self._version, applied)

    def _done_taken(self, source: str) -> bool:
        """Whether `done_hook` takes a Done the game has no use for (it would be refused) as its own;
        a Done the game takes (placements, the end of a command) is never taken from it."""
        if self.done_hook is None or not self.done_hook(source):
            return False
        self._publish()
        return True

    def _commit(self, game: Game, lines: list[str], tray_roll: str | None = None) -> None:
        """Journal first (on disk, the lines in ONE transaction: one fsync per action), then the
        new game becomes the game: an acknowledged action is never lost, and a failed write
        leaves the old game in place. `lines` are the last lines of `game`'s history; `tray_roll`
        the tray's name of the roll the first one is (kept with it: see `_sense_dice`)."""
        assert self._game_id is not None
        self.journal.append_many(self._game_id, lines, tray_roll)
        self._game = game
        self._plays += 1
        self._storage = self._recovered = None     # the disk took it: what was said is over
        first = len(game.history) - len(lines)
        for n, line in enumerate(lines):
            self.dice.applied(game, line, first + n)

    def _play(self, actions: list, tray_roll: str | None = None) -> tuple[str, ...]:
        """The one commit path: `actions` (lines or actions) applied to a copy of the game, then the
        chance outcomes the session owns that follow them, all journalled in one transaction
        before the copy becomes the game (`_commit`). IllegalAction (or StorageError) changes
        nothing. The lines applied, in order."""
        game = self._game
        if game is None:
            raise self._no_game()
        trial = game.copy()
        for action in actions:
            trial.apply(action)
        applied = list(trial.history[len(game.history):])
        self._draw_chance(trial, applied)
        if applied:
            self._commit(trial, applied, tray_roll)
        return tuple(applied)

    def _draw_chance(self, trial: Game, applied: list[str]) -> None:
        """Apply to `trial` the chance outcomes the session owns (self-play / no tray) until a
        player acts, adding their lines to `applied` (committed with the action before them)."""
        if self.chance is None:
            return
        while trial.is_chance_node() and self.chance.supplies(trial):
            trial.apply(self.chance.outcome(trial))
            applied.append(trial.history[-1])

    def _run_chance(self) -> None:
        """The chance outcomes due now in the game itself (a new game's deal; a journal that
        ends before the chance after its last action: killed between them)."""
        if self._game is not None and self.chance is not None:
            self._play([])

    # --- the dice and the devices (rubicon/table/dice.py) ------------------------------------
    def _sense_dice(self, event: SensorEventLike) -> Outcome:
        """A tray event becomes the chance line (or a refusal); a device coming or going is kept
        (and told to the physical table, which lists it too)."""
        if event.kind in ("device_up", "device_down") and self.physical is not None:
            self.physical.sense(event, self._game)
        tray_roll = (str(field_of(event, "roll", "")) or None) if event.kind == "dice_rolled" else None
        if tray_roll is not None and self.journal.roll_taken(tray_roll):
            # The tray repeats a roll it was not yet told was taken (the table stopped between the
            # commit and the tray's ACK): already a line, so only the ACK is due, never a second roll.
            return Outcome(self._version)
        shown = event.kind != "dice_state" or field_of(event, "state") == "crooked"
        return self._dice_line(lambda: self.dice.roll_from_event(self._game, event), publish=shown,
                               tray_roll=tray_roll)

    def _dice(self, intent: RollDice | TypeDice | DiceSource) -> Outcome:
        try:
            side = actor_name(parse_actor(intent.source, allow_chance=False))
        except (UnknownName, ValueError):
            return self._refused(_unknown_source(intent.source))
        if isinstance(intent, DiceSource):
            return self._dice_line(lambda: self.dice.set_source(side, intent.value), publish=True)
        if isinstance(intent, TypeDice):
            return self._dice_line(lambda: self.dice.typed(self._game, side, intent.faces), publish=True)
        return self._dice_line(lambda: self.dice.roll_on_phone(self._game, side, self._dice_rng()), publish=True)

    def _dice_line(self, make_line, publish: bool, tray_roll: str | None = None) -> Outcome:
        """Apply and journal the chance line `make_line()` gives (None: nothing to apply); a
        refusal is kept as a message for every viewer and changes nothing in the game. The
        outcome (and so the phone's answer, the tray's ACK) comes after the commit."""
        try:
            line = make_line()
            applied = () if line is None else self._play([line], tray_roll)
        except IllegalAction as exc:
            said = self.dice.refused(exc)
            self._publish()
            return self._refused(exc, said)
        if applied or publish:
            self._publish()
        return Outcome(self._version, applied)

    def _dice_rng(self) -> random.Random:
        """The RNG of a roll on the phone, drawn now (a seeded source: by the position, so a test
        asking again draws the same)."""
        return self.chance_source.rng("dice", None if self._game is None else len(self._game.history))

    def _table_views(self, game: Game | None) -> dict[str, dict[str, Any]]:
        """Snapshot.table: the physical table's parts (or the plain ones), with the dice asked and
        what to do after a roll added, the devices of both, and each viewer's live messages (the
        message board settled on the table as it stands now)."""
        parts = self.physical.parts(game) if self.physical is not None and game is not None else plain_parts()
        shown = self.physical.shown_by_itself if self.physical is not None else frozenset()
        views = self.dice.merge(parts, game, board_sensed=self.physical is not None, shown_by_board=shown)
        facts = self.physical.facts if self.physical is not None and game is not None else Facts()
        self.messages.settle(replace(facts, position=self._plays, tray_up=self.dice.tray_up))
        # Devices not working, what to check (devices.py: said until the device is up again).
        devices = [_lasting(m, "devices", "device-up") for m in self._notes.get("devices") or ()]
        views = {viewer: {**part, "messages": devices + self.messages.live(viewer)} for viewer, part in views.items()}
        if "bot" in self._notes:   # the bot's explained moves (public: rubicon/table/bot_explain.py)
            views = {**views, "public": {**views.get("public", {}), "bot": self._notes["bot"]}}
        health = ((self._recovered, "play"), (self._storage, "write-taken"))
        said = [_lasting(m, "journal", clears) for m, clears in health if m is not None]
        if said:     # the journal's health: every viewer, the TV included
            views = {viewer: {**part, "messages": list(part.get("messages") or []) + said}
                     for viewer, part in views.items()}
        return views

    # --- storage trouble ------------------------------------------------------------------------
    def _storage_refused(self, exc: StorageError) -> Outcome:
        """The disk refused the write: the intent is refused with the storage code (said to every
        viewer until a write goes through), and a retry is scheduled. The game is as it was: every
        commit changes the game only after the journal took it (see `_commit`)."""
        refusal = IllegalAction(str(exc), code=exc.code, params=exc.params).to_json()
        self._storage = {k: refusal[k] for k in ("code", "rule", "params", "text")}
        self._publish()      # a new game's first write may have gone through before the deal's failed
        if self._retry is None:
            self._retry = threading.Timer(self.storage_retry_s, self.submit, args=(RetryStorage(),))
            self._retry.daemon = True
            self._retry.start()
        return Outcome(self._version, refusal=refusal)

    def _retry_storage(self) -> Outcome:
        self._retry = None
        if self._storage is None:
            return Outcome(self._version)
        problem = self.journal.writable()
        if problem is not None:
            return self._storage_refused(problem)
        self._run_chance()         # a chance outcome the refused write left due (a new game's deal)
        self._storage = None
        self._publish()
        return Outcome(self._version)

    def _no_game(self) -> IllegalAction:
        return IllegalAction(f"no game can be played: {self._problem}", code="table.no-game",
                             params={"problem": self._problem or ""})

    def _refused(self, exc: IllegalAction, message: str | None = None) -> Outcome:
        return Outcome(self._version, refusal=exc.to_json(), message=message)

    # --- games -----------------------------------------------------------------------------
    def _load_current(self) -> None:
        game_id = self.journal.current_game()
        if game_id is None:
            self._start_game(self._default_options)
            self._run_chance()
        else:
            self._game_id = game_id
            options, lines = self.journal.lines(game_id)
            try:
                self._game = _replay(options, lines, f"journal game {game_id}")
                self._problem = None
                self._run_chance()   # killed between an action and the chance after it: draw it now
            except RecordError as exc:
                self._game = None
                self._problem = (f"{exc}: the journal cannot be replayed; start a new game (the old one "
                                 f"stays in the journal)")
        found = getattr(self.journal, "inspection", None)
        if found is not None and found.aside is not None:   # said until play goes on (a commit)
            self._recovered = {"code": "journal.recovered", "rule": None,
                               "params": {"aside": found.aside.name, "lines": found.current_lines},
                               "text": "the journal was damaged: " + "; ".join(found.describe())}
        self._publish()

    def _new_game(self, options: dict[str, str]) -> None:
        finished = self._game_id if self._game is not None and self._game.result() is not None else None
        self.dice.forget()
        self._start_game(options)
        if finished is not None:    # its record stays downloadable (/record/<game>.txt)
            self._notes["previous_game"] = {"game_id": finished}
        self._run_chance()
        self._publish()

    def _vote_new_game(self, intent: VoteNewGame) -> Outcome:
        try:
            side = actor_name(parse_actor(intent.source, allow_chance=False))
        except UnknownName:
            return self._refused(_unknown_source(intent.source))
        voters = {actor_name(parse_actor(v, allow_chance=False)) for v in intent.voters}
        if side not in voters:
            return self._refused(IllegalAction(f"{side} is played by the Pi here: a new game is for the players "
                                               f"to agree on", code="table.new-game-not-yours",
                                               params={"side": side}))
        offer = self._notes.get("new_game")
        if not intent.agree:
            if offer is None:
                return self._refused(IllegalAction("no new game is offered", code="table.no-new-game-offer"))
            self._notes.pop("new_game")
            self._publish()
            return Outcome(self._version)
        agreed = sorted(set(offer["agreed"] if offer else ()) | {side})
        if voters <= set(agreed):
            self._new_game(self._default_options)
        else:
            self._notes["new_game"] = {"agreed": agreed, "waiting": sorted(voters - set(agreed))}
            self._publish()
        return Outcome(self._version)

    def _start_game(self, options: dict[str, str]) -> None:
        game = Game(options)   # refuses unknown options before anything is written
        self._game_id = self.journal.new_game(dict(game.state.options))
        self._game = game
        self._plays += 1
        self.messages.forget()
        self._problem = None
        self._notes = {k: v for k, v in self._notes.items() if k in TABLE_NOTES}   # the table's, not the game's

    def _publish(self) -> None:
        game = self._game
        self._version += 1
        if game is None:
            snap = Snapshot(self._version, self._game_id, (), {}, {"Caesar": {}, "Pompeius": {}},
                            {"Caesar": (), "Pompeius": ()}, {"public": (), "Caesar": (), "Pompeius": ()},
                            {"public": (), "Caesar": (), "Pompeius": ()}, {"Caesar": False, "Pompeius": False},
                            0, None, self._problem, self._table_views(None), dict(self._notes))
        else:
            if self._parts_of is not game:
                # The game's parts are rebuilt only when the game changed (a new Game object each
                # commit or undo); a sensor event or a table intent re-uses them (only the table part
                # is new): immutable, so sharing them between snapshots is safe.
                self._parts = dict(
                    waiting_for=tuple(game.current_players()),
                    public=game.view(None), private={s: game.view(s) for s in ("Caesar", "Pompeius")},
                    legal={s: tuple(str(a) for a in game.legal_actions(s, take_back=True))   # the undo button too
                           for s in ("Caesar", "Pompeius")},
                    pending=_pending_views(game), log=_log_views(game),
                    can_undo={s: game.can_undo(s) for s in ("Caesar", "Pompeius")},
                    lines=len(game.history), result=game.result())
                self._parts_of = game
            snap = Snapshot(version=self._version, game_id=self._game_id, problem=None,
                            table=self._table_views(game), notes=dict(self._notes), **self._parts)
        with self._changed:
            self._snapshot = snap
            self._changed.notify_all()
        if self.physical is not None:
            self.physical.announce_turn(game)


# The owner thread's dispatch: each intent type to the method that carries it out (Stop is the
# loop's own). A new intent is a dataclass above, its method, and its line here.
HANDLERS: dict[type, Callable[[TableSession, Any], Outcome]] = {
    Ping: TableSession._ping, Refresh: TableSession._refresh, Note: TableSession._note,
    NewGame: TableSession._new_game_intent, VoteNewGame: TableSession._vote_new_game, Undo: TableSession._undo,
    RetryStorage: TableSession._retry_intent, Sense: TableSession._sense, Done: TableSession._table,
    Answer: TableSession._table, Confirm: TableSession._table, Act: TableSession._act,
    RollDice: TableSession._dice, TypeDice: TableSession._dice, DiceSource: TableSession._dice,
}


def _lasting(message: dict[str, Any], cause: str, clears: str) -> dict[str, Any]:
    """A message said beside the board's (a device down, the journal's health) in the board's shape:
    its id (by code: one such message per code at a time), cause and what ends it."""
    return {**message, "id": message.get("id") or f"m-{message.get('code')}", "cause": cause, "clears": clears}


def _unknown_source(source: object) -> IllegalAction:
    return IllegalAction(f"unknown source {source!r}", code="table.unknown-source", params={"source": str(source)})


def _replay(options: dict[str, str], lines: list[str], name: str) -> Game:
    """The game a journal's lines spell; RecordError (NAME:LINE: reason) at the first bad one."""
    game = Game(options)
    for n, line in enumerate(lines, start=1):
        try:
            game.apply(line)
        except IllegalAction as exc:
            raise RecordError(name, n, str(exc)) from None
    return game


def _pending_views(game: Game) -> dict[str, tuple[dict[str, Any], ...]]:
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


def _log_views(game: Game) -> dict[str, tuple[dict[str, Any], ...]]:
    """The end of the game's log as the public and each side saw it (nothing hidden from them)."""
    since = max(0, len(game.history) - LOG_SHOWN)
    return {name: tuple(game.history_for(viewer, since=since))
            for name, viewer in (("public", None), ("Caesar", "Caesar"), ("Pompeius", "Pompeius"))}

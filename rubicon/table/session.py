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
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from lifecycle import Lifecycle

from ..errors import TableRefusal
from ..journal import Journal, StorageError
from .chance import ChanceSource, RandomChance, SystemChance
from .dice import DiceDesk, DiceSource, RollDice, TypeDice
from .dice_intents import dice_intent
from .faults import dismiss_fault
from .feedback import MessageBoard
from .game_intents import act, new_game, note, ping, refresh, retry, undo, vote_new_game
from .intents import (
    ANSWER_TIMEOUT_S,
    TABLE_NOTES,
    Act,
    Answer,
    Confirm,
    DismissFault,
    Done,
    Intent,
    NewGame,
    Note,
    Outcome,
    Ping,
    Refresh,
    RetryStorage,
    Sense,
    Stop,
    Undo,
    VoteNewGame,
)
from .owner import GameOwner
from .physical import PhysicalTable
from .provisional import Provisional
from .sensed_board import SensorEventLike
from .snapshots import LOG_SHOWN, Snapshot
from .storage_health import STORAGE_RETRY_S, JournalHealth
from .table_intents import sense, table_intent

__all__ = ["ANSWER_TIMEOUT_S", "HANDLERS", "LOG_SHOWN", "STORAGE_RETRY_S", "TABLE_NOTES", "Act", "Answer", "Confirm",
           "DiceSource", "Done", "Intent", "NewGame", "Note", "Outcome", "Ping", "RandomChance", "Refresh",
           "RetryStorage", "RollDice", "Sense", "Snapshot", "Stop", "TableSession", "TypeDice", "Undo", "VoteNewGame"]


class TableSession(Lifecycle):
    """The one owner of the game (see the module docstring): the queue, the owner thread that
    empties it (dispatching by intent type: `HANDLERS`), and the readers' snapshots. The game and
    its commit path are the owner thread's `GameOwner` (owner.py). start(), stop(), close() and
    `with` as every thread owner (the lifecycle package)."""

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
        self._queue: queue.Queue[tuple[Intent, Future]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._changed = threading.Condition()
        self._snapshot: Snapshot | None = None
        self._stopped = False
        self._owner = GameOwner(journal, chance=chance, chance_source=self.chance_source, physical=physical,
                                messages=self.messages, dice=self.dice, options=dict(options or {}),
                                health=JournalHealth(lambda: self.submit(RetryStorage())),
                                publish_to=self._published)

    @property
    def storage_retry_s(self) -> float:
        """How often the session tries a write again after the disk refused one."""
        return self._owner.health.retry_s

    @storage_retry_s.setter
    def storage_retry_s(self, seconds: float) -> None:
        """Set how often (seconds) a refused write is tried again."""
        self._owner.health.retry_s = seconds

    @property
    def provisional(self) -> Provisional:
        """What the table keeps between two actions for the next start (rubicon/table/provisional.py)."""
        return self._owner.provisional

    @property
    def began_game(self) -> bool:
        """Whether the start began the first game (the journal had none): a `--new-game` need not begin another."""
        return self._owner.began_game

    # --- life cycle ------------------------------------------------------------------------
    stop_timeout = ANSWER_TIMEOUT_S

    def _on_start(self) -> None:
        """Rebuild the current game from the journal (or start one) and start the owner thread."""
        try:
            self._owner.load_current()
        except StorageError as exc:    # the game is loaded, the chance due after it could not be written
            if self._owner.game is None:
                raise
            self._owner.storage_refused(exc)
        self._thread = threading.Thread(target=self._run, name="table-session", daemon=True)
        self._thread.start()

    def _on_stop(self, timeout: float) -> None:
        """Carry out what is queued, then stop; readers waiting for a change are woken."""
        if self._thread is None:
            return
        self.submit(Stop())
        self._thread.join(timeout)
        self._thread = None
        self._owner.health.cancel()
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
            fut.set_result(Outcome(self._owner.version, refusal=TableRefusal(
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

    def dismiss_fault(self, source: str, number: int, timeout: float = ANSWER_TIMEOUT_S) -> Outcome:
        """`source` has read the journal's fault report `number` (rubicon/table/faults.py)."""
        return self.submit(DismissFault(source, number)).result(timeout)

    def vote_new_game(self, source: str, agree: bool, voters: tuple[str, ...] = ("Caesar", "Pompeius"),
                      timeout: float = ANSWER_TIMEOUT_S, game: int | None = None) -> Outcome:
        """`source` offers, accepts or declines a new game (`agree`), or taking up the unfinished `game`
        again; it starts once every one of `voters` agreed."""
        return self.submit(VoteNewGame(source, agree, tuple(voters), game)).result(timeout)

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

    def _published(self, snap: Snapshot) -> None:
        with self._changed:
            self._snapshot = snap
            self._changed.notify_all()

    # --- the owner thread ------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            intent, fut = self._queue.get()
            if isinstance(intent, Stop):
                fut.set_result(Outcome(self._owner.version))
                return
            try:
                outcome = self._carry_out(intent)
            except StorageError as exc:    # nothing was written, and the game did not change
                outcome = self._owner.storage_refused(exc)
            except Exception as exc:   # an intent must never kill the owner thread
                fut.set_exception(exc)
                continue
            fut.set_result(outcome)

    def _carry_out(self, intent: Intent) -> Outcome:
        """One intent, by its type (`HANDLERS`: the one dispatch of the owner thread)."""
        return HANDLERS[type(intent)](self._owner, intent)


# The owner thread's dispatch: each intent type to what carries it out (Stop is the loop's own).
# A new intent is a dataclass in intents.py, its handler, and its line here.
HANDLERS: dict[type, Callable[[GameOwner, Any], Outcome]] = {
    Ping: ping, Refresh: refresh, Note: note, NewGame: new_game, VoteNewGame: vote_new_game, Undo: undo,
    RetryStorage: retry, Sense: sense, Done: table_intent, Answer: table_intent, Confirm: table_intent, Act: act,
    RollDice: dice_intent, TypeDice: dice_intent, DiceSource: dice_intent, DismissFault: dismiss_fault,
}

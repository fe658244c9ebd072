"""The owner thread's side of the table session: the one `Game`, its one commit path to the
journal, and the snapshots published after each change. Only the session's owner thread calls
it (rubicon/table/session.py dispatches each intent here or to the modules that carry out their
own kind: dice_intents.py, table_intents.py); nothing else touches the game.

Every journal write goes through `commit`: the write first (on disk, one transaction), then the
new game becomes the game; a write refused (StorageError) or an action refused (IllegalAction)
leaves the game as it was.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import Game, IllegalAction, RecordError, replay_lines

from ..errors import TableRefusal
from ..journal import Journal, StorageError
from .chance import ChanceSource, RandomChance
from .dice import DiceDesk
from .feedback import MessageBoard
from .intents import TABLE_NOTES, Outcome
from .physical import PhysicalTable
from .provisional import OFFER_KEY, Provisional
from .snapshots import GameParts, Snapshot, game_snapshot, no_game_snapshot, table_views
from .storage_health import JournalHealth


class GameOwner:
    """The game and everything the owner thread changes with it (see the module docstring)."""

    def __init__(self, journal: Journal, *, chance: RandomChance | None, chance_source: ChanceSource,
                 physical: PhysicalTable | None, messages: MessageBoard, dice: DiceDesk,
                 options: dict[str, str], health: JournalHealth, publish_to: Callable[[Snapshot], None]):
        self.journal = journal
        self.chance = chance
        self.chance_source = chance_source
        self.physical = physical
        self.messages = messages
        self.dice = dice
        self.health = health
        self.default_options = dict(options)
        self.version = 0
        self.game: Game | None = None
        self.game_id: int | None = None
        self.problem: str | None = None
        self.notes: dict[str, Any] = {}
        # Counts the game moving on (commit, undo, new game): ends most messages.
        self.plays = 0
        self._publish_to = publish_to
        self._parts = GameParts()
        self.provisional = Provisional(journal)    # an open new-game offer (and the virtual board) across a restart
        self.began_game = False      # load_current began the first game: `--new-game` need not begin another

    # --- the one commit path ------------------------------------------------------------------
    def commit(self, game: Game, write: Callable[[], object]) -> None:
        """`write` the change to the journal (on disk, one transaction), then `game` becomes the
        game: an acknowledged action is never lost, and a failed write leaves the old game."""
        write()
        self.game = game
        self.plays += 1
        self.health.written()

    def play(self, actions: list, tray_roll: str | None = None) -> tuple[str, ...]:
        """`actions` (lines or actions) applied to a copy of the game, then the chance outcomes the
        session owns that follow them, all journalled in one transaction (`tray_roll`: the tray's
        name of the roll the first line is) before the copy becomes the game. IllegalAction (or
        StorageError) changes nothing. The lines applied, in order."""
        game = self.game
        if game is None:
            raise self.no_game()
        trial = game.copy()
        for action in actions:
            trial.apply(action)
        applied = list(trial.history[len(game.history):])
        self._draw_chance(trial, applied)
        if applied:
            game_id = self.game_id
            assert game_id is not None
            self.commit(trial, lambda: self.journal.append_many(game_id, applied, tray_roll))
            first = len(trial.history) - len(applied)
            for n, line in enumerate(applied):
                self.dice.applied(trial, line, first + n)
        return tuple(applied)

    def undo(self, source: str) -> None:
        """Take back `source`'s last action: the journal cut first (IllegalAction: not allowed)."""
        game = self.game
        if game is None:
            raise self.no_game()
        trial = game.copy()
        trial.undo(source)
        game_id = self.game_id
        assert game_id is not None
        self.commit(trial, lambda: self.journal.truncate(game_id, len(trial.history)))
        self.dice.forget()

    def _draw_chance(self, trial: Game, applied: list[str]) -> None:
        """Apply to `trial` the chance outcomes the session owns (self-play / no tray) until a
        player acts, adding their lines to `applied` (committed with the action before them)."""
        if self.chance is None:
            return
        while trial.is_chance_node() and self.chance.supplies(trial):
            trial.apply(self.chance.outcome(trial))
            applied.append(trial.history[-1])

    def run_chance(self) -> None:
        """The chance outcomes due now in the game itself (a new game's deal; a journal that
        ends before the chance after its last action: killed between them)."""
        if self.game is not None and self.chance is not None:
            self.play([])

    # --- games ----------------------------------------------------------------------------------
    def load_current(self) -> None:
        """The current game rebuilt from the journal (or a new one started), then published."""
        game_id = self.journal.current_game()
        self.began_game = game_id is None
        if game_id is None:
            self.start_game(self.default_options)
            self.run_chance()
        else:
            self.game_id = game_id
            options, lines = self.journal.lines(game_id)
            try:
                self.game = replay_lines(options, lines, f"journal game {game_id}")
                self.problem = None
                self.run_chance()   # killed between an action and the chance after it: draw it now
            except RecordError as exc:
                self.game = None
                self.problem = (f"{exc}: the journal cannot be replayed; start a new game (the old one "
                                f"stays in the journal)")
        self.health.recovered_from(self.journal)    # said until a player dismisses it
        offer = self.provisional.get(OFFER_KEY)
        if isinstance(offer, dict) and offer.get("game") == self.game_id:    # offered before the restart
            self.notes["new_game"] = {"agreed": offer.get("agreed", []), "waiting": offer.get("waiting", [])}
        self.publish()

    def new_game(self, options: dict[str, str] | None = None) -> None:
        """Start a new current game (the old one stays in the journal), deal, publish."""
        finished = self.game_id if self.game is not None and self.game.result() is not None else None
        self.dice.forget()
        self.start_game(options or self.default_options)
        if finished is not None:    # its record stays downloadable (/record/<game>.txt)
            self.notes["previous_game"] = {"game_id": finished}
        self.run_chance()
        self.publish()

    def resume(self, game_id: int) -> None:
        """Take up the unfinished `game_id` of the journal again (the one played until now stays in the
        journal, whole): it becomes the current game where it stood, then published. RecordError if
        its lines cannot be replayed (nothing changed)."""
        options, lines = self.journal.lines(game_id)
        game = replay_lines(options, lines, f"journal game {game_id}")

        def write() -> None:
            self.journal.set_current(game_id)
            self.game_id = game_id
        self.dice.forget()
        self.commit(game, write)
        self.messages.forget()
        self.problem = None
        self.notes = {k: v for k, v in self.notes.items() if k in TABLE_NOTES}
        self.run_chance()
        self.publish()

    def start_game(self, options: dict[str, str]) -> None:
        """A new game in the journal (Game refuses unknown options before anything is written)."""
        game = Game(options)

        def write() -> None:
            self.game_id = self.journal.new_game(dict(game.state.options))
        self.commit(game, write)
        self.messages.forget()
        self.problem = None
        self.notes = {k: v for k, v in self.notes.items() if k in TABLE_NOTES}   # the table's, not the game's

    # --- answers ----------------------------------------------------------------------------------
    def no_game(self) -> TableRefusal:
        """The refusal of anything while no game can be played."""
        return TableRefusal(f"no game can be played: {self.problem}", code="table.no-game",
                            params={"problem": self.problem or ""})

    def refused(self, exc: IllegalAction, message: str | None = None) -> Outcome:
        """The outcome refusing an intent for `exc` (`message`: the live message saying it)."""
        return Outcome(self.version, refusal=exc.to_json(), message=message)

    def storage_refused(self, exc: StorageError) -> Outcome:
        """The disk refused the write: the intent is refused with the storage code (said to every
        viewer until a write goes through: JournalHealth retries). The game is as it was."""
        refusal = self.health.refused(exc)
        self.publish()      # a new game's first write may have gone through before the deal's failed
        return Outcome(self.version, refusal=refusal)

    def retry_storage(self) -> Outcome:
        """The retry after a refused write: a small write, then what it left due is done."""
        if not self.health.retry_due():
            return Outcome(self.version)
        problem = self.journal.writable()
        if problem is not None:
            return self.storage_refused(problem)
        self.run_chance()         # a chance outcome the refused write left due (a new game's deal)
        self.health.written()
        self.publish()
        return Outcome(self.version)

    # --- snapshots -------------------------------------------------------------------------------
    def publish(self) -> None:
        """A new snapshot for the readers, then the physical table told whose turn it is."""
        game = self.game
        self.version += 1
        offer = self.notes.get("new_game")     # kept for the next start while it is open
        self.provisional.put(OFFER_KEY, {"game": self.game_id, **offer} if offer else None)
        table = table_views(game, physical=self.physical, dice=self.dice, messages=self.messages,
                            position=self.plays, notes=self.notes, health=self.health.messages())
        if game is None:
            snap = no_game_snapshot(self.version, self.game_id, self.problem, table, dict(self.notes))
        else:
            snap = game_snapshot(game, version=self.version, game_id=self.game_id, table=table,
                                 notes=dict(self.notes), parts=self._parts)
        self._publish_to(snap)
        if self.physical is not None:
            self.physical.announce_turn(game)


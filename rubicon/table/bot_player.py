"""A bot playing one side of a `TableSession`.

`BotPlayer(session, "Pompeius", level="medium").start()` runs one thread that sleeps on
`session.wait_for_change`; when its side has a decision it decides from ITS side's part of the
snapshot only (`snapshot.side(side)`: that side's view and legal actions, built into an
`InfoState` by `rubicon.bot.info.from_view`) and submits its line with `session.act(side, line)`,
like a phone would. It never holds the `Game`. Its own RNG is seeded by `seed` (tests, matches)
or, by default, from the session's chance source: the system's CSPRNG at a real table, so no
record or state file tells what it will choose. A refused decision is logged and decided once
more from a fresh snapshot; a second refusal is logged and the bot waits for the next change
(a human can then act or undo; the bot never loops on a refusal).

After each bot turn (its decisions until the game waits for someone else) it publishes an
explanation built from the public log and public view only (`bot_explain.explain_turn`) as the
session's public note "bot", so the TV and both phones can show what it did.

At the board (real or virtual) the bot's blocks are handled blind: `rubicon run` marks its side
as automated on the physical table (`PhysicalTable.automated`), so the bot's lines change the
game and the board follows by instructions that name no block ("put a Caesar block back in Roma
(from Genua)"); the readers tell which block the player lifted, and a wrong one is sent back.
"""
from __future__ import annotations

import logging
import threading
from typing import Any

from engine import SIDES, Action, TakeBack, actor_name, parse_actor
from lifecycle import Lifecycle

from ..bot import DEFAULT_LEVEL, Bot
from ..bot.info import from_view
from .bot_explain import explain_turn
from .chance import unpredictable_seed
from .session import TableSession
from .snapshots import SidePart

log = logging.getLogger("rubicon.bot")

THINKING = "thinking"   # the session's public note while a search runs: {side, phase, done, total}
POLL_S = 0.5   # how often a sleeping bot checks whether it was asked to stop (a guard, not a sync)


class BotPlayer(Lifecycle):
    """One side of `session` played by a `Bot` at `level` (see the module docstring); start(), stop(),
    close() and `with` as every thread owner (the lifecycle package)."""

    def __init__(self, session: TableSession, side: str, level: str = DEFAULT_LEVEL, seed: int | str | None = None,
                 *, iterations: int | None = None):
        self.session = session
        self.side_name = actor_name(parse_actor(side, allow_chance=False))
        self.side = SIDES.index(self.side_name)
        if seed is None:    # a real table: drawn from the session's chance source (the CSPRNG), never a record
            seed = unpredictable_seed(session.chance_source)
        self.bot = Bot(self.side, level, seed=seed, iterations=iterations)
        self.played: list[str] = []          # the lines it had accepted, in order
        self.refusals: list[dict[str, Any]] = []
        self.explained: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- life cycle ------------------------------------------------------------------------
    stop_timeout = 30.0     # stop() waits for the decision under way

    def _on_start(self) -> None:
        self._start_thread(self._run, f"bot-{self.side_name}")

    def _on_stop(self, timeout: float) -> None:
        """Stop after the decision under way (if any); returns once the thread has ended."""
        self._end_thread(timeout)

    @property
    def running(self) -> bool:
        """Whether its thread is deciding: started, and neither stopped nor ended by an error."""
        return self._thread is not None and self._thread.is_alive()

    # --- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        version = 0
        turn_start: int | None = None   # log index of the first action of the bot's turn under way
        stuck_at = -1                   # a version on which the bot was refused twice
        game_id = None
        while not self._stop.is_set():
            snap = self.session.wait_for_change(version, POLL_S)
            if self.session.stopped:
                break
            if snap.version == version:
                continue
            version = snap.version
            if snap.game_id != game_id:   # a new game: a fresh memory, no turn under way
                if game_id is not None:
                    self.bot.memory = type(self.bot.memory)(self.side)
                game_id, turn_start = snap.game_id, None
            mine = snap.side(self.side_name)
            if mine.view and mine.view.get("fight"):
                self.bot.observe(mine.view)   # remember the blocks revealed in battle
            if _decisions(mine) and snap.result is None:
                if version == stuck_at:
                    continue
                if turn_start is None:
                    turn_start = snap.lines
                if not self._play(mine):
                    stuck_at = self.session.snapshot().version
            elif turn_start is not None:
                self._explain(turn_start)
                turn_start = None

    def _play(self, mine: SidePart) -> bool:
        """Decide and submit once; on a refusal decide once more from a fresh snapshot."""
        for attempt in (1, 2):
            thinking = False
            try:
                info = from_view(self.side, mine.view, _decisions(mine), self.bot.memory)
                thinking = self.bot.searches(info)
                line = str(self.bot.decide(info, self._progress(info)) if thinking else self.bot.decide(info))
            except Exception as exc:   # a bug in the bot must not end the table's bot thread
                log.exception("bot %s could not decide", self.side_name)
                self.errors.append(f"{type(exc).__name__}: {exc}")
                return False
            finally:
                if thinking:
                    self.session.note(THINKING, None)
            outcome = self.session.act(self.side_name, line)
            if outcome.ok:
                self.played.append(line)
                return True
            refusal = dict(outcome.refusal or {})
            self.refusals.append({"line": line, "attempt": attempt, **refusal})
            log.warning("bot %s: %r refused (attempt %d): %s", self.side_name, line, attempt,
                        refusal.get("message"))
            mine = self.session.snapshot().side(self.side_name)
            if not _decisions(mine):
                return True   # nothing to decide any more (the game moved on)
        return False

    def _progress(self, info):
        """The search's progress as the session's public note "thinking": the TV and both phones
        say what the Pi is doing while it thinks (which decision, how far); it names nothing it
        considers, so it tells nobody what the Pi knows."""
        phase = info.view.get("phase")

        def report(done: int, total: int) -> None:
            self.session.note(THINKING, {"side": self.side_name, "phase": phase, "done": done, "total": total})
        report(0, self.bot.level.iterations)
        return report

    def _explain(self, since: int) -> None:
        public = self.session.snapshot().for_viewer(None)
        entries = [e for e in public["log"] if e["index"] >= since]
        summary = explain_turn(entries, self.side_name, public["view"])
        if not summary["lines"]:
            return
        self.explained.append(summary)
        self.session.note("bot", summary)


def _decisions(mine: SidePart) -> list[Action]:
    """The side's legal actions that are decisions (not take-backs: the bot never takes back)."""
    return [a for a in mine.legal if not isinstance(a, TakeBack)]

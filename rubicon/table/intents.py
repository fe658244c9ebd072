"""What may be asked of the table session, and its answer: the *intents* (one frozen dataclass
each, put on the session's one queue and carried out in order by its owner thread) and the
`Outcome` of one. The dice intents (`RollDice`, `TypeDice`, `DiceSource`) live with the dice desk
(rubicon/table/dice.py) and belong to the same `Intent` union.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .dice import DiceSource, RollDice, TypeDice
from .sensed_board import SensorEventLike

# An answer is awaited at most this long by `act` (a guard against a dead owner thread, never a
# way to synchronise: the owner answers as soon as it has carried the intent out).
ANSWER_TIMEOUT_S = 30.0


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
    the old one stays in the journal. The offer is public: every viewer sees who asked. `game`: an
    unfinished game of the journal to take up again instead of a new one (an offer of another
    game replaces the one standing)."""
    source: str
    agree: bool
    voters: tuple[str, ...] = ("Caesar", "Pompeius")
    game: int | None = None


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


@dataclass(frozen=True)
class DismissFault:
    """`source` ("Caesar"/"Pompeius", from his own phone) has read the fault report `number`."""
    source: str
    number: int


Intent = (Act | Undo | NewGame | VoteNewGame | Refresh | Ping | Sense | Done | Answer | Confirm | RollDice | TypeDice
          | DiceSource | Note | RetryStorage | DismissFault | Stop)


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


__all__ = ["ANSWER_TIMEOUT_S", "TABLE_NOTES", "Act", "Answer", "Confirm", "DiceSource", "DismissFault", "Done",
           "Intent", "NewGame", "Note", "Outcome", "Ping", "Refresh", "RetryStorage", "RollDice", "Sense", "Stop",
           "TypeDice", "Undo", "VoteNewGame"]

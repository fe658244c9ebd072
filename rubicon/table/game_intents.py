"""The owner thread's handling of the game's own intents: a phone's action, an undo, a note, a
new game and the vote on one, the retry after storage trouble, the watchdog's ping. (The dice's
are in dice_intents.py, the physical table's in table_intents.py.) Called only by the session's
owner thread, each with the `GameOwner` and the intent.
"""
from __future__ import annotations

from engine import IllegalAction, UnknownName, actor_name, parse_action, parse_actor

from ..errors import TableRefusal
from .dice_intents import unknown_source
from .intents import Act, NewGame, Note, Outcome, Ping, Refresh, RetryStorage, Undo, VoteNewGame
from .owner import GameOwner
from .resume import resumable
from .votes import cast


def ping(owner: GameOwner, intent: Ping) -> Outcome:
    """The watchdog's proof that the owner thread takes intents: changes nothing."""
    return Outcome(owner.version)


def refresh(owner: GameOwner, intent: Refresh) -> Outcome:
    """Publish a new snapshot though the game did not change."""
    owner.publish()
    return Outcome(owner.version)


def note(owner: GameOwner, intent: Note) -> Outcome:
    """Set or remove a public note shown beside the game."""
    if intent.value is None:
        owner.notes.pop(intent.key, None)
    else:
        owner.notes[intent.key] = intent.value
    owner.publish()
    return Outcome(owner.version)


def new_game(owner: GameOwner, intent: NewGame) -> Outcome:
    """Start a new game (the old one stays in the journal)."""
    owner.new_game(intent.options)
    return Outcome(owner.version)


def vote_new_game(owner: GameOwner, intent: VoteNewGame) -> Outcome:
    """A side offers, accepts or declines a new game; it starts once every voter agreed."""
    try:
        vote = cast(owner.notes.get("new_game"), intent.source, intent.agree, intent.voters, intent.game)
    except UnknownName:
        return owner.refused(unknown_source(intent.source))
    except IllegalAction as exc:
        return owner.refused(exc)
    if intent.agree and intent.game is not None:
        refusal = resumable(owner.journal, intent.game, owner.game_id)
        if refusal is not None:
            return owner.refused(refusal)
    if vote.starts and intent.game is not None:
        owner.resume(intent.game)
        return Outcome(owner.version)
    if vote.starts:
        owner.new_game()
        return Outcome(owner.version)
    if vote.offer is None:
        owner.notes.pop("new_game", None)
    else:
        owner.notes["new_game"] = vote.offer
    owner.publish()
    return Outcome(owner.version)


def retry(owner: GameOwner, intent: RetryStorage) -> Outcome:
    """The retry after the disk refused a write."""
    return owner.retry_storage()


def undo(owner: GameOwner, intent: Undo) -> Outcome:
    """Take back the source's last action, where the rules allow it (the journal cut first)."""
    try:
        owner.undo(intent.source)
    except IllegalAction as exc:
        return owner.refused(exc)
    except (UnknownName, ValueError):
        return owner.refused(unknown_source(intent.source))
    owner.publish()
    return Outcome(owner.version)


def act(owner: GameOwner, intent: Act) -> Outcome:
    """Apply one notation line of the source's own (the journal first)."""
    if owner.game is None:
        return owner.refused(owner.no_game())
    try:
        source = parse_actor(intent.source)
    except UnknownName:
        return owner.refused(unknown_source(intent.source))
    try:
        action = parse_action(intent.line)
        if action.actor != source:
            raise TableRefusal(
                f"{actor_name(source)} cannot send {actor_name(action.actor)}'s action ({intent.line})",
                code="table.not-your-action", params={"source": actor_name(source), "actor": actor_name(action.actor)})
        applied = owner.play([action])
    except IllegalAction as exc:
        return owner.refused(exc)
    owner.publish()
    return Outcome(owner.version, applied)

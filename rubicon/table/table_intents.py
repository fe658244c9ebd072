"""The owner thread's handling of the physical table's intents (rubicon/table/physical.py): a
sensor event, a player's Done, his answer to the table's question, his confirmation of the board
as sensed. A refusal is also that side's message and a buzz; Done's and an answer's lines are
applied like a phone's action, through the one commit path. Called only by the session's owner.
"""
from __future__ import annotations

from engine import IllegalAction

from ..errors import TableRefusal
from .dice import DICE_EVENTS
from .dice_intents import sense_dice, unknown_source
from .intents import Answer, Confirm, Done, Outcome, Sense
from .owner import GameOwner
from .sensed_board import field_of


def sense(owner: GameOwner, intent: Sense) -> Outcome:
    """A sensor event: a panel's Done press is a Done; the tray's events go to the dice desk;
    the rest to the physical table."""
    event = intent.event
    if event.kind == "panel_pressed" and field_of(event, "button") == "done":
        return table_intent(owner, Done(str(field_of(event, "side", ""))))
    if event.kind in DICE_EVENTS and (event.kind != "diagnostic" or field_of(event, "code") == "dice_mismatch"):
        return sense_dice(owner, event)
    return table_intent(owner, intent)


def table_intent(owner: GameOwner, intent: Sense | Done | Answer | Confirm) -> Outcome:
    """One intent of the physical table (see the module docstring)."""
    table = owner.physical
    if isinstance(intent, Sense):
        if table is not None:
            table.sense(intent.event, owner.game)
        owner.publish()
        return Outcome(owner.version)
    if table is None:
        return owner.refused(TableRefusal("no physical table is attached to this session", code="table.no-table"))
    game = owner.game
    if game is None:
        return owner.refused(owner.no_game())
    if intent.source not in ("Caesar", "Pompeius"):
        return owner.refused(unknown_source(intent.source))
    try:
        if isinstance(intent, Answer):
            lines: list[str] = table.answer(intent.source, intent.option, game)
        elif isinstance(intent, Confirm):
            table.confirm(intent.source, game)
            lines = []
        else:
            lines = table.done(intent.source, game)
        applied = owner.play(lines) if lines else ()     # every line on disk, in one transaction, first
    except IllegalAction as exc:
        said = table.refused(intent.source, exc)
        owner.publish()
        return owner.refused(exc, said)
    owner.messages.taken(intent.source)    # his request was taken: its earlier refusal is over
    if applied:
        table.accepted(intent.source)
    owner.publish()
    return Outcome(owner.version, applied)


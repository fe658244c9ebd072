"""The owner thread's handling of dice: a tray's events and the phones' dice intents become the
chance line the game waits for (journalled through the one commit path), or a refusal said to
every viewer (rubicon/table/dice.py's desk decides which). Called only by the session's owner.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from engine import IllegalAction, UnknownName, actor_name, parse_actor

from ..errors import TableRefusal
from .dice import DiceSource, RollDice, TypeDice
from .intents import Outcome
from .owner import GameOwner
from .sensed_board import SensorEventLike, field_of


def sense_dice(owner: GameOwner, event: SensorEventLike) -> Outcome:
    """A tray event becomes the chance line (or a refusal); a device coming or going is kept
    (and told to the physical table, which lists it too)."""
    if event.kind in ("device_up", "device_down") and owner.physical is not None:
        owner.physical.sense(event, owner.game)
    tray_roll = (str(field_of(event, "roll", "")) or None) if event.kind == "dice_rolled" else None
    if tray_roll is not None and owner.journal.roll_taken(tray_roll):
        # The tray repeats a roll it was not yet told was taken (the table stopped between the
        # commit and the tray's ACK): already a line, so only the ACK is due, never a second roll.
        return Outcome(owner.version)
    shown = event.kind != "dice_state" or field_of(event, "state") == "crooked"
    return dice_line(owner, lambda: owner.dice.roll_from_event(owner.game, event), publish=shown,
                     tray_roll=tray_roll)


def dice_intent(owner: GameOwner, intent: RollDice | TypeDice | DiceSource) -> Outcome:
    """A phone's dice intent: roll for me, the faces I rolled by hand, or where dice come from."""
    try:
        side = actor_name(parse_actor(intent.source, allow_chance=False))
    except (UnknownName, ValueError):
        return owner.refused(unknown_source(intent.source))
    if isinstance(intent, DiceSource):
        value = intent.value
        return dice_line(owner, lambda: owner.dice.set_source(side, value), publish=True)
    if isinstance(intent, TypeDice):
        faces = intent.faces
        return dice_line(owner, lambda: owner.dice.typed(owner.game, side, faces), publish=True)
    return dice_line(owner, lambda: owner.dice.roll_on_phone(owner.game, side, _dice_rng(owner)), publish=True)


def dice_line(owner: GameOwner, make_line: Callable[[], str | None], publish: bool,
              tray_roll: str | None = None) -> Outcome:
    """Apply and journal the chance line `make_line()` gives (None: nothing to apply); a
    refusal is kept as a message for every viewer and changes nothing in the game. The
    outcome (and so the phone's answer, the tray's ACK) comes after the commit."""
    try:
        line = make_line()
        applied = () if line is None else owner.play([line], tray_roll)
    except IllegalAction as exc:
        said = owner.dice.refused(exc)
        owner.publish()
        return owner.refused(exc, said)
    if applied or publish:
        owner.publish()
    return Outcome(owner.version, applied)


def _dice_rng(owner: GameOwner) -> random.Random:
    """The RNG of a roll on the phone, drawn now (a seeded source: by the position, so a test
    asking again draws the same)."""
    return owner.chance_source.rng("dice", None if owner.game is None else len(owner.game.history))


def unknown_source(source: object) -> TableRefusal:
    """The refusal of an intent from no side the table knows."""
    return TableRefusal(f"unknown source {source!r}", code="table.unknown-source", params={"source": str(source)})

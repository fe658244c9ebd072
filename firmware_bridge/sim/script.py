"""The text format of sensor events (hardware/EVENTS.md): one event per line, to and from `events`.

    # a comment                      blank lines and comments are ignored
    place 29 04A1B2C3                TagSeen      (reader, UID)
    lift 29 04A1B2C3                 TagGone
    roll 3 5 6                       DiceRolled   (1-4 faces)
    dice crooked                     DiceState    (rolling | rolled | crooked)
    press Caesar done                PanelPressed (side, button)
    board: plug board 1.0.0 1        DeviceUp     (kind, firmware, protocol)
    dice: unplug "cable pulled"      DeviceDown   (reason)
    diagnostic unknown_tag "tag 04A1B2C3 on reader 29 is not enrolled"
    wait 0.5                         not an event: the player pauses

A line may start with `SOURCE:` (the event's `source`; default: board for place/lift, dice for
roll/dice, panel for press, device otherwise). Words are shell-quoted. With a reader map and a
block -> UID function, `place Genua "C Legio 8"` names a location and a block. The time `t` is
not written: an event happens when it is played. Bad lines raise `ScriptError` with the line number.
"""
from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.events import (
    DICE_STATES,
    DeviceDown,
    DeviceUp,
    Diagnostic,
    DiceRolled,
    DiceState,
    PanelPressed,
    SensorEvent,
    TagGone,
    TagSeen,
)
from firmware_bridge.shared.errors import BridgeValueError

DEFAULT_SOURCE = {"place": "board", "lift": "board", "roll": "dice", "dice": "dice", "press": "panel"}
VERB_OF = {TagSeen: "place", TagGone: "lift", DiceRolled: "roll", DiceState: "dice", PanelPressed: "press",
           DeviceUp: "plug", DeviceDown: "unplug", Diagnostic: "diagnostic"}
USAGE = {
    "place": "place READER UID", "lift": "lift READER UID", "roll": "roll F1 [F2 F3 F4] (faces 1..6)",
    "dice": "dice rolling|rolled|crooked", "press": "press SIDE BUTTON", "plug": "plug KIND [FIRMWARE [PROTOCOL]]",
    "unplug": "unplug [REASON]", "diagnostic": "diagnostic CODE [DETAIL]", "wait": "wait SECONDS",
}
MAX_WAIT = 3600.0


class ScriptError(BridgeValueError):
    """A line that is not a sensor event; the message starts `NAME:LINE:`."""


@dataclass(frozen=True)
class Wait:
    """A pause of `seconds` in a script."""
    seconds: float


@dataclass(frozen=True)
class Step:
    """One line of a script: its line number and the event or pause it says."""
    line: int
    item: SensorEvent | Wait


def _reader(word: str, reader_map) -> int:
    if word.isdigit():
        return int(word)
    if reader_map is None:
        raise ValueError(f"reader {word!r} is not a number")
    try:
        return reader_map.index_of(word)
    except KeyError:
        raise ValueError(f"no reader at {word!r}") from None


def _uid(word: str, uid_of: Callable[[str], str | None] | None) -> str:
    text = word.upper()
    if len(text) in (8, 14, 20) and all(c in "0123456789ABCDEF" for c in text):
        return text
    uid = uid_of(word) if uid_of is not None else None
    if uid is None:
        raise ValueError(f"{word!r} is not a UID (8, 14 or 20 hex digits)"
                         + (" nor a block with a tag" if uid_of is not None else ""))
    return uid


def parse_line(line: str, reader_map=None, uid_of: Callable[[str], str | None] | None = None
               ) -> SensorEvent | Wait | None:
    """One line's event (or Wait, or None for a blank/comment line); ValueError if it is none."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError as exc:
        raise ValueError(f"unbalanced quotes ({exc})") from None
    if not words:
        return None
    source = None
    if words[0].endswith(":") and len(words[0]) > 1:
        source, words = words[0][:-1], words[1:]
        if not words:
            raise ValueError(f"nothing after the source {source!r}")
    verb, args = words[0].lower(), words[1:]
    if verb not in USAGE:
        raise ValueError(f"unknown event {words[0]!r} (one of {', '.join(USAGE)})")
    src = source or DEFAULT_SOURCE.get(verb, "device")

    def need(lo: int, hi: int) -> None:
        if not lo <= len(args) <= hi:
            raise ValueError(f"usage: {USAGE[verb]}")

    if verb == "wait":
        need(1, 1)
        try:
            seconds = float(args[0])
        except ValueError:
            seconds = -1.0
        if not 0 <= seconds <= MAX_WAIT:
            raise ValueError(f"wait takes 0..{MAX_WAIT:g} seconds, not {args[0]!r}")
        return Wait(seconds)
    if verb in ("place", "lift"):
        need(2, 2)
        cls = TagSeen if verb == "place" else TagGone
        return cls(src, reader=_reader(args[0], reader_map), uid=_uid(args[1], uid_of))
    if verb == "roll":
        need(1, 4)
        if any(a not in ("1", "2", "3", "4", "5", "6") for a in args):
            raise ValueError(f"faces are 1..6, not {' '.join(args)!r}")
        return DiceRolled(src, faces=tuple(int(a) for a in args))
    if verb == "dice":
        need(1, 1)
        if args[0] not in DICE_STATES:
            raise ValueError(f"usage: {USAGE[verb]}")
        return DiceState(src, state=args[0])
    if verb == "press":
        need(2, 2)
        return PanelPressed(src, side=args[0], button=args[1])
    if verb == "plug":
        need(1, 3)
        return DeviceUp(src, device_kind=args[0], firmware=(args + ["", ""])[1], protocol=(args + ["", ""])[2])
    if verb == "unplug":
        need(0, 1)
        return DeviceDown(src, reason=args[0] if args else "")
    need(1, 2)
    return Diagnostic(src, code=args[0], detail=args[1] if len(args) > 1 else "")


def read_script(text: str, name: str = "<script>", reader_map=None,
                uid_of: Callable[[str], str | None] | None = None) -> list[Step]:
    """Every event and wait of a script with its line number; ScriptError `NAME:LINE: why` on the first bad line."""
    steps = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            item = parse_line(line, reader_map, uid_of)
        except ValueError as exc:
            raise ScriptError(f"{name}:{number}: {exc}") from None
        if item is not None:
            steps.append(Step(number, item))
    return steps


def parse_events(text: str, name: str = "<script>", **naming) -> list[SensorEvent]:
    """The events of a script (waits left out)."""
    return [s.item for s in read_script(text, name, **naming) if isinstance(s.item, SensorEvent)]


def format_event(event: SensorEvent) -> str:
    """The one line that parses back to `event` (its time aside)."""
    verb = VERB_OF.get(type(event))
    if verb is None:
        raise ValueError(f"no text form for {type(event).__name__}")
    if isinstance(event, (TagSeen, TagGone)):
        args = [str(event.reader), event.uid]
    elif isinstance(event, DiceRolled):
        args = [str(f) for f in event.faces]
    elif isinstance(event, DiceState):
        args = [event.state]
    elif isinstance(event, PanelPressed):
        args = [event.side, event.button]
    elif isinstance(event, DeviceUp):
        args = [event.device_kind, event.firmware, event.protocol]
        while len(args) > 1 and args[-1] == "":
            args.pop()
    elif isinstance(event, DeviceDown):
        args = [event.reason] if event.reason else []
    else:
        assert isinstance(event, Diagnostic)
        args = [event.code] + ([event.detail] if event.detail else [])
    prefix = "" if event.source == DEFAULT_SOURCE.get(verb, "device") else shlex.quote(event.source + ":") + " "
    return prefix + " ".join([verb] + [shlex.quote(a) for a in args])


def write_events(events: list[SensorEvent]) -> str:
    """Events as script text, one per line (the inverse of reading a script)."""
    return "".join(format_event(e) + "\n" for e in events)

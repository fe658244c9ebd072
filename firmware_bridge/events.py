"""Typed sensor events: the one vocabulary every device driver emits and the table session consumes.

Each event is an immutable dataclass carrying `source` (which device produced it, e.g.
"dice@/dev/ttyACM0" or "rfid") and `t` (time.monotonic() when the bridge produced it).
`to_dict()`/`event_from_dict()` give the JSON form `rubicon devices monitor` prints.
"""
from __future__ import annotations

import dataclasses
import queue
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

DICE_STATES = ("rolling", "rolled", "crooked")


@dataclass(frozen=True)
class SensorEvent:
    """Something a device sensed or reported, from `source` at monotonic time `t`; `kind` names the event type on
    the wire and in logs."""
    source: str
    t: float = field(default_factory=time.monotonic, kw_only=True)

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: its kind under 'event' and every field (tuples as lists)."""
        data: dict[str, Any] = {"event": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class DiceRolled(SensorEvent):
    """A completed roll: the faces (1..6) of 1-4 dice, in tray order. `roll` is the tray's own
    name for it ("BOOT/ID", from its ROLL line), given when the tray keeps the roll until the
    table says it was taken (`SerialBridge.roll_taken`); empty otherwise."""

    faces: tuple[int, ...] = ()
    roll: str = ""
    kind: ClassVar[str] = "dice_rolled"

    def __post_init__(self) -> None:
        if not 1 <= len(self.faces) <= 4 or any(not 1 <= f <= 6 for f in self.faces):
            raise ValueError(f"invalid dice faces {self.faces!r}")


@dataclass(frozen=True)
class DiceState(SensorEvent):
    """The tray's roll state as smart dice report it: rolling, rolled or crooked (re-roll needed)."""

    state: str = "rolled"
    kind: ClassVar[str] = "dice_state"

    def __post_init__(self) -> None:
        if self.state not in DICE_STATES:
            raise ValueError(f"invalid dice state {self.state!r}")


@dataclass(frozen=True)
class TagSeen(SensorEvent):
    """A tag (UID as upper-case hex) is now, stably, on reader `reader`."""

    reader: int = 0
    uid: str = ""
    kind: ClassVar[str] = "tag_seen"


@dataclass(frozen=True)
class TagGone(SensorEvent):
    """A tag that was on reader `reader` has, stably, left it."""

    reader: int = 0
    uid: str = ""
    kind: ClassVar[str] = "tag_gone"


@dataclass(frozen=True)
class DeviceUp(SensorEvent):
    """A device answered the handshake (or, for on-Pi hardware, was initialised)."""

    device_kind: str = ""
    firmware: str = ""
    protocol: str = ""
    kind: ClassVar[str] = "device_up"


@dataclass(frozen=True)
class DeviceDown(SensorEvent):
    """A device stopped answering or was unplugged."""

    reason: str = ""
    kind: ClassVar[str] = "device_down"


@dataclass(frozen=True)
class PanelPressed(SensorEvent):
    """A panel button was pressed (e.g. side "Caesar", button "done")."""

    side: str = ""
    button: str = ""
    kind: ClassVar[str] = "panel_pressed"


@dataclass(frozen=True)
class Diagnostic(SensorEvent):
    """Something an owner should know that is not a game event: an unknown tag, a silent reader,
    a tag seen by two readers, a bad frame. Never turned into a move."""

    code: str = ""
    detail: str = ""
    kind: ClassVar[str] = "diagnostic"


EVENT_TYPES: dict[str, type[SensorEvent]] = {
    cls.kind: cls
    for cls in (DiceRolled, DiceState, TagSeen, TagGone, DeviceUp, DeviceDown, PanelPressed, Diagnostic)
}


def event_from_dict(data: dict[str, Any]) -> SensorEvent:
    """The event `to_dict` made `data` from; KeyError for an unknown kind."""
    data = dict(data)
    cls = EVENT_TYPES[data.pop("event")]
    if "faces" in data:
        data["faces"] = tuple(data["faces"])
    return cls(**data)


MAX_QUEUED = 10_000


class EventQueue(queue.Queue):
    """The one queue all drivers put events on: a thread-safe FIFO of at most `maxsize` events.

    `put` never blocks a driver's thread: when the queue is full the OLDEST event is dropped
    (counted in `dropped`), and the next `get` returns, before anything else, one
    `Diagnostic(code="events_dropped")` saying how many were lost, so the consumer knows its view of
    the board may be stale and must reconcile it. Memory stays bounded however slow the consumer.
    """

    def __init__(self, maxsize: int = MAX_QUEUED):
        if maxsize < 1:
            raise ValueError("an event queue holds at least one event")
        super().__init__(maxsize)
        self.dropped = 0
        self._unreported = 0

    def put(self, item: SensorEvent, block: bool = True, timeout: float | None = None) -> None:
        """Queue `item`; when full, the oldest event is dropped (counted in `dropped`) rather than the device
        blocking."""
        with self.not_full:
            if self._qsize() >= self.maxsize:
                self.queue.popleft()
                self.dropped += 1
                self._unreported += 1
            self._put(item)
            self.unfinished_tasks += 1
            self.not_empty.notify()

    def _get(self) -> SensorEvent:
        if self._unreported:
            lost, self._unreported = self._unreported, 0
            self.queue.appendleft(Diagnostic("events", code="events_dropped",
                                             detail=f"{lost} sensor events dropped (queue full): reconcile the board"))
        return self.queue.popleft()

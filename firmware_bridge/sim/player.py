"""Play a sensor-event script (`script`) on the device simulators, so the real drivers produce the events.

A `place`/`lift` puts a tag on or takes it off a reader of the simulated serial board scanner
(`DeviceSim("board")`) or of the emulated MFRC522 array (`EmulatedRig`); a `roll` rolls the
simulated tray (`dice crooked` rolls a die that is not flat); `SOURCE: unplug` / `SOURCE: plug`
pull and replug the simulator whose kind the source starts with (dice or board); a `press`
goes to the `press` callable given (the panel's queue, or a mock pin). Events that only a
driver can produce (`dice rolling`, `dice rolled`, `diagnostic`) are refused as not playable.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from firmware_bridge.events import (
    DeviceDown,
    DeviceUp,
    DiceRolled,
    DiceState,
    PanelPressed,
    SensorEvent,
    TagGone,
    TagSeen,
)
from firmware_bridge.sim.script import ScriptError, Step, Wait


class ScriptPlayer:
    """Plays a sensor-event script on simulators (dice tray, serial board, emulated rig) or a panel callback,
    waiting where the script waits."""
    def __init__(self, dice=None, board=None, rig=None, press: Callable[[PanelPressed], None] | None = None,
                 sleep: Callable[[float], None] = time.sleep, name: str = "<script>"):
        self.dice, self.board, self.rig, self.press, self.sleep, self.name = dice, board, rig, press, sleep, name

    def play(self, steps: list[Step]) -> None:
        """Play every step; ScriptError naming the script's line for a step the devices cannot do."""
        for step in steps:
            try:
                self.play_one(step.item)
            except ValueError as exc:
                raise ScriptError(f"{self.name}:{step.line}: {exc}") from None

    def play_one(self, item: SensorEvent | Wait) -> None:
        """Do one step: wait, place or lift a tag, roll dice, or press a panel button."""
        if isinstance(item, Wait):
            self.sleep(item.seconds)
        elif isinstance(item, (TagSeen, TagGone)):
            self._tag(isinstance(item, TagSeen), item.reader, item.uid)
        elif isinstance(item, DiceRolled):
            self._need(self.dice, "a dice tray simulator").roll(list(item.faces))
        elif isinstance(item, DiceState) and item.state == "crooked":
            self._need(self.dice, "a dice tray simulator").roll([-1])
        elif isinstance(item, PanelPressed):
            self._need(self.press, "a panel")(item)
        elif isinstance(item, (DeviceUp, DeviceDown)):
            sim = self._sim_of(item.source)
            (sim.replug() if isinstance(item, DeviceUp) else sim.unplug()).wait(5)
        else:
            raise ValueError(f"{item.kind} is what a driver reports, not something to play")

    def _tag(self, present: bool, reader: int, uid: str) -> None:
        if self.board is not None:
            (self.board.place if present else self.board.remove)(reader, uid).wait(5)
        elif self.rig is not None:
            if present:
                self.rig.place(uid, reader)
            else:
                self.rig.lift(uid)
        else:
            raise ValueError("no board to play tags on (a board scanner simulator or an emulated array)")

    def _sim_of(self, source: str):
        for kind, sim in (("dice", self.dice), ("board", self.board)):
            if source.startswith(kind):
                return self._need(sim, f"a {kind} simulator")
        raise ValueError(f"plug/unplug needs a source of dice or board (e.g. 'dice: unplug'), not {source!r}")

    @staticmethod
    def _need(thing, what: str):
        if thing is None:
            raise ValueError(f"this script needs {what}")
        return thing

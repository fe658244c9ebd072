"""A new kind of device, registered from this test module alone, works end to end: configured by
its kind's name, opened by its factory, its rolls reach the game and are ACKed after the journal
has them, it is asked for the dice the game waits for, and a failure to open it is said and
retried, all without a line of rubicon/ knowing it (firmware_bridge.device_kinds: "Adding a device")."""
import threading

import pytest

from firmware_bridge.device_kinds import (
    DeviceKind,
    DeviceSpec,
    DeviceSpecError,
    Opening,
    Tray,
    forget_kind,
    kind_of,
    register_kind,
)
from firmware_bridge.events import DeviceUp, DiceRolled
from lifecycle import Lifecycle
from rubicon.table.chance import TableChance
from rubicon.table.devices import TableDevices
from rubicon.table.session import TableSession

from .driver import SEED, battle_journal
from .waits import GUARD_S, until


class RadioDice(Lifecycle):
    """Dice that speak over a radio (BLE, say): what a plug-in's tray would be. The test rolls them."""

    def __init__(self, spec: DeviceSpec, opening: Opening):
        self._source = spec.source
        self.events = opening.events
        self.asked: list[int] = []
        self.taken: list[str] = []
        self.asked_event = threading.Event()

    @property
    def source(self) -> str:
        return self._source

    def _on_start(self) -> None:
        self.events.put(DeviceUp(self._source, device_kind="radio-dice", protocol="radio"))

    def _on_stop(self, timeout: float) -> None:
        pass

    def request_roll(self, count: int) -> None:
        self.asked.append(count)
        self.asked_event.set()

    def cancel_roll(self) -> None:
        self.asked.append(0)

    def roll_taken(self, roll: str) -> None:
        self.taken.append(roll)

    def roll(self, faces: tuple[int, ...], name: str) -> None:
        self.events.put(DiceRolled(self._source, faces=faces, roll=name))


OPENED: list[RadioDice] = []
FAILURES: list[int] = []


def open_radio_dice(spec: DeviceSpec, opening: Opening) -> RadioDice:
    if FAILURES:
        FAILURES.pop()
        raise ConnectionError("the dice are not paired over the radio yet")
    dice = RadioDice(spec, opening).start()
    OPENED.append(dice)
    return dice


@pytest.fixture
def radio_kind():
    register_kind(DeviceKind("radio-dice", "dice over a radio", "tray", open_radio_dice, port=True))
    OPENED.clear()
    yield
    OPENED.clear()
    forget_kind("radio-dice")


def test_a_kind_registered_here_is_a_tray_of_the_table(radio_kind, tmp_path):
    spec = DeviceSpec("radio-dice", url="radio://AA:BB")
    assert spec.source == "radio-dice@radio://AA:BB" and kind_of("radio-dice").role == "tray"
    session = TableSession(battle_journal(tmp_path / "j.sqlite3", until="Chance rolls 2 5"), chance=TableChance(SEED))
    with session, TableDevices(session, [spec]) as devices:
        until(session, lambda s: s.public.table["devices"].get(spec.source) == "up", "the radio dice are up")
        dice = OPENED[0]
        assert isinstance(dice, Tray) and devices.trays == [dice]
        assert dice.asked_event.wait(GUARD_S), "the table asks the new tray for the dice"
        assert dice.asked[-1] == 2
        lines = session.snapshot().lines
        dice.roll((2, 5), "radio/1")
        snap = until(session, lambda s: s.lines == lines + 1, "the roll is applied")
        assert session.journal.lines(snap.game_id)[1][-1] == "Chance rolls 2 5"
        until(session, lambda s: dice.taken == ["radio/1"], "the roll is ACKed once in the journal")


def test_a_registered_kind_that_cannot_open_is_said_and_the_table_runs_on(radio_kind, tmp_path):
    FAILURES.append(1)
    register_kind(DeviceKind("radio-dice", "dice over a radio", "tray", open_radio_dice))     # no port: retried
    session = TableSession(battle_journal(tmp_path / "j.sqlite3", until="Chance rolls 2 5"), chance=TableChance(SEED))
    with session, TableDevices(session, [DeviceSpec("radio-dice")], backoff=(0.01, 0.05)) as devices:
        snap = until(session, lambda s: any(m["code"] == "device.failed" for m in s.public.table["messages"]),
                     "the failure is said to every viewer")
        said = next(m for m in snap.public.table["messages"] if m["code"] == "device.failed")
        assert "not paired over the radio" in said["params"]["error"]
        until(session, lambda s: s.public.table["devices"].get("radio-dice") == "up", "opened on the retry")
        assert devices.problems == {} and devices.trays == OPENED


def test_an_unknown_kind_is_refused_naming_the_kinds_there_are():
    with pytest.raises(DeviceSpecError, match="'bluetooth-dice' is not one of dice, board, readers, panel$"):
        DeviceSpec("bluetooth-dice")


def test_the_configuration_names_a_registered_kind_and_the_table_opens_it(radio_kind, tmp_path):
    from rubicon.config import ConfigProblems, parse_config
    from rubicon.table.assembly import device_specs

    config = parse_config('[devices]\nother = [{ kind = "radio-dice", url = "radio://AA:BB" }]\n')
    assert config.hardware and device_specs(config) == (DeviceSpec("radio-dice", url="radio://AA:BB"),)
    with pytest.raises(ConfigProblems, match=":2: devices.other must be .*needs its port"):
        parse_config('[devices]\nother = [{ kind = "radio-dice" }]\n')
    with pytest.raises(ConfigProblems, match="'zigbee-dice' is not one of"):
        parse_config('[devices]\nother = [{ kind = "zigbee-dice", url = "x" }]\n')

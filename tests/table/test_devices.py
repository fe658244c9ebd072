"""A battle fought with the simulated dice tray on a real pty, through the real serial bridge and
`TableDevices`, into the table session: dice asked (the tray lights up), a wrong-size roll refused,
the right one applied, a roll with none asked refused, the tray unplugged mid-battle -> the phone."""
import time

import pytest

from firmware_bridge.serial_bridge.link import LinkConfig
from firmware_bridge.sim.device_sim import DeviceSim
from rubicon.table.chance import TableChance
from rubicon.table.devices import DeviceSpec, DeviceSpecError, TableDevices
from rubicon.table.dice import RollDice
from rubicon.table.session import TableSession

from .driver import SEED, battle_journal
from .waits import GUARD_S, until

FAST = LinkConfig(read_timeout=0.02, heartbeat=0.1, hello_timeout=0.3, silence_timeout=2.0,
                  backoff_min=0.01, backoff_max=0.1)




def codes(snap, viewer=None):
    return [m["code"] for m in snap.for_viewer(viewer)["table"]["messages"]]


def until_done(flag_fn, what: str):
    deadline = time.monotonic() + GUARD_S
    while not flag_fn():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)


@pytest.fixture
def table(tmp_path):
    sim = DeviceSim("dice", settle_ms=0, motion_ms=1, heartbeat_ms=100).start()
    session = TableSession(battle_journal(tmp_path / "j.sqlite3", until="Chance rolls 2 5"), chance=TableChance(SEED))
    session.start()
    devices = TableDevices(session, [DeviceSpec("dice", sim.path)], link_config=FAST).start()
    yield sim, session, devices
    devices.stop()
    session.stop()
    sim.close()


def test_a_battle_with_the_tray_over_a_pty(table):
    sim, session, devices = table
    source = f"dice@{sim.path}"
    until(session, lambda s: s.public.table["devices"].get(source) == "up", "the tray is up")
    until_done(lambda: sim.sensors.led == "blink", "the tray is asked for the dice (its light blinks)")
    lines = session.snapshot().lines

    assert sim.roll((1, 2, 3))                     # three dice where Antonius rolls two
    snap = until(session, lambda s: "dice.wrong-count" in codes(s), "the wrong-size roll is refused")
    assert snap.lines == lines and codes(snap, "Caesar") == codes(snap, "Pompeius") == ["dice.wrong-count"]

    until_done(lambda: sim.sensors.led == "blink", "the tray is asked again")
    assert sim.roll((2, 5))
    snap = until(session, lambda s: s.lines == lines + 1, "the roll is applied")
    assert session.journal.lines(snap.game_id)[1][-1] == "Chance rolls 2 5"
    assert [i["text"] for i in snap.for_viewer("Pompeius")["table"]["instructions"]] == ["turn Legio 1 in Roma to III"]

    assert sim.roll((4,))                          # Pompeius must now fire or pass: no dice asked
    snap = until(session, lambda s: "dice.not-asked" in codes(s), "the unasked roll is refused")
    assert snap.lines == lines + 1

    assert session.act("Pompeius", "Pompeius fires Pompeius").ok       # three dice asked
    sim.unplug().wait(5)
    snap = until(session, lambda s: s.public.table["devices"][source] == "down", "the tray is down")
    assert codes(snap)[-1] == "dice.tray-down" and snap.side("Pompeius").table["dice"]["count"] == 3
    outcome = session.submit(RollDice("Pompeius")).result(30)
    assert outcome.ok and len(outcome.accepted[0].split()) == 5        # Chance rolls F F F
    assert session.journal.lines(session.snapshot().game_id)[1][lines + 2] == outcome.accepted[0]


def test_device_specs_that_can_never_work_are_refused():
    with pytest.raises(DeviceSpecError, match="not one of"):
        DeviceSpec("toaster")
    with pytest.raises(DeviceSpecError, match="needs its port"):
        DeviceSpec("dice")
    assert DeviceSpec("board", "/dev/ttyACM1").source == "board@/dev/ttyACM1"


def test_a_roll_made_on_the_phone_stops_the_tray_blinking_and_is_not_asked_again(table):
    from rubicon.table.dice import DiceSource

    sim, session, devices = table
    until_done(lambda: sim.sensors.led == "blink", "the tray is asked for the dice (its light blinks)")
    assert session.submit(DiceSource("Caesar", "phone")).result(30).ok
    outcome = session.submit(RollDice("Caesar")).result(30)
    assert outcome.ok and outcome.accepted[0].startswith("Chance rolls ")
    until_done(lambda: sim.sensors.led == "off", "the tray light goes off")
    assert devices.trays[0].session.requested_dice is None     # not asked again after a reconnect


def test_a_roll_line_reusing_the_previous_number_reaches_the_game(table):
    """Such a line was dropped as a replay and nothing asked for it again: the game
    stalled. Now the bridge resynchronises and the snapshot brings the roll."""
    sim, session, devices = table
    source = f"dice@{sim.path}"
    until(session, lambda s: s.public.table["devices"].get(source) == "up", "the tray is up")
    lines = session.snapshot().lines
    sim.renumber(1, verb="ROLL").wait(5)
    assert sim.roll((2, 5))
    snap = until(session, lambda s: s.lines == lines + 1, "the roll is applied")
    assert session.journal.lines(snap.game_id)[1][-1] == "Chance rolls 2 5"
    until_done(lambda: sim.device.unacked == [], "the tray is told the roll was taken")
    assert devices.trays[0].counters["resync"] >= 1


def test_after_rolls_the_pi_could_not_hear_the_game_takes_the_one_in_the_tray(table):
    """Rolled twice while the cable was out: the second roll lies in the tray and is the one
    taken (before: the older, unseen one was applied and the new one refused)."""
    sim, session, devices = table
    source = f"dice@{sim.path}"
    until(session, lambda s: s.public.table["devices"].get(source) == "up", "the tray is up")
    lines = session.snapshot().lines
    sim.unplug().wait(5)
    until(session, lambda s: s.public.table["devices"][source] == "down", "the tray is down")
    assert sim.roll((1, 1))
    assert sim.roll((2, 5))
    sim.replug().wait(5)
    snap = until(session, lambda s: s.lines == lines + 1, "the roll is applied")
    until_done(lambda: sim.device.unacked == [], "the tray forgets both rolls")
    assert session.journal.lines(snap.game_id)[1][lines:] == ["Chance rolls 2 5"]
    assert devices.trays[0].counters["stale_roll"] == 1

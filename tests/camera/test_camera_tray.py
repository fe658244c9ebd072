"""The camera tray end to end: rendered frames at the camera's pace -> motion -> at rest ->
recognised -> device_core's DiceTray on a real pty -> the real pyserial and SerialBridge -> events,
as the table and `rubicon devices monitor` get them; and its self-test command."""
import queue
import time

import pytest

from firmware_bridge.camera.render import Die, Scene, random_scene
from firmware_bridge.camera.sources import DemoSource
from firmware_bridge.camera.tray import CameraTray
from firmware_bridge.events import DeviceDown, DeviceUp, DiceRolled, DiceState, EventQueue
from firmware_bridge.serial_bridge.bridge import SerialBridge
from rubicon.cli import main


@pytest.fixture
def tray():
    source = DemoSource(moving_frames=4)
    device = CameraTray(source).start()
    events = EventQueue()
    bridge = SerialBridge(device.path, events, "dice").start()
    yield source, device, events
    bridge.stop()
    device.close()


def next_of(events, kinds, timeout=30.0):
    """The next event of one of `kinds` (others skipped); fails at the guard deadline."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            event = events.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            pytest.fail(f"no {kinds} within {timeout} s")
        if isinstance(event, kinds):
            return event


def test_a_roll_reaches_the_bridge_as_rolling_then_the_faces(tray):
    source, _, events = tray
    assert next_of(events, DeviceUp).device_kind == "dice"
    scene = random_scene(1101, n=4, touching=True, tilted=0)
    source.roll(scene)
    assert next_of(events, DiceState).state == "rolling"
    rolled = next_of(events, DiceRolled)
    assert sorted(rolled.faces) == sorted(scene.truth())


def test_a_tilted_die_makes_the_tray_crooked_and_a_reroll_is_read(tray):
    source, _, events = tray
    next_of(events, DeviceUp)
    source.roll(Scene((Die(4, 250, 240, tilt=30), Die(6, 400, 240))))
    assert next_of(events, DiceState).state == "rolling"
    assert next_of(events, DiceState).state == "crooked"
    source.roll(Scene((Die(4, 250, 240, angle=20), Die(6, 400, 240))))
    assert next_of(events, DiceRolled).faces == (4, 6)


def test_dice_taken_out_settle_as_rolled_without_a_roll(tray):
    source, device, events = tray
    next_of(events, DeviceUp)
    source.roll(Scene((Die(2, 300, 240),)))
    assert next_of(events, DiceRolled).faces == (2,)
    source.roll(Scene(()))          # a hand takes the die out
    assert next_of(events, DiceState).state == "rolling"
    assert next_of(events, DiceState).state == "rolled"
    assert device.device._roll_id == 1


def test_a_camera_that_stops_makes_the_tray_go_down(tray):
    source, device, events = tray
    next_of(events, DeviceUp)
    source.close()
    assert device.camera_lost.wait(10)
    assert next_of(events, DeviceDown).reason


def test_check_says_what_it_sees_and_saves_a_picture(tmp_path, capsys):
    picture = tmp_path / "check.png"
    code = main(["dice-camera", "check", "--camera", "demo", "--seed", "1101", "--save", str(picture)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "confidence" in out and "the tray would send: ROLL" in out
    assert picture.stat().st_size > 10_000


def test_check_refuses_without_a_camera(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RUBICON_CONFIG", raising=False)
    assert main(["dice-camera", "check"]) == 2
    assert "no camera" in capsys.readouterr().err

"""The bridge keeping a link up: unplugging, stalls, TCP, the wrong device, commands to the device.

Unplugging is real: the simulator closes its pty master, so the bridge's pyserial read of the slave
fails with an I/O error (as when a USB CDC device disappears) and later opens the fresh pty that the
stable symlink now points at. Nothing here is mocked between pyserial and the kernel.
"""
import dataclasses
import random

import pytest

from firmware_bridge.sim.device_sim import DeviceSim
from tests.serial.conftest import FAST, wait_until


def test_fifty_unplug_replug_cycles_lose_and_duplicate_no_roll(rig):
    rng = random.Random(50)
    sim = rig.sim("dice", heartbeat_ms=50)
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    rolled = []

    def roll():
        faces = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 4)))
        assert sim.roll(faces)
        rolled.append(faces)

    for cycle in range(50):
        for _ in range(rng.randint(0, 3)):
            roll()                                   # while plugged in (the bridge may be mid-reconnect)
        sim.unplug().wait()
        for _ in range(rng.randint(0, 2)):
            roll()                                   # while unplugged: kept on the device until ACKed
        sim.replug().wait()
        roll()                                       # racing the bridge's reconnect
        # Each cycle ends when the bridge is back: the tray holds at most 16 unacknowledged rolls.
        assert rig.wait(rig.count("device_up", cycle + 2))
    sentinel = (6, 5, 4, 3)
    assert sim.roll(sentinel)
    assert rig.wait(lambda seen: any(getattr(e, "faces", None) == sentinel for e in seen), timeout=30)

    assert [e.faces for e in rig.of("dice_rolled")] == rolled + [sentinel]
    assert len(rolled) > 50
    assert len(rig.of("device_up")) == 51 and len(rig.of("device_down")) == 50
    assert bridge.counters["lost_roll"] == 0


def test_a_stalled_device_is_declared_down_and_picked_up_again(rig):
    sim = rig.sim("dice")
    rig.bridge(sim.path, "dice", dataclasses.replace(FAST, silence_timeout=0.6))
    assert rig.wait(rig.count("device_up", 1))
    sim.stall(1.5)
    assert sim.roll((3, 3))                           # made while stalled, delivered after
    assert rig.wait(rig.count("dice_rolled", 1))
    kinds = [e.kind for e in rig.seen if e.kind != "dice_state"]
    assert kinds == ["device_up", "device_down", "device_up", "dice_rolled"]
    assert rig.of("device_down")[0].reason.startswith("silent")


def test_board_over_tcp_socket_url_with_a_dropped_connection(rig):
    sim = rig.sim("board", tcp_port=0, readers=8, window_ms=20)
    assert sim.path.startswith("socket://127.0.0.1:")
    rig.bridge(sim.path, "board")
    assert rig.wait(rig.count("device_up", 1))
    sim.place(2, "04A1B2C3")
    assert rig.wait(rig.count("tag_seen", 1))
    sim.unplug().wait()
    sim.place(5, "04000005")                          # while the link is down
    sim.remove(2, "04A1B2C3")
    sim.replug()
    assert rig.wait(lambda seen: len(rig.of("tag_gone")) == 1 and len(rig.of("tag_seen")) == 2)
    assert [(e.kind, e.reader) for e in rig.seen if e.kind.startswith("tag")] == [
        ("tag_seen", 2), ("tag_gone", 2), ("tag_seen", 5)]
    assert rig.of("device_down") and len(rig.of("device_up")) == 2


def test_the_wrong_kind_of_device_is_never_brought_up(rig):
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "board")
    assert not rig.wait(lambda seen: len(seen) > 0, timeout=1.0)     # no event is the expected outcome
    assert bridge.counters["wrong_device"] >= 2 and bridge.connects >= 2
    sim.roll((1,))
    assert not rig.wait(lambda seen: len(seen) > 0, timeout=0.3)


def test_roll_request_and_leds_reach_the_device_and_bad_ones_are_refused(rig):
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice")
    bridge.request_roll(2)                            # before the link is up: sent after the handshake
    assert rig.wait(rig.count("device_up", 1))
    assert sim.do(lambda: None).wait(5)
    with pytest.raises(ValueError):
        bridge.request_roll(0)
    with pytest.raises(ValueError):
        bridge.set_led("tray", "strobe")
    sim.roll((1, 2, 3))                               # three dice where two were asked for: dropped
    sim.roll((5, 6))
    assert rig.wait(rig.count("dice_rolled", 1))
    assert rig.of("dice_rolled")[0].faces == (5, 6)
    assert bridge.counters["dice_mismatch"] == 1
    assert sim.sensors.led == "off"                   # the tray lit up for the request, went dark after


def test_tray_led_command(rig):
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    bridge.set_led("tray", "on")
    assert wait_until(lambda: sim.sensors.led == "on")


def test_simulator_refuses_bad_script_input():
    sim = DeviceSim("board", readers=4)
    try:
        with pytest.raises(ValueError):
            sim.place(4, "04A1B2C3")
        with pytest.raises(ValueError):
            sim.place(1, "XYZ")
        with pytest.raises(ValueError):
            sim.roll((1,))
    finally:
        sim.close()
    with pytest.raises(ValueError):
        DeviceSim("toaster")


def test_an_internal_error_costs_one_line_not_the_reader_thread(rig, monkeypatch):
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    real = bridge.session.handle_line
    failed = []

    def flaky(line):
        if b",HB*" in (line or b"") and not failed:
            failed.append(line)
            raise RuntimeError("a bug")
        return real(line)
    monkeypatch.setattr(bridge.session, "handle_line", flaky)
    assert wait_until(lambda: failed)
    assert sim.roll((2, 2))
    assert rig.wait(rig.count("dice_rolled", 1))
    assert bridge.counters["internal_error"] == 1

"""Tag flicker through the whole chain (simulated scanner -> pty -> pyserial -> bridge).

The board scanner debounces on its own clock with the 400 ms window (firmware_bridge/shared/debounce.py
says why: RF misses last at most a few 50 ms polls, a hand moving a block takes over half a second).
The simulator's flicker hides a placed tag on every other poll and a blip shows a tag for a single
poll, so the raw reads are the same however busy the test machine is.
"""
from firmware_bridge.shared.debounce import DEFAULT_WINDOW_MS
from tests.serial.conftest import wait_until

A, B = "04A1B2C3", "04B0B0B0"


def test_flicker_and_blips_produce_no_events_a_real_move_does(rig):
    sim = rig.sim("board", readers=8, window_ms=DEFAULT_WINDOW_MS)
    rig.bridge(sim.path, "board")
    assert rig.wait(rig.count("device_up", 1))
    sim.place(3, A)
    assert rig.wait(rig.count("tag_seen", 1))
    sim.flicker(3, A, polls=400)
    for _ in range(20):
        sim.blip(4, B).wait()
    assert wait_until(lambda: not sim.sensors._flicker)         # all 400 flickering polls have run
    sim.remove(3, A)
    sim.place(6, A)                                              # the block moved to reader 6
    assert rig.wait(lambda seen: len(rig.of("tag_seen")) == 2 and len(rig.of("tag_gone")) == 1)
    sim.do(lambda: None).wait()
    assert [(e.kind, e.reader, e.uid) for e in rig.seen if e.kind.startswith("tag")] == [
        ("tag_seen", 3, A), ("tag_gone", 3, A), ("tag_seen", 6, A)]

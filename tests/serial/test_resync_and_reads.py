"""The serial tray: a reused or backwards sequence number resynchronises instead of
losing the line, a table never takes an older unseen roll in place of the newest, and a flood
over socket:// is read in blocks. Real ptys and TCP loopback, the real pyserial and bridge."""
import random

from firmware_bridge.serial_bridge.link import READ_BLOCK
from tests.serial.conftest import wait_until


def test_ten_rolls_whose_roll_line_reuses_the_previous_number_are_all_delivered(rig):
    """Before: the ROLL line was dropped as a replay, nothing asked for it again: 10 of 10 lost."""
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    rolled = []
    for n in range(10):
        sim.renumber(1, verb="ROLL").wait(5)
        faces = (n % 6 + 1, 6 - n % 6)
        assert sim.roll(faces)
        rolled.append(faces)
        assert rig.wait(rig.count("dice_rolled", n + 1))
    assert [e.faces for e in rig.of("dice_rolled")] == rolled
    assert bridge.counters["resync"] == 10 and bridge.counters["internal_error"] == 0
    assert wait_until(lambda: sim.device.unacked == [])


def test_a_device_numbering_backwards_mid_game_keeps_delivering(rig):
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    rolled = []
    for n, back in enumerate((5, 300, 1, 499)):
        sim.renumber(back).wait(5)        # whatever line comes next (a heartbeat, a STATE, the ROLL)
        faces = (n + 1,)
        assert sim.roll(faces)
        rolled.append(faces)
        assert rig.wait(rig.count("dice_rolled", n + 1))
    assert [e.faces for e in rig.of("dice_rolled")] == rolled
    assert bridge.counters["resync"] >= 4


def test_a_table_takes_the_newest_roll_never_an_older_unseen_one(rig):
    """Rolls made while the Pi could not hear the tray: the one in the tray now is the last; the
    older ones are ACKed (the tray forgets them) and counted, never delivered."""
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice", table_rolls=True)
    assert rig.wait(rig.count("device_up", 1))
    sim.unplug().wait(5)
    assert sim.roll((1, 1))
    assert sim.roll((2, 2))
    assert sim.roll((6, 5))
    sim.replug().wait(5)
    assert rig.wait(rig.count("dice_rolled", 1))
    rolled = rig.of("dice_rolled")
    assert [e.faces for e in rolled] == [(6, 5)] and rolled[0].roll.endswith("/3")
    assert bridge.counters["stale_roll"] == 2
    # Not ACKed until the table says it has it: the tray still holds the newest roll, only it.
    assert wait_until(lambda: [r[0] for r in sim.device.unacked] == [3])
    bridge.roll_taken(rolled[0].roll)
    assert wait_until(lambda: sim.device.unacked == [])
    assert len(rig.of("dice_rolled")) == 1


def test_a_table_roll_is_kept_by_the_tray_until_taken_and_not_delivered_twice(rig):
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice", table_rolls=True)
    assert rig.wait(rig.count("device_up", 1))
    assert sim.roll((4, 4, 2))
    assert rig.wait(rig.count("dice_rolled", 1))
    sim.unplug().wait(5)                  # a reconnect: the snapshot repeats the roll still held
    sim.replug().wait(5)
    assert rig.wait(rig.count("device_up", 2))
    assert wait_until(lambda: bridge.session.snapshots >= 2)
    assert [r[0] for r in sim.device.unacked] == [1]
    assert len(rig.of("dice_rolled")) == 1 and bridge.counters["duplicate_roll"] >= 1
    bridge.roll_taken(rig.of("dice_rolled")[0].roll)
    assert wait_until(lambda: sim.device.unacked == [])


def test_a_megabyte_garbage_line_over_socket_is_read_in_blocks(rig):
    """Before: socket:// reported one byte waiting, so 1 MB took a million reads (4.8 s), the link
    was declared silent and the tray's buffer overflowed."""
    sim = rig.sim("dice", tcp_port=0)
    assert sim.path.startswith("socket://127.0.0.1:")
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    reads_before = bridge.link.reads
    garbage = random.Random(7).randbytes(1 << 20).replace(b"\n", b"x")
    sim.inject("", raw=garbage + b"\n")
    assert sim.roll((3, 1))
    assert rig.wait(rig.count("dice_rolled", 1))
    assert rig.of("dice_rolled")[0].faces == (3, 1)
    assert bridge.counters["toolong"] == 1 and bridge.counters["link_lost"] == 0
    assert not rig.of("device_down")
    # In blocks: a few hundred reads for the megabyte (each READ_BLOCK at most), not a million.
    assert bridge.link.reads - reads_before < 8 * (len(garbage) // READ_BLOCK)

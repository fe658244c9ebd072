"""Bad input over a real pty and the real pyserial: dropped, counted, never an event or a crash."""
import random

from firmware_bridge.shared.protocol import MAX_LINE, checksum

INVALID_FRAMES = [                      # well framed, right checksum, wrong content
    ("ROLL", (1, 2, 3, 7)),             # face 7
    ("ROLL", (1, 3, 3, 3)),             # three dice announced, two given
    ("ROLL", (1, 5, 1, 1, 1, 1, 1)),    # five dice
    ("STATE", ("tumbling",)),
    ("SEEN", (1, "04A1B2C3")),          # a tray reporting a tag
    ("TAG", (1, "04A1B2C3")),
    ("WOBBLE", (1,)),
    ("HB", ("extra",)),
    ("ERR", ("-", "CHECKSUM")),
]


def garbage_line(rng):
    """One line of rubbish (newline excluded) of a random kind."""
    kind = rng.randrange(5)
    if kind == 0:
        return bytes(rng.choice(range(256)) for _ in range(rng.randint(1, 150))).replace(b"\n", b"")
    if kind == 1:
        return "".join(rng.choice("$*,0123456789ABCDEFROLSTAE ") for _ in range(rng.randint(1, 60))).encode()
    if kind == 2:   # a good-looking frame whose checksum is wrong (never right by chance)
        body = b"%d,ROLL,%d,1,%d" % (rng.randrange(1000), rng.randint(1, 99), rng.randint(1, 6))
        return b"$%s*%02X" % (body, checksum(body) ^ rng.randint(1, 255))
    if kind == 3:
        return b"\x00\xff\x1b[2J" + b"$1,HB*7B"
    return b"$" + b"A" * rng.randint(MAX_LINE, 2000)


def test_ten_thousand_garbage_lines_mixed_with_rolls(rig):
    rng = random.Random(20260101)
    sim = rig.sim("dice", seed=1)
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    rolled, bad_lines = [], 0
    for _ in range(200):
        for _ in range(50):
            if rng.random() < 0.2:
                verb, fields = rng.choice(INVALID_FRAMES)
                sim.inject(verb, fields)
            else:
                line = garbage_line(rng)
                sim.inject("", raw=line + b"\n")
                bad_lines += not line.strip()     # only whitespace: skipped silently, not counted
            bad_lines += 1
        faces = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 4)))
        assert sim.roll(faces)
        rolled.append(faces)
    sentinel = (6, 6, 6, 6)
    assert sim.roll(sentinel)
    assert rig.wait(lambda seen: any(getattr(e, "faces", None) == sentinel for e in seen))
    bridge.stop()
    assert rig.wait(rig.count("device_down", 1))

    assert [e.faces for e in rig.of("dice_rolled")] == rolled + [sentinel]
    states = [e.state for e in rig.of("dice_state")]
    assert states == ["rolling", "rolled"] * 201
    assert len(rig.of("device_up")) == 1 and len(rig.of("device_down")) == 1     # the final stop
    assert {e.kind for e in rig.seen} == {"device_up", "dice_state", "dice_rolled", "device_down"}
    # Every bad line counted once under its reason. (Other counters are not drops: a heartbeat
    # that arrives before the handshake completes counts as before_hello, for instance.)
    reasons = ("format", "checksum", "toolong", "range", "unknown", "kind", "device_error")
    assert sum(bridge.counters[r] for r in reasons) == bad_lines
    assert all(bridge.counters[r] > 0 for r in reasons)
    assert bridge.counters["missed"] == 0 and bridge.counters["internal_error"] == 0


def test_a_megabyte_line_without_newline_is_one_dropped_line(rig):
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    sim.inject("", raw=random.Random(3).randbytes(1 << 20).replace(b"\n", b"x"))
    sim.inject("", raw=b"\n")     # a heartbeat sent in between is swallowed too: a gap, then a snapshot
    assert sim.roll((2, 5))
    assert rig.wait(rig.count("dice_rolled", 1))
    assert rig.of("dice_rolled")[0].faces == (2, 5)
    assert bridge.counters["toolong"] == 1


def test_partial_lines_and_bad_checksums_lose_nothing(rig):
    sim = rig.sim("dice")
    bridge = rig.bridge(sim.path, "dice")
    assert rig.wait(rig.count("device_up", 1))
    sim.partial()                 # spoils itself and the STATE line glued to it
    sim.bad_checksums(3)          # STATE rolled and the ROLL itself are corrupted
    assert sim.roll((4,))
    sim.partial()
    assert sim.roll((1, 3))       # the gap the spoilt lines leave triggers a snapshot
    assert rig.wait(rig.count("dice_rolled", 2))
    assert [e.faces for e in rig.of("dice_rolled")] == [(4,), (1, 3)]
    assert bridge.counters["checksum"] >= 3 and bridge.counters["missed"] >= 3


def test_loop_url_hears_only_its_own_commands_and_emits_nothing(rig):
    bridge = rig.bridge("loop://")
    assert not rig.wait(lambda seen: len(seen) > 0, timeout=1.0)   # the expected outcome is no event
    assert bridge.connects >= 2                 # no HELLO reply: it timed out and reconnected
    assert bridge.counters["format"] >= 1       # its own "HELLO,1" is not a device HELLO

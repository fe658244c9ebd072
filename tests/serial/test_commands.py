"""Commands to a device are resent until answered, then given up; LED wishes survive reconnects."""
from firmware_bridge.serial_bridge.commands import PendingCommands
from firmware_bridge.serial_bridge.session import DeviceSession
from firmware_bridge.shared.protocol import encode


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Wire:
    """The Pi's side of the line: numbers what is sent, like SerialLink.send."""

    def __init__(self):
        self.sent = []

    def __call__(self, verb, fields=()):
        self.sent.append((len(self.sent), verb, fields))
        return len(self.sent) - 1


def test_unanswered_commands_are_resent_then_given_up():
    clock, wire = Clock(), Wire()
    commands = PendingCommands(wire, retry_after=1.0, tries=3, clock=clock)
    commands.send("REQROLL", (2,))
    commands.send("LED", ("tray", "on"))
    assert commands.answered(1) == ("LED", ("tray", "on"))      # OK for the LED
    clock.now = 0.9
    assert commands.tick() == [] and len(wire.sent) == 2
    clock.now = 1.0
    assert commands.tick() == [] and wire.sent[-1] == (2, "REQROLL", (2,))
    clock.now = 2.0
    commands.tick()
    clock.now = 3.0
    assert commands.tick() == [("REQROLL", (2,))]               # three tries, then given up
    assert [v for _, v, _ in wire.sent] == ["REQROLL", "LED", "REQROLL", "REQROLL"]
    assert commands.answered(3) is None


def test_session_answers_and_led_wishes_across_a_reconnect():
    clock, wire, events = Clock(), Wire(), []
    session = DeviceSession("x", events.append, wire, commands=None)
    session.commands = PendingCommands(wire, clock=clock)
    session.set_led("tray", "blink")                             # before the link is up: kept
    session.link_opened()
    seq = [0]

    def device(verb, *fields):
        session.handle_line(encode(seq[0], verb, fields).rstrip(b"\n"))
        seq[0] += 1

    device("HELLO", "dice", "1.0.0", "1", "B0000001", 4)
    led_seq = [s for s, v, f in wire.sent if v == "LED"][0]
    device("ERR", led_seq, "RANGE", "no such LED")
    assert session.counters["device_error"] == 1
    session.request_roll(3)
    roll_seq = wire.sent[-1][0]
    device("OK", roll_seq)
    clock.now = 10
    session.tick()
    assert wire.sent[-1][1] == "REQROLL" and wire.sent[-1][0] == roll_seq   # answered: not resent
    session.link_opened()
    device("HELLO", "dice", "1.0.0", "1", "B0000001", 4)
    assert [v for _, v, _ in wire.sent[-3:]] == ["SNAP", "REQROLL", "LED"]      # both wishes again
    clock.now = 20
    for _ in range(3):
        clock.now += 1
        session.tick()
    assert session.counters["no_reply"] == 2                     # nobody answered either this time

"""The presence debouncer: no committed change unless the raw state held for the whole window."""
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.shared.debounce import DEFAULT_WINDOW_MS, Debouncer

KEY = (3, "04A1B2C3")

# A raw timeline: (milliseconds since the previous poll, is the tag read at this poll)
timelines = st.lists(st.tuples(st.integers(1, 400), st.booleans()), max_size=200)


@given(timelines, st.sampled_from([0, 50, 300]))
def test_every_committed_change_held_raw_for_the_window(timeline, window):
    deb = Debouncer(window)
    now, samples, changes = 0, [], []
    for step, raw in timeline:
        now += step
        samples.append((now, raw))
        for _key, present in deb.update(now, {KEY} if raw else set()):
            changes.append((now, present))
    state = False
    for when, present in changes:
        assert present != state, "changes alternate: never two seens or two gones in a row"
        state = present
        # The samples up to this commit end with an unbroken run showing the new state that
        # spans at least the window.
        start = when
        for t, raw in reversed([(t, raw) for t, raw in samples if t <= when]):
            if raw != present:
                break
            start = t
        assert when - start >= window
    # And nothing real is missed: a raw state read unchanged across a full window ends up stable.
    if samples:
        last = samples[-1][1]
        run = [t for t, raw in samples if t > max([t for t, raw in samples if raw != last], default=-1)]
        if samples[-1][0] - run[0] >= window:
            assert (KEY in deb.stable) == last


def test_flicker_shorter_than_the_window_never_commits():
    deb = Debouncer()
    out = []
    for now in range(0, 2000, 50):      # present from t=0 ...
        out += deb.update(now, {KEY})
    for now in range(2000, 10000, 50):  # ... then missed one poll in three, runs of up to 100 ms
        out += deb.update(now, set() if now % 150 else {KEY})
    assert out == [(KEY, True)]


def test_real_removal_and_placement_commit_after_the_window():
    deb = Debouncer()
    assert deb.update(0, {KEY}) == []
    assert deb.update(DEFAULT_WINDOW_MS - 1, {KEY}) == []
    assert deb.update(DEFAULT_WINDOW_MS, {KEY}) == [(KEY, True)]
    assert deb.update(1000, set()) == []
    assert deb.update(1000 + DEFAULT_WINDOW_MS, set()) == [(KEY, False)]
    assert deb.stable == set()


def test_a_return_within_the_window_cancels_the_pending_change():
    deb = Debouncer(300)
    deb.update(0, {KEY})
    deb.update(300, {KEY})
    assert deb.update(400, set()) == []
    assert deb.update(500, {KEY}) == []
    assert deb.update(650, set()) == []       # the absence restarts at 650, not 400
    assert deb.update(900, set()) == []
    assert deb.update(950, set()) == [(KEY, False)]


def test_with_arrive_reads_a_set_down_counts_after_two_reads_and_a_lift_still_waits_for_the_window():
    """The board scanner's arrivals are not held by the departure window."""
    deb = Debouncer(DEFAULT_WINDOW_MS, arrive_reads=2)
    assert deb.update(0, {KEY}) == []                 # one read: maybe a block carried over the loop
    assert deb.update(150, set()) == []
    assert deb.update(300, {KEY}) == []
    assert deb.update(450, {KEY}) == [(KEY, True)]   # the second consecutive pass: 150 ms, not 400
    assert deb.update(600, set()) == []
    assert deb.update(600 + DEFAULT_WINDOW_MS - 1, set()) == []
    assert deb.update(600 + DEFAULT_WINDOW_MS, set()) == [(KEY, False)]


def test_the_firmware_as_shipped_reports_an_arrival_at_its_first_confirmed_pass(firmware, monkeypatch):
    """hardware/firmware/main.py builds the board scanner from firmware_config as shipped: the sensors take
    the second read at once (CONFIRM_AT_ONCE), so the pass that has it confirmed reports it; departures
    still wait for DEBOUNCE_MS."""
    import sys
    import types

    cfg = types.SimpleNamespace(**{k: getattr(firmware.firmware_config, k)
                                   for k in dir(firmware.firmware_config) if k.isupper()})
    cfg.KIND = "board"
    assert cfg.CONFIRM_AT_ONCE and cfg.ARRIVE_READS == 2 and cfg.DEBOUNCE_MS == 400

    class Sensors:
        count = 1
        uids: list = []

        def read(self):
            return [list(self.uids)]

    monkeypatch.setitem(sys.modules, "scanner_sensors",
                        types.SimpleNamespace(ScannerSensors=lambda machine, cfg: Sensors()))
    device = firmware.make_device(None, cfg, lambda line: None)
    Sensors.uids = ["04A1B2C3"]
    device.sense(0)
    assert device.debouncer.stable == {(0, "04A1B2C3")}
    Sensors.uids = []
    device.sense(240)
    assert device.debouncer.stable == {(0, "04A1B2C3")}
    device.sense(240 + cfg.DEBOUNCE_MS)
    assert device.debouncer.stable == set()


def test_the_scanner_reads_a_new_tag_twice_in_one_field_and_drops_a_single_read(firmware):
    """CONFIRM_AT_ONCE: a reader that finds a tag it did not hold reads again at once; a tag read once only (a
    block passing over) is not reported."""
    import types

    from firmware_bridge.emulation.mfrc522_chip import Mfrc522Chip
    from firmware_bridge.emulation.picc import Picc
    from firmware_bridge.emulation.rf_field import RfField
    from tests.serial.fake_machine import make_machine

    cfg = types.SimpleNamespace(**{k: getattr(firmware.firmware_config, k)
                                   for k in dir(firmware.firmware_config) if k.isupper()})
    cfg.READER_CS_PINS, cfg.READER_LED_PINS, cfg.FIELD_MS, cfg.READER_SELECT = (17,), (2,), 0, "pins"
    chip = Mfrc522Chip(RfField())
    import scanner_sensors

    sensors = scanner_sensors.ScannerSensors(make_machine(spi_chips={17: chip}), cfg)
    tag = Picc("04A1B2C3D4E5F6")
    chip.field.place(tag)
    before = chip.field.frames
    assert sensors.read() == [["04A1B2C3D4E5F6"]]
    first = chip.field.frames - before
    before = chip.field.frames
    assert sensors.read() == [["04A1B2C3D4E5F6"]]          # held: read once per pass
    assert first > chip.field.frames - before                 # the first pass read the field twice

    class OnceOnly:                                           # a reader whose second read misses the tag
        def __init__(self, reader):
            self.reader, self.calls = reader, 0

        def __getattr__(self, name):
            return getattr(self.reader, name)

        def inventory(self):
            self.calls += 1
            return ["04FFFFFF"] if self.calls == 1 else []

    sensors.readers[0] = OnceOnly(sensors.readers[0])
    sensors._last[0] = []
    assert sensors.read() == [[]]

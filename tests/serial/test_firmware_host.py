"""The reference RP2040 firmware running on the host (fake `machine`), talking to the real bridge
through a pty: firmware -> fake UART -> pty master ... pty slave -> pyserial -> SerialBridge."""
import contextlib
import os
import pty
import threading
import tty
import types

import pytest

from tests.serial.conftest import wait_until
from tests.serial.fake_machine import make_machine


class Firmware:
    """The firmware's main loop in a thread on the device end of a fresh pty."""

    def __init__(self, main, machine, cfg):
        self.machine, self.stop = machine, threading.Event()
        link, self.device = main.build(machine, cfg)
        self.thread = threading.Thread(target=main.serve, args=(link, self.device, cfg, self.stop.is_set),
                                       daemon=True)
        self.thread.start()

    def close(self):
        self.stop.set()
        self.thread.join(5)


@contextlib.contextmanager
def on_a_pty(main, cfg, **machine_kw):
    """The firmware running with its UART 0 on a fresh pty; yields (machine, firmware, tty path)."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    machine = make_machine(uart_fds={0: master}, **machine_kw)
    fw = Firmware(main, machine, cfg)
    try:
        yield machine, fw, os.ttyname(slave)
    finally:
        fw.close()
        os.close(master)
        os.close(slave)


def dice_config(firmware, **overrides):
    values = {k: getattr(firmware.firmware_config, k) for k in dir(firmware.firmware_config) if k.isupper()}
    values.update(KIND="dice", LINK="uart", SETTLE_MS=50, LOOP_MS=2)
    values.update(overrides)
    return types.SimpleNamespace(**values)


def lay_dice(machine, cfg, faces):
    """Put dice showing `faces` in the pockets (None: empty, 7: a die not flat)."""
    empty = [None] * (len(cfg.POCKET_PINS) - len(faces))
    for trio, face in zip(cfg.POCKET_PINS, list(faces) + empty, strict=True):
        code = face or 0
        for bit, gpio in enumerate(trio):
            machine.pins[gpio].drive(0 if code >> bit & 1 else 1)   # active low: reflection pulls down


def test_dice_tray_firmware_talks_to_the_bridge_over_a_pty(firmware, rig):
    cfg = dice_config(firmware)
    with on_a_pty(firmware, cfg) as (machine, fw, path):
        bridge = rig.bridge(path, "dice")
        assert rig.wait(rig.count("device_up", 1))
        assert rig.of("device_up")[0].firmware == "1.0.0"
        bridge.request_roll(3)
        led = machine.pins[cfg.TRAY_LED_PIN]
        assert wait_until(lambda: fw.device.sensors.led.mode == "blink")

        shake = machine.pins[cfg.MOTION_PIN]

        def throw(faces):
            # Dice laid first, then the shake: the pockets are read only after a shake has settled,
            # so the firmware cannot catch the pockets half-laid however the threads interleave.
            lay_dice(machine, cfg, faces)
            shake.drive(1)
            shake.drive(0)                               # a short pulse, latched by the interrupt

        throw((5, 2, 6))
        assert rig.wait(rig.count("dice_rolled", 1))
        assert rig.of("dice_rolled")[0].faces == (5, 2, 6)
        assert led.value() == 0 and fw.device.sensors.led.mode == "off"

        throw((4, 7))                                    # the second die is leaning on the wall
        assert rig.wait(lambda seen: rig.of("dice_state")[-1:] and rig.of("dice_state")[-1].state == "crooked")
        throw((4, 1))
        assert rig.wait(rig.count("dice_rolled", 2))
        assert [e.state for e in rig.of("dice_state")] == ["rolling", "rolled", "rolling", "crooked",
                                                          "rolling", "rolled"]
        assert rig.of("dice_rolled")[1].faces == (4, 1)
        assert wait_until(lambda: fw.device.unacked == [])   # the bridge acknowledged both rolls
        assert fw.device.rx_errors == 0


def test_board_scanner_firmware_reads_emulated_mfrc522s_and_reports_through_the_bridge(firmware, rig):
    from firmware_bridge.emulation.mfrc522_chip import Mfrc522Chip
    from firmware_bridge.emulation.picc import Picc
    from firmware_bridge.emulation.rf_field import RfField

    # Chips on fields of their own (no radio: their tags always powered), so no field time to wait:
    # this test is about the protocol, the harsh-radio one below about the fields.
    cfg = dice_config(firmware, KIND="board", DEBOUNCE_MS=50, READER_CS_PINS=(17, 20, 21, 22),
                      READER_LED_PINS=(2, 3, 4, 5), FIELD_MS=0)
    chips = {cs: Mfrc522Chip(RfField()) for cs in cfg.READER_CS_PINS[:3]}     # reader 3 is not fitted
    fields = [chips[cs].field for cs in cfg.READER_CS_PINS[:3]]
    caesar, pompey, navis = Picc("04A1B2C3"), Picc("04A1B2C7"), Picc("04112233445566")
    for tag in (caesar, pompey, navis):
        fields[1].place(tag)             # three blocks in one city: two 4-byte UIDs one bit apart, one 7-byte
    with on_a_pty(firmware, cfg, spi_chips=chips) as (machine, fw, path):
        bridge = rig.bridge(path, "board")
        assert rig.wait(rig.count("tag_seen", 3))
        assert sorted((e.reader, e.uid) for e in rig.of("tag_seen")) == [
            (1, "04112233445566"), (1, "04A1B2C3"), (1, "04A1B2C7")]
        fields[1].remove(pompey)         # Pompey marches to reader 2
        fields[2].place(pompey)
        assert rig.wait(rig.count("tag_seen", 4))
        assert rig.wait(rig.count("tag_gone", 1))
        assert [(e.kind, e.reader, e.uid) for e in rig.seen if e.kind.startswith("tag")][3:] in (
            [("tag_gone", 1, "04A1B2C7"), ("tag_seen", 2, "04A1B2C7")],
            [("tag_seen", 2, "04A1B2C7"), ("tag_gone", 1, "04A1B2C7")])
        bridge.set_led(2, "on")
        assert wait_until(lambda: machine.pins[4].value() == 1)
        assert fw.device.rx_errors == 0
        assert fw.device.sensors.alive == [True, True, True, False]
        assert rig.of("device_up")[0].source.startswith("board@")


def test_board_scanner_firmware_reads_one_field_at_a_time_under_the_harsh_radio(firmware, rig):
    """The Pico's readers 70 mm apart on the emulator's harsh radio (neighbour coupling, capture,
    range): each field on only for its read, every tag reported on its own reader only, the tag a
    stronger one drowns found by the final request."""
    from firmware_bridge.emulation.mfrc522_chip import Mfrc522Chip
    from firmware_bridge.emulation.picc import Picc
    from firmware_bridge.emulation.radio import HarshModel, Radio
    from firmware_bridge.emulation.rf_field import RfField

    cfg = dice_config(firmware, KIND="board", DEBOUNCE_MS=50, READER_CS_PINS=(17, 20, 21),
                      READER_LED_PINS=(2, 3, 4))
    radio = Radio(harsh=HarshModel({i: (70.0 * i, 0.0) for i in range(3)}))
    chips = {cs: Mfrc522Chip(RfField(radio, i)) for i, cs in enumerate(cfg.READER_CS_PINS)}
    placed = {"04A1B2C3": (0, (0, 0)), "04A1B2C7": (0, (0, 30)),         # strong and weak: capture
              "04112233445566": (1, (15, 0)),                            # 55 mm from reader 2's antenna
              "04998877665544": (2, (0, 0))}
    for uid, (reader, (dx, dy)) in placed.items():
        rf = chips[cfg.READER_CS_PINS[reader]].field
        radio.positions[uid] = (70.0 * reader + dx, dy)
        rf.place(Picc(uid))
    with on_a_pty(firmware, cfg, spi_chips=chips) as (machine, fw, path):
        rig.bridge(path, "board")
        assert rig.wait(rig.count("tag_seen", 4))
        assert sorted((e.uid, e.reader) for e in rig.of("tag_seen")) == sorted((u, r) for u, (r, _) in placed.items())
        assert radio.max_on == 1 and radio.jammed == 0


@pytest.mark.parametrize("pipeline", [False, True])
def test_the_region_hub_firmware_selects_through_74hc154_decoders_on_both_buses(firmware, rig, pipeline):
    """The sensing board's region hub (hardware/BOARD-BUILD.md): modules on SPI0 and SPI1, each selected
    through its bus's 74HC154 (A0-A3, /E); the Pico numbers bus 0's readers then bus 1's; under the harsh
    radio one field at a time, or pipelined two at once (the next field settling during this read, on the
    other bus: far apart, so nothing is jammed); the modules held out of reset; an unfitted output is a
    dead reader, never a gone block."""
    from firmware_bridge.emulation.mfrc522_chip import Mfrc522Chip
    from firmware_bridge.emulation.picc import Picc
    from firmware_bridge.emulation.radio import HarshModel, Radio
    from firmware_bridge.emulation.rf_field import RfField

    buses = ((0, 18, 19, 16, (2, 3, 4, 5), 17, 3), (1, 10, 11, 12, (6, 7, 8, 9), 13, 3))
    cfg = dice_config(firmware, KIND="board", DEBOUNCE_MS=50, READER_SELECT="decoders", SPI_BUSES=buses,
                      RESET_PIN=14, PIPELINE=pipeline)
    # Pico readers 0-2 on bus 0 (decoder outputs 0-2), 3-5 on bus 1; bus 1's output 2 has no module fitted.
    radio = Radio(harsh=HarshModel({i: (60.0 * i, 0.0) for i in range(5)}))     # bus 1 beyond bus 0
    chips = {i: Mfrc522Chip(RfField(radio, i)) for i in range(5)}
    decoders = {0: ((2, 3, 4, 5), 17, {n: chips[n] for n in range(3)}),
                1: ((6, 7, 8, 9), 13, {n: chips[3 + n] for n in range(2)})}
    placed = {"04A1B2C3": 0, "04A1B2C7": 2, "04112233445566": 3, "04998877665544": 4}
    for uid, reader in placed.items():
        radio.positions[uid] = (60.0 * reader, 0.0)
        chips[reader].field.place(Picc(uid))
    with on_a_pty(firmware, cfg, spi_decoders=decoders) as (machine, fw, path):
        rig.bridge(path, "board")
        assert rig.wait(rig.count("tag_seen", 4))
        assert sorted((e.uid, e.reader) for e in rig.of("tag_seen")) == sorted(placed.items())
        assert fw.device.sensors.count == 6
        assert fw.device.sensors.alive == [True, True, True, True, True, False]
        assert radio.max_on == (2 if pipeline else 1) and radio.jammed == 0
        assert machine.pins[14].value() == 1                    # NRSTPD high: the modules run
        assert {(bus, n) for bus, n in list(machine.selections)} == {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)}


def test_pipelined_fields_follow_the_layout_s_scan_order_and_stay_apart(firmware, rig):
    """Five modules where bus 0 and bus 1 alternating would put two neighbours' fields on at once (reader 0
    and reader 3, 60 mm apart): with the layout's SCAN_ORDER the fields on together lie far apart, nothing
    is jammed and every tag is read on its own reader."""
    from firmware_bridge.emulation.mfrc522_chip import Mfrc522Chip
    from firmware_bridge.emulation.picc import Picc
    from firmware_bridge.emulation.radio import HarshModel, Radio
    from firmware_bridge.emulation.rf_field import RfField

    where = {0: (0.0, 0.0), 1: (200.0, 200.0), 2: (200.0, 0.0), 3: (60.0, 0.0), 4: (400.0, 0.0)}
    buses = ((0, 18, 19, 16, (2, 3, 4, 5), 17, 3), (1, 10, 11, 12, (6, 7, 8, 9), 13, 2))

    def run(order):
        radio = Radio(harsh=HarshModel(where))
        chips = {i: Mfrc522Chip(RfField(radio, i)) for i in where}
        decoders = {0: ((2, 3, 4, 5), 17, {n: chips[n] for n in range(3)}),
                    1: ((6, 7, 8, 9), 13, {n: chips[3 + n] for n in range(2)})}
        for i, (x, y) in where.items():
            uid = f"04A1B2{i:02X}"
            radio.positions[uid] = (x, y)
            chips[i].field.place(Picc(uid))
        cfg = dice_config(firmware, KIND="board", DEBOUNCE_MS=50, READER_SELECT="decoders", SPI_BUSES=buses,
                          RESET_PIN=None, PIPELINE=True, SCAN_ORDER=order)
        with on_a_pty(firmware, cfg, spi_decoders=decoders) as (machine, fw, path):
            rig.bridge(path, "board")
            assert rig.wait(rig.count("tag_seen", 5))
            assert sorted((e.reader, e.uid) for e in rig.of("tag_seen")) == [(i, f"04A1B2{i:02X}") for i in where]
            assert fw.device.sensors.order == list(order)
        return radio

    radio = run((0, 2, 4, 1, 3))
    assert radio.max_on == 2 and radio.jammed == 0

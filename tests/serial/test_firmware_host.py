"""The reference RP2040 firmware running on the host (fake `machine`), talking to the real bridge
through a pty: firmware -> fake UART -> pty master ... pty slave -> pyserial -> SerialBridge."""
import os
import pty
import sys
import threading
import tty
import types
from pathlib import Path

import pytest

from tests.serial.conftest import wait_until
from tests.serial.fake_machine import make_machine

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
FIRMWARE_MODULES = ("main", "firmware_config", "leds", "tray_sensors", "pico_links", "scanner_sensors",
                    "mfrc522_pico")


@pytest.fixture
def firmware(monkeypatch):
    """Import the firmware's modules from hardware/firmware, and forget them afterwards."""
    monkeypatch.syspath_prepend(str(FIRMWARE))
    for name in FIRMWARE_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    import main
    yield main
    for name in FIRMWARE_MODULES:
        sys.modules.pop(name, None)


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


def dice_config(firmware, **overrides):
    values = {k: getattr(firmware.firmware_config, k) for k in dir(firmware.firmware_config) if k.isupper()}
    values.update(KIND="dice", LINK="uart", SETTLE_MS=50, LOOP_MS=2)
    values.update(overrides)
    return types.SimpleNamespace(**values)


def open_pty():
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave


def lay_dice(machine, cfg, faces):
    """Put dice showing `faces` in the pockets (None: empty, 7: a die not flat)."""
    for trio, face in zip(cfg.POCKET_PINS, list(faces) + [None] * 4):
        code = face or 0
        for bit, gpio in enumerate(trio):
            machine.pins[gpio].drive(0 if code >> bit & 1 else 1)   # active low: reflection pulls down


def test_dice_tray_firmware_talks_to_the_bridge_over_a_pty(firmware, rig):
    master, slave = open_pty()
    machine = make_machine(uart_fds={0: master})
    cfg = dice_config(firmware)
    fw = Firmware(firmware, machine, cfg)
    try:
        bridge = rig.bridge(os.ttyname(slave), "dice")
        assert rig.wait(rig.count("device_up", 1))
        assert rig.of("device_up")[0].firmware == "1.0.0"
        bridge.request_roll(3)
        led = machine.pins[cfg.TRAY_LED_PIN]
        assert wait_until(lambda: fw.device.sensors.led.mode == "blink")

        shake = machine.pins[cfg.MOTION_PIN]
        shake.drive(1)
        shake.drive(0)                                   # a short pulse, latched by the interrupt
        lay_dice(machine, cfg, (5, 2, 6))
        assert rig.wait(rig.count("dice_rolled", 1))
        assert rig.of("dice_rolled")[0].faces == (5, 2, 6)
        assert led.value() == 0 and fw.device.sensors.led.mode == "off"

        shake.drive(1)
        shake.drive(0)
        lay_dice(machine, cfg, (4, 7))                   # the second die is leaning on the wall
        assert rig.wait(lambda seen: rig.of("dice_state")[-1:] and rig.of("dice_state")[-1].state == "crooked")
        shake.drive(1)
        shake.drive(0)
        lay_dice(machine, cfg, (4, 1))
        assert rig.wait(rig.count("dice_rolled", 2))
        assert [e.state for e in rig.of("dice_state")] == ["rolling", "rolled", "rolling", "crooked",
                                                          "rolling", "rolled"]
        assert rig.of("dice_rolled")[1].faces == (4, 1)
        assert wait_until(lambda: fw.device.unacked == [])   # the bridge acknowledged both rolls
        assert fw.device.rx_errors == 0
    finally:
        fw.close()
        os.close(master)
        os.close(slave)

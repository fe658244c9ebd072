"""The firmware can be stopped for an update without reflashing (hardware/firmware/README.md).

`mpremote` begins every command with Ctrl-C on the USB REPL: the firmware must then stop its loop
once, cleanly (lights off, shake interrupt released, no traceback) and leave the REPL free; and a
jumper on the safe-mode pin at boot must skip the loop altogether. Run under CPython with the fake
`machine` module and a fake REPL port that raises KeyboardInterrupt as MicroPython does.
"""
import pytest

from firmware_bridge.shared.protocol import encode
from tests.serial.fake_machine import make_machine
from tests.serial.fake_repl import ReplPort
from tests.serial.test_firmware_host import dice_config

GUARD_POLLS = 2000     # a loop that never stops fails the test instead of hanging it


@pytest.fixture
def repl(monkeypatch):
    """The fake port, installed as sys.stdin/stdout for the test's call phase (pytest's own capture
    sets sys.stdout again between setup and call, so a fixture cannot install it)."""
    port = ReplPort()
    yield lambda: port.install(monkeypatch)
    port.close()


def lines(port):
    return port.written.decode().splitlines()


def test_ctrl_c_from_mpremote_stops_the_dice_tray_once_with_its_light_off(firmware, repl):
    repl = repl()
    cfg = dice_config(firmware, LINK="usb")
    machine = make_machine()
    repl.type(encode(1, "LED", ("tray", "on")))
    polls, typed = [], []

    def loop_turn():
        polls.append(1)
        if machine.pins[cfg.TRAY_LED_PIN].value() == 1 and not typed:
            repl.type(b"\r\x03")            # what mpremote sends before it asks for the raw REPL
            typed.append(1)
        return len(polls) > GUARD_POLLS

    assert firmware.run(machine, cfg, loop_turn) == "interrupted"
    assert typed and len(polls) < GUARD_POLLS
    assert repl.interrupt_char == 3                              # Ctrl-C left on
    assert machine.pins[cfg.TRAY_LED_PIN].value() == 0
    assert machine.pins[cfg.MOTION_PIN]._irq[0] is None          # no handler left under the REPL
    said = lines(repl)
    assert said[0].startswith("$0,HELLO,dice,") and said[1].startswith("$1,OK,1*")
    assert said[-1] == "rubicon: stopped by Ctrl-C, lights off, REPL free"
    assert not any("Traceback" in line for line in said)


@pytest.mark.parametrize("landing", ["sleep_ms", "ticks_ms"])
def test_ctrl_c_anywhere_in_the_loop_leaves_every_scanner_led_off(firmware, repl, monkeypatch, landing):
    repl = repl()
    """MicroPython raises the interrupt at whatever the loop is doing, and a second Ctrl-C may land
    while the firmware is putting its lights out."""
    cfg = dice_config(firmware, KIND="board", LINK="usb", READER_CS_PINS=(17, 20, 21),
                      READER_LED_PINS=(2, 3, 4))
    machine = make_machine()
    repl.type(encode(1, "LED", (0, "on")) + encode(2, "LED", (2, "blink")))
    real = getattr(firmware, landing)
    calls = []

    def interrupted(*args):
        calls.append(1)
        if machine.pins[2].value() == 1:
            raise KeyboardInterrupt
        assert len(calls) < GUARD_POLLS
        return real(*args)

    monkeypatch.setattr(firmware, landing, interrupted)
    import leds
    real_set, second = leds.Led.set, []

    def set_twice_interrupted(led, mode):
        if mode == "off" and not second:
            second.append(1)
            raise KeyboardInterrupt
        real_set(led, mode)

    monkeypatch.setattr(leds.Led, "set", set_twice_interrupted)
    assert firmware.run(machine, cfg) == "interrupted"
    assert second == [1]
    assert [machine.pins[p].value() for p in cfg.READER_LED_PINS] == [0, 0, 0]
    assert lines(repl)[-1] == "rubicon: stopped by Ctrl-C, lights off, REPL free"


def test_safe_mode_jumper_at_boot_skips_the_loop(firmware, repl):
    repl = repl()
    cfg = dice_config(firmware, LINK="usb")
    machine = make_machine()
    jumper = machine.Pin(cfg.SAFE_MODE_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    jumper.drive(0)

    def loop_turn():
        raise AssertionError("the main loop ran in safe mode")

    assert firmware.run(machine, cfg, loop_turn) == "safe mode"
    assert set(machine.pins) == {cfg.SAFE_MODE_PIN}              # no output driven, no LED lit
    assert lines(repl) == ["rubicon: safe mode (GP28 held to GND): main loop skipped, REPL free"]


def test_without_the_jumper_the_tray_boots_as_usual(firmware, repl):
    repl = repl()
    cfg = dice_config(firmware, LINK="usb")
    machine = make_machine()
    assert firmware.run(machine, cfg, lambda: True) == "stopped"
    assert machine.pins[cfg.SAFE_MODE_PIN].value() == 1           # the pull-up, no jumper
    assert lines(repl)[0].startswith("$0,HELLO,dice,1.0.0,1,")


def test_safe_mode_pin_is_free_in_every_build(firmware):
    cfg = firmware.firmware_config
    used = {cfg.UART_TX, cfg.UART_RX, cfg.MOTION_PIN, cfg.TRAY_LED_PIN, cfg.SPI_SCK, cfg.SPI_MOSI, cfg.SPI_MISO}
    used |= {p for trio in cfg.POCKET_PINS for p in trio} | set(cfg.READER_CS_PINS) | set(cfg.READER_LED_PINS)
    assert cfg.SAFE_MODE_PIN not in used
    assert cfg.SAFE_MODE_PIN in (*range(0, 23), 26, 27, 28)        # a GPIO the Pico brings out

"""The firmware can be updated with mpremote without reflashing: Ctrl-C on the USB link stops it at
a clean point and leaves what follows for the REPL, and a safe-mode pin keeps it from starting
(hardware/firmware/main.py, pico_links.py). The firmware runs on CPython with a fake `machine`,
a fake `micropython` and real pipes for the USB link's stdin/stdout."""
import os
import sys
import threading
import types

import pytest

from tests.serial.fake_machine import make_machine
from tests.serial.test_firmware_host import dice_config, firmware  # noqa: F401  (the fixture)


class _Stream:
    """MicroPython's sys.stdin on USB: `buffer` reads exactly what is asked (no read-ahead)."""

    def __init__(self, fd):
        self.buffer = open(fd, "rb", buffering=0)

    def fileno(self):
        return self.buffer.fileno()


@pytest.fixture
def usb(monkeypatch):
    """The Pico's USB CDC as two pipes: (write end of the firmware's stdin, read end of its stdout, fake
    micropython module)."""
    micropython = types.SimpleNamespace(interrupt_char=3)
    micropython.kbd_intr = lambda c: setattr(micropython, "interrupt_char", c)
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    stdin, stdout = _Stream(in_r), open(out_w, "w")
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    yield in_w, out_r, micropython
    stdin.buffer.close()
    stdout.close()
    os.close(in_w)
    os.close(out_r)


def test_ctrl_c_stops_the_firmware_and_leaves_the_rest_for_the_repl(firmware, usb):  # noqa: F811
    in_w, out_r, micropython = usb
    cfg = dice_config(firmware, LINK="usb")
    machine = make_machine()
    link, device = firmware.build(machine, cfg)
    assert micropython.interrupt_char == -1         # off while the firmware runs
    result = []
    runner = threading.Thread(target=lambda: result.append(firmware.serve(link, device, cfg)), daemon=True)
    runner.start()
    hello = b"$0,HELLO,1*" + b"%02X" % (ord("0") ^ ord(",") ^ 0) + b"\n"
    os.write(in_w, hello)
    os.write(in_w, b"\r\x03\r\x01")                 # what mpremote sends: Ctrl-C, then Ctrl-A (raw REPL)
    runner.join(20)
    assert not runner.is_alive() and result == ["stopped"]
    assert micropython.interrupt_char == 3          # the REPL has its Ctrl-C back
    assert device.sensors.led.mode == "off"
    os.set_blocking(sys.stdin.fileno(), False)
    assert sys.stdin.buffer.read(16) == b"\r\x01"     # left for the REPL's raw mode


def test_protocol_bytes_never_stop_it(firmware, usb):  # noqa: F811
    in_w, _, micropython = usb
    cfg = dice_config(firmware, LINK="usb")
    link, _ = firmware.build(make_machine(), cfg)
    every_printable = bytes(range(0x20, 0x7F)) + b"\r\n"
    os.write(in_w, every_printable)
    got = b""
    while len(got) < len(every_printable):
        got += link.read()
    assert got == every_printable and micropython.interrupt_char == -1


def test_safe_mode_pin_keeps_the_firmware_from_starting(firmware, usb, capsys):  # noqa: F811
    cfg = dice_config(firmware, LINK="usb")
    machine = make_machine()
    machine.Pin(cfg.SAFE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).drive(0)     # the jumper to GND
    assert firmware.main(machine, cfg) == "safe"
    assert usb[2].interrupt_char == 3               # never switched off: the REPL is untouched


def test_without_the_jumper_the_pin_reads_high(firmware):  # noqa: F811
    cfg = dice_config(firmware)
    assert not firmware.safe_mode(make_machine(), cfg)

"""A stand-in for `RPi.GPIO`, enough for the mfrc522 library: numbering mode, setup, output, cleanup.

It records every pin's last level so a test can check the reset line the library drives.
"""
from __future__ import annotations

import types


def make_rpi_modules() -> tuple[types.ModuleType, types.ModuleType]:
    """Return (`RPi` package, `RPi.GPIO` module) objects with their own state."""
    gpio = types.ModuleType("RPi.GPIO", "Emulated RPi.GPIO (Rubicon test rig)")
    gpio.BOARD, gpio.BCM = 10, 11
    gpio.OUT, gpio.IN = 0, 1
    gpio.LOW, gpio.HIGH = 0, 1
    gpio.PUD_OFF, gpio.PUD_DOWN, gpio.PUD_UP = 20, 21, 22
    gpio.levels = {}
    gpio.functions = {}
    state = {"mode": None}

    def setmode(mode):
        if mode not in (gpio.BOARD, gpio.BCM):
            raise ValueError("An invalid mode was passed to setmode()")
        if state["mode"] is not None and state["mode"] != mode:
            raise ValueError("A different mode has already been set!")
        state["mode"] = mode

    def getmode():
        return state["mode"]

    def _need_mode():
        if state["mode"] is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)")

    def setup(channel, direction, pull_up_down=20, initial=-1):
        _need_mode()
        gpio.functions[channel] = direction
        if direction == gpio.OUT and initial != -1:
            gpio.levels[channel] = int(initial)

    def output(channel, value):
        _need_mode()
        if gpio.functions.get(channel) != gpio.OUT:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        gpio.levels[channel] = int(bool(value))

    def input(channel):
        _need_mode()
        return gpio.levels.get(channel, 0)

    def cleanup(channel=None):
        gpio.functions.clear()
        state["mode"] = None

    def setwarnings(flag):
        pass

    for fn in (setmode, getmode, setup, output, input, cleanup, setwarnings):
        setattr(gpio, fn.__name__, fn)
    package = types.ModuleType("RPi", "Emulated RPi package (Rubicon test rig)")
    package.__path__ = []
    package.GPIO = gpio
    return package, gpio

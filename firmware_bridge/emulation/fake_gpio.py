"""A stand-in for `RPi.GPIO`, enough for the mfrc522 library: numbering mode, setup, output, cleanup.

It records every pin's last level so a test can check the reset line the library drives.
"""
from __future__ import annotations

import types


class EmulatedGpio(types.ModuleType):
    """The `RPi.GPIO` module object: its constants, and each pin's last level and direction."""

    def __init__(self) -> None:
        super().__init__("RPi.GPIO", "Emulated RPi.GPIO (Rubicon test rig)")
        self.BOARD, self.BCM = 10, 11
        self.OUT, self.IN = 0, 1
        self.LOW, self.HIGH = 0, 1
        self.PUD_OFF, self.PUD_DOWN, self.PUD_UP = 20, 21, 22
        self.levels: dict[int, int] = {}
        self.functions: dict[int, int] = {}


class EmulatedRpi(types.ModuleType):
    """The `RPi` package object, holding its one module `GPIO`."""

    def __init__(self, gpio: EmulatedGpio) -> None:
        super().__init__("RPi", "Emulated RPi package (Rubicon test rig)")
        self.__path__ = []
        self.GPIO = gpio


def make_rpi_modules() -> tuple[EmulatedRpi, EmulatedGpio]:
    """Return (`RPi` package, `RPi.GPIO` module) objects with their own state."""
    gpio = EmulatedGpio()
    state: dict[str, int | None] = {"mode": None}

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
    return EmulatedRpi(gpio), gpio

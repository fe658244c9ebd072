"""The table panel: per side a Done button and a status RGB LED, plus one buzzer (gpiozero devices).

Pins come from `panel.toml` (packaged default or a path). A press puts `PanelPressed` on the event
queue. `feedback(kind, side)` is what the table session calls: "ok" (green, one short beep),
"illegal" (red, three short beeps) and "your_turn" (this side blue, the other side dark, one
long beep). LEDs are plain on/off (no PWM), so every colour is a steady state a test can read.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_bridge.board.reader_map import SIDES
from firmware_bridge.config_files import ConfigError, load_toml, pin_list, require
from firmware_bridge.events import EventQueue, PanelPressed
from lifecycle import Lifecycle

COLOURS = {"off": (0, 0, 0), "green": (0, 1, 0), "red": (1, 0, 0), "blue": (0, 0, 1)}
# kind -> (LED colour of that side, beeps: (on s, off s, count))
FEEDBACK = {
    "ok": ("green", (0.08, 0.08, 1)),
    "illegal": ("red", (0.08, 0.08, 3)),
    "your_turn": ("blue", (0.3, 0.1, 1)),
}


@dataclass(frozen=True)
class SidePins:
    """One side's Done button and its RGB status LED pins (BCM)."""
    side: str
    done_pin: int
    led_pins: tuple[int, int, int]


@dataclass(frozen=True)
class PanelConfig:
    """The panel's wiring (panel.toml): each side's pins and the buzzer's."""
    sides: tuple[SidePins, ...]
    buzzer_pin: int

    @classmethod
    def load(cls, path: str | Path | None = None) -> PanelConfig:
        """Read and check a panel configuration (`path`, or the packaged panel.toml); ConfigError naming the file
        and the key."""
        data, where = load_toml(path, "panel.toml")
        buzzer = require(require(data, "buzzer", dict, where), "pin", int, where)
        sides = []
        for entry in require(data, "side", list, where):
            if not isinstance(entry, dict):
                raise ConfigError(f"{where}: each [[side]] must be a table")
            name = require(entry, "name", str, where)
            if name not in SIDES:
                raise ConfigError(f"{where}: unknown side {name!r}; sides are {', '.join(SIDES)}")
            red, green, blue = pin_list(entry, "led_pins", 3, where)
            sides.append(SidePins(name, require(entry, "done_pin", int, where), (red, green, blue)))
        config = cls(tuple(sides), buzzer)
        pins = [buzzer] + [p for s in sides for p in (s.done_pin, *s.led_pins)]
        if sorted(s.side for s in sides) != sorted(SIDES) or len(set(pins)) != len(pins):
            raise ConfigError(f"{where}: need one [[side]] per side and no GPIO used twice")
        return config


class Panel(Lifecycle):
    """The table panel's buttons, status LEDs and buzzer (gpiozero). Working once made (`running`);
    close() releases its pins (the lifecycle package)."""

    _running = True

    def __init__(self, config: PanelConfig, queue: EventQueue | None = None, pin_factory=None,
                 beep_in_background: bool = True, source: str = "panel"):
        from gpiozero import RGBLED, Button, Buzzer

        self.queue = queue if queue is not None else EventQueue()
        self.source = source
        self._background = beep_in_background
        self._devices: list[Any] = []     # gpiozero devices, closed together
        try:
            self.buzzer = self._own(Buzzer(config.buzzer_pin, pin_factory=pin_factory))
            self.buttons, self.leds = {}, {}
            for pins in config.sides:
                button = self._own(Button(pins.done_pin, pull_up=True, bounce_time=0.05, pin_factory=pin_factory))
                button.when_pressed = self._pressed_handler(pins.side, "done")
                self.buttons[pins.side] = button
                self.leds[pins.side] = self._own(RGBLED(*pins.led_pins, pwm=False, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise

    def _own(self, device):
        self._devices.append(device)
        return device

    def _pressed_handler(self, side: str, button: str):
        def pressed() -> None:
            self.queue.put(PanelPressed(self.source, side=side, button=button))

        return pressed

    def set_status(self, side: str, colour: str) -> None:
        """Light `side`'s status LED in `colour` (a name of COLOURS); ValueError for an unknown side or colour."""
        if side not in self.leds:
            raise ValueError(f"unknown side {side!r}; sides are {', '.join(self.leds)}")
        if colour not in COLOURS:
            raise ValueError(f"unknown colour {colour!r}; colours are {', '.join(COLOURS)}")
        self.leds[side].color = COLOURS[colour]

    def feedback(self, kind: str, side: str) -> None:
        """Tell `side` something with light and sound: its turn, a refusal, a done move (the kinds of FEEDBACK)."""
        if kind not in FEEDBACK:
            raise ValueError(f"unknown feedback {kind!r}; kinds are {', '.join(FEEDBACK)}")
        if side not in self.leds:
            raise ValueError(f"unknown side {side!r}; sides are {', '.join(self.leds)}")
        colour, (on_time, off_time, count) = FEEDBACK[kind]
        if kind == "your_turn":
            for other in self.leds:
                self.set_status(other, "off")
        self.set_status(side, colour)
        self.buzzer.beep(on_time, off_time, n=count, background=self._background)

    def _on_close(self) -> None:
        for device in reversed(self._devices):
            device.close()
        self._devices = []

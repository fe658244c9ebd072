"""Panel buttons, LEDs and buzzer through gpiozero's MockFactory."""
from __future__ import annotations

import pytest

from firmware_bridge.config_files import ConfigError
from firmware_bridge.events import EventQueue
from firmware_bridge.panel import Panel, PanelConfig


@pytest.fixture
def config():
    return PanelConfig.load()


@pytest.fixture
def panel(config, mock_pins):
    panel = Panel(config, EventQueue(), pin_factory=mock_pins, beep_in_background=False)
    yield panel
    panel.close()


def pins_of(config, side):
    return next(s for s in config.sides if s.side == side)


def test_done_button_press_is_an_event(panel, config, mock_pins):
    mock_pins.pin(pins_of(config, "Pompeius").done_pin).drive_low()  # pulled up: pressed = low
    event = panel.queue.get_nowait()
    assert (event.kind, event.side, event.button) == ("panel_pressed", "Pompeius", "done")
    assert panel.queue.empty()


def test_illegal_lights_red_and_beeps_three_times(panel, config, mock_pins):
    buzzer = mock_pins.pin(config.buzzer_pin)
    buzzer.clear_states()
    panel.feedback("illegal", "Caesar")
    red, green, blue = (mock_pins.pin(p).state for p in pins_of(config, "Caesar").led_pins)
    assert (red, green, blue) == (True, False, False)
    assert [s.state for s in buzzer.states][1:] == [True, False] * 3


def test_your_turn_lights_this_side_and_darkens_the_other(panel, config, mock_pins):
    panel.set_status("Caesar", "green")
    panel.feedback("your_turn", "Pompeius")
    assert panel.leds["Pompeius"].color == (0, 0, 1)
    assert panel.leds["Caesar"].color == (0, 0, 0)
    assert [mock_pins.pin(p).state for p in pins_of(config, "Pompeius").led_pins] == [False, False, True]


def test_ok_is_green(panel):
    panel.feedback("ok", "Caesar")
    assert panel.leds["Caesar"].color == (0, 1, 0)


@pytest.mark.parametrize("kind, side", [("cheer", "Caesar"), ("ok", "Brutus")])
def test_bad_feedback_requests_change_nothing(panel, kind, side):
    panel.set_status("Caesar", "blue")
    with pytest.raises(ValueError):
        panel.feedback(kind, side)
    assert panel.leds["Caesar"].color == (0, 0, 1)


def test_config_with_a_pin_used_twice_is_rejected(tmp_path):
    path = tmp_path / "panel.toml"
    path.write_text('[buzzer]\npin = 17\n[[side]]\nname = "Caesar"\ndone_pin = 17\nled_pins = [1, 2, 3]\n'
                    '[[side]]\nname = "Pompeius"\ndone_pin = 5\nled_pins = [6, 7, 8]\n')
    with pytest.raises(ConfigError, match="twice"):
        PanelConfig.load(path)


def test_config_errors_are_clear(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        PanelConfig.load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[buzzer\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        PanelConfig.load(bad)

"""Degraded, never down: a table device that cannot be opened is told to every viewer (with what
to check) and listed as down, the table plays on without it, and it is opened again with back-off
until it joins; only a configuration that cannot be read stops the start. Real drivers: gpiozero's
MockFactory behind the panel, the real mfrc522 library on the emulated reader board."""
from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.board.reader_map import ReaderMap
from firmware_bridge.config_files import ConfigError
from firmware_bridge.emulation.rig import EmulatedRig
from rubicon.journal import Journal
from rubicon.table import device_checks
from rubicon.table.chance import RandomChance
from rubicon.table.device_checks import diagnose
from rubicon.table.devices import DeviceSpec, TableDevices
from rubicon.table.session import TableSession

from .waits import until

FAST = (0.01, 0.05)     # back-off of a test: tried again within milliseconds


class BrokenGpio(MockFactory):
    """gpiozero's mock pins, refused while `broken` (as a GPIO chip the user may not open is)."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = True
        self.attempts = 0

    def pin(self, spec, *args, **kwargs):
        if self.broken:
            self.attempts += 1
            raise PermissionError(13, "Permission denied", "/dev/gpiochip0")
        return super().pin(spec, *args, **kwargs)


@pytest.fixture
def session(tmp_path):
    s = TableSession(Journal(tmp_path / "j.sqlite3"), chance=RandomChance(3))
    s.start()
    s.new_game()
    yield s
    s.stop()


def device_messages(snap, viewer=None) -> list[dict]:
    return [m for m in snap.for_viewer(viewer)["table"]["messages"] if m["code"].startswith("device.")]


def test_a_panel_that_cannot_be_opened_is_told_retried_and_joins(session):
    pins = BrokenGpio()
    devices = TableDevices(session, [DeviceSpec("panel")], pin_factory=pins, backoff=FAST).start()
    try:
        snap = until(session, lambda s: device_messages(s) and s.public.table["devices"].get("panel") == "down",
                     "the panel is told down")
        for viewer in (None, "Caesar", "Pompeius"):       # the TV and both phones read what to check
            (message,) = device_messages(snap, viewer)
            assert message["params"]["device"] == "panel" and message["text"].startswith("the panel")
        assert devices.panel is None and "panel" in devices.problems

        tries = pins.attempts
        until(session, lambda s: pins.attempts > tries + 1, "opened again (back-off)")
        pins.broken = False                               # the permission is fixed: it joins by itself
        snap = until(session, lambda s: s.public.table["devices"].get("panel") == "up" and not device_messages(s),
                     "the panel joins and its message goes")
        assert devices.panel is not None and devices.problems == {}
    finally:
        devices.stop()


def test_readers_absent_at_start_join_when_the_board_appears(session, tmp_path, monkeypatch):
    monkeypatch.setenv("LG_WD", str(tmp_path))      # rpi-lgpio imports lgpio, which makes its pipe there
    pins = MockFactory()
    readers = ReaderMap.load(None)
    spec = DeviceSpec("readers", registry=str(tmp_path / "tags.json"))
    devices = TableDevices(session, [spec], pin_factory=pins, backoff=FAST).start()
    try:
        # No SPI stack here (rpi-lgpio's RPi.GPIO refuses a machine that is not a Pi): down, told.
        until(session, lambda s: s.public.table["devices"].get("readers") == "down" and device_messages(s),
              "the readers are told down")
        rig = EmulatedRig(readers.indices, readers.bus.address_pins, pin_factory=pins)
        with rig.installed():                        # the reader board is plugged in
            until(session, lambda s: s.public.table["devices"].get("readers") == "up" and not device_messages(s),
                  "the readers join")
            devices.stop()
    finally:
        devices.stop()


def test_readers_that_do_not_answer_are_told_and_join_when_plugged(session, tmp_path):
    pins = MockFactory()
    readers = ReaderMap.load(None)
    rig = EmulatedRig(readers.indices, readers.bus.address_pins, pin_factory=pins)
    for reader in readers.indices:
        rig.unplug(reader)                           # the bus opens, no chip answers on it
    with rig.installed():
        devices = TableDevices(session, [DeviceSpec("readers", registry=str(tmp_path / "tags.json"))],
                               pin_factory=pins, backoff=FAST).start()
        try:
            snap = until(session, lambda s: device_messages(s), "the silent readers are told")
            (message,) = device_messages(snap)
            assert message["code"] == "device.no-answer" and "3.3 V" in message["text"]
            assert snap.public.table["devices"].get("readers") == "down"
            rig.plug(readers.indices[0])
            until(session, lambda s: s.public.table["devices"].get("readers") == "up" and not device_messages(s),
                  "the readers join once one answers")
        finally:
            devices.stop()


def test_only_a_configuration_error_stops_the_start(session, tmp_path):
    bad = tmp_path / "panel.toml"
    bad.write_text("[buzzer]\npin = 'twelve'\n")
    with pytest.raises(ConfigError, match="panel.toml"):
        TableDevices(session, [DeviceSpec("panel", path=str(bad))], pin_factory=BrokenGpio()).start()


def test_an_absent_tray_is_told_with_its_udev_name(session, tmp_path):
    port = str(tmp_path / "rubicon-tray")
    devices = TableDevices(session, [DeviceSpec("dice", port)], backoff=FAST).start()
    try:
        snap = until(session, lambda s: device_messages(s), "the absent tray is told")
        (message,) = device_messages(snap)
        assert message["code"] == "device.serial-absent" and message["params"]["path"] == port
        assert "udev" in message["text"]
    finally:
        devices.stop()


@pytest.fixture
def pi(tmp_path):
    """A Pi's /dev and device-tree model, in a directory."""
    dev = tmp_path / "dev"
    dev.mkdir()
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    return dev, model


def test_what_to_check_is_named(pi, monkeypatch):
    dev, model = pi
    failure = RuntimeError("cannot open")
    assert diagnose("readers", failure, dev=dev, model_file=model).code == "device.no-gpio"
    (dev / "gpiochip0").touch()
    problem = diagnose("readers", failure, dev=dev, model_file=model, spi=(0, 1))
    assert problem.code == "device.spi-off" and "dtparam=spi=on" in problem.text
    assert problem.params["path"] == str(dev / "spidev0.1")
    (dev / "spidev0.1").touch()
    assert diagnose("readers", failure, dev=dev, model_file=model, spi=(0, 1)).code == "device.failed"
    monkeypatch.setattr(device_checks.os, "access", lambda path, mode: not str(path).endswith("spidev0.1"))
    problem = diagnose("readers", failure, dev=dev, model_file=model, spi=(0, 1))
    assert problem.code == "device.not-permitted" and problem.params["group"] == "spi"
    monkeypatch.setattr(device_checks.os, "access", lambda path, mode: False)
    assert diagnose("panel", failure, dev=dev, model_file=model).params["group"] == "gpio"
    assert diagnose("panel", failure, dev=dev, model_file=dev / "none").code == "device.not-a-pi"


def test_lgpio_without_a_writable_directory_is_named(pi, monkeypatch):
    dev, model = pi
    monkeypatch.setenv("LG_WD", "/")
    try:
        raise FileNotFoundError(2, "No such file or directory", ".lgd-nfy-3")
    except FileNotFoundError as pipe:
        try:
            raise RuntimeError("Unable to load any default pin factory!") from pipe
        except RuntimeError as exc:
            problem = diagnose("panel", exc, dev=dev, model_file=model)
    assert problem.code == "device.gpio-workdir" and problem.params["path"] == "/"

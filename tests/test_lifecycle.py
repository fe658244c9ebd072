"""Every device and every thread owner starts, stops, closes and works in `with` alike,
as gpiozero's devices do: the rules of the lifecycle package, then which classes follow them."""
from __future__ import annotations

import time

import pytest

from lifecycle import Closed, Lifecycle, LifecycleError
from tests.project_classes import classes_defined_in


class Counting(Lifecycle):
    def __init__(self) -> None:
        self.calls: list[str] = []

    def _on_start(self) -> None:
        self.calls.append("start")

    def _on_stop(self, timeout: float) -> None:
        self.calls.append(f"stop {timeout:g}")

    def _on_close(self) -> None:
        self.calls.append("close")


def test_threads_starting_one_thing_at_once_start_it_once():
    """Each thing's transitions are under its own lock: threads that all see it stopped do not all
    start it (the hook is slow on purpose: an unlocked base runs it once per thread)."""
    import threading

    class Slow(Counting):
        def _on_start(self) -> None:
            self.calls.append("start")
            time.sleep(0.05)     # widens the window an unlocked check-then-act loses in

    thing = Slow()
    together = threading.Barrier(4)

    def start() -> None:
        together.wait(10)
        thing.start()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    thing.close()
    assert thing.calls == ["start", "stop 5", "close"]


def test_start_hands_its_options_to_the_hook():
    class Options(Counting):
        def _on_start(self, period_s: float = 0.0) -> None:
            self.calls.append(f"start {period_s:g}")

    assert Options().start(period_s=0.5).calls == ["start 0.5"]


def test_start_returns_the_thing_and_a_second_start_does_nothing():
    thing = Counting()
    assert thing.start() is thing and thing.start() is thing
    assert thing.running and thing.calls == ["start"]


def test_stop_is_idempotent_and_a_stopped_thing_starts_again():
    thing = Counting().start()
    thing.stop()
    thing.stop(timeout=1)
    assert not thing.running and thing.calls == ["start", "stop 5"]
    thing.start().stop(timeout=1)
    assert thing.calls == ["start", "stop 5", "start", "stop 1"]


def test_close_stops_then_releases_once_and_for_good():
    thing = Counting().start()
    thing.close()
    thing.close()
    assert thing.closed and not thing.running and thing.calls == ["start", "stop 5", "close"]
    with pytest.raises(Closed, match="closed: make a new one") as refused:
        thing.start()
    assert isinstance(refused.value, LifecycleError) and isinstance(refused.value, RuntimeError)


def test_with_starts_and_closes_even_on_an_error():
    thing = Counting()
    with pytest.raises(ZeroDivisionError), thing as same:
        assert same is thing and thing.running
        raise ZeroDivisionError
    assert thing.closed and thing.calls == ["start", "stop 5", "close"]


def test_closing_a_thing_never_started_releases_it():
    thing = Counting()
    thing.close()
    assert thing.closed and thing.calls == ["close"]


# Classes with close() that are parts of a device, opened and closed by it, not devices of their own.
PARTS = {
    "firmware_bridge.rfid.reader_array.ChipSelect": "the reader array's address pins, closed by the array",
    "firmware_bridge.serial_bridge.link.SerialLink": "opened and closed again on every reconnect by its bridge",
    "firmware_bridge.sim.ports.PtyPort": "a simulator's port, closed by DeviceSim.close()",
    "firmware_bridge.sim.ports.TcpPort": "a simulator's port, closed by DeviceSim.close()",
    "firmware_bridge.camera.sources.OpenCvSource": "a camera's frames, closed by its CameraTray",
    "firmware_bridge.camera.sources.RpicamSource": "a camera's frames, closed by its CameraTray",
    "firmware_bridge.camera.sources.DemoSource": "rendered frames, closed by its CameraTray",
    "rubicon.journal_record.RecordWriter": "the journal's record file, closed by Journal.close()",
    "web_ui.live.Writer": "the interface of a streamed response, closed by the WSGI server",
    "web_ui.server.StreamWriter": "a streamed response, closed by the WSGI server",
    "firmware_bridge.device_kinds.Device": "a protocol: what the table asks of every device (each is a Lifecycle)",
}


def classes_with_a_life_cycle() -> list[str]:
    """Every class of the project that has a life cycle: it defines start, stop, close or __enter__
    itself, or it is a Lifecycle."""
    return [cls for package in ("firmware_bridge", "rubicon", "web_ui") for cls in classes_defined_in(package)
            if issubclass(cls, Lifecycle) or any(k in vars(cls) for k in ("start", "stop", "close", "__enter__"))]


def test_every_device_and_thread_owner_has_the_common_life_cycle():
    classes = classes_with_a_life_cycle()
    names = {f"{c.__module__}.{c.__qualname__}" for c in classes}
    assert {"firmware_bridge.rfid.scanner.RfidScanner", "firmware_bridge.serial_bridge.bridge.SerialBridge",
            "firmware_bridge.sim.device_sim.DeviceSim", "firmware_bridge.panel.Panel",
            "rubicon.table.session.TableSession", "rubicon.table.bot_player.BotPlayer",
            "rubicon.table.devices.TableDevices", "rubicon.cli.service.Watchdog", "rubicon.journal.Journal"} <= names
    stray = sorted(f"{c.__module__}.{c.__qualname__}" for c in classes
                   if not issubclass(c, Lifecycle) and f"{c.__module__}.{c.__qualname__}" not in PARTS)
    assert not stray, f"give these lifecycle.Lifecycle (or say in PARTS why not): {stray}"
    assert set(PARTS) <= names, f"PARTS names a class that is gone: {set(PARTS) - names}"

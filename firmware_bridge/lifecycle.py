"""The life cycle every device and every thread owner shares, as gpiozero's devices share theirs.

    thing.start()      returns thing; starting a started thing does nothing (no second thread)
    thing.stop()       stops it; stopping a stopped thing does nothing; it may be started again
    thing.close()      stops it and releases what it holds (ports, pins, the SPI bus), for good;
                       closing twice does nothing; starting a closed thing raises `Closed`
    thing.closed       whether close() has run;  thing.running: whether it is started
    with thing: ...    starts it, and closes it at the end, an error or not

A class gives the hooks `_on_start()`, `_on_stop(timeout)` and `_on_close()` (what it releases
beyond its thread); the base keeps the state, so every device behaves the same. The drivers here
and the application's thread owners (rubicon.lifecycle) use this one class.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Self

from firmware_bridge.shared.errors import BridgeError


class Closed(BridgeError, RuntimeError):
    """start() on something already closed: its ports and pins are released; make a new one."""


class Lifecycle:
    """start/stop/close/closed/`with`, alike on every device and thread owner (module docstring)."""

    stop_timeout: float = 5.0     # seconds stop() waits for a thread, unless told otherwise
    _running = False
    _closed = False

    def start(self) -> Self:
        """Start it (its thread, its device); a no-op when it runs already."""
        if self._closed:
            raise Closed(f"{type(self).__name__} is closed: make a new one to start again")
        if not self._running:
            self._on_start()
            self._running = True
        return self

    def stop(self, timeout: float | None = None) -> None:
        """Stop it, waiting up to `timeout` seconds for its thread; a no-op when it is not running."""
        if self._running:
            self._running = False
            self._on_stop(self.stop_timeout if timeout is None else timeout)

    def close(self) -> None:
        """Stop it and release what it holds, for good; a no-op the second time."""
        if self._closed:
            return
        try:
            self.stop()
        finally:
            self._closed = True
            self._on_close()

    @property
    def running(self) -> bool:
        """Whether start() ran and stop() did not since."""
        return self._running

    @property
    def closed(self) -> bool:
        """Whether close() has run: the thing can no longer start."""
        return self._closed

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # A thread owner's parts of start() and stop(): one daemon thread that watches the Event `_stop`.
    _stop: threading.Event
    _thread: threading.Thread | None = None

    def _start_thread(self, target: Callable[..., Any], name: str, *args: Any) -> None:
        """Start the owner's one thread on `target(*args)`, its stop Event cleared."""
        self._stop.clear()
        self._thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._thread.start()

    def _end_thread(self, timeout: float) -> None:
        """Ask the owner's thread to stop (its `_stop` Event) and wait up to `timeout` seconds for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _on_start(self) -> None:
        """Start the thread or the device (the subclass's part of start())."""

    def _on_stop(self, timeout: float) -> None:
        """Stop the thread, waiting up to `timeout` seconds (the subclass's part of stop())."""

    def _on_close(self) -> None:
        """Release ports, pins and buses (the subclass's part of close(), after stop())."""

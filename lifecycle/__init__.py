"""The life cycle every device and every thread owner shares, as gpiozero's devices share theirs.

    thing.start()      returns thing; starting a started thing does nothing (no second thread)
    thing.stop()       stops it; stopping a stopped thing does nothing; it may be started again
    thing.close()      stops it and releases what it holds (ports, pins, the SPI bus), for good;
                       closing twice does nothing; starting a closed thing raises `Closed`
    thing.closed       whether close() has run;  thing.running: whether it is started
    with thing: ...    starts it, and closes it at the end, an error or not

A class gives the hooks `_on_start(**options)`, `_on_stop(timeout)` and `_on_close()` (what it
releases beyond its thread); the base keeps the state, under a lock of the instance's own, so every
device behaves the same and two threads starting, stopping or closing one thing at once do each
once. `start(**options)` hands its keyword options to `_on_start` (a scanner's period, a table's
new game): no option travels through an attribute.

A package of its own beneath the drivers (firmware_bridge), the application (rubicon) and the web
app (web_ui), which all use this one class; it imports nothing of theirs.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Self


class LifecycleError(Exception):
    """The root of this package's errors."""


class Closed(LifecycleError, RuntimeError):
    """start() on something already closed: its ports and pins are released; make a new one."""


class Lifecycle:
    """start/stop/close/closed/`with`, alike on every device and thread owner (module docstring)."""

    stop_timeout: float = 5.0     # seconds stop() waits for a thread, unless told otherwise
    _running = False
    _closed = False

    def start(self, **options: Any) -> Self:
        """Start it (its thread, its device) with the class's `options`; a no-op when it runs already."""
        with _lock_of(self):
            if self._closed:
                raise Closed(f"{type(self).__name__} is closed: make a new one to start again")
            if not self._running:
                on_start: Callable[..., None] = self._on_start     # a subclass's hook takes its own options
                on_start(**options)
                self._running = True
        return self

    def stop(self, timeout: float | None = None) -> None:
        """Stop it, waiting up to `timeout` seconds for its thread; a no-op when it is not running."""
        with _lock_of(self):
            if self._running:
                self._running = False
                self._on_stop(self.stop_timeout if timeout is None else timeout)

    def close(self) -> None:
        """Stop it and release what it holds, for good; a no-op the second time."""
        with _lock_of(self):
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
        """Start the thread or the device (the subclass's part of start(); a subclass that takes
        options declares them here as keyword parameters with defaults)."""

    def _on_stop(self, timeout: float) -> None:
        """Stop the thread, waiting up to `timeout` seconds (the subclass's part of stop())."""

    def _on_close(self) -> None:
        """Release ports, pins and buses (the subclass's part of close(), after stop())."""


# Each thing's own lock is made on first use (subclasses need not call an __init__ of ours); this one
# lock only guards making them. Re-entrant: close() calls stop(), and a hook may stop a part of its own.
_LOCKS_MADE = threading.Lock()


def _lock_of(thing: Lifecycle) -> threading.RLock:
    lock = thing.__dict__.get("_lifecycle_lock")
    if lock is None:
        with _LOCKS_MADE:
            lock = thing.__dict__.setdefault("_lifecycle_lock", threading.RLock())
    return lock

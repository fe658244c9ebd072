"""Running under systemd (Type=notify): readiness, status, and the watchdog that proves the game
is alive.

`READY=1` is sent once the web server listens. When the unit sets `WatchdogSec=`, systemd puts
`WATCHDOG_USEC` in the environment; a thread then sends a no-op `Ping` intent through the table
session's queue every half interval and sends `WATCHDOG=1` only when the owner thread answered
it in time. A hung owner thread (or a dead one) stops the pings, and systemd restarts the service;
the journal brings the same game back. Off systemd (no `NOTIFY_SOCKET`) everything here is a no-op.
"""
from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Protocol

from lifecycle import Lifecycle
from rubicon.table.session import Ping, TableSession


class Notifier(Protocol):
    """Where the service tells systemd how it is (sd_notify)."""

    def notify(self, state: str) -> None:
        """Send `state` ("READY=1", "WATCHDOG=1", "STOPPING=1"...)."""


def notifier() -> Notifier:
    """sdnotify's notifier (silently does nothing when not started by systemd)."""
    import sdnotify
    return sdnotify.SystemdNotifier()


def watchdog_interval(environ: dict[str, str] | None = None) -> float | None:
    """systemd's watchdog interval in seconds, or None when no watchdog is asked of this process."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds if seconds > 0 else None


class Watchdog(Lifecycle):
    """Pings systemd's watchdog while the table session's owner thread answers a `Ping` in time;
    start(), stop(), close() and `with` as every thread owner (the lifecycle package)."""

    def __init__(self, session: TableSession, notify: Notifier, interval: float):
        self.session = session
        self.notify = notify
        self.period = interval / 2          # systemd's advice: ping at half the interval
        self.stop_timeout = self.period + 1
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.missed = 0

    def _on_start(self) -> None:
        self._start_thread(self._run, "watchdog")

    def _on_stop(self, timeout: float) -> None:
        self._end_thread(timeout)

    def alive(self, timeout: float) -> bool:
        """Whether the owner thread answered a Ping within `timeout` seconds."""
        try:
            self.session.submit(Ping()).result(timeout)
        except FutureTimeout:
            return False
        return not self.session.stopped

    def check_once(self) -> bool:
        """One round: ping systemd if the session is alive; returns whether it was."""
        if self.alive(self.period):
            self.notify.notify("WATCHDOG=1")
            return True
        self.missed += 1
        print(f"rubicon: the table session did not answer within {self.period:.1f} s "
              f"(watchdog not pinged, {self.missed} time(s))", file=sys.stderr, flush=True)
        return False

    def _run(self) -> None:
        while not self._stop.is_set():
            self.check_once()
            self._stop.wait(self.period)

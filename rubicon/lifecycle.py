"""The life cycle of the application's thread owners (the table session, the bot player, the
devices, the watchdog): the drivers' one, so that every device and every thread owner starts,
stops, closes and works in a `with` block alike. See firmware_bridge/lifecycle.py; it imports
nothing else of the drivers, which is why the web app may reach it through the table session.
"""
from __future__ import annotations

from firmware_bridge.lifecycle import Closed, Lifecycle

__all__ = ["Closed", "Lifecycle"]

"""Shared rig for the serial tests: simulated devices on real ptys/TCP, real bridges, short timings."""
import queue
import sys
import time
from pathlib import Path

import pytest

from firmware_bridge.events import EventQueue
from firmware_bridge.serial_bridge.bridge import SerialBridge
from firmware_bridge.serial_bridge.link import LinkConfig
from firmware_bridge.sim.device_sim import DeviceSim

# Short timings so reconnects take milliseconds; the defaults are for a real tray. The silence
# timeout stays long enough that a busy CI machine does not make a healthy device look dead.
FAST = LinkConfig(read_timeout=0.02, heartbeat=0.1, hello_timeout=0.3, silence_timeout=2.0,
                  backoff_min=0.01, backoff_max=0.1)


class Rig:
    def __init__(self):
        self.sims = []
        self.bridges = []
        self.events = EventQueue()
        self.seen = []

    def sim(self, kind, **kw):
        kw.setdefault("heartbeat_ms", 100)
        if kind == "dice":
            kw.setdefault("settle_ms", 0)
            kw.setdefault("motion_ms", 1)
        sim = DeviceSim(kind, **kw).start()
        self.sims.append(sim)
        return sim

    def bridge(self, url, kind=None, config=FAST, **kw):
        bridge = SerialBridge(url, self.events, kind, config, **kw).start()
        self.bridges.append(bridge)
        return bridge

    def wait(self, predicate, timeout=20.0):
        """Collect events into self.seen until predicate(self.seen) holds; False if it never does.
        (A deadline for a test that would otherwise hang, not a measurement.)"""
        deadline = time.monotonic() + timeout
        while not predicate(self.seen):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                self.seen.append(self.events.get(timeout=min(left, 0.1)))
            except queue.Empty:
                pass
        return True

    def of(self, kind):
        return [e for e in self.seen if e.kind == kind]

    def count(self, kind, n):
        return lambda seen: sum(e.kind == kind for e in seen) >= n

    def close(self):
        for bridge in self.bridges:
            bridge.stop()
        for sim in self.sims:
            sim.close()


def wait_until(predicate, timeout=10.0):
    """Poll predicate() until true; False at the deadline (a guard against hanging, not a measurement)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.close()


FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
FIRMWARE_MODULES = ("main", "firmware_config", "leds", "tray_sensors", "pico_links", "scanner_sensors",
                    "mfrc522_pico", "chip_select")


@pytest.fixture
def firmware(monkeypatch):
    """Import the firmware's modules from hardware/firmware (its main module), and forget them afterwards."""
    monkeypatch.syspath_prepend(str(FIRMWARE))
    for name in FIRMWARE_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    import main
    yield main
    for name in FIRMWARE_MODULES:
        sys.modules.pop(name, None)

"""The camera tray as a protocol v1 device: frames -> motion -> at rest -> recognised -> the
same `DiceTray` (device_core) the RP2040 firmware and the simulator run, on a pty or TCP port.

The table (and `rubicon devices monitor`) reach it through the serial bridge as any other tray:
HELLO/heartbeats, STATE rolling / rolled / crooked, ROLL kept until ACKed, snapshots. One loop
reads a frame, takes what the Pi sent, and polls the device; so a camera that stops delivering
frames stops the heartbeats too, and the table reports the tray down (`DeviceDown`, "silent").
"""
from __future__ import annotations

import logging
import select
import threading

import numpy as np

from firmware_bridge.camera.motion import MotionDetector
from firmware_bridge.camera.recognise import DiceFinder, Reading
from firmware_bridge.shared.device_core import DiceTray
from firmware_bridge.shared.ticks import ticks_diff
from firmware_bridge.shared.ticks import ticks_ms as now_ms
from firmware_bridge.sim.ports import PtyPort, TcpPort
from lifecycle import Lifecycle

log = logging.getLogger(__name__)

SETTLE_MS = 150             # frames unchanged this long: the dice are at rest (5 frames at 30/s)


class CameraSensors:
    """device_core's tray sensors from frames: motion() from frame differences (latched between
    polls, as the firmware latches its vibration switch), pockets() from the still frames.

    A roll is read from two consecutive still frames, and reported only when both readings agree
    (the same dice, the same faces): a die caught in a flicker of light, a glint that comes and
    goes or a frame torn by the camera makes the roll crooked, never a number one frame made up."""

    def __init__(self, finder: DiceFinder, detector: MotionDetector | None = None):
        self.finder = finder
        self.detector = detector or MotionDetector()
        self.frame: np.ndarray | None = None
        self.previous: np.ndarray | None = None    # the frame before `frame`, if no motion came between
        self.reading: Reading | None = None     # the last frame recognised (the self-test shows it)
        self.agreed = True                      # whether the last two still frames read alike
        self.led = "off"
        self._moved = False
        self._read_frame: np.ndarray | None = None
        self._pockets: list = [0, 0, 0, 0]

    def feed(self, frame: np.ndarray) -> None:
        """Take the next frame, noting whether the tray moved."""
        if self.detector.update(frame):
            self._moved = True
            self.previous = None
        else:
            self.previous = self.frame
        self.frame = frame

    def motion(self) -> bool:
        """Whether the tray moved since the last time asked."""
        moved, self._moved = self._moved, False
        return moved

    def motion_pending(self) -> bool:
        """Whether motion() would say so, without taking the latch."""
        return self._moved

    def pockets(self) -> list:
        """The faces the last two still frames agree on, as device_core's pockets (all -1, crooked,
        when they differ); read once per frame however often asked."""
        if self.frame is None:
            return [0, 0, 0, 0]
        if self._read_frame is not self.frame:
            self._read_frame = self.frame
            self.reading = self.finder.find(self.frame)
            pockets = self.reading.pockets()
            if self.previous is not None:
                before = self.finder.find(self.previous).pockets()
                self.agreed = before == pockets
                if not self.agreed:
                    pockets = [-1] * len(pockets)
            self._pockets = pockets
        return list(self._pockets)

    def set_led(self, target, mode) -> None:
        # The reference tray's light is always on (the camera needs it); the request to roll is on
        # the TV and the phones.
        """Remember the light's mode asked for; the camera tray's light stays on."""
        self.led = mode


class CameraDiceTray(DiceTray):
    """A DiceTray whose empty tray at rest is not crooked: with a camera every hand taking the dice
    out is motion, and the tray then settles with no dice in it; it reports `rolled` with no ROLL
    (settled, nothing to read), so the table is not told to roll again each time."""

    def sense(self, now_ms):
        """Once the tray is still for settle_ms after a throw: the faces as a roll, crooked if any die is unsure,
        and an empty tray as rolled without a roll."""
        if (not self.sensors.motion_pending() and self.state == "rolling"
                and ticks_diff(now_ms, self._last_motion) >= self.settle_ms):
            pockets = self.sensors.pockets()
            if not any(pockets):
                self._set_state("rolled")
                return
        DiceTray.sense(self, now_ms)


class CameraTray(Lifecycle):
    """The device loop in a thread: `source` gives frames (sources.py), the port is a pty (default)
    or TCP port on loopback. `path` is what the Pi opens. The common life cycle
    (the lifecycle package); stop() closes the source too (a blocked read returns), so a
    stopped tray is closed, not started again."""

    def __init__(self, source, finder: DiceFinder | None = None, tcp_port: int | None = None,
                 settle_ms: int = SETTLE_MS, **device_kw):
        self.source = source
        self.port = TcpPort(tcp_port) if tcp_port is not None else PtyPort()
        self.sensors = CameraSensors(finder or DiceFinder(getattr(source, "settings", None)))
        self.device = CameraDiceTray(self._write, self.sensors, settle_ms=settle_ms, **device_kw)
        self.tap = None         # called with each line written (the benchmark timestamps ROLL lines)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.camera_lost = threading.Event()

    @property
    def path(self) -> str:
        """Where the Pi opens the tray: the pty's link or socket://127.0.0.1:PORT."""
        return self.port.path

    def _on_start(self) -> None:
        self._start_thread(self._run, "camera tray")

    def _on_stop(self, timeout: float) -> None:
        self._stop.set()
        self.source.close()         # a read blocked on the camera returns
        self._end_thread(timeout)

    def _on_close(self) -> None:
        self.source.close()
        self.port.close()

    def _write(self, line: bytes) -> None:
        self.port.write(line)
        if self.tap is not None:
            self.tap(line)

    def _run(self) -> None:
        self.device.hello()
        while not self._stop.is_set():
            frame = self.source.read()
            if frame is None:
                if not self._stop.is_set():
                    log.error("camera tray: the camera delivers no more frames")
                    self.camera_lost.set()
                return
            self.sensors.feed(frame)
            fd = self.port.fileno()
            if fd is not None and select.select([fd], [], [], 0)[0]:
                data = self.port.read()
                if data:
                    self.device.feed(data, now_ms())
            self.device.poll(now_ms())

"""Where the camera tray's frames come from: `open_source(spec)`.

- "rpicam": the Pi's camera port (Camera Module 3 or any libcamera camera), read from `rpicam-vid`
  (Bookworm's rpicam-apps) as raw YUV420 on a pipe: no Python camera bindings in the venv;
- "/dev/videoN" or "N": a USB (UVC) webcam through OpenCV's V4L2 capture;
- "demo": rendered pictures of dice (render.py), rolled by `roll(...)` (tests, the benchmark,
  and trying the tray without a camera).
Each source gives `read() -> BGR frame | None` (None: the camera is gone) and `close()`.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from firmware_bridge.camera.recognise import Settings
from firmware_bridge.camera.render import HEIGHT, WIDTH, Die, Scene, render

FPS = 30


class OpenCvSource:
    """A V4L2 webcam, 640 x 480 at 30 frames/s (a 16 mm die is ~56 px with the reference mount)."""

    def __init__(self, device: str):
        self.capture = cv2.VideoCapture(int(device) if device.isdigit() else device, cv2.CAP_V4L2)
        if not self.capture.isOpened():
            raise OSError(f"no camera at {device}")
        self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, WIDTH)
        self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, HEIGHT)
        self.capture.set(cv2.CAP_PROP_FPS, FPS)
        self.capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)        # the newest frame, not a queue of old ones

    def read(self) -> np.ndarray | None:
        """The next frame from the webcam, or None when it gives none."""
        ok, frame = self.capture.read()
        return frame if ok else None

    def close(self) -> None:
        """Release the webcam."""
        self.capture.release()


class RpicamSource:
    """The Pi's camera port through `rpicam-vid` writing raw I420 frames to its standard output.

    The sensor mode and the lens position are set, not left to libcamera: asked only for 640 x 480,
    libcamera may pick the Module 3's 1536 x 864 mode, a central crop that sees two thirds of the
    floor (dice ~84 px instead of ~56); and autofocus would hunt while dice fly. `mode` is
    rpicam's "WIDTH:HEIGHT:BITDEPTH:PACKING" ("" leaves it to libcamera), `lens_position` in
    dioptres (None leaves autofocus on; a fixed-focus camera ignores it)."""

    def __init__(self, command: str = "rpicam-vid", mode: str = "2304:1296:10:P",
                 lens_position: float | None = 5.0):
        exe = shutil.which(command)
        if exe is None:
            raise OSError(f"{command} not found (apt install rpicam-apps)")
        self.frame_bytes = WIDTH * HEIGHT * 3 // 2
        self.command = rpicam_command(exe, mode, lens_position)
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def read(self) -> np.ndarray | None:
        """The next frame from rpicam-vid's raw stream, or None when it ended."""
        assert self.process.stdout is not None
        data = self.process.stdout.read(self.frame_bytes)
        if len(data) < self.frame_bytes:
            return None
        yuv = np.frombuffer(data, np.uint8).reshape(HEIGHT * 3 // 2, WIDTH)
        return cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)

    def close(self) -> None:
        """Stop rpicam-vid."""
        self.process.terminate()
        self.process.wait(5)


def rpicam_command(exe: str, mode: str, lens_position: float | None) -> list[str]:
    """rpicam-vid's command line: raw 640 x 480 I420 on standard output, the sensor mode and focus set."""
    command = [exe, "-t", "0", "-n", "--codec", "yuv420", "--width", str(WIDTH), "--height", str(HEIGHT),
               "--framerate", str(FPS), "--flush"]
    if mode:
        command += ["--mode", mode]
    if lens_position is not None:
        command += ["--autofocus-mode", "manual", "--lens-position", f"{lens_position:g}"]
    return command + ["-o", "-"]


@dataclass(frozen=True)
class SensorMode:
    """A mode the camera offers (from `--list-cameras`): size, and the sensor area it reads."""
    width: int
    height: int
    crop: tuple[int, int, int, int]         # x, y, width, height on the sensor


def list_modes(text: str) -> tuple[tuple[int, int] | None, list[SensorMode]]:
    """The first camera's full sensor size and its modes, from `rpicam-hello --list-cameras`'s output."""
    sensor = re.search(r"\[(\d+)x(\d+)", text)
    modes = [SensorMode(int(w), int(h), (int(x), int(y), int(cw), int(ch)))
             for w, h, x, y, cw, ch in re.findall(r"(\d+)x(\d+) \[[^\]]*?\((\d+), (\d+)\)/(\d+)x(\d+) crop\]", text)]
    return ((int(sensor.group(1)), int(sensor.group(2))) if sensor else None), modes


def check_mode(text: str, mode: str) -> str | None:
    """What is wrong with sensor mode `mode` for the camera `--list-cameras` described in `text`
    (not offered, or a crop of the sensor), or None when it is a full-field mode the camera has."""
    sensor, modes = list_modes(text)
    if not modes or sensor is None:
        return "no camera listed (is the ribbon in, and the camera enabled?)"
    if not mode:
        return ("no sensor mode set: libcamera picks one from the size asked, possibly a crop "
                "([camera_tray] sensor_mode)")
    width, height = (int(v) for v in mode.split(":")[:2])
    match = [m for m in modes if (m.width, m.height) == (width, height)]
    if not match:
        offered = ", ".join(f"{m.width}x{m.height}" for m in modes)
        return f"the camera has no {width}x{height} mode (it offers {offered})"
    crop = match[0].crop
    if (crop[2], crop[3]) != sensor:
        return (f"the {width}x{height} mode reads only {crop[2]}x{crop[3]} of the {sensor[0]}x{sensor[1]} sensor: "
                "a crop that sees part of the floor; choose a full-field mode")
    return None


class DemoSource:
    """Rendered frames at the camera's pace: still pictures of the dice lying, and after `roll`
    `moving_frames` frames of them tumbling into place. `rested` is called with the time
    (time.monotonic) each first still frame after a roll is handed out (the benchmark's start).
    `settings`: how to read its pictures (drawn from straight above: no side faces in view)."""

    settings = Settings(floor_scale=1.0)

    def __init__(self, scene: Scene | None = None, fps: float = FPS, moving_frames: int = 8):
        self.period = 1 / fps
        self.moving_frames = moving_frames
        self._lock = threading.Lock()
        self._pending: deque[np.ndarray] = deque()
        self._still = render(scene or Scene(dice=()))
        self._after_roll = False
        self._next = time.monotonic()
        self._closed = threading.Event()
        self.rested = None

    def roll(self, scene: Scene) -> None:
        """The dice of `scene` thrown in: frames of them moving, then lying as the scene has them."""
        frames = []
        for k in range(self.moving_frames, 0, -1):
            shift = 6.0 * k
            moving = Scene(dice=tuple(Die(d.value, d.x - shift, d.y + shift / 2, d.angle + 9 * k, d.colour, d.size,
                                          d.tilt, d.side_value) for d in scene.dice), seed=scene.seed + k)
            frames.append(render(moving))
        still = render(scene)
        with self._lock:
            self._pending.extend(frames)
            self._still = still
            self._after_roll = True

    def read(self) -> np.ndarray | None:
        # The camera's frame rate: a frame every period, whatever the reader's pace.
        """The next rendered frame, at the camera's frame rate; None once closed."""
        self._next = max(self._next + self.period, time.monotonic())
        if self._closed.wait(max(0.0, self._next - time.monotonic())):
            return None
        with self._lock:
            if self._pending:
                return self._pending.popleft()
            frame, first, self._after_roll = self._still, self._after_roll, False
        if first and self.rested is not None:
            self.rested(time.monotonic())
        return frame

    def close(self) -> None:
        """Stop giving frames (a waiting read returns None)."""
        self._closed.set()


def open_source(spec: str, mode: str = "2304:1296:10:P", lens_position: float | None = 5.0):
    """The frame source `spec` names: 'rpicam' (the Pi's camera port, in sensor `mode` with the lens
    at `lens_position`), 'demo' (rendered frames), else a V4L2 device or OpenCV URL."""
    if spec == "rpicam":
        return RpicamSource(mode=mode, lens_position=lens_position)
    if spec == "demo":
        return DemoSource()
    return OpenCvSource(spec)

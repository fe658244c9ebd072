"""Whether the dice are moving: the difference between one frame and the one before it.

Frames are reduced to a quarter of their size in grey and smoothed (sensor noise averages out),
then compared pixel by pixel: the picture moves when more than `min_share` of the pixels changed
by more than `threshold` grey levels. A die of 16 mm is some 200 pixels at that scale; moving by a
millimetre changes several dozen of them, noise a handful.
"""
from __future__ import annotations

import cv2
import numpy as np


class MotionDetector:
    """Tells a moving tray from a still one by the share of pixels that changed since the last frame."""
    def __init__(self, threshold: int = 18, min_share: float = 0.0008):
        self.threshold = threshold
        self.min_share = min_share
        self._previous: np.ndarray | None = None
        self.changed = 0.0          # share of pixels changed in the last frame (the self-test prints it)

    def update(self, frame: np.ndarray) -> bool:
        """True when this frame differs from the previous one (the first frame: still, so a tray
        started with dice lying in it does not report a roll)."""
        small = cv2.resize(frame, (frame.shape[1] // 4, frame.shape[0] // 4), interpolation=cv2.INTER_AREA)
        grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
        previous, self._previous = self._previous, grey
        if previous is None or previous.shape != grey.shape:
            return False
        diff = cv2.absdiff(grey, previous)
        self.changed = float(np.count_nonzero(diff > self.threshold)) / diff.size
        return self.changed > self.min_share

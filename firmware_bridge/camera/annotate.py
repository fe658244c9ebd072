"""The self-test's picture: a frame with every die found outlined (green: read, red: unsure),
its value and confidence or why it is unsure, and its pips marked."""
from __future__ import annotations

import cv2
import numpy as np

from firmware_bridge.camera.recognise import Reading


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    """A copy of `frame` with each die found outlined (green when read, red when unsure) and its pips marked: what
    the self-test saves."""
    out = frame.copy()
    for die in reading.dice:
        colour = (40, 200, 40) if die.value is not None else (40, 40, 230)
        box = cv2.boxPoints((die.centre, (die.side, die.side), die.angle)).astype(np.int32)
        cv2.polylines(out, [box], True, colour, 2, cv2.LINE_AA)
        for x, y in die.pips:
            cv2.circle(out, (int(round(x)), int(round(y))), 3, (255, 160, 0), -1, cv2.LINE_AA)
        label = f"{die.value} ({die.confidence:.2f})" if die.value is not None else "crooked"
        at = (int(die.centre[0] - die.side / 2), int(die.centre[1] - die.side / 2 - 6))
        cv2.putText(out, label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    return out

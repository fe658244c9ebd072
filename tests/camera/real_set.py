"""The labelled photographs of real dice (tests/camera/photos): loading them, what the owner's
calibration would learn from the `tune` third (the floor's colour, a die's size), and scoring.

The photographs are not the tray's picture (grey card, ~36 px dice, a phone's lens at an unknown
height): the floor colour is the median colour of the tune photographs' middles, the die's size
the median side of their labelled dice's boxes less the sides a lens that close shows, and the
perspective that of a lens some 40 cm up.
"""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent / "photos"


@dataclass(frozen=True)
class Photo:
    """One labelled photograph: its file, split ('tune' or 'held-out'), boxes and face values."""
    name: str
    split: str
    boxes: tuple[tuple[int, int, int, int], ...]
    values: tuple[int | None, ...]

    def image(self) -> np.ndarray:
        """The photograph as OpenCV reads it (BGR)."""
        image = cv2.imread(str(HERE / self.name))
        assert image is not None, self.name
        return image

    def centres(self) -> list[tuple[float, float]]:
        """Each die's box centre (px)."""
        return [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in self.boxes]


def photos(split: str | None = None) -> list[Photo]:
    """The labelled photographs, of one split or all."""
    out = []
    for entry in json.loads((HERE / "labels.json").read_text()):
        if split is None or entry["split" if "split" in entry else "set"] == split:
            out.append(Photo(entry["file"], entry["set"], tuple(tuple(d["box"]) for d in entry["dice"]),
                             tuple(d["value"] for d in entry["dice"])))
    return out


def learned(tune: list[Photo]) -> dict:
    """What a calibration on the tune photographs gives: floor colour (Lab) and die size (px)."""
    floors = []
    for photo in tune:
        lab = cv2.cvtColor(photo.image(), cv2.COLOR_BGR2LAB).reshape(-1, 3)[::7].astype(np.float32)
        floors.append(np.median(lab, axis=0))
    floor = tuple(float(v) for v in np.median(np.array(floors), axis=0))
    sides = [min(x1 - x0, y1 - y0) for photo in tune for x0, y0, x1, y1 in photo.boxes]
    return {"floor_lab": floor, "die_px": 0.88 * statistics.median(sides)}

"""One frame of the camera tray -> the dice in it, each read (its top face) or unsure.

Made for a sure answer rather than any answer: a die is read only when everything about it agrees
(it is die-shaped and as big as a die, the pips found are round and pip-sized, they sit where one
face's pips sit, and no other pip place of that face shows a mark); anything else makes it unsure,
which the tray reports as crooked (roll again), never as a guessed number.

How (OpenCV): the floor is the green felt (hue, saturation, brightness: robust to uneven light and
shadows); whatever lies on it that is not green is a die (any die colour but green). Dice that
touch make one blob: its area says how many dice it holds and k-means on its pixels parts them.
Inside each die the body colour is the median, the pips are the round marks that differ from it
most (Otsu's threshold on the colour distance in Lab).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from firmware_bridge.camera.pips import ALL_PLACES, LAYOUTS, PIP_RADIUS, match_face, turned

MAX_DICE = 4


@dataclass(frozen=True)
class Settings:
    """What the recogniser knows of the tray: the die's side in pixels (`rubicon dice-camera check`
    measures it) and the floor's colour as OpenCV HSV bounds (hue 0..180)."""
    die_px: float = 56.0
    floor_hue: tuple[int, int] = (35, 95)
    floor_min_saturation: int = 60
    floor_min_value: int = 45
    # How far a die's read may stray before it is unsure (die-side units, ratios).
    layout_tolerance: float = 0.10
    size_tolerance: float = 0.18
    squareness: float = 1.12


@dataclass(frozen=True)
class DieReading:
    """A die found: `value` 1..6, or None when unsure (`why` says what did not agree);
    `confidence` 0..1 (a read die is above 0); centre, side (px) and angle (degrees) of its outline;
    the pips found (px)."""
    value: int | None
    confidence: float
    centre: tuple[float, float]
    side: float
    angle: float
    pips: tuple[tuple[float, float], ...] = ()
    why: str = ""


@dataclass(frozen=True)
class Reading:
    """What one frame shows: every die found, read or unsure."""
    dice: tuple[DieReading, ...]

    def pockets(self) -> list[int]:
        """device_core's pockets: one entry per die, left to right, its face or -1 when unsure;
        more dice than the tray takes: all unsure; padded with 0 (empty) to four."""
        ordered = sorted(self.dice, key=lambda d: (d.centre[0], d.centre[1]))
        if len(ordered) > MAX_DICE:
            return [-1] * MAX_DICE
        faces = [d.value if d.value is not None else -1 for d in ordered]
        return faces + [0] * (MAX_DICE - len(faces))


def _kernel(radius: float) -> np.ndarray:
    r = max(1, int(round(radius)))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))


class DiceFinder:
    """Finds the dice on the felt and reads their faces (the module docstring says how); anything unsure stays
    unsure."""
    def __init__(self, settings: Settings | None = None):
        self.settings = settings or Settings()
        self._used = 0.0        # the area of the outline the last _read_part read in (px)

    def floor_mask(self, frame: np.ndarray) -> np.ndarray:
        """The pixels of the felt floor (by its hue), 255 where the floor shows."""
        s = self.settings
        hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
        lo = np.array((s.floor_hue[0], s.floor_min_saturation, s.floor_min_value), np.uint8)
        hi = np.array((s.floor_hue[1], 255, 255), np.uint8)
        return cv2.inRange(hsv, lo, hi)

    def dice_mask(self, frame: np.ndarray) -> np.ndarray:
        """What lies on the floor (255) inside the tray (the floor's convex hull)."""
        die = self.settings.die_px
        floor = self.floor_mask(frame)
        floor = cv2.morphologyEx(floor, cv2.MORPH_OPEN, _kernel(1))
        contours, _ = cv2.findContours(floor, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        tray = np.zeros_like(floor)
        if contours:
            cv2.fillConvexPoly(tray, cv2.convexHull(max(contours, key=cv2.contourArea)), 255)
        objects = cv2.bitwise_and(tray, cv2.bitwise_not(floor))
        objects = cv2.morphologyEx(objects, cv2.MORPH_OPEN, _kernel(0.06 * die))
        objects = cv2.morphologyEx(objects, cv2.MORPH_CLOSE, _kernel(0.05 * die))
        # Fill small holes (a pip the colour of the floor's would leave one), not the floor that a
        # ring of dice encloses.
        contours, hierarchy = cv2.findContours(objects, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        filled = objects.copy()
        for contour, (_, _, _, parent) in zip(contours, hierarchy[0] if hierarchy is not None else (), strict=False):
            if parent >= 0 and cv2.contourArea(contour) < 0.2 * die ** 2:
                cv2.drawContours(filled, [contour], -1, 255, -1)
        return filled

    def find(self, frame: np.ndarray) -> Reading:
        """Every die in `frame`, each read or unsure."""
        die = self.settings.die_px
        mask = self.dice_mask(frame)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        found: list[DieReading] = []
        pad = int(0.2 * die) + 2
        for i in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[i])
            ratio = area / die ** 2
            if ratio < 0.3:
                continue                # a speck, not a die
            x0, y0 = max(0, x - pad), max(0, y - pad)
            x1, y1 = min(frame.shape[1], x + w + pad), min(frame.shape[0], y + h + pad)
            blob = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
            crop = frame[y0:y1, x0:x1]
            lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
            # Dice a little smaller or larger than die_px, or dark bevels, put the area between two
            # counts: both are tried and the one whose every part reads as a die wins.
            low = max(1, math.floor(ratio))
            counts = sorted({low, low + 1 if ratio - low > 0.15 else low}, key=lambda k: abs(k - ratio))
            best: list[DieReading] | None = None
            for n in counts:
                readings, used = [], 0.0
                for part in self._split(blob, n, crop, lab):
                    reading, part_area = self._read(part, lab)
                    readings.append(reading)
                    used += part_area
                if float(blob.sum()) - used > 0.3 * die ** 2:
                    # Part of the blob is in no die read: a die cut up between the others.
                    readings = [_unsure(r, "a die unaccounted for in a group of dice") for r in readings]
                if best is None or sum(r.value is None for r in readings) < sum(r.value is None for r in best):
                    best = readings
            assert best is not None
            found.extend(_moved(r, x0, y0) for r in best)
        return Reading(tuple(found))

    def _split(self, blob: np.ndarray, n: int, crop: np.ndarray, lab: np.ndarray) -> list[np.ndarray]:
        """n dice touching in one blob, parted: along the seams their rounded edges make (a
        watershed from each die's flat middle), else by k-means on the blob's pixels."""
        if n == 1:
            return [blob]
        die = self.settings.die_px
        ys, xs = np.nonzero(blob)
        body = np.median(lab[ys, xs], axis=0)
        distance = cv2.GaussianBlur(np.linalg.norm(lab - body, axis=2), (0, 0), 1.0)
        flat = ((distance < 12) & (blob > 0)).astype(np.uint8)
        flat = cv2.morphologyEx(flat, cv2.MORPH_CLOSE, _kernel(0.1 * die))     # over the pips
        flat = cv2.erode(flat, _kernel(0.04 * die))
        count, cores, stats, _ = cv2.connectedComponentsWithStats(flat)
        big = [k for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] > 0.25 * die ** 2]
        if len(big) == n:
            markers = np.zeros(blob.shape, np.int32)
            markers[blob == 0] = 1
            for j, k in enumerate(big):
                markers[cores == k] = j + 2
            cv2.watershed(np.ascontiguousarray(crop), markers)
            owner = (markers.astype(np.int64) - 2)[ys, xs]
        else:
            pts = np.column_stack((xs, ys)).astype(np.float32)
            cv2.setRNGSeed(1)       # the same frame always gives the same parts
            criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.2)
            _, labels, _ = cv2.kmeans(pts, n, np.zeros((len(pts), 1), np.int32), criteria, 3, cv2.KMEANS_PP_CENTERS)
            owner = labels.ravel().astype(np.int64)
        # Either first cut strays through pips and shadows; dice are squares: each pixel goes to the
        # die whose square (centre and angle from its part's outline) it lies deepest in. Twice.
        for _ in range(2):
            squares = []
            for k in range(n):
                part = np.zeros_like(blob)
                part[ys[owner == k], xs[owner == k]] = 1
                part = cv2.morphologyEx(part, cv2.MORPH_OPEN, _kernel(0.12 * die))
                contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
                if contours:
                    squares.append(cv2.minAreaRect(max(contours, key=cv2.contourArea)))
            if len(squares) != n:
                break
            depth = np.empty((n, len(xs)))
            for k, ((cx, cy), (w, h), angle) in enumerate(squares):
                a = math.radians(angle)
                u = (xs - cx) * math.cos(a) + (ys - cy) * math.sin(a)
                v = -(xs - cx) * math.sin(a) + (ys - cy) * math.cos(a)
                depth[k] = np.maximum(np.abs(u) / max(w, 1.0), np.abs(v) / max(h, 1.0))
            owner = depth.argmin(axis=0)
        parts = []
        for k in range(n):
            part = np.zeros_like(blob)
            part[ys[owner == k], xs[owner == k]] = 1
            parts.append(part)
        return parts

    def _read(self, part: np.ndarray, lab: np.ndarray) -> tuple[DieReading, float]:
        """The die in `part` (a mask of the crop) and the area (px) of the outline it was read in."""
        reading = self._read_part(part, lab)
        return reading, self._used

    def _read_part(self, part: np.ndarray, lab: np.ndarray) -> DieReading:
        s = self.settings
        die = s.die_px
        # A sliver of shadow where two dice meet, or a corner of the neighbour, is cut off.
        part = cv2.morphologyEx(part, cv2.MORPH_OPEN, _kernel(0.12 * die))
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        self._used = 0.0
        if not contours:
            return DieReading(None, 0.0, (0.0, 0.0), 0.0, 0.0, (), "too small for a die")
        contour = max(contours, key=cv2.contourArea)
        if sum(cv2.contourArea(c) > 0.3 * die ** 2 for c in contours) > 1:
            (cx, cy), _, angle = cv2.minAreaRect(contour)
            return DieReading(None, 0.0, (cx, cy), die, angle, (), "two dice taken for one")
        part = np.zeros_like(part)
        cv2.drawContours(part, [contour], -1, 1, -1)
        self._used = float(part.sum())
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        side = math.sqrt(max(w * h, 1.0))
        area = float(part.sum())

        def unsure(why: str, pips=()) -> DieReading:
            return DieReading(None, 0.0, (cx, cy), side, angle, tuple(pips), why)

        if max(w, h) / max(min(w, h), 1.0) > s.squareness:
            return unsure("not square from above: tilted, or two dice as one")
        if abs(side / die - 1) > s.size_tolerance:
            return unsure(f"not a die's size ({side:.0f} px, a die is {die:.0f})")
        if area / max(w * h, 1.0) < 0.82:
            return unsure("not a die's outline")
        inner = cv2.erode(part, _kernel(0.09 * die))
        ys, xs = np.nonzero(inner)
        if len(xs) < 10:
            return unsure("too small inside")
        body = np.median(lab[ys, xs], axis=0)
        distance = np.linalg.norm(lab - body, axis=2)
        d_inner = np.clip(distance[ys, xs], 0, 255).astype(np.uint8)
        otsu, _ = cv2.threshold(d_inner.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        threshold = max(float(otsu), 18.0)
        marks = np.zeros_like(part)
        marks[ys, xs] = (distance[ys, xs] > threshold).astype(np.uint8)
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(marks)
        pip_area = math.pi * (PIP_RADIUS * side) ** 2
        pips: list[tuple[float, float]] = []
        for k in range(1, count):
            a = stats[k, cv2.CC_STAT_AREA]
            bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
            if a < 0.12 * pip_area:
                continue                    # noise
            if not 0.3 * pip_area <= a <= 2.2 * pip_area or max(bw, bh) > 1.9 * min(bw, bh) or a < 0.45 * bw * bh:
                return unsure("a mark that is not a pip", pips)
            pips.append((float(centroids[k][0]), float(centroids[k][1])))
        if not 1 <= len(pips) <= 6:
            return unsure(f"{len(pips)} pips", pips)
        pts = np.array(pips)
        centre = pts.mean(axis=0)
        if math.hypot(centre[0] - cx, centre[1] - cy) > 0.12 * side:
            return unsure("the pips are not centred on the die", pips)
        offsets = (pts - centre) / side
        angles = [math.radians(angle)]
        far = offsets[np.argmax(np.linalg.norm(offsets, axis=1))]
        if np.linalg.norm(far) > 0.3:
            angles.append(math.atan2(far[1], far[0]) - math.pi / 4)
        match = match_face(offsets, angles)
        if match is None or match.error > s.layout_tolerance:
            return unsure("the pips are not where a face has them", pips)
        # No mark where this face has no pip (a pip missed would make another face).
        own = {tuple(p) for p in LAYOUTS[match.value]}
        spot = max(2, int(round(0.55 * PIP_RADIUS * side)))

        def contrast(x: float, y: float) -> float:
            x0, y0 = int(round(x)), int(round(y))
            window = distance[max(0, y0 - spot):y0 + spot + 1, max(0, x0 - spot):x0 + spot + 1]
            return float(window.mean()) if window.size else 0.0

        pip_contrast = min(contrast(x, y) for x, y in pips)
        empty = [p for p in ALL_PLACES if p not in own]
        places = turned(empty, match.angle) * side + centre
        empty_contrast = max((contrast(x, y) for x, y in places), default=0.0)
        if pip_contrast < 25 or empty_contrast > 0.45 * pip_contrast:
            return unsure("a pip place is neither clearly a pip nor clearly empty", pips)
        confidence = min(1 - match.error / s.layout_tolerance,
                         1 - empty_contrast / (0.45 * pip_contrast),
                         1 - abs(side / die - 1) / s.size_tolerance,
                         1 - (max(w, h) / max(min(w, h), 1.0) - 1) / (s.squareness - 1))
        return DieReading(match.value, round(max(confidence, 0.01), 3), (cx, cy), side, angle, tuple(pips))


def _moved(reading: DieReading, dx: int, dy: int) -> DieReading:
    """A reading made in a crop, in the frame's coordinates."""
    return DieReading(reading.value, reading.confidence, (reading.centre[0] + dx, reading.centre[1] + dy),
                      reading.side, reading.angle, tuple((x + dx, y + dy) for x, y in reading.pips), reading.why)


def _unsure(reading: DieReading, why: str) -> DieReading:
    return DieReading(None, 0.0, reading.centre, reading.side, reading.angle, reading.pips, reading.why or why)

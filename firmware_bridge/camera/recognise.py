"""One frame of the camera tray -> the dice in it, each read (its top face) or unsure.

Made for a sure answer rather than any answer: a die is read only when everything about it agrees
(its top face is square and as big as a die's, the pips found are round, alike and pip-sized,
they sit where one face's pips sit for some maker's spacing, no other pip place of that face shows
a mark, and no specular glint lies on a pip place); anything else makes it unsure, which the tray
reports as crooked (roll again), never as a guessed number.

How (OpenCV):
- The floor is the green felt (hue, saturation, brightness), or the floor colour the calibration
  learned; whatever lies on it that is not floor is dice.
- The camera looks down from a lens a known height above the floor, so a die's outline is its top
  face swept towards its foot: the foot is the top scaled by `floor_scale` ((lens - die) / lens
  height) about the point where vertical edges meet (the picture's centre for a level mast). The
  top faces are then exactly what is dice both in the picture and in the picture scaled by
  1 / floor_scale about that point (a point of the outline that is also in the enlarged outline
  lies between a top and its own enlargement); the side faces and shadows drop out.
- Top faces that touch make one patch: its area says how many, and a watershed from their flat
  middles (else k-means) parts them, each pixel then going to the square it lies deepest in.
- Inside each top face the body colour is the median, the pips are the round marks that differ
  from it most (Otsu's threshold on the colour distance in Lab), specular glints (near-white
  pixels brighter than the body) set aside; the pips' places are fitted to each face's layout
  with the maker's spacing free (or near the calibrated one).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from firmware_bridge.camera.pips import CORNER_RANGE, all_places, fit_face, places, turned

MAX_DICE = 4
DIE_MM = 16.0
LENS_MM = 199.5             # the reference tray's lens above the floor (hardware/DICE.md)


@dataclass(frozen=True)
class Settings:
    """What the recogniser knows of the tray: a die's top face in pixels, the perspective (the
    size of a die's foot over its top's in the picture, and where vertical edges meet; None: the
    picture's centre), the floor (the felt's HSV bounds, or a colour learned in Lab), and the
    owner's dice as calibrated (corner pips' distance from the face's centre and a pip's radius,
    in die widths; None: any maker's)."""
    die_px: float = 56.0
    floor_scale: float = (LENS_MM - DIE_MM) / LENS_MM
    vertex: tuple[float, float] | None = None
    floor_hue: tuple[int, int] = (35, 95)
    floor_min_saturation: int = 60
    floor_min_value: int = 45
    floor_lab: tuple[float, float, float] | None = None
    floor_distance: float = 22.0
    pip_corner: float | None = None
    pip_radius: float | None = None
    # How far a die's read may stray before it is unsure (die widths, ratios).
    layout_tolerance: float = 0.075
    size_tolerance: float = 0.18
    squareness: float = 1.15


@dataclass(frozen=True)
class DieReading:
    """A die found: `value` 1..6, or None when unsure (`why` says what did not agree);
    `confidence` 0..1 (a read die is above 0); centre, side (px) and angle (degrees) of its top
    face; the pips found (px); `corner` and `pip` the fitted corner distance and pip radius (die
    widths, 0 when not read: what the calibration collects)."""
    value: int | None
    confidence: float
    centre: tuple[float, float]
    side: float
    angle: float
    pips: tuple[tuple[float, float], ...] = ()
    why: str = ""
    corner: float = 0.0
    pip: float = 0.0


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
    """Finds the dice on the floor and reads their top faces (the module docstring says how);
    anything unsure stays unsure."""
    def __init__(self, settings: Settings | None = None):
        self.settings = settings or Settings()

    def floor_mask(self, frame: np.ndarray) -> np.ndarray:
        """The pixels of the floor (the felt's hue, or near the learned floor colour), 255 where it shows."""
        s = self.settings
        if s.floor_lab is not None:
            lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB).astype(np.float32)
            d = lab - np.array(s.floor_lab, np.float32)
            # Shadow and uneven light change the floor's lightness more than its colour.
            distance = np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
            return ((distance < s.floor_distance) * 255).astype(np.uint8)
        hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
        lo = np.array((s.floor_hue[0], s.floor_min_saturation, s.floor_min_value), np.uint8)
        hi = np.array((s.floor_hue[1], 255, 255), np.uint8)
        return cv2.inRange(hsv, lo, hi)

    def dice_mask(self, frame: np.ndarray) -> np.ndarray:
        """What lies on the floor (255) inside the tray (the floor's convex hull): dice with their side faces."""
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

    def tops_mask(self, frame: np.ndarray) -> np.ndarray:
        """The dice's top faces (255): what is dice both in the picture and in the picture enlarged
        by 1 / floor_scale about the vertex (the module docstring says why)."""
        s = self.settings
        objects = self.dice_mask(frame)
        if s.floor_scale >= 0.999:
            return objects
        h, w = objects.shape
        vx, vy = s.vertex if s.vertex is not None else (w / 2, h / 2)
        k = s.floor_scale
        # dst(p) = src(v + k (p - v)): p is in the enlarged outline when v + k (p - v) is dice.
        m = np.array([[k, 0, vx * (1 - k)], [0, k, vy * (1 - k)]], np.float32)
        enlarged = cv2.warpAffine(objects, m, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
        tops = cv2.bitwise_and(objects, enlarged)
        return cv2.morphologyEx(tops, cv2.MORPH_OPEN, _kernel(0.1 * s.die_px))

    def find(self, frame: np.ndarray) -> Reading:
        """Every die in `frame`, each read or unsure."""
        die = self.settings.die_px
        mask = self.tops_mask(frame)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        found: list[DieReading] = []
        pad = int(0.2 * die) + 2
        lab_full = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB).astype(np.float32)
        for i in range(1, count):
            x, y, w, h, area = (int(v) for v in stats[i])
            ratio = area / die ** 2
            if ratio < 0.3:
                continue                # a speck, not a die
            x0, y0 = max(0, x - pad), max(0, y - pad)
            x1, y1 = min(frame.shape[1], x + w + pad), min(frame.shape[0], y + h + pad)
            blob = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
            crop = frame[y0:y1, x0:x1]
            lab = lab_full[y0:y1, x0:x1]
            # Dice a little smaller or larger than die_px, or dark bevels, put the area between two
            # counts: both are tried and the one whose every part reads as a die wins.
            low = max(1, math.floor(ratio))
            counts = sorted({low, low + 1 if ratio - low > 0.15 else low}, key=lambda k: abs(k - ratio))
            best: list[DieReading] | None = None
            for n in counts:
                readings, used = [], 0.0
                for part in self._split(blob, n, crop, lab):
                    reading, part_area = self._read_part(part, crop, lab)
                    readings.append(reading)
                    used += part_area
                if float(blob.sum()) - used > 0.3 * die ** 2:
                    # Part of the patch is in no die read: a die cut up between the others.
                    readings = [_unsure(r, "a die unaccounted for in a group of dice") for r in readings]
                if best is None or sum(r.value is None for r in readings) < sum(r.value is None for r in best):
                    best = readings
            assert best is not None
            found.extend(_moved(r, x0, y0) for r in best)
        return Reading(tuple(found))

    def _split(self, blob: np.ndarray, n: int, crop: np.ndarray, lab: np.ndarray) -> list[np.ndarray]:
        """n top faces touching in one patch, parted: along the seams their rounded edges make (a
        watershed from each face's flat middle), else by k-means on the patch's pixels."""
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
        # Either first cut strays through pips and shadows; faces are squares: each pixel goes to the
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

    def _read_part(self, part: np.ndarray, crop: np.ndarray, lab: np.ndarray) -> tuple[DieReading, float]:
        """The die whose top face is `part` (a mask of the crop), and the area (px) it was read in."""
        s = self.settings
        die = s.die_px
        # A sliver where two dice meet, or a corner of the neighbour, is cut off.
        part = cv2.morphologyEx(part, cv2.MORPH_OPEN, _kernel(0.12 * die))
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            return DieReading(None, 0.0, (0.0, 0.0), 0.0, 0.0, (), "too small for a die"), 0.0
        contour = max(contours, key=cv2.contourArea)
        if sum(cv2.contourArea(c) > 0.3 * die ** 2 for c in contours) > 1:
            (cx, cy), _, angle = cv2.minAreaRect(contour)
            return DieReading(None, 0.0, (cx, cy), die, angle, (), "two dice taken for one"), 0.0
        part = np.zeros_like(part)
        cv2.drawContours(part, [contour], -1, 1, -1)
        used = float(part.sum())
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        side = math.sqrt(max(w * h, 1.0))

        def unsure(why: str, pips=()) -> tuple[DieReading, float]:
            return DieReading(None, 0.0, (cx, cy), side, angle, tuple(pips), why), used

        squareness = max(w, h) / max(min(w, h), 1.0)
        if squareness > s.squareness:
            return unsure("the top face is not square: tilted, or two dice as one")
        if abs(side / die - 1) > s.size_tolerance:
            return unsure(f"not a die's size ({side:.0f} px, a die is {die:.0f})")
        if used / max(w * h, 1.0) < 0.82:
            return unsure("not a die's outline")
        # The face's flat middle in the die's frame (u, v in die widths); its rounded rim is left out.
        a = math.radians(angle)
        ys, xs = np.mgrid[0:part.shape[0], 0:part.shape[1]]
        u = ((xs - cx) * math.cos(a) + (ys - cy) * math.sin(a)) / side
        v = (-(xs - cx) * math.sin(a) + (ys - cy) * math.cos(a)) / side
        inner = (np.maximum(np.abs(u), np.abs(v)) < 0.42) & (part > 0)
        iy, ix = np.nonzero(inner)
        if len(ix) < 10:
            return unsure("too small inside")
        body = np.median(lab[iy, ix], axis=0)
        distance = np.linalg.norm(lab - body, axis=2)
        d_inner = np.clip(distance[iy, ix], 0, 255).astype(np.uint8)
        otsu, _ = cv2.threshold(d_inner.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        threshold = max(float(otsu), 18.0)
        # A glint: clipped white (all three channels at the top) and brighter than the body; a
        # lit face under a well-set exposure clips nowhere else. Marks are judged without it.
        bright = crop.min(axis=2) >= 250
        glint = (bright & (lab[..., 0] > body[0] + 6) & inner).astype(np.uint8)
        if glint.any():     # a lone clipped pixel is noise; a glint is a spot
            n_g, g_labels, g_stats, _ = cv2.connectedComponentsWithStats(glint)
            glint = np.isin(g_labels, [k for k in range(1, n_g) if g_stats[k, cv2.CC_STAT_AREA] >= 3])
        else:
            glint = glint.astype(bool)
        marks = np.zeros_like(part)
        marks[iy, ix] = (distance[iy, ix] > threshold).astype(np.uint8)
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(marks)
        pip_r = s.pip_radius
        lo_r, hi_r = (0.035, 0.14) if pip_r is None else (0.65 * pip_r, 1.45 * pip_r)
        pips: list[tuple[float, float]] = []
        radii: list[float] = []
        clipped: list[float] = []          # each pip's share of glint pixels
        shine: list[float] = []            # each pip's brightness (median of its darkest channel)
        in_pips = np.zeros(part.shape, bool)
        merged: list[int] = []              # marks that look like pips run together (close-set pips)
        for k in range(1, count):
            area = float(stats[k, cv2.CC_STAT_AREA])
            bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
            r = math.sqrt(area / math.pi) / side
            row, col = int(centroids[k][1]), int(centroids[k][0])
            mu, mv = float(u[row, col]), float(v[row, col])
            if r < 0.6 * lo_r:
                continue                    # noise
            if max(abs(mu), abs(mv)) > 0.36 and r < lo_r:
                continue                    # the shading of the rim, not a pip
            if r > 0.24 or max(bw, bh) > 1.9 * min(bw, bh) or area < 0.45 * bw * bh:
                merged.append(k)
                continue
            pips.append((float(centroids[k][0]), float(centroids[k][1])))
            radii.append(r)
            mine = labels == k
            clipped.append(float(glint[mine].sum()) / area)
            shine.append(float(np.median(crop[mine].min(axis=1))))
            in_pips |= mine
        for k in merged:
            # Two or three pips of a close-set maker run together: a straight run as long as that many
            # pips of the size the others have, parted along its length; anything else is not a pip.
            split = _run_of_pips(labels == k, float(np.median(radii)) * side if radii else
                                 (pip_r * side if pip_r else 0.0))
            if split is None:
                return unsure("a mark that is not a pip", pips)
            mine = labels == k
            share = float(glint[mine].sum()) / float(mine.sum())
            for point, r in split:
                pips.append(point)
                radii.append(r / side)
                clipped.append(share)
                shine.append(float(np.median(crop[mine].min(axis=1))))
            in_pips |= mine
        if not 1 <= len(pips) <= 6:
            return unsure(f"{len(pips)} pips", pips)
        if len(pips) > 1:
            # Every pip of a face but the 1 is cut alike; a 1 may be big (some makers).
            if min(radii) < lo_r or max(radii) > hi_r or max(radii) > 1.8 * min(radii):
                return unsure("the pips are not alike or not pip-sized", pips)
        elif not lo_r <= radii[0] <= 0.24:
            return unsure("a mark that is not a pip", pips)
        pts = np.array(pips)
        centre = pts.mean(axis=0)
        if math.hypot(centre[0] - cx, centre[1] - cy) > 0.1 * side:
            return unsure("the pips are not centred on the face", pips)
        offsets = (pts - centre) / side
        angles = [a]
        far = offsets[np.argmax(np.linalg.norm(offsets, axis=1))]
        if np.linalg.norm(far) > 0.15:
            angles.append(math.atan2(far[1], far[0]) - math.pi / 4)
        corner_range = CORNER_RANGE if s.pip_corner is None else (s.pip_corner - 0.035, s.pip_corner + 0.035)
        fit = fit_face(offsets, angles, corner_range, s.pip_corner or 0.33)
        if fit is None or fit.error > s.layout_tolerance:
            return unsure("the pips are not where a face has them", pips)
        # No mark where this face has no pip (a pip missed would make another face), and no glint
        # on any pip place (it could hide a pip or pass for one).
        corner = fit.corner
        own = places(fit.value, corner)
        every = all_places(corner)
        empty = [p for p in every if min(np.linalg.norm(own - p, axis=1)) > 0.05]
        spot = max(2, int(round(0.5 * (pip_r or 0.075) * side)))

        def window(img: np.ndarray, x: float, y: float) -> np.ndarray:
            x0, y0 = int(round(x)), int(round(y))
            return img[max(0, y0 - spot):y0 + spot + 1, max(0, x0 - spot):x0 + spot + 1]

        # On white pips a glint changes nothing (they are as bright, and may clip themselves): only
        # a clipped spot off them counts. On any other pips, a clipped spot on a pip or a pip place
        # could hide a pip or pass for one.
        white_pips = float(np.median(crop[in_pips].min(axis=1))) >= 215
        stray = glint & ~cv2.dilate(in_pips.astype(np.uint8), _kernel(2)).astype(bool) if white_pips else glint
        place_px = turned(every, fit.angle) * side + centre
        # White pips shine alike: one clipped and brighter than the others is a glint passing for a pip.
        uneven = white_pips and max(clipped) > 0 and max(shine) >= 245 and max(shine) > float(np.median(shine)) + 18
        if (not white_pips and max(clipped) > 0) or uneven or any(window(stray, x, y).any() for x, y in place_px):
            return unsure("a glint on a pip place", pips)

        def contrast(x: float, y: float) -> float:
            w_ = window(distance, x, y)
            return float(w_.mean()) if w_.size else 0.0

        pip_contrast = min(contrast(x, y) for x, y in pips)
        empty_px = turned(np.array(empty), fit.angle) * side + centre if empty else np.zeros((0, 2))
        empty_contrast = max((contrast(x, y) for x, y in empty_px), default=0.0)
        if pip_contrast < 25 or empty_contrast > 0.45 * pip_contrast:
            return unsure("a pip place is neither clearly a pip nor clearly empty", pips)
        confidence = min(1 - fit.error / s.layout_tolerance,
                         1 - empty_contrast / (0.45 * pip_contrast),
                         1 - abs(side / die - 1) / s.size_tolerance,
                         1 - (squareness - 1) / (s.squareness - 1))
        pip_size = float(np.median(radii)) if fit.value != 1 else 0.0
        return DieReading(fit.value, round(max(confidence, 0.01), 3), (cx, cy), side, angle, tuple(pips),
                          corner=round(corner, 4) if fit.value != 1 else 0.0, pip=round(pip_size, 4)), used


def _run_of_pips(mark: np.ndarray, pip_px: float) -> list[tuple[tuple[float, float], float]] | None:
    """The 2 or 3 pips (centre, radius px) of a mark that is that many pips of radius `pip_px` in a
    straight row, or None when the mark is not such a row."""
    if pip_px <= 0:
        return None
    ys, xs = np.nonzero(mark)
    pts = np.column_stack((xs, ys)).astype(np.float64)
    centre = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - centre, full_matrices=False)
    along = (pts - centre) @ vt[0]
    across = (pts - centre) @ vt[1]
    length = float(along.max() - along.min()) + 1
    width = float(across.max() - across.min()) + 1
    n = int(round(len(xs) / (math.pi * pip_px ** 2)))
    if n not in (2, 3) or abs(width / (2 * pip_px) - 1) > 0.35:
        return None
    if abs(length / (2 * n * pip_px) - 1) > 0.35:       # n pips side by side, barely apart
        return None
    step = (length - width) / (n - 1)
    return [(tuple(centre + vt[0] * (along.min() + width / 2 - 0.5 + i * step)), pip_px) for i in range(n)]


def _moved(reading: DieReading, dx: int, dy: int) -> DieReading:
    """A reading made in a crop, in the frame's coordinates."""
    return DieReading(reading.value, reading.confidence, (reading.centre[0] + dx, reading.centre[1] + dy),
                      reading.side, reading.angle, tuple((x + dx, y + dy) for x, y in reading.pips), reading.why,
                      reading.corner, reading.pip)


def _unsure(reading: DieReading, why: str) -> DieReading:
    return DieReading(None, 0.0, reading.centre, reading.side, reading.angle, reading.pips, reading.why or why)

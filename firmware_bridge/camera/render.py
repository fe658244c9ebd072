"""A deterministic picture of dice lying in the camera tray: what the tests, the benchmark and the
self-test's demonstration read, so recognition is measured on pictures whose truth is known.

The picture is what the reference tray's camera sees (hardware/DICE.md): a green felt floor under
a diffused light, seen from above, 640 x 480. Each die is a rounded square with bevelled edges and
drilled pips, with a soft shadow; a tilted die (leaning on an edge) shows a foreshortened top face
and part of a side face. The whole picture then gets uneven light, a colour cast, sensor noise,
defocus and JPEG compression. Everything is drawn with OpenCV at twice the size and reduced
(anti-aliasing); the same `Scene` always gives the same pixels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from firmware_bridge.camera.pips import LAYOUTS, PIP_RADIUS

WIDTH, HEIGHT = 640, 480
DIE_PX = 56.0               # the side of a 16 mm die in the reference tray's picture (3.5 px/mm)
FLOOR_BGR = (90, 170, 60)   # the green felt
SS = 2                      # drawn at twice the size, then reduced

# body, pips (BGR): the die colours a table may have; the floor's green is the one a die may not be.
COLOURS = {
    "white": ((232, 234, 236), (30, 30, 34)),
    "ivory": ((200, 228, 242), (28, 24, 20)),
    "black": ((28, 28, 30), (236, 236, 236)),
    "red": ((40, 38, 196), (240, 240, 240)),
    "red-black": ((40, 38, 196), (20, 20, 24)),
    "blue": ((160, 70, 25), (240, 240, 240)),
}


@dataclass(frozen=True)
class Die:
    """One die: top face `value`, centre (x, y) in pixels, turned `angle` degrees, side `size` px.
    `tilt` > 0: leaning on an edge by that many degrees (a crooked die), showing `side_value` on
    the side face that comes into view."""
    value: int
    x: float
    y: float
    angle: float = 0.0
    colour: str = "white"
    size: float = DIE_PX
    tilt: float = 0.0
    side_value: int = 2

    @property
    def flat(self) -> bool:
        """Whether the die lies flat (untilted): only then has it a face up to read."""
        return self.tilt == 0.0


@dataclass(frozen=True)
class Scene:
    """A tray picture to render: its dice, and the light, noise, blur and compression it is taken with."""
    dice: tuple[Die, ...]
    gain: float = 1.0                   # overall light
    gradient: tuple[float, float, float] = (0.0, 0.0, 0.0)   # light change per image width in x, y; vignette
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)     # colour of the light (B, G, R factors)
    noise: float = 2.0                  # sensor noise, grey levels (sigma)
    blur: float = 0.0                   # defocus (Gaussian sigma, px)
    jpeg: int = 90                      # JPEG quality, 0: none
    seed: int = 0
    tags: tuple[str, ...] = field(default=())   # what the scene varies (for reports)

    def truth(self) -> list[int | None]:
        """Per die in the scene's order: its value, or None for a die that must be reported crooked."""
        return [d.value if d.flat else None for d in self.dice]


def _rounded_square(w: float, h: float, radius: float, canvas: int) -> np.ndarray:
    """A filled rounded rectangle w x h centred on a canvas x canvas float mask."""
    mask = np.zeros((canvas, canvas), np.uint8)
    c = canvas / 2
    x0, y0, x1, y1 = c - w / 2, c - h / 2, c + w / 2, c + h / 2
    r = max(1, int(radius))
    cv2.rectangle(mask, (int(x0 + r), int(y0)), (int(x1 - r), int(y1)), 255, -1)
    cv2.rectangle(mask, (int(x0), int(y0 + r)), (int(x1), int(y1 - r)), 255, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(mask, (int(cx), int(cy)), r, 255, -1, cv2.LINE_AA)
    return mask.astype(np.float32) / 255


def _face(canvas: np.ndarray, value: int, cx: float, cy: float, w: float, h: float, pip_bgr, body_bgr) -> None:
    """Pips of face `value` on a face w x h centred at (cx, cy) (foreshortened when w != h)."""
    for ox, oy in LAYOUTS[value]:
        centre = (int(round((cx + ox * w) * 16)), int(round((cy + oy * h) * 16)))
        axes = (int(round(PIP_RADIUS * w * 16)), int(round(PIP_RADIUS * h * 16)))
        rim = tuple(0.55 * p + 0.45 * b for p, b in zip(pip_bgr, body_bgr, strict=True))
        cv2.ellipse(canvas, centre, axes, 0, 0, 360, rim, -1, cv2.LINE_AA, 4)
        inner = (int(axes[0] * 0.8), int(axes[1] * 0.8))
        cv2.ellipse(canvas, centre, inner, 0, 0, 360, pip_bgr, -1, cv2.LINE_AA, 4)


def _die_patch(die: Die) -> tuple[np.ndarray, np.ndarray, int]:
    """The die drawn upright on a square canvas: (BGR float, alpha float, canvas side)."""
    s = die.size * SS
    canvas = int(math.ceil(s * 1.7)) | 1
    body, pip = (np.array(c, np.float32) for c in COLOURS[die.colour])
    tilt = math.radians(die.tilt)
    top_w, side_w = s * math.cos(tilt), s * math.sin(tilt)
    total = top_w + side_w
    c = canvas / 2
    alpha = _rounded_square(total, s, 0.12 * s, canvas)
    img = np.zeros((canvas, canvas, 3), np.float32)
    img[:] = body
    top_cx = c - total / 2 + top_w / 2
    _face(img, die.value, top_cx, c, top_w, s, tuple(pip.tolist()), tuple(body.tolist()))
    if side_w > 0.5:
        x0 = int(c - total / 2 + top_w)
        side = img[:, x0:].copy()
        side[:] = body * 0.72
        img[:, x0:] = side
        _face(img, die.side_value, x0 + side_w / 2, c, side_w, s, tuple((pip * 0.72).tolist()),
              tuple((body * 0.72).tolist()))
    # The bevel: the edge rounds off, catching less light (a dark die: a faint highlight).
    dist = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
    edge = np.clip(1 - dist / (0.07 * s), 0, 1)[..., None]
    shade = 0.72 if body.mean() > 90 else 1.9
    img = img * (1 - edge) + img * shade * edge
    return img, alpha, canvas


def render(scene: Scene) -> np.ndarray:
    """The scene as the tray's camera would deliver it: BGR uint8, HEIGHT x WIDTH."""
    rng = np.random.default_rng(scene.seed)
    h, w = HEIGHT * SS, WIDTH * SS
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.array(FLOOR_BGR, np.float32)
    texture = cv2.GaussianBlur(rng.normal(0, 6, (h, w)).astype(np.float32), (0, 0), 1.5)
    img += texture[..., None]
    shadow: np.ndarray = np.zeros((h, w), np.float32)
    layers = []
    for die in scene.dice:
        patch, alpha, canvas = _die_patch(die)
        m = np.array(cv2.getRotationMatrix2D((canvas / 2, canvas / 2), -die.angle, 1.0), np.float64)
        m[:, 2] += np.array((die.x * SS - canvas / 2, die.y * SS - canvas / 2))
        placed = cv2.warpAffine(patch, m, (w, h), flags=cv2.INTER_LINEAR)
        a = cv2.warpAffine(alpha, m, (w, h), flags=cv2.INTER_LINEAR)
        layers.append((placed, a))
        off = np.array([[1, 0, 0.06 * die.size * SS], [0, 1, 0.09 * die.size * SS]], np.float32)
        shadow = np.maximum(shadow, cv2.warpAffine(a, off, (w, h)))
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.12 * DIE_PX * SS)
    img *= (1 - 0.38 * shadow)[..., None]
    for placed, a in layers:
        img = img * (1 - a[..., None]) + placed * a[..., None]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy, vignette = scene.gradient
    r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    light = scene.gain * (1 + gx * (xs / w - 0.5) + gy * (ys / h - 0.5)) * (1 - vignette * r2)
    img = img * light[..., None] * np.array(scene.cast, np.float32)
    img = cv2.resize(img, (WIDTH, HEIGHT), interpolation=cv2.INTER_AREA)
    if scene.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), scene.blur)
    img += rng.normal(0, scene.noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if scene.jpeg:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def _footprint(die: Die) -> np.ndarray:
    """The die's outline as a polygon (for placing dice without overlap)."""
    tilt = math.radians(die.tilt)
    half_w = die.size * (math.cos(tilt) + math.sin(tilt)) / 2
    half_h = die.size / 2
    a = math.radians(die.angle)
    c, s = math.cos(a), math.sin(a)
    pts = [(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)]
    return np.array([(die.x + x * c - y * s, die.y + x * s + y * c) for x, y in pts], np.float32)


def _overlap(a: Die, b: Die) -> bool:
    inter, _ = cv2.intersectConvexConvex(_footprint(a), _footprint(b))
    return inter > 1.0


MARGIN = 40             # dice keep this far from the picture's edge (the tray's walls)


def _inside(die: Die) -> bool:
    pts = _footprint(die)
    return bool(pts[:, 0].min() >= MARGIN and pts[:, 0].max() <= WIDTH - MARGIN
                and pts[:, 1].min() >= MARGIN and pts[:, 1].max() <= HEIGHT - MARGIN)


def _touching(rng: np.random.Generator, anchor: Die, new: Die) -> Die | None:
    """`new` moved in from a random direction until it touches `anchor` (None if it cannot)."""
    direction = rng.uniform(0, 2 * math.pi)
    dx, dy = math.cos(direction), math.sin(direction)
    far = replace(new, x=anchor.x + dx * 3 * anchor.size, y=anchor.y + dy * 3 * anchor.size)
    lo, hi = 0.0, 3 * anchor.size           # distance along the direction: lo overlaps, hi does not
    for _ in range(20):
        mid = (lo + hi) / 2
        if _overlap(anchor, replace(far, x=anchor.x + dx * mid, y=anchor.y + dy * mid)):
            lo = mid
        else:
            hi = mid
    placed = replace(far, x=anchor.x + dx * (hi + 0.3), y=anchor.y + dy * (hi + 0.3))
    return placed if _inside(placed) else None


def random_scene(seed: int, n: int | None = None, colour: str | None = None, touching: bool | None = None,
                 tilted: int | None = None) -> Scene:
    """A scene drawn from `seed`: 1-4 dice of one colour (as a table's set of four), light, noise and
    focus varied; some dice touching, some tilted, unless the arguments fix it."""
    rng = np.random.default_rng(seed)
    n = n if n is not None else int(rng.integers(1, 5))
    colour = colour or str(rng.choice(sorted(COLOURS)))
    touching = bool(rng.random() < 0.35) if touching is None else touching
    tilted = (int(rng.random() < 0.12) if tilted is None else tilted) if n else 0
    size = DIE_PX * float(rng.uniform(0.94, 1.06))
    tags = [colour]
    dice: list[Die] = []
    for i in range(n):
        tilt = float(rng.uniform(14, 40)) if i < tilted else 0.0
        die = Die(value=int(rng.integers(1, 7)), x=0, y=0, angle=float(rng.uniform(0, 360)), colour=colour,
                  size=size, tilt=tilt, side_value=int(rng.integers(1, 7)))
        for _ in range(200):
            if touching and dice:
                candidate = _touching(rng, dice[int(rng.integers(len(dice)))], die)
                if candidate is None or any(_overlap(candidate, d) for d in dice):
                    continue
            else:
                candidate = replace(die, x=float(rng.uniform(MARGIN + size, WIDTH - MARGIN - size)),
                                    y=float(rng.uniform(MARGIN + size, HEIGHT - MARGIN - size)))
                if not _inside(candidate) or any(_overlap(candidate, d) or
                                                 math.hypot(candidate.x - d.x, candidate.y - d.y) < 1.6 * size
                                                 for d in dice):
                    continue
            dice.append(candidate)
            break
    if touching and len(dice) > 1:
        tags.append("touching")
    if any(not d.flat for d in dice):
        tags.append("tilted")
    blur = float(rng.choice([0.0, 0.0, 0.6, 1.2, 1.8]))
    gain = float(rng.uniform(0.6, 1.3))
    if blur >= 1.2:
        tags.append("blur")
    if gain < 0.75 or gain > 1.15:
        tags.append("dim" if gain < 0.75 else "bright")
    return Scene(dice=tuple(dice), gain=gain,
                 gradient=(float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.35, 0.35)),
                           float(rng.uniform(0, 0.3))),
                 cast=(float(rng.uniform(0.9, 1.1)), 1.0, float(rng.uniform(0.9, 1.1))),
                 noise=float(rng.uniform(1.0, 5.0)), blur=blur, jpeg=int(rng.choice([0, 75, 90])),
                 seed=seed, tags=tuple(tags))

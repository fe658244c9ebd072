"""An independent 3-D world for the camera tray: rounded dice ray-traced through a pinhole camera.

Nothing here comes from the recogniser (firmware_bridge/camera): no pip layout, no die size in
pixels, no colours. It is built from the physical tray (hardware/DICE.md, the project's reference notes on the
camera and on dice): a 160 x 120 mm felt floor, a lens 199.5 mm above it with a 41 degree vertical
field of view on a 640 x 480 picture (the Camera Module 3's 4:3 picture), 16 mm dice with rounded
edges, pips whose place and size vary by maker (the corner pips of real dice sit 0.27-0.41 die
widths from the face's centre), lit by two diffused strips along the long walls and the room
above, with shadows on the floor, specular glints from a lamp, colour casts and sensor noise.

Units: millimetres, the floor's centre at the origin, z up. The picture's x runs along the floor's
long side. A die's truth is the value of the face whose normal points up, or None when no face is
within 8 degrees of up (a die leaning on another: it must be reported crooked).

Everything is numpy: each ray is traced against the floor and, by sphere tracing a rounded box's
signed distance, against the dice whose bounding sphere it passes through.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

WIDTH, HEIGHT = 640, 480
LENS_MM = 199.5             # lens above the floor (DICE.md, Camera Module 3)
VFOV_DEG = 41.0             # the sensor's vertical field of view (ground-truth.md); 4:3 picture
DIE_MM = 16.0
FLOOR_W, FLOOR_H = 160.0, 120.0
FOCAL_PX = (HEIGHT / 2) / math.tan(math.radians(VFOV_DEG / 2))

# Body and pip colours (linear RGB 0..1) of dice one finds on tables.
BODIES = {
    "white": (0.86, 0.86, 0.84), "cream": (0.84, 0.76, 0.56), "black": (0.035, 0.035, 0.04),
    "red": (0.62, 0.05, 0.05), "blue": (0.04, 0.12, 0.55), "yellow": (0.85, 0.70, 0.06),
    "dark-green": (0.03, 0.22, 0.10), "purple": (0.22, 0.06, 0.32),
}
PIPS = {"black": (0.02, 0.02, 0.02), "white": (0.88, 0.88, 0.86), "red": (0.65, 0.03, 0.03),
        "gold": (0.75, 0.55, 0.12), "blue": (0.03, 0.08, 0.45)}


@dataclass(frozen=True)
class Maker:
    """How a maker lays out and cuts pips: `corner` the corner pips' distance from the face's
    centre (die widths, along the diagonal), `pip` a pip's radius (die widths), `one` the 1's
    pip radius (some makers make it big), `bevel` the edges' rounding (mm), `gloss` how shiny."""
    corner: float = 0.33
    pip: float = 0.085
    one: float = 0.085
    bevel: float = 1.6
    gloss: float = 0.3


@dataclass(frozen=True)
class Die3:
    """A die at (x, y) mm on the floor, turned `yaw` degrees, with `value` up; `lean` degrees about
    its own x axis (>8: a crooked die leaning), `lift` mm above the floor (resting on another)."""
    value: int
    x: float
    y: float
    yaw: float = 0.0
    body: str = "white"
    pips: str = "black"
    maker: Maker = field(default_factory=Maker)
    lean: float = 0.0
    lift: float = 0.0

    def truth(self) -> int | None:
        """The face up, or None for a die leaning (no face within 8 degrees of up)."""
        return self.value if abs(self.lean) < 8 else None


@dataclass(frozen=True)
class Camera:
    """The lens above the floor's centre; a mast tilted `tilt` degrees towards `tilt_dir` degrees
    moves it sideways (a 220 mm arm) and tilts its view by as much."""
    height: float = LENS_MM
    tilt: float = 0.0
    tilt_dir: float = 0.0
    vfov: float = VFOV_DEG


@dataclass(frozen=True)
class World:
    """A scene: the dice, the camera, the light (strength, colour cast), a lamp's glints, noise."""
    dice: tuple[Die3, ...]
    camera: Camera = field(default_factory=Camera)
    light: float = 1.0
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    lamp: tuple[float, float, float] | None = (60.0, -40.0, 600.0)    # a room lamp's place (mm) or None
    lamp_power: float = 1.0
    felt: tuple[float, float, float] = (0.07, 0.30, 0.08)
    noise: float = 2.0
    seed: int = 0
    tags: tuple[str, ...] = ()

    def truth(self) -> list[int | None]:
        """Each die's face up, or None for a leaning die."""
        return [d.truth() for d in self.dice]


def _rot_z(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


def _rot_x(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])


def camera_rays(camera: Camera) -> tuple[np.ndarray, np.ndarray]:
    """The lens's place and a unit ray per pixel (HEIGHT, WIDTH, 3)."""
    f = (HEIGHT / 2) / math.tan(math.radians(camera.vfov / 2))
    u, v = np.meshgrid(np.arange(WIDTH) + 0.5 - WIDTH / 2, np.arange(HEIGHT) + 0.5 - HEIGHT / 2)
    d = np.stack([u / f, v / f, -np.ones_like(u)], axis=-1)
    d /= np.linalg.norm(d, axis=-1, keepdims=True)
    axis_dir = math.radians(camera.tilt_dir)
    tilt_axis = np.array([-math.sin(axis_dir), math.cos(axis_dir), 0.0])
    a = math.radians(camera.tilt)
    k = np.array([[0, -tilt_axis[2], tilt_axis[1]], [tilt_axis[2], 0, -tilt_axis[0]],
                  [-tilt_axis[1], tilt_axis[0], 0]])
    rot = np.eye(3) + math.sin(a) * k + (1 - math.cos(a)) * k @ k
    arm = 220.0 * math.sin(a)
    origin = np.array([arm * math.cos(axis_dir), arm * math.sin(axis_dir), camera.height])
    return origin, d @ rot.T


# The die's faces in its own frame: +z up shows `value`; opposite faces add to seven.
def _faces(value: int) -> dict[tuple[int, int], int]:
    side = {1: (2, 3), 2: (1, 3), 3: (1, 2), 4: (1, 2), 5: (1, 3), 6: (2, 3)}[value]
    a, b = side
    return {(2, 1): value, (2, -1): 7 - value, (0, 1): a, (0, -1): 7 - a, (1, 1): b, (1, -1): 7 - b}


def pip_places(value: int, corner: float) -> list[tuple[float, float]]:
    """Pip centres of face `value` (die widths, face frame) for corner pips `corner` from the centre."""
    c = corner / math.sqrt(2)
    corners = [(-c, -c), (c, -c), (c, c), (-c, c)]
    layout = {1: [(0.0, 0.0)], 2: [corners[0], corners[2]], 3: [corners[0], (0.0, 0.0), corners[2]],
              4: corners, 5: corners + [(0.0, 0.0)], 6: corners + [(-c, 0.0), (c, 0.0)]}
    return layout[value]


class _Placed:
    """A die's pose: its rotation (die frame -> world), centre, and the rounded box's numbers."""

    def __init__(self, die: Die3):
        self.die = die
        h = DIE_MM / 2
        self.rot = _rot_z(die.yaw) @ _rot_x(die.lean)
        # Lowest point of the (sharp) box rests on the floor, or `lift` above it.
        corners = np.array([[sx, sy, sz] for sx in (-h, h) for sy in (-h, h) for sz in (-h, h)]) @ self.rot.T
        self.centre = np.array([die.x, die.y, -corners[:, 2].min() + die.lift])
        self.r = die.maker.bevel
        self.half = h - self.r
        self.bound = h * math.sqrt(3) + 0.5
        self.faces = _faces(die.value)

    def sdf_local(self, p: np.ndarray) -> np.ndarray:
        qx, qy, qz = (np.abs(p[..., k]) - self.half for k in range(3))
        outside = np.sqrt(np.maximum(qx, 0) ** 2 + np.maximum(qy, 0) ** 2 + np.maximum(qz, 0) ** 2)
        return outside + np.minimum(np.maximum(np.maximum(qx, qy), qz), 0.0) - self.r

    def to_local(self, p: np.ndarray) -> np.ndarray:
        return (p - self.centre) @ self.rot

    def hit(self, origin: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Distance along each ray to the die (inf where missed), for rays (n, 3) from `origin` (n, 3) or (3,)."""
        oc = origin - self.centre
        b = (oc * d).sum(-1)
        c = (oc * oc).sum(-1) - self.bound ** 2
        disc = b * b - c
        t = np.full(d.shape[0], np.inf)
        near = disc > 0
        if not near.any():
            return t, near
        idx = np.nonzero(near)[0]
        sq = np.sqrt(disc[idx])
        t0 = np.maximum(-b[idx] - sq, 0.0)
        t1 = -b[idx] + sq
        o = origin[idx] if origin.ndim == 2 else origin
        dd = d[idx]
        tt = t0.copy()
        found = np.zeros(len(idx), bool)
        active = np.arange(len(idx))
        rot, centre = self.rot, self.centre
        for _ in range(64):
            oa = o[active] if o.ndim == 2 else o
            p = (oa + dd[active] * tt[active, None] - centre) @ rot
            dist = self.sdf_local(p)
            hit = dist < 0.01
            found[active[hit]] = True
            tt[active] += np.maximum(dist, 0.005)
            keep = ~hit & (tt[active] <= t1[active])
            active = active[keep]
            if not len(active):
                break
        t[idx[found]] = tt[found]
        return t, near

    def normal(self, p_local: np.ndarray) -> np.ndarray:
        e = 0.01
        n = np.stack([self.sdf_local(p_local + e * np.eye(3)[k]) - self.sdf_local(p_local - e * np.eye(3)[k])
                      for k in range(3)], axis=-1)
        return n / np.maximum(np.linalg.norm(n, axis=-1, keepdims=True), 1e-9)

    def albedo(self, p_local: np.ndarray) -> np.ndarray:
        """Body or pip colour at each local point (n, 3) -> (n, 3); pips are shallow dishes, darker at the rim."""
        m = self.die.maker
        body = np.array(BODIES[self.die.body])
        pip = np.array(PIPS[self.die.pips])
        out = np.tile(body, (len(p_local), 1))
        axis = np.abs(p_local).argmax(axis=-1)
        for (ax, sign), value in self.faces.items():
            on = (axis == ax) & (np.sign(p_local[:, ax]) == sign)
            if not on.any():
                continue
            others = [k for k in range(3) if k != ax]
            uv = p_local[on][:, others] / DIE_MM
            radius = m.one if value == 1 else m.pip
            inside = np.zeros(on.sum(), bool)
            rim = np.zeros(on.sum())
            for cx, cy in pip_places(value, m.corner):
                dist = np.hypot(uv[:, 0] - cx, uv[:, 1] - cy)
                inside |= dist < radius
                rim = np.maximum(rim, np.clip(1 - np.abs(dist - radius) / (0.012), 0, 1))
            colour = np.where(inside[:, None], pip, body)
            colour = colour * (1 - 0.35 * rim[:, None])
            out[np.nonzero(on)[0]] = colour
        return out


# Light: two long-wall strips behind diffusers (from -y and +y, low), and the room above.
_STRIPS = [np.array(v) / np.linalg.norm(v) for v in ((0.15, -1.0, 0.75), (-0.15, 1.0, 0.75))]


def _lighting(world: World, placed: list[_Placed], p: np.ndarray, n: np.ndarray, view: np.ndarray,
              gloss: np.ndarray, skip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Diffuse light reaching points p (normals n) with shadows from the dice, and the specular part."""
    diffuse = 0.30 * (0.55 + 0.45 * n[:, 2])
    spec = np.zeros(len(p))
    for light in _STRIPS:
        lit = np.ones(len(p))
        for k, pl in enumerate(placed):
            mask = skip != k
            if not mask.any():
                continue
            idx = np.nonzero(mask)[0]
            origin = p[idx] + n[idx] * 0.05
            # Only points near the die can be shaded by it.
            close = np.linalg.norm(origin[:, :2] - pl.centre[:2], axis=-1) < pl.bound + 40
            if not close.any():
                continue
            sub = idx[close]
            t, _ = pl.hit(origin[close], np.tile(light, (len(sub), 1)))
            lit[sub[np.isfinite(t)]] *= 0.35
        diffuse += 0.44 * np.maximum((n * light).sum(-1), 0) * lit
        refl = 2 * (n * light).sum(-1, keepdims=True) * n - light
        spec += 0.16 * np.maximum((refl * view).sum(-1), 0) ** 12 * lit
    if world.lamp is not None:
        to_lamp = np.array(world.lamp) - p
        to_lamp /= np.linalg.norm(to_lamp, axis=-1, keepdims=True)
        refl = 2 * (n * to_lamp).sum(-1, keepdims=True) * n - to_lamp
        # A small lamp: a glint about a millimetre across on a flat face.
        cos = np.clip((refl * view).sum(-1), -1, 1)
        spec += world.lamp_power * 3.0 * np.exp(-2 * (1 - cos) / 0.007 ** 2)
    return diffuse * world.light, spec * gloss * world.light


def render(world: World) -> np.ndarray:
    """The camera's 640 x 480 picture of `world` as a BGR uint8 array (as OpenCV and the camera give it)."""
    rng = np.random.default_rng(world.seed)
    origin, rays = camera_rays(world.camera)
    d = rays.reshape(-1, 3)
    n_px = len(d)
    placed = [_Placed(die) for die in world.dice]
    t_best = np.where(d[:, 2] < 0, -origin[2] / np.minimum(d[:, 2], -1e-9), np.inf)
    owner = np.full(n_px, -1)
    for k, pl in enumerate(placed):
        t, _ = pl.hit(origin, d)
        closer = t < t_best
        t_best[closer] = t[closer]
        owner[closer] = k
    p = origin + d * t_best[:, None]
    normal = np.tile(np.array([0.0, 0.0, 1.0]), (n_px, 1))
    albedo = np.empty((n_px, 3))
    gloss = np.zeros(n_px)
    # The floor: felt with a fibre texture inside the tray, the diffusers and walls outside.
    floor = owner < 0
    fp = p[floor]
    texture = 1 + 0.06 * np.sin(fp[:, 0] * 3.1 + 2 * np.sin(fp[:, 1] * 1.7)) * np.cos(fp[:, 1] * 2.3)
    felt = np.array(world.felt)[None, :] * texture[:, None]
    inside = (np.abs(fp[:, 0]) <= FLOOR_W / 2) & (np.abs(fp[:, 1]) <= FLOOR_H / 2)
    wall = np.where((np.abs(fp[:, 1]) > FLOOR_H / 2)[:, None], np.array([0.80, 0.80, 0.78]),
                    np.array([0.62, 0.50, 0.34]))
    albedo[floor] = np.where(inside[:, None], felt, wall)
    for k, pl in enumerate(placed):
        mine = owner == k
        if not mine.any():
            continue
        local = pl.to_local(p[mine])
        normal[mine] = pl.normal(local) @ pl.rot.T
        albedo[mine] = pl.albedo(local)
        gloss[mine] = pl.die.maker.gloss
    view = -d
    diffuse, spec = _lighting(world, placed, p, normal, view, gloss, owner)
    colour = albedo * diffuse[:, None] + spec[:, None]
    colour = colour.reshape(HEIGHT, WIDTH, 3) * np.array(world.cast)
    # Vignetting, a slight defocus (the lens's blur), sensor noise, then the camera's gamma.
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    r2 = ((xx - WIDTH / 2) ** 2 + (yy - HEIGHT / 2) ** 2) / (WIDTH / 2) ** 2
    colour *= (1 - 0.12 * r2)[..., None]
    blurred = colour.copy()
    for axis in (0, 1):
        blurred = 0.25 * np.roll(blurred, 1, axis) + 0.5 * blurred + 0.25 * np.roll(blurred, -1, axis)
    srgb = np.clip(blurred, 0, 1) ** (1 / 2.2) * 255
    srgb += rng.normal(0, world.noise, srgb.shape)
    return np.clip(srgb, 0, 255).astype(np.uint8)[..., ::-1].copy()


def project(world: World, point: tuple[float, float, float]) -> tuple[float, float]:
    """Where a world point (mm) appears in the picture (px): the truth's place for scoring."""
    origin, _ = camera_rays(world.camera)
    cam = world.camera
    axis_dir = math.radians(cam.tilt_dir)
    tilt_axis = np.array([-math.sin(axis_dir), math.cos(axis_dir), 0.0])
    a = math.radians(cam.tilt)
    k = np.array([[0, -tilt_axis[2], tilt_axis[1]], [tilt_axis[2], 0, -tilt_axis[0]],
                  [-tilt_axis[1], tilt_axis[0], 0]])
    rot = np.eye(3) + math.sin(a) * k + (1 - math.cos(a)) * k @ k
    v = (np.array(point) - origin) @ rot        # into the camera's frame
    f = (HEIGHT / 2) / math.tan(math.radians(cam.vfov / 2))
    return float(WIDTH / 2 + f * v[0] / -v[2]), float(HEIGHT / 2 + f * v[1] / -v[2])


def top_centre(world: World, die: Die3) -> tuple[float, float]:
    """The picture position of a die's top face centre."""
    return project(world, (die.x, die.y, DIE_MM + die.lift))


# -- random scenes ----------------------------------------------------------------------------

MAKERS = (Maker(0.27, 0.075, 0.075, 1.2, 0.2), Maker(0.31, 0.085, 0.085, 1.8, 0.4),
          Maker(0.35, 0.09, 0.13, 2.2, 0.6), Maker(0.38, 0.07, 0.07, 1.5, 0.9),
          Maker(0.41, 0.065, 0.10, 2.4, 0.3), Maker(0.30, 0.095, 0.16, 1.0, 1.0))
SETS = (("white", "black"), ("cream", "black"), ("black", "white"), ("red", "white"), ("red", "black"),
        ("blue", "white"), ("yellow", "black"), ("white", "red"), ("black", "gold"), ("purple", "white"),
        ("cream", "red"), ("black", "red"))
CASTS = ((1.0, 1.0, 1.0), (1.10, 1.0, 0.82), (0.88, 0.98, 1.12), (1.0, 1.06, 0.92))


def random_world(seed: int, n: int | None = None, tilt: float | None = None, touching: float = 0.3,
                 leaning: float = 0.0, glint: bool | None = None) -> World:
    """A tray with 1-4 dice of one maker and colour set at random places on the floor (some touching),
    under a random light, cast and lamp; the mast tilted `tilt` degrees (random 0-4 when None)."""
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(1, 5))
    maker = MAKERS[int(rng.integers(len(MAKERS)))]
    body, pips = SETS[int(rng.integers(len(SETS)))]
    dice: list[Die3] = []
    tries = 0
    while len(dice) < n and tries < 500:
        tries += 1
        if dice and rng.random() < touching:
            other = dice[int(rng.integers(len(dice)))]
            a = math.radians(other.yaw + 90 * int(rng.integers(4)))
            gap = DIE_MM + float(rng.uniform(0.0, 0.6))
            slide = float(rng.uniform(-5, 5))
            x = other.x + gap * math.cos(a) - slide * math.sin(a)
            y = other.y + gap * math.sin(a) + slide * math.cos(a)
            yaw = other.yaw + float(rng.uniform(-2, 2))
            min_gap = DIE_MM - 0.01
        else:
            x, y = float(rng.uniform(-68, 68)), float(rng.uniform(-48, 48))
            yaw = float(rng.uniform(0, 90))
            min_gap = DIE_MM * math.sqrt(2) + 1
        if abs(x) > 70 or abs(y) > 50:
            continue
        if any(math.hypot(x - o.x, y - o.y) < min_gap for o in dice):
            continue
        lean = float(rng.uniform(15, 35)) if rng.random() < leaning else 0.0
        dice.append(Die3(int(rng.integers(1, 7)), x, y, yaw, body, pips, maker, lean=lean,
                         lift=2.0 if lean else 0.0))
    tilt = float(rng.uniform(0, 4)) if tilt is None else tilt
    camera = Camera(tilt=tilt, tilt_dir=float(rng.uniform(0, 360)))
    glint = bool(rng.random() < 0.5) if glint is None else glint
    lamp = (float(rng.uniform(-300, 300)), float(rng.uniform(-300, 300)), float(rng.uniform(500, 1500))) \
        if glint else None
    touching_tag = ("touching",) if any(math.hypot(a.x - b.x, a.y - b.y) < DIE_MM * 1.2
                                        for i, a in enumerate(dice) for b in dice[i + 1:]) else ()
    return World(tuple(dice), camera, light=float(rng.uniform(0.75, 1.1)), cast=CASTS[int(rng.integers(len(CASTS)))],
                 lamp=lamp, lamp_power=float(rng.uniform(0.5, 1.5)), noise=float(rng.uniform(1, 3)), seed=seed,
                 tags=(body + "/" + pips, f"tilt{int(tilt > 2)}", *touching_tag, *(("glint",) if glint else ())))


def with_glint_on(world: World, index: int, uv: tuple[float, float], lamp_height: float = 900.0) -> World:
    """The same scene with a small lamp placed so that its reflection in die `index`'s top face lands
    at `uv` (die widths from the face's centre, in the die's frame): a glint on that spot."""
    die = world.dice[index]
    origin, _ = camera_rays(world.camera)
    a = math.radians(die.yaw)
    ux, uy = uv[0] * DIE_MM, uv[1] * DIE_MM
    q = np.array([die.x + ux * math.cos(a) - uy * math.sin(a), die.y + ux * math.sin(a) + uy * math.cos(a),
                  DIE_MM + die.lift])
    # The lamp's mirror image in the plane of the top face lies on the ray from the lens through q.
    mirror_z = 2 * q[2] - lamp_height
    s = (origin[2] - mirror_z) / (origin[2] - q[2])
    mirror = origin + (q - origin) * s
    return replace(world, lamp=(float(mirror[0]), float(mirror[1]), lamp_height))

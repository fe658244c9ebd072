"""The camera tray against a world it was not made from: dice ray-traced through a pinhole at the
reference tray's geometry (world3d.py: side faces in view, makers' pip layouts, mast tilt,
glints, shadows, colour casts, touching dice) and photographs of real dice (photos/).

What must hold: never a wrong number (a glint on a pip place of any colour of die, a leaning die,
two frames that differ); most dice read; the calibration learns a maker's layout."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from firmware_bridge.camera.calibration import Calibration
from firmware_bridge.camera.recognise import DiceFinder, Settings
from firmware_bridge.camera.render import Die, Scene, render
from firmware_bridge.camera.tray import CameraSensors
from tests.camera import world3d as w
from tests.camera.real_set import learned, photos
from tests.camera.world_score import Tally


def read(world: w.World, finder: DiceFinder | None = None):
    return (finder or DiceFinder()).find(w.render(world))


def test_the_world_is_the_tray_seen_through_its_lens():
    # Physics, not the recogniser: a 16 mm die's top at 183.5 mm from a lens whose 480 rows span 41
    # degrees is 16 * 240 / tan(20.5 deg) / 183.5 = 56 px; off the axis its sides come into view.
    assert 16 * w.FOCAL_PX / (w.LENS_MM - 16) == pytest.approx(56.0, abs=0.3)
    centre = w.World((w.Die3(5, 0, 0),), lamp=None, noise=0)
    corner = w.World((w.Die3(5, 60, 40),), lamp=None, noise=0)
    felt = np.array(w.render(w.World((), lamp=None, noise=0)), float)

    def extent(world):
        diff = np.abs(np.array(w.render(world), float) - felt).sum(axis=2) > 60
        ys, xs = np.nonzero(diff[:, :])
        return xs.max() - xs.min(), ys.max() - ys.min()

    cw, ch = extent(centre)
    assert 52 <= cw <= 62 and 52 <= ch <= 62          # the top face (a shadow aside)
    kw, kh = extent(corner)
    assert kw > cw + 10 or kh > ch + 10                # the side faces too
    assert w.top_centre(corner, corner.dice[0])[0] > 320 + 60 / 183.5 * w.FOCAL_PX - 1


SEEDS = range(7000, 7014)


def test_dice_seen_through_the_lens_are_read_and_never_wrong():
    tally = Tally()
    for seed in SEEDS:
        world = w.random_world(seed, n=4 if seed % 2 else None, touching=0.35)
        tally.add(world.truth(), [w.top_centre(world, d) for d in world.dice], 28, read(world), str(seed))
    assert tally.dice >= 35
    assert tally.wrong_sure == 0 and tally.rolls_wrong == 0, tally.failures
    assert tally.right >= 0.9 * tally.dice, (tally.row("3-D"), tally.failures)


def test_a_leaning_die_is_crooked():
    for seed, lean in ((1, 20), (2, 30)):
        world = w.World((w.Die3(5, -20, 5, 30, lean=lean, lift=3.0), w.Die3(3, 35, -10, 10)), seed=seed)
        pockets = read(world).pockets()
        assert -1 in pockets and 5 not in pockets, pockets


# A glint on an empty pip place would add a pip (a 4 becomes a 5) on dark dice; on a pip it may
# hide one. Every colour of die, glints placed by the world's own geometry.
GLINT_CASES = [(4, (0.0, 0.0)), (2, (0.2, -0.2)), (6, (0.0, 0.0)), (5, (0.0, 0.0)), (3, (0.2, -0.2))]


@pytest.mark.parametrize("body,pips", w.SETS)
def test_glints_on_every_colour_of_die_never_make_a_wrong_number(body, pips):
    k = w.SETS.index((body, pips))
    value, uv = GLINT_CASES[k % len(GLINT_CASES)]
    maker = w.Maker(0.35, 0.08, 0.08, 1.6, 1.0)
    world = w.World((w.Die3(value, 10, -5, 12, body, pips, maker),), lamp_power=2.5, seed=k)
    world = w.with_glint_on(world, 0, uv)
    image = w.render(world)
    assert image.min(axis=2).max() >= 250, "the glint must be in the picture"
    got = [d.value for d in DiceFinder().find(image).dice]
    assert got in ([value], [None]), (body, pips, value, got)


def test_two_still_frames_that_differ_make_the_roll_crooked():
    four = render(Scene((Die(4, 300, 240, angle=10),), noise=0.5, jpeg=0, seed=1))
    five = render(Scene((Die(5, 300, 240, angle=10),), noise=0.5, jpeg=0, seed=1))
    sensors = CameraSensors(DiceFinder(Settings(floor_scale=1.0)))
    for frame in (four, four, five):
        sensors.feed(frame)
    assert not sensors.motion_pending()             # a pip's change is not motion
    assert sensors.pockets() == [-1, -1, -1, -1] and not sensors.agreed
    sensors.feed(five.copy())          # the next frame, as still
    assert sensors.pockets() == [5, 0, 0, 0] and sensors.agreed


def test_the_calibration_learns_a_makers_layout():
    for maker in (w.Maker(0.29, 0.075, 0.075, 1.4, 0.3), w.Maker(0.39, 0.07, 0.12, 2.0, 0.3)):
        calibration = Calibration(56.0)
        for values in ((2, 3, 4, 5), (6, 5, 4, 3)):
            dice = tuple(w.Die3(v, -45 + 30 * i, 15 * (-1) ** i, 15 + 9 * i, maker=maker) for i, v in enumerate(values))
            calibration.add(read(w.World(dice, lamp=None, seed=values[0])))
        learned_ = calibration.result()
        assert learned_ is not None, calibration.missing()
        assert learned_.pip_corner == pytest.approx(maker.corner, abs=0.03)
        assert learned_.pip_radius == pytest.approx(maker.pip, abs=0.02)
        assert learned_.die_px == pytest.approx(56, abs=4)


def test_calibrated_settings_still_read_that_makers_dice():
    maker = w.Maker(0.39, 0.07, 0.12, 2.0, 0.3)
    settings = Settings(pip_corner=0.39, pip_radius=0.07)
    dice = tuple(w.Die3(v, -45 + 30 * i, 10, 20 * i, "red", "white", maker) for i, v in enumerate((1, 6, 2, 5)))
    world = w.World(dice, seed=3)
    assert sorted(d.value for d in read(world, DiceFinder(settings)).dice) == [1, 2, 5, 6]
    # The same dice checked against another maker's spacing are not read as anything else.
    other = DiceFinder(replace(settings, pip_corner=0.29))
    assert all(d.value in (None, t) for d, t in zip(sorted(read(world, other).dice, key=lambda d: d.centre),
                                                    (1, 6, 2, 5), strict=True))


def test_real_photographs_never_give_a_wrong_number():
    tune = photos("tune")
    got = learned(tune)
    finder = DiceFinder(Settings(die_px=got["die_px"], floor_lab=got["floor_lab"], floor_scale=0.96))
    tally = Tally()
    for photo in photos():
        tally.add(list(photo.values), photo.centres(), 0.5 * got["die_px"] / 0.88, finder.find(photo.image()),
                  photo.name)
    assert tally.dice == 193
    assert tally.wrong_sure == 0 and tally.rolls_wrong == 0, tally.failures
    assert tally.right > 0


def test_the_photographs_are_labelled_in_full():
    every = photos()
    assert len(every) == 38 and len(photos("held-out")) == 25
    assert sum(len(p.values) for p in every) == 193
    assert all(v in (1, 2, 3, 4, 5, 6) for p in every for v in p.values if v is not None)
    assert all(math.isfinite(x) for p in every for c in p.centres() for x in c)

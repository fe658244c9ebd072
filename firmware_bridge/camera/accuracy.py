"""How well the recogniser reads rendered scenes whose truth is known: the figures of the test
(tests/camera/test_recognition_accuracy.py) and the benchmark (bench/dice_camera.py).

Per die (each die of a scene matched to the reading nearest its centre, within half a side):
- right: a flat die read as its value, or a tilted die reported unsure (it must be re-rolled);
- unsure: a flat die reported unsure (the roll is asked again: slower, never wrong);
- wrong as sure: a flat die read as another value, a tilted die given a value, or a reading
  given a value where no die is (a phantom); the figure that must stay 0;
- missed: a die nothing was found for.
Per roll (what the tray would send): right, crooked (asked again), or wrong (a ROLL with faces
that are not the dice's).
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from firmware_bridge.camera.recognise import DiceFinder, Reading, Settings
from firmware_bridge.camera.render import Scene, render


@dataclass
class Score:
    """The tally of a recognition run: dice right, unsure (reported crooked), wrong as sure, missed, and the rolls."""
    dice: int = 0
    right: int = 0
    unsure: int = 0
    wrong_sure: int = 0
    missed: int = 0
    rolls: int = 0
    rolls_right: int = 0
    rolls_crooked: int = 0
    rolls_wrong: int = 0
    by_tag: Counter = field(default_factory=Counter)       # dice per tag
    right_by_tag: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        """The share of dice read right."""
        return self.right / self.dice if self.dice else 0.0

    def summary(self) -> str:
        """One line with every figure of the tally."""
        return (f"{self.dice} dice: {self.right} right ({100 * self.accuracy:.2f} %), {self.unsure} flat dice "
                f"reported crooked, {self.wrong_sure} wrong values reported as sure, {self.missed} missed; "
                f"{self.rolls} rolls: {self.rolls_right} right, {self.rolls_crooked} crooked (rolled again), "
                f"{self.rolls_wrong} wrong")


def score_scene(score: Score, scene: Scene, reading: Reading) -> None:
    """Add to `score` how `reading` did on `scene` against its true faces."""
    truth = scene.truth()
    used: set[int] = set()
    for die, value in zip(scene.dice, truth, strict=True):
        score.dice += 1
        for tag in scene.tags:
            score.by_tag[tag] += 1
        near = [(math.hypot(r.centre[0] - die.x, r.centre[1] - die.y), i) for i, r in enumerate(reading.dice)]
        near = [(d, i) for d, i in near if d <= die.size / 2 and i not in used]
        if not near:
            score.missed += 1
            score.failures.append(f"seed {scene.seed}: a die ({value}) missed")
            continue
        i = min(near)[1]
        used.add(i)
        got = reading.dice[i].value
        if got == value:
            score.right += 1
            for tag in scene.tags:
                score.right_by_tag[tag] += 1
        elif got is None:
            score.unsure += 1
            score.failures.append(f"seed {scene.seed} {scene.tags}: a {value} unsure ({reading.dice[i].why})")
        else:
            score.wrong_sure += 1
            score.failures.append(f"seed {scene.seed} {scene.tags}: a {value or 'tilted die'} read as {got}")
    for i, r in enumerate(reading.dice):
        if i not in used and r.value is not None:
            score.wrong_sure += 1
            score.failures.append(f"seed {scene.seed} {scene.tags}: a {r.value} read where no die is")
    score.rolls += 1
    pockets = [p for p in reading.pockets() if p != 0]
    if -1 in pockets or not pockets:
        score.rolls_crooked += 1
    elif None not in truth and sorted(pockets) == sorted(v for v in truth if v is not None):
        score.rolls_right += 1
    else:
        score.rolls_wrong += 1
        score.failures.append(f"seed {scene.seed} {scene.tags}: roll {pockets} sent for {truth}")


def score(scenes: Iterable[Scene], finder: DiceFinder | None = None) -> Score:
    """Render and read every scene of `scenes` with `finder` (default: for render.py's pictures,
    drawn from straight above), and tally."""
    finder = finder or DiceFinder(Settings(floor_scale=1.0))
    result = Score()
    for scene in scenes:
        score_scene(result, scene, finder.find(render(scene)))
    return result

"""Scoring a reading against a 3-D world's truth, and against labelled photographs: per die
right / unsure (crooked) / wrong as sure / missed, per roll read first time / crooked / wrong.

A die is matched to the reading nearest the picture position of its top face's centre (within
half a die); a leaning die (truth None) is right only when reported unsure; a reading with a value
where no die is counts as wrong as sure. This module knows the recogniser only through what
`DiceFinder.find` returns (centres and values).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Tally:
    """Counts of one scene kind."""
    dice: int = 0
    right: int = 0
    unsure: int = 0
    wrong_sure: int = 0
    missed: int = 0
    rolls: int = 0
    rolls_first_time: int = 0
    rolls_crooked: int = 0
    rolls_wrong: int = 0
    rolls4: int = 0
    rolls4_first_time: int = 0
    why: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def add(self, truths: list[int | None], places: list[tuple[float, float]], reach: float, reading,
            name: str = "") -> None:
        """Score one picture: `truths` and `places` (px) of its dice, `reach` px the matching radius."""
        used: set[int] = set()
        for value, (x, y) in zip(truths, places, strict=True):
            self.dice += 1
            near = sorted((math.hypot(r.centre[0] - x, r.centre[1] - y), i) for i, r in enumerate(reading.dice)
                          if i not in used)
            near = [(d, i) for d, i in near if d <= reach]
            if not near:
                self.missed += 1
                self.failures.append(f"{name}: a {value} missed")
                continue
            i = near[0][1]
            used.add(i)
            got = reading.dice[i].value
            if got is None:
                if value is None:
                    self.right += 1
                else:
                    self.unsure += 1
                    self.why[reading.dice[i].why.split("(")[0].strip()] += 1
                    self.failures.append(f"{name}: a {value} unsure ({reading.dice[i].why})")
            elif got == value:
                self.right += 1
            else:
                self.wrong_sure += 1
                self.failures.append(f"{name}: a {value or 'leaning die'} read as {got}")
        for i, r in enumerate(reading.dice):
            if i not in used and r.value is not None:
                self.wrong_sure += 1
                self.failures.append(f"{name}: a {r.value} read where no die is")
        self.rolls += 1
        faces = [d.value for d in reading.dice]
        sure = faces and None not in faces and len(faces) <= 4
        truth_ok = None not in truths
        if sure and truth_ok and sorted(faces) == sorted(truths):      # type: ignore[type-var]
            self.rolls_first_time += 1
            first = True
        elif not sure:
            self.rolls_crooked += 1
            first = False
        else:
            self.rolls_wrong += 1
            first = False
            self.failures.append(f"{name}: roll {faces} sent for {truths}")
        if len(truths) == 4 and truth_ok:
            self.rolls4 += 1
            self.rolls4_first_time += first

    def row(self, kind: str) -> str:
        """A line of the bench's table."""
        pct = 100 * self.right / self.dice if self.dice else 0.0
        first = f"{self.rolls_first_time}/{self.rolls}"
        four = f"{self.rolls4_first_time}/{self.rolls4}" if self.rolls4 else "-"
        return (f"| {kind} | {self.dice} | {self.right} ({pct:.1f} %) | {self.wrong_sure} | {self.unsure} | "
                f"{self.missed} | {first} | {four} |")


HEADER = ("| scenes | dice | right | wrong as sure | crooked (unsure) | missed | rolls read first time "
          "| 4-dice rolls first time |\n| --- | --- | --- | --- | --- | --- | --- | --- |")

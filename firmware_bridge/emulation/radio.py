"""The air a rig's antennas share: which fields are on, which tags they power, who hears whom.

An `RfField` of a rig (one per reader) asks its `Radio` who answers a frame. Two models:

- **ideal** (no antenna positions): a tag placed on a reader hears that reader alone and is
  heard by it alone, answers add perfectly (a clean collision bit where they differ);
- **harsh** (antenna positions in mm, tags at positions): what the full board meets.
  A tag is *powered* by any antenna whose field is on within `power_range_mm`; a powered tag
  *hears* any transmitting antenna within `listen_range_mm` and is heard by it (load modulation
  reaches further than the power a field gives: a neighbour's tag, powered by its own field,
  answers a reader that could not power it); another antenna's field on within `jam_range_mm`
  of the transmitting one fills its modulation pauses and corrupts the frames it receives;
  answers are received with a strength falling as 1/d³ (near-field coupling), and when the
  strongest is `capture_ratio` times the next, it is decoded cleanly and the weaker ones are
  drowned (capture effect) instead of showing a collision bit; a tag beyond every range is silent.

- **loop air** (emulation/loop_air.py: `LoopAir`, given as `harsh`): the layout tool's own field model
  (board/loop_field.py) of each reader's rectangular loop decides who is powered and who is heard, at
  the receiver gain each chip's RFCfgReg sets (the bring-up's strength proxy).

Both models power tags from the fields that are on: a tag answers only once it has been powered
for `POWER_UP_S` (ISO/IEC 14443-3 §5.2.1: a PICC in an unmodulated field shall accept a request
within 5 ms), and one left without power for `RESET_S` forgets its state (back to IDLE).
`max_on` counts the most fields ever on at once, `jammed` the frames a neighbour's field spoiled.
"""
from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from firmware_bridge.emulation.picc import Picc
from firmware_bridge.emulation.rf_field import Heard, RfField, merge

POWER_UP_S = 5e-3    # ISO/IEC 14443-3 §5.2.1: a PICC accepts a request within 5 ms of an unmodulated field
RESET_S = 5e-3       # out of every field this long, a tag has lost its state (its supply capacitor is empty)
TAG_HEIGHT_MM = 3.0  # the sticker under a block sits above the antenna by the map's thickness


class Clock:
    """The emulated time: the machine's monotonic clock (none if `real` is False) plus what the
    emulator added: the waits `sleep` skipped and the frames' air time. A driver that really sleeps
    (the table's scanner thread) and a test that skips waits both see time pass."""

    def __init__(self, real: bool = True) -> None:
        self.real = real
        self.added = 0.0

    def now(self) -> float:
        """The time on this clock: the machine's (or 0) plus the air and settle time added."""
        return (time.monotonic() if self.real else 0.0) + self.added

    def sleep(self, seconds: float) -> None:
        """Let `seconds` pass on this clock, without waiting in fact."""
        self.added += max(0.0, seconds)

    advance = sleep


@dataclass
class HarshModel:
    """The harsh model's figures (see the module docstring). Defaults: an MFRC522 module's etched
    antenna powers an NTAG213 sticker to about 40 mm (NXP quotes "up to 50 mm" for a tuned antenna).
    The air's questions (`powers`, `heard`, `jams`) by distance; emulation/loop_air.py answers them from
    the loops' field instead."""
    antennas: dict[int, tuple[float, float]]
    power_range_mm: float = 40.0
    listen_range_mm: float = 80.0
    jam_range_mm: float = 100.0
    capture_ratio: float = 4.0   # amplitude: 12 dB

    def _distance(self, at: tuple[float, float], reader: int) -> float:
        ax, ay = self.antennas.get(reader, (math.inf, math.inf))
        return math.hypot(at[0] - ax, at[1] - ay, TAG_HEIGHT_MM) if math.isfinite(at[0] + ax) else math.inf

    def powers(self, at: tuple[float, float], reader: int) -> bool:
        """Whether `reader`'s field, on, powers a tag at `at` (mm on the board)."""
        return self._distance(at, reader) <= self.power_range_mm

    def heard(self, at: tuple[float, float], reader: int, gain_db: int) -> float:
        """How strongly `reader` hears a powered tag at `at` (0: not at all); its gain aside here."""
        d = self._distance(at, reader)
        return d ** -3 if d <= self.listen_range_mm else 0.0

    def jams(self, reader: int, other: int) -> bool:
        """Whether `other`'s field, on, spoils what `reader` receives."""
        ax, ay = self.antennas.get(reader, (math.inf, math.inf))
        ox, oy = self.antennas.get(other, (math.inf, math.inf))
        return math.hypot(ax - ox, ay - oy) <= self.jam_range_mm


class Air(Protocol):
    """What the radio asks of a model of the air (HarshModel; loop_air.LoopAir)."""
    antennas: dict[int, tuple[float, float]]
    capture_ratio: float

    def powers(self, at: tuple[float, float], reader: int) -> bool:
        """Whether `reader`'s field powers a tag at `at`."""

    def heard(self, at: tuple[float, float], reader: int, gain_db: int) -> float:
        """How strongly `reader` hears a tag at `at` (0: not)."""

    def jams(self, reader: int, other: int) -> bool:
        """Whether `other`'s field spoils `reader`'s reception."""


@dataclass
class _Power:
    since: float | None = None      # powered since (None: unpowered)
    lost: float | None = None       # unpowered since (None: never powered)


@dataclass
class Radio:
    """The air shared by the readers of an emulated rig: which fields are on, where each tag lies, coupling,
    capture and range (the harsh model), and counters of fields on at once and corrupted frames."""
    clock: Clock = field(default_factory=Clock)     # frames take their air time on it
    harsh: Air | None = None            # HarshModel, or loop_air.LoopAir
    fields: dict[int, RfField] = field(default_factory=dict)
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)   # harsh: UID -> (x, y) mm
    on: set[int] = field(default_factory=set)
    max_on: int = 0
    jammed: int = 0
    _power: dict[str, _Power] = field(default_factory=dict)

    # --- fields ------------------------------------------------------------------------------
    def attach(self, reader: int, rf: RfField) -> None:
        """Join reader `reader`'s field to this air."""
        self.fields[reader] = rf

    def switch(self, reader: int, on: bool) -> None:
        """A reader's antenna drivers were switched (TxControlReg Tx1RFEn/Tx2RFEn)."""
        if on:
            self.on.add(reader)
            self.max_on = max(self.max_on, len(self.on))
        else:
            self.on.discard(reader)
        self.refresh([t for t in self._tags(reader) if self._feeds(t, reader)])

    def reset_counts(self) -> None:
        """Zero the counters: fields on at once (from now) and frames corrupted."""
        self.max_on = len(self.on)
        self.jammed = 0

    # --- tags --------------------------------------------------------------------------------
    def _tags(self, reader: int | None = None) -> list[Picc]:
        """Every tag on the board (ideal model and a reader given: the tags in its field)."""
        if reader is not None and self.harsh is None:
            return list(self.fields[reader].tags) if reader in self.fields else []
        seen: dict[str, Picc] = {}
        for rf in self.fields.values():
            for tag in rf.tags:
                seen.setdefault(tag.uid_hex, tag)
        return list(seen.values())

    def _at(self, tag: Picc) -> tuple[float, float]:
        return self.positions.get(tag.uid_hex, (math.inf, math.inf))

    def _feeds(self, tag: Picc, reader: int) -> bool:
        """Whether `reader`'s field (when on) powers `tag`."""
        if self.harsh is None:
            return tag in self.fields[reader].tags
        return math.isfinite(self._at(tag)[0]) and self.harsh.powers(self._at(tag), reader)

    def refresh(self, tags: Iterable[Picc]) -> None:
        """Power the tags a field on reaches, take it from the others (a reset after RESET_S)."""
        now = self.clock.now()
        for tag in tags:
            power = self._power.setdefault(tag.uid_hex, _Power())
            fed = tag.in_field and any(self._feeds(tag, r) for r in self.on if r in self.fields)
            if fed and power.since is None:
                if power.lost is None or now - power.lost >= RESET_S:
                    tag.power_on()
                power.since, power.lost = now, None
            elif not fed and power.since is not None:
                power.since, power.lost = None, now

    def forget(self, tag: Picc) -> None:
        """The tag left the board: unpowered from now."""
        self.positions.pop(tag.uid_hex, None)
        power = self._power.get(tag.uid_hex)
        if power is not None and power.since is not None:
            power.since, power.lost = None, self.clock.now()

    def _ready(self, tag: Picc, now: float) -> bool:
        power = self._power.get(tag.uid_hex)
        return power is not None and power.since is not None and now - power.since >= POWER_UP_S

    # --- one frame ---------------------------------------------------------------------------
    def exchange(self, reader: int, bits: list[int]) -> Heard | None:
        """Who answers `bits` sent by `reader` (its field on), as the reader receives it."""
        now = self.clock.now()
        if self.harsh is None:
            hearing = [(1.0, t) for t in self.fields[reader].tags if self._ready(t, now)]
        else:
            gain = self.fields[reader].rx_gain_db
            strengths = ((self.harsh.heard(self._at(t), reader, gain), t) for t in self._tags()
                         if self._ready(t, now) and math.isfinite(self._at(t)[0]))
            hearing = [(strength, t) for strength, t in strengths if strength > 0]
        answers = [(strength, a) for strength, a in ((s, t.receive(bits)) for s, t in hearing) if a]
        for rf in self.fields.values():
            for tag in [t for t in rf.tags if t.departed]:
                rf.remove(tag)
        if not answers:
            return None
        if self.harsh is not None:
            answers.sort(key=lambda sa: -sa[0])
            loudest = answers[0][0]
            # Much weaker answers are drowned in the loudest (capture), comparable ones collide.
            answers = [(s, a) for s, a in answers if s * self.harsh.capture_ratio >= loudest]
        heard = merge([a for _, a in answers])
        if self.harsh is not None and self._jammed(reader):
            self.jammed += 1
            # A neighbour's carrier fills the pauses: the subcarrier is read wrong from the middle on.
            half = len(heard.bits) // 2
            heard.bits[half:] = [1 - b for b in heard.bits[half:]]
        return heard

    def _jammed(self, reader: int) -> bool:
        assert self.harsh is not None
        return any(self.harsh.jams(reader, other) for other in self.on - {reader})

"""What one reader's antenna hears: the tags in its field answering a frame, superposed bit by bit.

Tags answering at once are Manchester-coded on the same subcarrier, so where their bits differ
the reader sees a collision; where they agree it reads the common bit. `exchange()` returns the
merged bits and the index of the first collision, and adds the frame's air time to `air_time_s`
(ISO 14443A at 106 kbit/s: 9 bit-times per byte with parity, frame delay time before an answer,
the reader's timer running out when nobody answers).

A field of a rig belongs to the rig's `Radio` (emulation/radio.py), which decides who is powered
and who hears whom (and, in its harsh model, neighbour coupling, capture and range); a field on
its own (a chip tested alone) hears the tags placed in it whenever its antenna is on.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from firmware_bridge.emulation.picc import Picc

BIT_TIME_S = 128 / 13.56e6  # one bit at 106 kbit/s
FRAME_DELAY_S = 1236 / 13.56e6  # FDT for a PCD->PICC frame ending in a logic 1, rounded up


@dataclass
class Heard:
    """What the reader received for one frame: the bits, and where the first collision was, if any."""
    bits: list[int]
    collision_at: int | None  # index into `bits` of the first collided bit


def frame_air_time(nbits: int) -> float:
    """Start bit + data bits + one parity bit per full byte (short frames have none) + end of frame."""
    parity = nbits // 8 if nbits >= 8 else 0
    return (1 + nbits + parity + 1) * BIT_TIME_S


def merge(answers: list[list[int]]) -> Heard:
    """Answers on one subcarrier at once: where their bits differ the reader sees a collision."""
    length = max(len(a) for a in answers)
    merged, collision_at = [], None
    for i in range(length):
        values = {a[i] for a in answers if i < len(a)}
        if len(values) > 1 and collision_at is None:
            collision_at = i
        merged.append(1 if 1 in values else 0)
    return Heard(merged, collision_at)


class _Advancing(Protocol):
    def advance(self, seconds: float) -> None:
        """Let `seconds` of air time pass."""


class Radio(Protocol):
    """What a field asks of the air it belongs to (emulation/radio.py implements it; the module
    order is one-way: radio.py imports this one, not the other way round)."""

    @property
    def clock(self) -> _Advancing:
        """The clock frames take their air time on."""

    def attach(self, reader: int, rf: RfField) -> None:
        """Join `rf`, reader `reader`'s field, to the air."""

    def refresh(self, tags: Iterable[Picc]) -> None:
        """`tags` came or went: work out again who powers them."""

    def switch(self, reader: int, on: bool) -> None:
        """Reader `reader`'s antenna went on or off."""

    def exchange(self, reader: int, bits: list[int]) -> Heard | None:
        """What reader `reader` hears back for a frame of `bits`."""


class RfField:
    """One reader's RF field: the tags in it, the frames exchanged and the air time they took."""

    def __init__(self, radio: Radio | None = None, reader: int = 0) -> None:
        self.radio = radio
        self.reader = reader
        self.on = False
        self.rx_gain_db = 33            # the chip's RFCfgReg RxGain (its reset value: 33 dB)
        if radio is not None:
            radio.attach(reader, self)
        self.tags: list[Picc] = []
        self.air_time_s = 0.0
        self.frames = 0
        self.exchanges: list[tuple[int, int | None]] = []  # (bits sent, bits answered or None), for the benchmark

    def place(self, tag: Picc) -> None:
        """A tag enters the field (and powers up if no other field held it)."""
        if tag not in self.tags:
            if not tag.in_field:
                tag.departed = False
                tag.power_on()  # a tag entering the first field powers up in IDLE
            tag.fields += 1
            self.tags.append(tag)
            if self.radio is not None:
                self.radio.refresh([tag])

    def remove(self, tag: Picc) -> None:
        """A tag leaves the field."""
        if tag in self.tags:
            self.tags.remove(tag)
            tag.fields -= 1
            if self.radio is not None:
                self.radio.refresh([tag])

    def switch(self, on: bool) -> None:
        """The chip's antenna drivers went on or off."""
        if on != self.on:
            self.on = on
            if self.radio is not None:
                self.radio.switch(self.reader, on)

    def exchange(self, bits: list[int], timeout_s: float, antenna_on: bool = True) -> Heard | None:
        """Send one frame of `bits` to every tag in the field and return what the reader hears: one answer, a
        collision of several, or None."""
        before = self.air_time_s
        heard = self._exchange(bits, timeout_s, antenna_on)
        if self.radio is not None:
            self.radio.clock.advance(self.air_time_s - before)
        return heard

    def _exchange(self, bits: list[int], timeout_s: float, antenna_on: bool) -> Heard | None:
        self.frames += 1
        self.air_time_s += frame_air_time(len(bits))
        if not antenna_on:
            heard = None
        elif self.radio is not None:
            heard = self.radio.exchange(self.reader, bits)
        else:
            answers = [a for a in (tag.receive(bits) for tag in list(self.tags)) if a]
            for tag in [tag for tag in self.tags if tag.departed]:
                self.remove(tag)
            heard = merge(answers) if answers else None
        if heard is None:
            self.air_time_s += timeout_s
            self.exchanges.append((len(bits), None))
            return None
        self.air_time_s += FRAME_DELAY_S + frame_air_time(len(heard.bits))
        self.exchanges.append((len(bits), len(heard.bits)))
        return heard

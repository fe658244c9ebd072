"""Scripted sensors for the simulated devices, behind device_core's sensors interface."""
from __future__ import annotations

from firmware_bridge.shared import protocol
from firmware_bridge.shared.ticks import ticks_ms as now_ms


class SimDice:
    """Scripted tray sensors: `roll(faces)` shakes the tray for `motion_ms`, then the dice lie as given
    (face 1..6, or -1 for a die that is not flat)."""

    def __init__(self, motion_ms: int = 50):
        self.motion_ms = motion_ms
        self.led = "off"
        self._motion_until = 0
        self._shaken = False
        self._pockets = [0, 0, 0, 0]

    def roll(self, faces) -> None:
        """Shake the tray and let the dice come to rest on `faces` (0 for an empty or crooked pocket)."""
        self._pockets = list(faces) + [0] * (4 - len(faces))
        self._motion_until = now_ms() + self.motion_ms
        self._shaken = True

    def motion(self) -> bool:
        # However late the next poll comes, it sees the shake (a real tray's sensor latches it).
        """Whether the dice are moving, or were shaken since the last poll."""
        shaken, self._shaken = self._shaken, False
        return shaken or now_ms() < self._motion_until

    def pockets(self) -> list:
        """The faces in the four pockets (0 where no die lies flat)."""
        return list(self._pockets)

    def set_led(self, target, mode) -> None:
        """Remember the tray light's mode for the tests to look at."""
        self.led = mode


class SimBoard:
    """Scripted readers. Flicker and blips are counted in polls, not time, so they behave the same
    however busy the host is: `flicker` hides a placed tag on every other poll, `blip` shows a tag
    for exactly one poll (a block passed over a reader)."""

    def __init__(self, count: int | None = None):
        if count is None:
            from firmware_bridge.board.reader_map import reader_count
            count = reader_count()
        self.count = count
        self.placed: set[tuple[int, str]] = set()
        self.leds: dict[int, str] = {}
        self._flicker: dict[tuple[int, str], int] = {}
        self._blips: set[tuple[int, str]] = set()

    def place(self, reader: int, uid: str) -> None:
        """Put the tag `uid` on reader `reader` until removed."""
        self.placed.add(self._key(reader, uid))

    def remove(self, reader: int, uid: str) -> None:
        """Take the tag `uid` off reader `reader`."""
        self.placed.discard(self._key(reader, uid))

    def flicker(self, reader: int, uid: str, polls: int) -> None:
        """Let the tag drop out on every other read for `polls` reads, as a tag at the edge of a field does."""
        self._flicker[self._key(reader, uid)] = polls

    def blip(self, reader: int, uid: str) -> None:
        """Let the tag be read once only, as a block passing over a reader."""
        self._blips.add(self._key(reader, uid))

    def _key(self, reader: int, uid: str) -> tuple[int, str]:
        if not 0 <= reader < self.count:
            raise ValueError(f"reader {reader} not in 0..{self.count - 1}")
        return reader, protocol.parse_uid(uid.upper())

    def read(self) -> list:
        """What each reader sees on this poll: one set of UIDs per reader."""
        seen = self.placed | self._blips
        self._blips = set()
        for key, left in list(self._flicker.items()):
            if left % 2:
                seen = seen - {key}
            if left <= 1:
                del self._flicker[key]
            else:
                self._flicker[key] = left - 1
        readers: list[list[str]] = [[] for _ in range(self.count)]
        for reader, uid in seen:
            readers[reader].append(uid)
        return readers

    def set_led(self, target, mode) -> None:
        """Remember reader `target`'s LED mode for the tests to look at."""
        self.leds[target] = mode

"""N-stable-scan debouncing of raw reader scans into TagSeen / TagGone / Diagnostic events.

A tag counts as on a reader once `appear_scans` consecutive scans saw it there, and as gone once
`vanish_scans` consecutive complete scans of that reader missed it. Scans that cannot vouch for
an absence (reader silent, a branch of the field unresolved) leave the counts alone, so a flaky
reader never turns into a phantom move. A tag stably on one reader that also shows up stably on
another in the same pass (a block on a border) is reported once as a diagnostic; either way it
is not moved until it is stably gone from the first reader. With a registry, a tag that is not
enrolled is reported (once) as a diagnostic instead of a TagSeen.

Not `debounce.Debouncer` (the board-scanner firmware's): that one is time-windowed, symmetric
and keyed by (reader, uid) on a device clock; this one counts passes with separate appear/vanish
counts, knows when a scan cannot vouch for an absence, and keeps a tag on one reader at a time.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from firmware_bridge.events import Diagnostic, SensorEvent, TagGone, TagSeen
from firmware_bridge.rfid.reader_array import ReaderScan


class TagDebouncer:
    """Turns raw passes into TagSeen and TagGone: a tag counts as placed after `appear_scans` passes seen, as
    lifted after `vanish_scans` passes unseen, and a reader that did not read its field completely changes
    nothing."""
    def __init__(self, appear_scans: int = 2, vanish_scans: int = 3, source: str = "rfid",
                 is_enrolled: Callable[[str], bool] | None = None, place_name: Callable[[int], str] = str):
        if appear_scans < 1 or vanish_scans < 1:
            raise ValueError("debounce counts must be at least 1")
        self.appear_scans = appear_scans
        self.vanish_scans = vanish_scans
        self.source = source
        self.is_enrolled = is_enrolled
        self.place_name = place_name
        self.stable: dict[str, int] = {}  # uid -> the reader it is stably on
        self._present: dict[tuple[int, str], int] = {}  # (reader, uid) not yet stable: consecutive sightings
        self._absent: dict[str, int] = {}  # stable uid: consecutive complete scans without it
        self._reported: set[tuple[str, int, str]] = set()  # (code, reader, uid) diagnostics already sent
        self._silent: set[int] = set()
        self._incomplete: set[int] = set()

    def feed(self, scans: Iterable[ReaderScan]) -> list[SensorEvent]:
        """Take one pass of every reader and return the events it settles: tags seen and gone, unknown tags,
        readers failing or back."""
        scans = list(scans)
        events: list[SensorEvent] = []
        for scan in scans:
            events += self._reader_health(scan)
        by_reader = {scan.reader: scan for scan in scans}
        for uid, reader in list(self.stable.items()):
            latest = by_reader.get(reader)
            if latest is None:
                continue
            if uid in latest.uids:
                self._absent.pop(uid, None)
            elif latest.complete:
                self._absent[uid] = self._absent.get(uid, 0) + 1
                if self._absent[uid] >= self.vanish_scans:
                    del self.stable[uid], self._absent[uid]
                    events.append(TagGone(self.source, reader=reader, uid=uid))
        seen_now: dict[str, set[int]] = {}
        for scan in scans:
            for uid in scan.uids:
                seen_now.setdefault(uid, set()).add(scan.reader)
        for scan in scans:
            events += self._sightings(scan, seen_now)
        return events

    def _sightings(self, scan: ReaderScan, seen_now: dict[str, set[int]]) -> list[SensorEvent]:
        events: list[SensorEvent] = []
        if scan.complete:
            for key in [k for k in self._present if k[0] == scan.reader and k[1] not in scan.uids]:
                del self._present[key]
        for uid in sorted(scan.uids):
            if self.stable.get(uid) == scan.reader:
                continue
            key = (scan.reader, uid)
            self._present[key] = self._present.get(key, 0) + 1
            if self._present[key] < self.appear_scans:
                continue
            where = f"reader {scan.reader} ({self.place_name(scan.reader)})"
            if uid in self.stable:
                other = self.stable[uid]
                if other not in seen_now[uid]:
                    continue  # moved away from `other`: wait until it is stably gone there
                events += self._once("tag_on_two_readers", scan.reader, uid,
                                     f"tag {uid} is on {where} and on reader {other} ({self.place_name(other)})")
            elif self.is_enrolled is not None and not self.is_enrolled(uid):
                events += self._once("unknown_tag", scan.reader, uid, f"tag {uid} on {where} is not enrolled")
            else:
                del self._present[key]
                self._forget_reports(uid)
                self.stable[uid] = scan.reader
                events.append(TagSeen(self.source, reader=scan.reader, uid=uid))
        return events

    def _reader_health(self, scan: ReaderScan) -> list[SensorEvent]:
        where = f"reader {scan.reader} ({self.place_name(scan.reader)})"
        events: list[SensorEvent] = []
        if not scan.answered and scan.reader not in self._silent:
            self._silent.add(scan.reader)
            events.append(Diagnostic(self.source, code="reader_silent", detail=f"{where} does not answer"))
        elif scan.answered and scan.reader in self._silent:
            self._silent.discard(scan.reader)
            events.append(Diagnostic(self.source, code="reader_back", detail=f"{where} answers again"))
        if scan.answered and not scan.complete and scan.reader not in self._incomplete:
            self._incomplete.add(scan.reader)
            events.append(Diagnostic(self.source, code="bad_frame", detail=f"{where}: {'; '.join(scan.problems)}"))
        elif scan.complete:
            self._incomplete.discard(scan.reader)
        return events

    def _once(self, code: str, reader: int, uid: str, detail: str) -> list[SensorEvent]:
        if (code, reader, uid) in self._reported:
            return []
        self._reported.add((code, reader, uid))
        return [Diagnostic(self.source, code=code, detail=detail)]

    def _forget_reports(self, uid: str) -> None:
        self._reported = {r for r in self._reported if r[2] != uid}

"""Bring-up at the owner's table: one tagged block walked over every place, what each reader made of it,
what to fix, and the reader map as measured.

The walk (`walk()`): for each place in turn the operator is told where to set the block (its dot);
every reader is read at the highest receiver gain (RFCfgReg RxGain 48 dB), then those that read the
block again at each lower step, down to 18 dB. The lowest gain at which a reader still reads the
block is its strength there (a strong coupling is heard even at 18 dB; a weak one only at 48 dB):
`PlaceReading.seen`, reader -> dB.

The analysis (`analyse()`), from the readings and the map the layout tool wrote:

- each place goes to the reader that reads it most strongly (the planned one on a tie);
- each reader gets the lowest gain that reads all its places, one step higher if that still reads no
  other reader's place (headroom for a block set down off-centre);
- a reader that reads another reader's place as strongly as one of its own cannot be tuned apart by
  gain: that place joins its zone (a shared zone: the table tells which place by the rules, or asks),
  and a reader left with no place is dropped from the map;
- findings: a reader that read nothing at any place (dead: module, loop joint or ribbon); two readers
  that read each other's places and not their own (swapped ribbons or loop leads); a reader that reads
  its own place only at 43-48 dB (reads short: tune its matching, hardware/BOARD-BUILD.md "Tuning");
  a reader reading a neighbour's place (by how much; fixed by gain, or move/shrink the loop); a place
  that no reader reads.

`reader_map_toml()` writes the measured map (readers.toml's format, each reader's `rx_gain`), which
`rubicon devices scan --readers` and the table then use. The gain proxy needs the Pi-wired array (its
driver sets RFCfgReg); the Pico scanners' protocol has no gain command yet.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from firmware_bridge.board.reader_map import RX_GAINS, ReaderMap

SHORT_DB = 43           # a reader needing this gain or more for its own place reads short
Probe = Callable[[Sequence[int], int], dict[int, frozenset[str]]]     # (readers, gain dB) -> reader -> UIDs


@dataclass(frozen=True)
class PlaceReading:
    """What the readers made of the block on one place: reader -> the lowest gain (dB) that read it."""
    place: str
    planned: int | None
    seen: dict[int, int]


@dataclass(frozen=True)
class Finding:
    """One thing the bring-up found: what, which readers and places, and what to do (`problem`: must be fixed
    before play; otherwise the map or the gain already takes care of it)."""
    kind: str               # dead | swapped | short | cross | shared | unread | dropped
    readers: tuple[int, ...]
    places: tuple[str, ...]
    text: str
    problem: bool = True


@dataclass
class BringupReport:
    """The analysis: where each place went, each reader's gain, the findings."""
    readings: list[PlaceReading]
    zones: dict[int, list[str]]                 # reader -> its places as measured (first: the planned one)
    gains: dict[int, int]
    findings: list[Finding] = field(default_factory=list)

    @property
    def problems(self) -> list[Finding]:
        """The findings to fix before play."""
        return [f for f in self.findings if f.problem]


def measure(probe: Probe, readers: Sequence[int], uid: str) -> dict[int, int]:
    """Reader -> the lowest gain step at which it reads the tag `uid` (readers that never read it: absent)."""
    gains = sorted(RX_GAINS, reverse=True)
    reading = [r for r, uids in probe(readers, gains[0]).items() if uid in uids]
    seen = {r: gains[0] for r in reading}
    for gain in gains[1:]:
        if not reading:
            break
        reading = [r for r, uids in probe(reading, gain).items() if uid in uids]
        for r in reading:
            seen[r] = gain
    return seen


def place_readers(reader_map: ReaderMap) -> list[int]:
    """The readers under the map (its cities and seas): the ones a walk measures."""
    return [p.index for p in reader_map.places if p.kind in ("city", "sea")]


def walk(probe: Probe, reader_map: ReaderMap, places: Iterable[str], uid: str,
         tell: Callable[[str, int, int], None]) -> list[PlaceReading]:
    """Walk the block over `places`: `tell(place, k, n)` asks the operator to set it on place k of n (and
    returns when it is there); then every reader is measured."""
    places = list(places)
    readers = place_readers(reader_map)
    out = []
    for k, place in enumerate(places, 1):
        tell(place, k, len(places))
        planned = next((p.index for p in reader_map.places if place in p.locations), None)
        out.append(PlaceReading(place, planned, measure(probe, readers, uid)))
    return out


def analyse(readings: Sequence[PlaceReading], readers: Iterable[int]) -> BringupReport:
    """From the readings (and the planned readers in them) to zones, gains and findings (module docstring)."""
    readers = sorted(set(readers))
    findings: list[Finding] = []
    home: dict[str, int] = {}
    for r in readings:
        if not r.seen:
            who = f"R{r.planned}" if r.planned is not None else "no reader"
            findings.append(Finding("unread", (r.planned,) if r.planned is not None else (), (r.place,),
                                    f"{r.place}: no reader reads the block there at any gain ({who} should): "
                                    "check that loop's joints and tuning, or move the loop under the dot"))
            continue
        home[r.place] = min(r.seen, key=lambda k: (r.seen[k], k != r.planned, k))
    by_place = {r.place: r for r in readings}
    read_any = {k for r in readings for k in r.seen}
    walked = {r.planned for r in readings}
    for k in readers:
        if k not in read_any and k in walked:       # a reader none of whose places was walked is not judged
            findings.append(Finding("dead", (k,), (), f"R{k} read nothing at any place: a dead module, a broken "
                                    "loop joint, or its ribbon unplugged (`rubicon devices scan` says whether it "
                                    "answers on SPI)"))
    findings += _swaps(readings, home)
    # a reader that cannot be tuned apart from another's place takes it into its zone (once: a place
    # two loops read equally stays where it went first, and the other reader is told to keep off it)
    settled: set[str] = set()
    for _ in range(len(readings)):
        moved = False
        for k in readers:
            own = [p for p, h in home.items() if h == k]
            if not own:
                continue
            need = max(by_place[p].seen[k] for p in own)
            for q, h in list(home.items()):
                if h != k and q not in settled and k in by_place[q].seen and by_place[q].seen[k] <= need:
                    home[q] = k
                    settled.add(q)
                    moved = True
                    findings.append(Finding(
                        "shared", (k, h), (q, *own),
                        f"R{k} reads {q} (R{h}'s place) at {by_place[q].seen[k]} dB, as strongly as its own "
                        f"{'/'.join(own)} ({need} dB): no gain tells them apart, so {q} joins R{k}'s zone (shared). "
                        f"To keep them apart, move R{k}'s loop away from {q}'s dot or shrink it"))
        if not moved:
            break
    zones: dict[int, list[str]] = {}
    for r in readings:
        if r.place in home:
            zones.setdefault(home[r.place], []).append(r.place)
    for k in readers:
        planned = [r.place for r in readings if r.planned == k]
        if planned and k not in zones and k in read_any:
            others = [r.place for r in readings if k in r.seen and r.planned != k]
            where = (f"it reads {'/'.join(others)}, not {'/'.join(planned)}: its loop lies there; move it under "
                     f"{planned[0]}'s dot") if others else f"{'/'.join(planned)} is read more strongly elsewhere"
            findings.append(Finding("dropped", (k,), tuple(planned + others),
                                    f"R{k} is left with no place of its own ({where}); it is left out of the "
                                    "measured map"))
    gains: dict[int, int] = {}
    steps = sorted(RX_GAINS)
    for k, places in zones.items():
        need = max(by_place[p].seen[k] for p in places)
        foreign = [by_place[r.place].seen[k] for r in readings if k in r.seen and home.get(r.place) != k]
        limit = min(foreign, default=None)
        above = [g for g in steps if g > need and (limit is None or g < limit)]
        gains[k] = above[0] if above else need
        if need >= SHORT_DB:
            weakest = max(places, key=lambda p: by_place[p].seen[k])
            findings.append(Finding("short", (k,), (weakest,),
                                    f"R{k} reads {weakest} only at {need} dB (strong loops read at 18-33 dB): it reads "
                                    "short; tune its matching (trimmer, hardware/BOARD-BUILD.md 'Tuning a loop') or "
                                    "check its joints, then walk its places again"))
        if limit is not None:
            near = min((r for r in readings if k in r.seen and home.get(r.place) != k), key=lambda r: r.seen[k])
            if limit > gains[k]:
                text, problem = f"run it at {gains[k]} dB (the measured map says so)", False
            else:
                text, problem = (f"at {gains[k]} dB, which its own places need, it reads both: move R{k}'s loop "
                                 f"away from {near.place}'s dot or shrink it, then walk again"), True
            findings.append(Finding("cross", (k, home[near.place]), (near.place,),
                                    f"R{k} also reads {near.place} (R{home[near.place]}'s place) from {limit} dB up: "
                                    + text, problem=problem))
    for k, places in zones.items():
        planned = [r.place for r in readings if r.planned == k]
        if planned and places[0] not in planned:
            zones[k] = sorted(places, key=lambda p: p not in planned)
    return BringupReport(list(readings), dict(sorted(zones.items())), gains, findings)


def _swaps(readings: Sequence[PlaceReading], home: dict[str, int]) -> list[Finding]:
    out, done = [], set()
    wrong = {(r.planned, home[r.place]): r.place for r in readings
             if r.place in home and r.planned is not None and home[r.place] != r.planned}
    for (a, b), place in wrong.items():
        if (b, a) in wrong and frozenset((a, b)) not in done:
            done.add(frozenset((a, b)))
            out.append(Finding("swapped", (a, b), (place, wrong[(b, a)]),
                               f"R{a} and R{b} read each other's places ({wrong[(b, a)]} and {place}): their ribbons "
                               "or loop leads are swapped. The measured map follows the wiring; or swap them back "
                               "and walk again"))
    return out


def reader_map_toml(report: BringupReport, reader_map: ReaderMap) -> str:
    """The measured reader map: each reader's places (a shared zone's others under `also`) and its gain, then
    the planned map's readers that are not map places (scan pad, pools), and its bus."""
    kinds = {name: p.kind for p in reader_map.places for name in p.locations}
    lines = ["# Reader index -> board location, as measured by `rubicon board-bringup` (one tagged block walked",
             "# over every place; rx_gain: the receiver gain chosen for each reader, RFCfgReg RxGain in dB).", "",
             "readers = ["]
    for k, places in report.zones.items():
        also = f", also = [{', '.join(_q(p) for p in places[1:])}]" if len(places) > 1 else ""
        pico = reader_map.place(k).pico if k in reader_map.indices else None
        pico_key = f", pico = {pico}" if pico is not None else ""
        lines.append(f"  {{ index = {k}, location = {_q(places[0])}, kind = {_q(kinds[places[0]])}{also}"
                     f"{pico_key}, rx_gain = {report.gains[k]} }},")
    for p in reader_map.places:
        if p.kind not in ("city", "sea"):
            side = f", side = {_q(p.side)}" if p.side else ""
            lines.append(f"  {{ index = {p.index}, location = {_q(p.location)}, kind = {_q(p.kind)}{side} }},")
    b = reader_map.bus
    lines += ["]", "", "[bus]", f"spi_bus = {b.spi_bus}", f"spi_device = {b.spi_device}", f"speed_hz = {b.speed_hz}",
              f"reset_pin = {b.reset_pin}", f"address_pins = [{', '.join(map(str, b.address_pins))}]", ""]
    return "\n".join(lines)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

"""Which reader senses which place on the board, and how the reader array is wired.

`ReaderMap.load()` reads `readers.toml` (packaged default or a path): the SPI bus, reset pin and
demultiplexer address pins, and reader index -> location (map city or sea, each side's levy pool
and eliminated area, the scan pad). A reader whose antenna serves a shared sensing zone names its
other locations under `also` (`rubicon board-layout` writes such maps; what a block sensed there means
is the table's to settle). Validation makes a bad file a clear `ConfigError`. Optional:
each antenna's centre on the board (`at_mm = [x, y]`) and how many fields may be on at once
(`[bus] fields_at_once`, default 1): with positions, the reader array warms far-apart fields
ahead of their turn (firmware_bridge/rfid/field_schedule.py).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from firmware_bridge.config_files import ConfigError, load_toml, pin_list, require

KINDS = ("city", "sea", "levy_pool", "eliminated", "scan_pad")
SIDES = ("Caesar", "Pompeius")
ENTRY_KEYS = ("index", "location", "kind", "side", "also", "at_mm", "pico", "rx_gain")
RX_GAINS = (18, 23, 33, 38, 43, 48)     # the MFRC522's RFCfgReg RxGain steps, dB
BUS_KEYS = ("spi_bus", "spi_device", "speed_hz", "reset_pin", "address_pins", "fields_at_once")


class UnknownLocation(ConfigError, KeyError):
    """A location the reader map has no reader for (a KeyError too, for callers that look up)."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class BusConfig:
    """The SPI bus of the reader array: bus and chip-select device, clock, the readers' shared reset pin and the
    demultiplexer's address pins."""
    spi_bus: int
    spi_device: int
    speed_hz: int
    reset_pin: int
    address_pins: tuple[int, ...]
    fields_at_once: int = 1

    @property
    def capacity(self) -> int:
        """How many readers the address pins can select (2 to the number of pins)."""
        return 1 << len(self.address_pins)


@dataclass(frozen=True)
class ReaderPlace:
    """What reader `index` senses: a map location, or a levy pool, an eliminated area or the scan pad (`kind`, with
    `side` for a side's area)."""
    index: int
    location: str
    kind: str
    side: str | None = None
    also: tuple[str, ...] = ()      # a shared sensing zone's other locations (same kind), see layout.py
    at_mm: tuple[float, float] | None = None    # the antenna's centre on the board, if known
    pico: int | None = None         # the Pico (1, 2 ...) scanning it, when several each scan a region
    rx_gain: int | None = None      # its receiver gain (dB), as the bring-up measured it (board/bringup.py)

    @property
    def locations(self) -> tuple[str, ...]:
        """Every location the reader's antenna serves: its own, then the shared zone's others."""
        return (self.location, *self.also)


@dataclass(frozen=True)
class ReaderMap:
    """Which reader senses which place (readers.toml): the bus and every reader's place."""
    bus: BusConfig
    places: tuple[ReaderPlace, ...]

    @classmethod
    def load(cls, path: str | Path | None = None) -> ReaderMap:
        """Read and check a reader map (`path`, or the packaged readers.toml); ConfigError naming the file, the key
        and what is wrong."""
        data, where = load_toml(path, "readers.toml")
        _known_keys(data, ("bus", "readers"), where, "at the top level")
        bus_table = require(data, "bus", dict, where)
        _known_keys(bus_table, BUS_KEYS, where, "in [bus]")
        bus = BusConfig(
            spi_bus=require(bus_table, "spi_bus", int, where),
            spi_device=require(bus_table, "spi_device", int, where),
            speed_hz=require(bus_table, "speed_hz", int, where),
            reset_pin=require(bus_table, "reset_pin", int, where),
            address_pins=pin_list(bus_table, "address_pins", None, where),
            fields_at_once=require(bus_table, "fields_at_once", int, where) if "fields_at_once" in bus_table else 1,
        )
        if bus.fields_at_once < 1:
            raise ConfigError(f"{where}: `fields_at_once` in [bus] must be at least 1, got {bus.fields_at_once}")
        places = tuple(_place(entry, where) for entry in require(data, "readers", list, where))
        reader_map = cls(bus, places)
        reader_map._validate(where)
        if path is not None:
            known = map_locations()
            for p in reader_map.places:
                for name in p.locations if p.kind in ("city", "sea") else ():
                    if known.get(name) == p.kind:
                        continue
                    near = difflib.get_close_matches(name, list(known), n=1)
                    hint = f" (did you mean {near[0]!r}?)" if near else ""
                    what = f"a {known[name]}, not a {p.kind}" if name in known else "not a map location"
                    key = "location" if name == p.location else "also"
                    raise ConfigError(f"{where}: reader {p.index}: `{key}` {name!r} is {what}; expected "
                                      f"one of the {len(known)} cities and seas of the packaged readers.toml{hint}")
        return reader_map

    def _validate(self, where: str) -> None:
        indices = [p.index for p in self.places]
        if len(set(indices)) != len(indices):
            raise ConfigError(f"{where}: a reader index is listed twice")
        names = [name for p in self.places for name in p.locations]
        if len(set(names)) != len(names):
            raise ConfigError(f"{where}: a location has two readers")
        if any(i >= self.bus.capacity for i in indices):
            raise ConfigError(f"{where}: reader index beyond the {len(self.bus.address_pins)} address lines")
        used = set(self.bus.address_pins) | {self.bus.reset_pin}
        if len(used) != len(self.bus.address_pins) + 1:
            raise ConfigError(f"{where}: a GPIO is used twice in [bus]")
        if self.bus.fields_at_once > 1 and not self.positions:
            raise ConfigError(f"{where}: `fields_at_once` above 1 needs the antennas' positions (`at_mm` of the "
                              f"readers) to keep the fields that are on together apart")
        if sum(p.kind == "scan_pad" for p in self.places) != 1:
            raise ConfigError(f"{where}: there must be exactly one scan pad")

    @property
    def rx_gains(self) -> dict[int, int]:
        """Reader index -> the receiver gain the bring-up chose for it (readers without one: the chip's own)."""
        return {p.index: p.rx_gain for p in self.places if p.rx_gain is not None}

    def pico_regions(self) -> dict[int, list[int]]:
        """Pico number -> the reader indices it scans (the `pico` keys; empty when the map has none)."""
        out: dict[int, list[int]] = {}
        for p in self.places:
            if p.pico is not None:
                out.setdefault(p.pico, []).append(p.index)
        return out

    @property
    def indices(self) -> list[int]:
        """The reader indices of the map, in file order."""
        return [p.index for p in self.places]

    @property
    def positions(self) -> dict[int, tuple[float, float]]:
        """Reader index -> its antenna's centre in mm, for the readers whose entry gives it."""
        return {p.index: p.at_mm for p in self.places if p.at_mm is not None}

    def place(self, index: int) -> ReaderPlace:
        """The place reader `index` senses; KeyError if the map has no such reader."""
        for p in self.places:
            if p.index == index:
                return p
        raise KeyError(f"no reader {index}")

    def name(self, index: int) -> str:
        """The name of what reader `index` senses (a shared zone's locations joined: "Neapolis / Sipontum"), or
        'reader N' for a reader the map does not list."""
        try:
            return " / ".join(self.place(index).locations)
        except KeyError:
            return f"reader {index}"

    def index_of(self, location: str) -> int:
        """The reader under `location`; UnknownLocation (a KeyError) if none is."""
        for p in self.places:
            if location in p.locations:
                return p.index
        raise UnknownLocation(f"the reader map has no reader for {location!r}")

    def levy_pool(self, side: str) -> int:
        """The reader under `side`'s levy pool."""
        return self._of_kind("levy_pool", side)

    def eliminated(self, side: str) -> int:
        """The reader under `side`'s eliminated blocks."""
        return self._of_kind("eliminated", side)

    @property
    def scan_pad(self) -> int:
        """The reader of the scan pad, where a block is held to be identified."""
        return self._of_kind("scan_pad", None)

    def _of_kind(self, kind: str, side: str | None) -> int:
        for p in self.places:
            if p.kind == kind and p.side == side:
                return p.index
        # A map may be partial (a bench of a few readers), so this is found out when it is needed.
        raise ConfigError(f"the reader map has no {kind} reader" + (f" for {side}" if side else ""))


ONE_READER_FILE = "one_reader.toml"


def one_reader_layout() -> Path:
    """The packaged reader map of the one-reader build: one reader (the scan pad), no demultiplexer."""
    return Path(str(resources.files("firmware_bridge").joinpath("data", ONE_READER_FILE)))


def reader_count() -> int:
    """How many readers the packaged reader map has (60: the 59 antennas of `rubicon board-layout`'s
    sensing zones for the 76 map locations, and the scan pad): the one count the simulator, benchmarks
    and docs use."""
    return len(ReaderMap.load().places)


@lru_cache(maxsize=1)
def map_locations() -> dict[str, str]:
    """Location -> "city"/"sea" of the game's 76 map locations (the packaged reader map's names)."""
    default = ReaderMap.load()
    return {name: p.kind for p in default.places if p.kind in ("city", "sea") for name in p.locations}


def _known_keys(table: dict, keys: tuple[str, ...], where: str, context: str) -> None:
    for key in table:
        if key not in keys:
            near = difflib.get_close_matches(key, keys, n=1)
            hint = f" (did you mean `{near[0]}`?)" if near else ""
            raise ConfigError(f"{where}: unknown key `{key}` {context}{hint}; expected {', '.join(keys)}")


def _place(entry: object, where: str) -> ReaderPlace:
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: each entry of `readers` must be a table")
    _known_keys(entry, ENTRY_KEYS, where, f"in reader entry {entry.get('index', '?')}")
    index = require(entry, "index", int, where)
    location = require(entry, "location", str, where)
    kind = require(entry, "kind", str, where)
    if index < 0 or kind not in KINDS:
        raise ConfigError(f"{where}: reader {index} ({location}): bad index or kind {kind!r}")
    side = entry.get("side")
    if (kind in ("levy_pool", "eliminated")) != (side in SIDES):
        raise ConfigError(f"{where}: reader {index} ({location}): side {side!r} does not fit kind {kind}")
    also = entry.get("also", [])
    if not isinstance(also, list) or not all(isinstance(n, str) and n for n in also):
        raise ConfigError(f"{where}: reader {index} ({location}): `also` must be a list of location names")
    if also and kind not in ("city", "sea"):
        raise ConfigError(f"{where}: reader {index} ({location}): only a city or sea reader shares its zone (`also`)")
    at = entry.get("at_mm")
    if at is not None and not (isinstance(at, list) and len(at) == 2
                               and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in at)):
        raise ConfigError(f"{where}: reader {index} ({location}): `at_mm` must be [x, y], the antenna's centre on "
                          f"the board in mm, got {at!r}")
    pico = entry.get("pico")
    if pico is not None and (not isinstance(pico, int) or isinstance(pico, bool) or pico < 1):
        raise ConfigError(f"{where}: reader {index} ({location}): `pico` must be a Pico's number, 1 or more")
    gain = entry.get("rx_gain")
    if gain is not None and gain not in RX_GAINS:
        raise ConfigError(f"{where}: reader {index} ({location}): `rx_gain` must be one of the MFRC522's steps "
                          f"{', '.join(map(str, RX_GAINS))} (dB), got {gain!r}")
    return ReaderPlace(index, location, kind, side, also=tuple(also),
                       at_mm=(float(at[0]), float(at[1])) if at is not None else None, pico=pico, rx_gain=gain)

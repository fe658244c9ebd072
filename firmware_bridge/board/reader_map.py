"""Which reader senses which place on the board, and how the reader array is wired.

`ReaderMap.load()` reads `readers.toml` (packaged default or a path): the SPI bus, reset pin and
demultiplexer address pins, and reader index -> location (map city or sea, each side's levy pool
and eliminated area, the scan pad). Validation makes a bad file a clear `ConfigError`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.config_files import ConfigError, load_toml, pin_list, require

KINDS = ("city", "sea", "levy_pool", "eliminated", "scan_pad")
SIDES = ("Caesar", "Pompeius")


@dataclass(frozen=True)
class BusConfig:
    spi_bus: int
    spi_device: int
    speed_hz: int
    reset_pin: int
    address_pins: tuple[int, ...]

    @property
    def capacity(self) -> int:
        return 1 << len(self.address_pins)


@dataclass(frozen=True)
class ReaderPlace:
    index: int
    location: str
    kind: str
    side: str | None = None


@dataclass(frozen=True)
class ReaderMap:
    bus: BusConfig
    places: tuple[ReaderPlace, ...]

    @classmethod
    def load(cls, path: str | Path | None = None) -> "ReaderMap":
        data, where = load_toml(path, "readers.toml")
        bus_table = require(data, "bus", dict, where)
        bus = BusConfig(
            spi_bus=require(bus_table, "spi_bus", int, where),
            spi_device=require(bus_table, "spi_device", int, where),
            speed_hz=require(bus_table, "speed_hz", int, where),
            reset_pin=require(bus_table, "reset_pin", int, where),
            address_pins=pin_list(bus_table, "address_pins", None, where),
        )
        places = tuple(_place(entry, where) for entry in require(data, "readers", list, where))
        reader_map = cls(bus, places)
        reader_map._validate(where)
        return reader_map

    def _validate(self, where: str) -> None:
        indices = [p.index for p in self.places]
        if len(set(indices)) != len(indices):
            raise ConfigError(f"{where}: a reader index is listed twice")
        names = [p.location for p in self.places]
        if len(set(names)) != len(names):
            raise ConfigError(f"{where}: a location has two readers")
        if any(i >= self.bus.capacity for i in indices):
            raise ConfigError(f"{where}: reader index beyond the {len(self.bus.address_pins)} address lines")
        used = set(self.bus.address_pins) | {self.bus.reset_pin}
        if len(used) != len(self.bus.address_pins) + 1:
            raise ConfigError(f"{where}: a GPIO is used twice in [bus]")
        if sum(p.kind == "scan_pad" for p in self.places) != 1:
            raise ConfigError(f"{where}: there must be exactly one scan pad")

    @property
    def indices(self) -> list[int]:
        return [p.index for p in self.places]

    def place(self, index: int) -> ReaderPlace:
        for p in self.places:
            if p.index == index:
                return p
        raise KeyError(f"no reader {index}")

    def name(self, index: int) -> str:
        try:
            return self.place(index).location
        except KeyError:
            return f"reader {index}"

    def index_of(self, location: str) -> int:
        for p in self.places:
            if p.location == location:
                return p.index
        raise KeyError(f"no reader at {location!r}")

    def levy_pool(self, side: str) -> int:
        return self._of_kind("levy_pool", side)

    def eliminated(self, side: str) -> int:
        return self._of_kind("eliminated", side)

    @property
    def scan_pad(self) -> int:
        return self._of_kind("scan_pad", None)

    def _of_kind(self, kind: str, side: str | None) -> int:
        for p in self.places:
            if p.kind == kind and p.side == side:
                return p.index
        # A map may be partial (a bench of a few readers), so this is found out when it is needed.
        raise ConfigError(f"the reader map has no {kind} reader" + (f" for {side}" if side else ""))


def _place(entry: object, where: str) -> ReaderPlace:
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: each entry of `readers` must be a table")
    index = require(entry, "index", int, where)
    location = require(entry, "location", str, where)
    kind = require(entry, "kind", str, where)
    if index < 0 or kind not in KINDS:
        raise ConfigError(f"{where}: reader {index} ({location}): bad index or kind {kind!r}")
    side = entry.get("side")
    if (kind in ("levy_pool", "eliminated")) != (side in SIDES):
        raise ConfigError(f"{where}: reader {index} ({location}): side {side!r} does not fit kind {kind}")
    return ReaderPlace(index, location, kind, side)

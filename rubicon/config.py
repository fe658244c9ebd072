"""The table's configuration: one TOML file, its documented defaults, and errors with file and line.

Where the file is: `--config FILE`, else `$RUBICON_CONFIG` (the service sets
`/etc/rubicon/config.toml`), else `./rubicon.toml` if it exists, else none (every default).
`config.example.toml` at the top of the repository is the commented reference; `SCHEMA` below
is what is checked. Every problem is reported as `FILE:LINE: section.key: what was expected`,
all of them at once, and nothing is started from a file with a problem.

    config = load_config(path)          # ConfigProblems (a ValueError) lists every error
    config.port, config.dice, config.rules ...
"""
from __future__ import annotations

import os
import re
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubicon.errors import RubiconError

DEFAULT_FILE = "rubicon.toml"
ENV_VAR = "RUBICON_CONFIG"
DICE_SOURCES = ("tray", "phone", "typed")
BOT_SIDES = ("Caesar", "Pompeius")
BOT_LEVELS = ("random", "easy", "medium", "hard", "expert")   # rubicon.bot.levels.LEVELS, without importing it
RULES_OPTIONS = {"winter_order": ("v1.01", "first-edition")}   # engine.state.OPTION_CHOICES
ONE_READER_SPI, ONE_READER_VIRTUAL = "spi", "virtual"


def _port(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 65535 else "a port 0-65535"


def _text(v: Any) -> str | None:
    return None if isinstance(v, str) else "a string"


def _flag(v: Any) -> str | None:
    return None if isinstance(v, bool) else "true or false"


def _one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        return None if v in choices else "one of " + ", ".join(f'"{c}"' for c in choices)
    return check


SCANNER_KEYS = ("url", "first_reader")


def _scanners(v: Any) -> str | None:
    """Several Picos scanning the board, each its region: a list of {url, first_reader} tables."""
    wanted = 'a list of tables such as { url = "/dev/rubicon-scanner-1", first_reader = 0 }'
    if not isinstance(v, list):
        return wanted
    for entry in v:
        if not isinstance(entry, dict) or set(entry) - set(SCANNER_KEYS) or "url" not in entry:
            return wanted + " (keys: url, first_reader)"
        if not isinstance(entry["url"], str) or not entry["url"].strip():
            return wanted + " (url: a tty path or pyserial URL)"
        first = entry.get("first_reader", 0)
        if not isinstance(first, int) or isinstance(first, bool) or first < 0:
            return wanted + " (first_reader: a reader index, 0 or more)"
    urls = [e["url"] for e in v]
    if len(set(urls)) != len(urls):
        return wanted + ", each url once"
    firsts = [e.get("first_reader", 0) for e in v]
    if len(set(firsts)) != len(firsts):
        return wanted + ", each first_reader once"
    return None


OTHER_DEVICE_KEYS = ("kind", "url", "path")


def _other_devices(v: Any) -> str | None:
    """Devices of a kind a plug-in registered (firmware_bridge.device_kinds): {kind, url, path} tables."""
    from firmware_bridge.device_kinds import DeviceSpec, DeviceSpecError
    wanted = 'a list of tables such as { kind = "ble-dice", url = "socket://127.0.0.1:7003" }'
    if not isinstance(v, list):
        return wanted
    for entry in v:
        if not isinstance(entry, dict) or set(entry) - set(OTHER_DEVICE_KEYS) or "kind" not in entry \
                or not all(isinstance(x, str) for x in entry.values()):
            return wanted + " (keys: kind, url, path; each a string)"
        try:
            DeviceSpec(entry["kind"], url=entry.get("url", ""), path=entry.get("path") or None)
        except DeviceSpecError as exc:
            return f"{wanted}: {exc}"
    return None


def _host(v: Any) -> str | None:
    return None if isinstance(v, str) and v.strip() and " " not in v else "an address such as \"0.0.0.0\""


def _die_px(v: Any) -> str | None:
    ok = isinstance(v, int | float) and not isinstance(v, bool) and 16 <= v <= 400
    return None if ok else "a die's side in pixels, 16-400 (`rubicon dice-camera check` measures it)"


def _number(lo: float, hi: float, what: str) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        ok = isinstance(v, int | float) and not isinstance(v, bool) and lo <= v <= hi
        return None if ok else f"{what}, {lo:g}-{hi:g}"
    return check


def _sensor_mode(v: Any) -> str | None:
    ok = isinstance(v, str) and (v == "" or re.fullmatch(r"\d+:\d+(:\d+(:[PU])?)?", v) is not None)
    return None if ok else ('rpicam\'s --mode "WIDTH:HEIGHT:BITDEPTH:PACKING", e.g. "2304:1296:10:P", '
                            'or "" (libcamera\'s pick)')


def _settle_ms(v: Any) -> str | None:
    ok = isinstance(v, int) and not isinstance(v, bool) and 50 <= v <= 2000
    return None if ok else "milliseconds 50-2000"


# section -> key -> (check, default). The defaults are those of config.example.toml.
SCHEMA: dict[str, dict[str, tuple[Callable[[Any], str | None], Any]]] = {
    "server": {"host": (_host, "0.0.0.0"), "port": (_port, 8080), "state_dir": (_text, ""), "name": (_text, "")},
    "devices": {"tray": (_text, ""), "scanner": (_text, ""), "scanners": (_scanners, []), "pi_readers": (_flag, False),
                "reader_layout": (_text, ""), "panel": (_text, ""), "panel_enabled": (_flag, False),
                "one_reader": (_text, ""), "other": (_other_devices, [])},
    "rules": {key: (_one_of(*choices), choices[0]) for key, choices in RULES_OPTIONS.items()},
    "dice": {"source": (_one_of(*DICE_SOURCES), "tray")},
    "bot": {"side": (_one_of("", *BOT_SIDES), ""), "level": (_one_of(*BOT_LEVELS), "medium")},
    "camera_tray": {"camera": (_text, ""), "port": (_port, 7002), "die_px": (_die_px, 56.0),
                    "settle_ms": (_settle_ms, 150),
                    "sensor_mode": (_sensor_mode, "2304:1296:10:P"),
                    "lens_position": (_number(0, 15, "dioptres (1 / metres to the floor)"), 5.0),
                    "lens_mm": (_number(50, 1000, "the lens's height above the floor in mm"), 199.5),
                    "pip_corner": (_number(0, 0.5, "die widths from the face's centre to a corner pip "
                                               "(`rubicon dice-camera check --calibrate` measures it; 0: any)"), 0.0),
                    "pip_radius": (_number(0, 0.25, "a pip's radius in die widths "
                                               "(`rubicon dice-camera check --calibrate` measures it; 0: any)"), 0.0)},
}


@dataclass(frozen=True)
class Config:
    """A checked configuration; empty strings of the file are None here ("not configured")."""
    source: str | None = None                  # the file read, None: every default
    host: str = "0.0.0.0"
    port: int = 8080
    state_dir: Path | None = None
    name: str | None = None                    # a name the Pi is reached by (the Host check: web_ui/host_check.py)
    tray: str | None = None                    # tty path or pyserial URL of the dice tray
    scanner: str | None = None                 # ... of the serial board scanner
    scanners: tuple[tuple[str, int], ...] = ()  # several Picos: (url, the reader map's index of its reader 0)
    pi_readers: bool = False                   # the MFRC522 array wired to the Pi's SPI
    reader_layout: Path | None = None          # None: the packaged firmware_bridge/data/readers.toml
    panel: Path | None = None                  # None: the packaged firmware_bridge/data/panel.toml
    panel_enabled: bool = False
    one_reader: str | None = None              # the one-reader build: "spi", "virtual", or a Pico's tty/URL
    other_devices: tuple[tuple[str, str, str], ...] = ()   # (kind, url, path) of kinds plug-ins registered
    rules: dict[str, str] = field(default_factory=lambda: {k: v[0] for k, v in RULES_OPTIONS.items()})
    dice: str = "tray"
    bot_side: str | None = None
    bot_level: str = "medium"
    camera: str | None = None                  # the camera tray's camera: "rpicam", "/dev/video0"; None: no camera tray
    camera_port: int = 7002                    # where `rubicon dice-camera serve` listens (loopback)
    camera_die_px: float = 56.0
    camera_settle_ms: int = 150
    camera_sensor_mode: str = "2304:1296:10:P"   # rpicam --mode: the full-field binned mode of the Module 3
    camera_lens_position: float = 5.0          # rpicam --lens-position (dioptres): focus fixed on the floor
    camera_lens_mm: float = 199.5              # the lens above the floor (the perspective of the dice's sides)
    camera_pip_corner: float = 0.0             # the owner's dice as calibrated (die widths); 0: any maker's
    camera_pip_radius: float = 0.0

    @property
    def hardware(self) -> bool:
        """Whether any sensing device is configured (none: the table runs without hardware)."""
        return bool(self.tray or self.scanner or self.scanners or self.pi_readers or self.one_reader_device
                    or self.other_devices)

    @property
    def one_reader_device(self) -> str | None:
        """The one-reader build's reader: "spi" (on the Pi's SPI) or a Pico's tty path / pyserial
        URL; None when the build is off or its reader is the virtual table's scan pad."""
        return self.one_reader if self.one_reader not in (None, ONE_READER_VIRTUAL) else None


@dataclass(frozen=True)
class Problem:
    """One problem of a configuration file: the file, the line if known, and what is wrong."""
    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


class ConfigProblems(RubiconError, ValueError):
    """Everything wrong with one configuration file, each with its file and line."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


def find_config(explicit: str | Path | None = None, cwd: Path | None = None) -> Path | None:
    """The file to read: the one named, else $RUBICON_CONFIG, else ./rubicon.toml if present."""
    if explicit:
        return Path(explicit)
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    local = (cwd or Path.cwd()) / DEFAULT_FILE
    return local if local.is_file() else None


def config_or_report(explicit: str | Path | None, advice: str) -> Config | None:
    """The configuration a command runs with (`find_config(explicit)`), or None once every problem
    (file:line: what) and then `advice` were printed to standard error."""
    try:
        return load_config(find_config(explicit))
    except ConfigProblems as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(advice, file=sys.stderr)
        return None


def load_config(path: str | Path | None) -> Config:
    """The configuration in `path` (None: the defaults); ConfigProblems if anything is wrong."""
    if path is None:
        return Config()
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigProblems([Problem(name, None, "no such file")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigProblems([Problem(name, None, f"cannot read: {exc}")]) from None
    return parse_config(text, name)


def parse_config(text: str, name: str = "<config>") -> Config:
    """Read configuration `text` (TOML; `name` for the messages); ConfigProblems listing every problem with its
    line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None) or _line_of_decode_error(str(exc))
        reason = re.sub(r" \(at line \d+, column \d+\)$", "", str(exc))
        raise ConfigProblems([Problem(name, line, f"not valid TOML: {reason}")]) from None
    lines = _Lines(text)
    problems: list[Problem] = []
    values: dict[str, dict[str, Any]] = {}
    for section, table in data.items():
        if section not in SCHEMA:
            problems.append(Problem(name, lines.of(section, None), f"unknown section [{section}] "
                                    f"(known: {', '.join(SCHEMA)})"))
            continue
        if not isinstance(table, dict):
            problems.append(Problem(name, lines.of(None, section), f"{section} must be a section [{section}]"))
            continue
        for key, value in table.items():
            spec = SCHEMA[section].get(key)
            if spec is None:
                problems.append(Problem(name, lines.of(section, key), f"unknown key {section}.{key} "
                                        f"(known in [{section}]: {', '.join(SCHEMA[section])})"))
                continue
            expected = spec[0](value)
            if expected:
                problems.append(Problem(name, lines.of(section, key),
                                        f"{section}.{key} must be {expected}, not {_show(value)}"))
                continue
            values.setdefault(section, {})[key] = value
    devices = values.get("devices", {})
    if devices.get("one_reader") and (devices.get("scanner") or devices.get("scanners") or devices.get("pi_readers")):
        problems.append(Problem(name, lines.of("devices", "one_reader"),
                                "devices.one_reader: the one-reader build has no readers under the map: leave "
                                "devices.scanner and devices.scanners empty and devices.pi_readers false with it"))
    if devices.get("scanner") and devices.get("scanners"):
        problems.append(Problem(name, lines.of("devices", "scanners"),
                                "devices.scanners: one Pico with the whole map is devices.scanner, several are "
                                "devices.scanners: set one of them"))
    if problems:
        raise ConfigProblems(problems)

    def get(section: str, key: str) -> Any:
        return values.get(section, {}).get(key, SCHEMA[section][key][1])

    def path_or_none(section: str, key: str) -> Path | None:
        v = get(section, key)
        return Path(v) if v else None

    side = get("bot", "side")
    return Config(
        source=name, host=get("server", "host"), port=get("server", "port"),
        state_dir=path_or_none("server", "state_dir"), name=get("server", "name") or None,
        tray=get("devices", "tray") or None,
        scanner=get("devices", "scanner") or None, pi_readers=get("devices", "pi_readers"),
        scanners=tuple((e["url"], e.get("first_reader", 0)) for e in get("devices", "scanners")),
        reader_layout=path_or_none("devices", "reader_layout"), panel=path_or_none("devices", "panel"),
        panel_enabled=get("devices", "panel_enabled"), one_reader=get("devices", "one_reader") or None,
        other_devices=tuple((e["kind"], e.get("url", ""), e.get("path", "")) for e in get("devices", "other")),
        rules={key: get("rules", key) for key in RULES_OPTIONS}, dice=get("dice", "source"),
        bot_side=side or None, bot_level=get("bot", "level"),
        camera=get("camera_tray", "camera") or None, camera_port=get("camera_tray", "port"),
        camera_die_px=float(get("camera_tray", "die_px")), camera_settle_ms=get("camera_tray", "settle_ms"),
        camera_sensor_mode=get("camera_tray", "sensor_mode"),
        camera_lens_position=float(get("camera_tray", "lens_position")),
        camera_lens_mm=float(get("camera_tray", "lens_mm")),
        camera_pip_corner=float(get("camera_tray", "pip_corner")),
        camera_pip_radius=float(get("camera_tray", "pip_radius")))


def check_files(config: Config) -> list[Problem]:
    """Problems of the files the configuration names (reader layout, panel pins), each reported
    against the configuration file; the devices themselves are not opened."""
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.config_files import ConfigError
    from firmware_bridge.panel import PanelConfig
    problems = []
    source = config.source or "<defaults>"
    lines = _Lines(Path(source).read_text(encoding="utf-8")) if config.source else _Lines("")
    for key, loader, path in (("reader_layout", ReaderMap.load, config.reader_layout),
                              ("panel", PanelConfig.load, config.panel)):
        if path is None:
            continue
        try:
            loader(path)
        except (ConfigError, ValueError) as exc:
            problems.append(Problem(source, lines.of("devices", key), f"devices.{key}: {exc}"))
    if config.scanners:
        try:
            reader_map = ReaderMap.load(config.reader_layout)
        except (ConfigError, ValueError):
            return problems     # told above
        problems += [Problem(source, lines.of("devices", "scanners"), f"devices.scanners: {text}")
                     for text in scanner_regions_problems(config.scanners, reader_map)]
    return problems


def scanner_regions_problems(scanners: tuple[tuple[str, int], ...], reader_map: Any) -> list[str]:
    """What does not fit between several Picos' first readers and the reader map's Pico regions (its
    `pico` keys, which `rubicon board-layout` writes): each Pico's first_reader must be where a region
    begins, and every region needs its Pico."""
    regions = reader_map.pico_regions()
    if not regions:
        return [f"the reader map says no Pico regions (`pico` of each reader): {len(scanners)} scanners cannot be "
                "matched to it; use a readers.toml written by `rubicon board-layout`"]
    starts = {min(indices): pico for pico, indices in regions.items()}
    shown = ", ".join(f"Pico {pico}: first_reader = {min(ix)}" for pico, ix in sorted(regions.items()))
    out = [f"{url}: first_reader = {first} is not where a Pico's readers begin ({shown})"
           for url, first in scanners if first not in starts]
    served = {starts[first] for _, first in scanners if first in starts}
    out += [f"no scanner for Pico {pico} (readers {min(ix)}-{max(ix)}; {shown})"
            for pico, ix in sorted(regions.items()) if pico not in served]
    return out


def _show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value).lower() if isinstance(value, bool) else repr(value)


def _line_of_decode_error(message: str) -> int | None:
    m = re.search(r"at line (\d+)", message)
    return int(m.group(1)) if m else None


class _Lines:
    """Finds the line of a section header or of a key inside a section (tomllib gives no
    positions for values, only for syntax errors). Dotted and inline forms are matched too."""

    _HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_\-\"' .]+?)\s*\]\s*(#.*)?$")
    _KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"' .]+?)\s*=")

    def __init__(self, text: str):
        self.entries: list[tuple[int, str | None, str | None]] = []   # (line, section, key)
        section: str | None = None
        for n, raw in enumerate(text.splitlines(), start=1):
            header = self._HEADER.match(raw)
            if header:
                section = _unquote(header.group(1))
                self.entries.append((n, section, None))
                continue
            key = self._KEY.match(raw)
            if key:
                dotted = _unquote(key.group(1))
                if section is None and "." in dotted:
                    top, _, rest = dotted.partition(".")
                    self.entries.append((n, top, rest))
                else:
                    self.entries.append((n, section, dotted))

    def of(self, section: str | None, key: str | None) -> int | None:
        """The key's line; else its section's (an inline table `server = {port = 1}`), else None."""
        for n, s, k in self.entries:
            if s == section and k == key:
                return n
        for n, s, k in self.entries:
            if (s, k) in ((section, None), (None, section)):
                return n
        return None


def _unquote(dotted: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in dotted.split("."))

"""The kinds of table device and how each is opened: one registry from a configured kind to its
factory, as gpiozero's pin factories are (`register_kind`, `kind_of`). The application
(rubicon/table/devices.py) opens every device through it and never branches on a kind's name.

A device is anything with a `source` (the name its events carry) and `close()`; it puts its sensor
events (firmware_bridge.events) on the `EventQueue` it was opened with. Its kind says its *role*:
- "tray": a dice tray (`Tray`): the table asks it for a roll, cancels the request, and tells it
  when a roll it sent is in the journal (so it may forget it);
- "scanner": something that reports tags seen and gone on the board (`Scanner`);
- "panel": the Pi's Done buttons, LEDs and buzzer (the table keeps it to beep and light).

Built in: "dice" and "board" (protocol v1 over a serial port or any pyserial URL, socket://
included: the cheapest way to a new device is a process that speaks protocol v1 on a socket, as
`rubicon dice-camera serve` does), "readers" (MFRC522s on the Pi's SPI) and "panel" (gpiozero).
A new kind is one `register_kind(DeviceKind(...))` call: docs/architecture.md, "Adding a device".
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from firmware_bridge.events import DeviceUp, EventQueue
from firmware_bridge.serial_bridge.link import LinkConfig
from firmware_bridge.shared.errors import BridgeError, BridgeValueError

ROLES = ("tray", "scanner", "panel")


@runtime_checkable
class Device(Protocol):
    """What the table needs of every device."""

    @property
    def source(self) -> str:
        """The name its events carry ("dice@/dev/ttyACM0"), and the table's device list shows."""

    def close(self) -> None:
        """Stop it and free what it holds; idempotent."""


@runtime_checkable
class Tray(Device, Protocol):
    """A dice tray: rolls come from it as `DiceRolled` events."""

    def request_roll(self, count: int) -> None:
        """Ask for a roll of `count` dice (the tray lights); ValueError if it cannot hold that many."""

    def cancel_roll(self) -> None:
        """The roll asked is no longer wanted (rolled on a phone, undone)."""

    def roll_taken(self, roll: str) -> None:
        """The roll named `roll` is in the journal: the tray may forget it."""


@runtime_checkable
class Scanner(Device, Protocol):
    """A board scanner: reports `TagSeen`/`TagGone` events (a tag's reader and place); nothing is
    asked of it but to close."""


class DeviceSpecError(BridgeValueError):
    """A device spec that can never work: a kind no factory is registered for, a device with a port
    configured without one, a reader index where none can be."""


class NoReaderAnswers(BridgeError, RuntimeError):
    """The SPI bus opened, but not one reader of the array answered on it (cable, power, reset line)."""

    def __init__(self, bus: str):
        super().__init__(f"no reader answers on SPI {bus}")
        self.bus = bus


@dataclass(frozen=True)
class DeviceSpec:
    """One configured device of the table. `kind`: a registered kind; `url`: its port (a tty path or
    pyserial URL) for a kind that has one; `path`, `registry`: its configuration files (readers.toml and
    tags.json for the readers, panel.toml for the panel; None: the defaults); `first_reader`: a
    serial board scanner's reader 0 in the reader map (several Picos each scanning a region)."""
    kind: str
    url: str = ""
    path: str | None = None
    registry: str | None = None
    first_reader: int = 0

    def __post_init__(self) -> None:
        kind = kind_of(self.kind)
        if kind.port and not self.url:
            raise DeviceSpecError(f"{kind.description} needs its port (url), e.g. /dev/ttyACM0 or socket://...")
        if self.first_reader and self.kind != "board" or self.first_reader < 0:
            raise DeviceSpecError(f"first_reader {self.first_reader}: only a serial board scanner has one, "
                                    "a reader index (0 or more)")

    @property
    def source(self) -> str:
        """The name the device's events carry, and the table's `devices` list shows."""
        return f"{self.kind}@{self.url}" if kind_of(self.kind).port else self.kind


@dataclass(frozen=True)
class Opening:
    """What a factory is given besides the spec: the events' queue, the serial links' settings,
    gpiozero's pin factory and the readers' clock (None: the real ones), and what the kind's
    `configure` read."""
    events: EventQueue
    link_config: LinkConfig
    pin_factory: Any = None
    clock: Any = None
    config: Any = None


@dataclass(frozen=True)
class DeviceKind:
    """One kind of device: `name` as configured, `description` for messages, `role` (ROLES),
    `open(spec, opening)` the started device; `port`: it has a url and is listed as down until its
    handshake (a serial link reconnects by itself); `configure(spec)`: reads its configuration
    files when the table starts (an error there stops the start, with file and line); `pi_wired`:
    on the Pi's own GPIO/SPI (a failure to open is diagnosed on the Pi's buses and groups)."""
    name: str
    description: str
    role: str
    open: Callable[[DeviceSpec, Opening], Device]
    port: bool = False
    configure: Callable[[DeviceSpec], Any] | None = None
    pi_wired: bool = False

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise DeviceSpecError(f"device kind {self.name!r}: role {self.role!r} is not one of {', '.join(ROLES)}")


# Installed packages add kinds as gpiozero's pin factories are found: an entry point of this group
# names a DeviceKind, loaded the first time a kind is asked for that is not registered.
ENTRY_POINTS = "rubicon.device_kinds"
_KINDS: dict[str, DeviceKind] = {}
_plugins_loaded = False


def register_kind(kind: DeviceKind) -> DeviceKind:
    """Make `kind` configurable by its name (a later registration of the same name replaces it)."""
    _KINDS[kind.name] = kind
    return kind


def forget_kind(name: str) -> None:
    """No kind `name` any more (a test's or a plug-in's own clean-up)."""
    _KINDS.pop(name, None)


def kind_of(name: str) -> DeviceKind:
    """The registered kind `name` (looked for among the installed plug-ins' entry points too);
    DeviceSpecError naming the ones there are."""
    if name not in _KINDS:
        _load_plugins()
    try:
        return _KINDS[name]
    except KeyError:
        raise DeviceSpecError(f"device kind {name!r} is not one of {', '.join(_KINDS)}") from None


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    from importlib.metadata import entry_points
    for point in entry_points(group=ENTRY_POINTS):
        kind = point.load()
        if not isinstance(kind, DeviceKind):
            raise DeviceSpecError(f"entry point {point.name} ({point.value}) of {ENTRY_POINTS} is not a DeviceKind")
        _KINDS.setdefault(kind.name, kind)


def device_kinds() -> tuple[str, ...]:
    """The registered kinds' names."""
    return tuple(_KINDS)


# --- the built-in kinds ------------------------------------------------------------------------
def _serial(kind: str) -> Callable[[DeviceSpec, Opening], Device]:
    def open_serial(spec: DeviceSpec, opening: Opening) -> Device:
        from firmware_bridge.serial_bridge.bridge import SerialBridge
        return SerialBridge(spec.url, opening.events, kind, opening.link_config, table_rolls=kind == "dice").start()
    return open_serial


def _configure_readers(spec: DeviceSpec) -> Any:
    from firmware_bridge.board.reader_map import ReaderMap
    from firmware_bridge.board.tag_registry import TagRegistry
    return ReaderMap.load(spec.path), TagRegistry.load(spec.registry)


def _open_readers(spec: DeviceSpec, opening: Opening) -> Device:
    from firmware_bridge.rfid.reader_array import array_of
    from firmware_bridge.rfid.scanner import RfidScanner
    reader_map, tags = opening.config
    array = array_of(reader_map, pin_factory=opening.pin_factory, clock=opening.clock)
    if not any(array.scan(reader).answered for reader in array.readers):    # miswired or unpowered
        array.close()
        raise NoReaderAnswers(f"{reader_map.bus.spi_bus}.{reader_map.bus.spi_device}")
    scanner = RfidScanner(array, opening.events, is_enrolled=tags.is_enrolled, place_name=reader_map.name,
                          source=spec.source)
    scanner.announce()
    scanner.start()
    return scanner


def _configure_panel(spec: DeviceSpec) -> Any:
    from firmware_bridge.panel import PanelConfig
    return PanelConfig.load(spec.path)


def _open_panel(spec: DeviceSpec, opening: Opening) -> Device:
    from firmware_bridge.panel import Panel
    panel = Panel(opening.config, opening.events, pin_factory=opening.pin_factory, source=spec.source)
    opening.events.put(DeviceUp(spec.source, device_kind="panel", firmware="", protocol="gpiozero"))
    return panel


register_kind(DeviceKind("dice", "a serial dice tray", "tray", _serial("dice"), port=True))
register_kind(DeviceKind("board", "a serial board scanner", "scanner", _serial("board"), port=True))
register_kind(DeviceKind("readers", "the Pi-wired MFRC522 readers", "scanner", _open_readers,
                         configure=_configure_readers, pi_wired=True))
register_kind(DeviceKind("panel", "the Pi's buzzer, LEDs and Done buttons", "panel", _open_panel,
                         configure=_configure_panel, pi_wired=True))

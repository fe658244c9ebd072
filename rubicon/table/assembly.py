"""Putting a table together from the configuration: which board, tray and panel the session
hears, and where chance comes from.

Three kinds of table, chosen by what is configured:
- **hardware** (a dice tray, a serial board scanner or the Pi-wired readers in the config): the
  real drivers feed the session (`TableDevices`), the physical table reads the packaged or given
  reader layout and the enrolled tag registry, the tray rolls the battle dice, the panel (when
  enabled) buzzes and lights;
- **virtual** (no hardware, the default of `rubicon run`): the same path from a page in the browser
  (`VirtualTable`), laid out as the current game stands;
- **phones only** (`--no-virtual`): no sensed board; moves and dice on the phones.

The **one-reader build** (`[devices] one_reader`) is either kind with a `OneReaderTable`
(rubicon/table/one_reader.py) instead of the sensed board: one reader beside the map ("spi": an
MFRC522 on the Pi's SPI, read through firmware_bridge/data/one_reader.toml; a tty or URL: a Pico
running the board-scanner firmware with one reader; "virtual": the virtual table's scan pad), a
block tapped on it offered on its owner's phone.

Chance comes from one `ChanceSource` (rubicon/table/chance.py) given here: the system's CSPRNG
unless a test or benchmark passes a `SeededChance`. It feeds the session's own draws (the deal,
Jupiter's pick, the dice without a tray), the rolls on the phones and the virtual tray.

    table = assemble(config, journal, virtual=True)      # chance=SeededChance(7) in a test
    table.start(new_game=False)      # the session, then its devices
    ...
    table.stop()                     # devices first (nothing more is sensed), then the session
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.board.reader_map import ReaderMap, one_reader_layout
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.device_kinds import kind_of
from firmware_bridge.virtual_table import VirtualTable, layout_from_views
from lifecycle import Lifecycle

from ..config import ONE_READER_SPI, Config
from ..journal import Journal
from .chance import ChanceSource, RandomChance, SystemChance, TableChance
from .devices import DeviceSpec, TableDevices
from .dice import DRAWN_FROM_GAME, RollRefused
from .feedback import panel_feedback
from .one_reader import OneReaderTable
from .physical import PhysicalTable
from .provisional import BoardKeeper
from .session import ANSWER_TIMEOUT_S, Sense, TableSession


@dataclass
class Table(Lifecycle):
    """A session with what feeds it: the virtual table or the real devices (or neither); start(),
    stop(), close() and `with` as every thread owner (the lifecycle package)."""
    session: TableSession
    kind: str                                   # "hardware" | "virtual" | "phones"
    virtual: VirtualTable | None = None
    devices: TableDevices | None = None
    specs: tuple[DeviceSpec, ...] = field(default_factory=tuple)
    keeper: BoardKeeper | None = None           # the virtual board's blocks kept across a restart

    def _on_start(self, new_game: bool = False) -> None:
        """Start the session (`start(new_game=True)`: with a new game), then what feeds it."""
        self.session.start()
        if new_game and not getattr(self.session, "began_game", False):
            self.session.new_game()
        if self.virtual is not None:
            self.virtual.plug_in()
            self.virtual.arrange(layout_from_views(self.session.snapshot().side_views(), self.virtual.catalog))
            if self.keeper is not None:      # then where the players had put them, not yet Done
                self.keeper.restore()
        if self.devices is not None:
            physical = self.session.physical
            if physical is not None:    # the panel buzzes and lights once it opens, at start or later
                self.devices.on_panel = lambda panel: setattr(physical, "feedback", panel_feedback(panel))
            self.devices.start()

    def _on_stop(self, timeout: float) -> None:
        if self.devices is not None:
            self.devices.stop()
        self.session.stop()

    def _on_close(self) -> None:
        if self.devices is not None:
            self.devices.close()
        self.session.close()

    def describe(self) -> str:
        """One line for the console: which devices feed the table (and which are not working), or that the virtual
        table or the phones do."""
        one_reader = isinstance(self.session.physical, OneReaderTable)
        if one_reader and self.kind == "virtual":
            return "no hardware: the virtual table, its scan pad the one reader (tap a block there)"
        if self.kind == "hardware":
            problems = self.devices.problems if self.devices is not None else {}
            return ("one reader beside the map; " if one_reader else "") + "devices: " + ", ".join(
                spec.source + (" (not working)" if spec.source in problems else "") for spec in self.specs)
        return {"virtual": "no hardware: the virtual table", "phones": "no board: moves on the phones"}[self.kind]


def device_specs(config: Config) -> tuple[DeviceSpec, ...]:
    """The devices the configuration names (none: no hardware)."""
    specs = []
    if config.tray:
        specs.append(DeviceSpec("dice", url=config.tray))
    if config.scanner:
        specs.append(DeviceSpec("board", url=config.scanner))
    for url, first in config.scanners:      # several Picos, each scanning its region of the board
        specs.append(DeviceSpec("board", url=url, first_reader=first))
    if config.pi_readers:
        specs.append(DeviceSpec("readers", path=str(config.reader_layout) if config.reader_layout else None))
    if config.one_reader_device == ONE_READER_SPI:
        specs.append(DeviceSpec("readers", path=str(config.reader_layout or one_reader_layout())))
    elif config.one_reader_device:
        specs.append(DeviceSpec("board", url=config.one_reader_device))
    if config.panel_enabled:
        specs.append(DeviceSpec("panel", path=str(config.panel) if config.panel else None))
    specs += [DeviceSpec(kind, url=url, path=path or None) for kind, url, path in config.other_devices]
    return tuple(specs)


def assemble(config: Config, journal: Journal, chance: ChanceSource | None = None, *, virtual: bool = True,
             pin_factory: Any = None, clock: Any = None) -> Table:
    """The table the configuration describes (see the module docstring). Raises the drivers'
    ConfigError / RegistryError with their file and line when the reader layout or the tag
    registry cannot be read. `pin_factory`, `clock`: the readers' GPIO and clock (tests)."""
    source = chance or SystemChance()
    specs = device_specs(config)
    sensing = any(kind_of(s.kind).role == "scanner" for s in specs)
    options: dict[str, Any] = {"options": config.rules, "dice_source": config.dice}
    if specs:
        physical: PhysicalTable | None = None
        if config.one_reader_device:
            # A Pico's one reader is its reader 0, as in the packaged layout; on the Pi's SPI, a
            # layout of the owner's own may say otherwise.
            spi_layout = config.reader_layout if config.one_reader_device == ONE_READER_SPI else None
            physical = OneReaderTable(ReaderMap.load(spi_layout or one_reader_layout()), TagRegistry.load().block_of)
        elif sensing:
            readers = ReaderMap.load(config.reader_layout)
            physical = PhysicalTable(readers, TagRegistry.load().block_of)
        drawn = TableChance(source) if any(kind_of(s.kind).role == "tray" for s in specs) else RandomChance(source)
        session = TableSession(journal, chance=drawn, physical=physical, **options)
        return Table(session, "hardware", specs=specs,
                     devices=TableDevices(session, specs, pin_factory=pin_factory, clock=clock))
    if virtual:
        holder: dict[str, TableSession] = {}

        def sense(event: Any) -> None:
            # Late-bound: the session is made below, and nothing is sensed before it starts.
            verdict = holder["session"].submit(Sense(event))
            if event.kind == "dice_rolled":
                # Journal first, then show: the page is answered with the faces only once the
                # session's verdict is in (the roll's line committed, or the roll refused).
                outcome = verdict.result(ANSWER_TIMEOUT_S)
                if not outcome.ok:
                    raise RollRefused(outcome.refusal, outcome.message, tuple(event.faces))
        board = VirtualTable(sink=sense, rng=source.rng("tray"))
        table_kind = OneReaderTable if config.one_reader else PhysicalTable   # one_reader "virtual": its scan pad
        physical = table_kind(board.reader_map, board.registry().block_of)
        physical.shown_by_itself = DRAWN_FROM_GAME      # strengths and battles drawn from the game
        session = TableSession(journal, chance=TableChance(source), physical=physical, **options)
        holder["session"] = session
        keeper = BoardKeeper(session.provisional, board, lambda: session.snapshot().game_id)
        return Table(session, "virtual", virtual=board, keeper=keeper)
    return Table(TableSession(journal, chance=RandomChance(source), **options), "phones")

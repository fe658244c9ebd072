"""The blocks enrollment can assign tags to, and where the 705 set-up puts each one.

Loaded from `blocks.toml` (packaged; derived from the facts file, a test keeps them equal). The
bridge carries its own copy because it must not import the engine. `find()` turns what an owner
types ("C Legio 7", "caesar legio 7", "Cleopatra") into one block, or a clear LookupError.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.board.reader_map import SIDES
from firmware_bridge.config_files import ConfigError, load_toml, require


@dataclass(frozen=True)
class Block:
    """One wooden block: its id (as the engine names it), its side and its name on the label."""
    id: str
    side: str
    name: str


@dataclass(frozen=True)
class BlockCatalog:
    """Every block of the game, where each stands at the 705 set-up, and what each side's levy pool holds
    (blocks.toml)."""
    blocks: dict[str, Block]
    setup_map: dict[str, list[str]]  # location -> block ids at 705 set-up
    levy_pools: dict[str, list[str]]  # side -> block ids in its levy pool at set-up

    @classmethod
    def load(cls, path: str | Path | None = None) -> BlockCatalog:
        """Read and check a block catalog (`path`, or the packaged blocks.toml); ConfigError naming the file and
        the entry."""
        data, where = load_toml(path, "blocks.toml")
        blocks = {}
        for entry in require(data, "blocks", list, where):
            block = Block(require(entry, "id", str, where), require(entry, "side", str, where),
                          require(entry, "name", str, where))
            if block.side not in SIDES or block.id in blocks:
                raise ConfigError(f"{where}: block {block.id!r}: unknown side or listed twice")
            blocks[block.id] = block
        setup = require(data, "setup_705", dict, where)
        setup_map: dict[str, list[str]] = {}
        levy_pools: dict[str, list[str]] = {}
        for side in SIDES:
            side_table = require(setup, side, dict, where)
            levy_pools[side] = list(require(side_table, "levy_pool", list, where))
            for location, ids in require(side_table, "map", dict, where).items():
                setup_map.setdefault(location, []).extend(ids)
        placed = [i for ids in (*setup_map.values(), *levy_pools.values()) for i in ids]
        unknown = [i for i in placed if i not in blocks]
        if unknown or len(set(placed)) != len(placed):
            raise ConfigError(f"{where}: set-up names unknown or repeated blocks: {unknown or 'a repeat'}")
        return cls(blocks, setup_map, levy_pools)

    def find(self, text: str) -> Block:
        """The block `text` names, by id or by 'Side Name', case and spacing aside; LookupError naming what was not
        found."""
        wanted = " ".join(text.split()).casefold()
        if not wanted:
            raise LookupError("no block name given")
        for block in self.blocks.values():
            if wanted in (block.id.casefold(), f"{block.side} {block.name}".casefold()):
                return block
        matches = [b for b in self.blocks.values() if b.name.casefold() == wanted]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise LookupError(f"{text!r} is ambiguous: {', '.join(b.id for b in matches)}")
        raise LookupError(f"no block called {text!r} (e.g. 'C Legio 7', 'Pompeius Legio 1', 'Cleopatra')")

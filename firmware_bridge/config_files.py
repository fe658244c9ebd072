"""Loading the bridge's TOML configuration: the packaged default or a file the owner names.

One place turns "missing file / bad TOML" into a `ConfigError` with the path in the message,
so every loader (reader map, panel pins, block catalog) reports bad input the same way.
"""
from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from firmware_bridge.shared.errors import BridgeValueError


class ConfigError(BridgeValueError):
    """A configuration file is missing, not TOML, or describes an impossible board."""


def load_toml(path: str | Path | None, default_name: str) -> tuple[dict[str, Any], str]:
    """Parse `path`, or the packaged `firmware_bridge/data/<default_name>`; return (data, where)."""
    try:
        if path is None:
            where = f"firmware_bridge/data/{default_name}"
            text = resources.files("firmware_bridge").joinpath("data", default_name).read_text("utf-8")
        else:
            where = str(path)
            text = Path(path).read_text("utf-8")
        return tomllib.loads(text), where
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: cannot read: {exc}") from None
    except (tomllib.TOMLDecodeError, RecursionError) as exc:  # tomllib recurses on nested arrays
        raise ConfigError(f"{where}: not valid TOML: {exc}") from None


def require(table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """`table[key]`, checked to be of `kind`; ConfigError naming the file, the key, what was expected and what was
    found."""
    value = table.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        names = {dict: "a table", list: "a list", int: "an integer", str: "a string", bool: "true or false"}
        expected = names.get(kind, getattr(kind, "__name__", str(kind))) if isinstance(kind, type) else str(kind)
        got = "missing" if key not in table else f"{value!r}"
        raise ConfigError(f"{where}: `{key}` must be {expected}, got {got}")
    return value


def pin_list(table: dict[str, Any], key: str, count: int | None, where: str) -> tuple[int, ...]:
    """`table[key]` as BCM GPIO numbers 0-27 (exactly `count` of them when given); ConfigError otherwise."""
    pins = require(table, key, list, where)
    if count is not None and len(pins) != count or any(not isinstance(p, int) or not 0 <= p <= 27 for p in pins):
        raise ConfigError(f"{where}: `{key}` must be {count or 'some'} BCM GPIO numbers 0-27, got {pins!r}")
    return tuple(pins)

"""Compute the map's layout and write it into the file the app ships (web_ui/map_layout_file.py's
format): what `make map-layout` runs after a change of the placement or the game data.

    python -m web_ui.map_layout_build          # write the file
    python -m web_ui.map_layout_build --check  # exit 1 if the shipped file is not what it computes
"""
from __future__ import annotations

import argparse
import sys

from .map_layout import compute_layout
from .map_layout_file import SHIPPED, text_of


def main(argv: list[str] | None = None) -> int:
    """Write the file (or, with --check, compare it with what the computation gives)."""
    ap = argparse.ArgumentParser(description="compute the map's layout into the file the app ships")
    ap.add_argument("--check", action="store_true", help="only compare: exit 1 if the file is stale")
    args = ap.parse_args(argv)
    text = text_of(compute_layout())
    if args.check:
        same = SHIPPED.exists() and SHIPPED.read_text(encoding="utf-8") == text
        print(f"{SHIPPED}: {'as computed' if same else 'STALE: run `make map-layout`'}")
        return 0 if same else 1
    SHIPPED.parent.mkdir(parents=True, exist_ok=True)
    SHIPPED.write_text(text, encoding="utf-8")
    print(f"{SHIPPED}: written ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

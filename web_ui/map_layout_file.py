"""Where the map's layout comes from at run time: a file computed once at build time
(`web_ui/data/map_layout.json`, shipped with the package), not a placement search in every
process (some seconds of CPU on a Pi and megabytes of memory the search leaves behind).

The file is `web_ui/map_layout.compute_layout()` written as JSON; `make map-layout` writes it
again after a change of the placement or the game data, and tests/web/test_map_layout_file.py
fails until the shipped file is what the computation gives (a stale layout cannot ship).

    python -m web_ui.map_layout_file          # write the file (what `make map-layout` runs)
    python -m web_ui.map_layout_file --check  # exit 1 if the shipped file is not what it computes
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .map_geometry import Box, Segment
from .map_layout import Label, Layout, compute_layout

SHIPPED = Path(__file__).resolve().parent / "data" / "map_layout.json"
FORMAT = 1


def to_json(lay: Layout) -> dict[str, Any]:
    """The layout as plain JSON data."""
    return {"format": FORMAT, "dots": [list(b) for b in lay.dots], "stacks": [list(b) for b in lay.stacks],
            "upright": list(lay.upright),
            "labels": {size: [[lab.loc, lab.x, lab.y, lab.width, lab.size, list(lab.box)] for lab in labels]
                       for size, labels in sorted(lay.labels.items())},
            "road_ends": [list(s) for s in lay.road_ends], "view": list(lay.view),
            "conflicts": dict(sorted(lay.conflicts.items()))}


def from_json(data: dict[str, Any]) -> Layout:
    """The layout the JSON data describes; ValueError if it is not a layout of this format."""
    if data.get("format") != FORMAT:
        raise ValueError(f"map layout format {data.get('format')!r}, not {FORMAT}: run `make map-layout`")
    return Layout(dots=tuple(Box(*b) for b in data["dots"]), stacks=tuple(Box(*b) for b in data["stacks"]),
                  upright=tuple(bool(u) for u in data["upright"]),
                  labels={size: tuple(Label(int(loc), x, y, w, int(s), Box(*box)) for loc, x, y, w, s, box in labels)
                          for size, labels in data["labels"].items()},
                  road_ends=tuple(Segment(*s) for s in data["road_ends"]), view=Box(*data["view"]),
                  conflicts={k: int(v) for k, v in data["conflicts"].items()})


def text_of(lay: Layout) -> str:
    """The file's text for `lay` (stable: sorted keys, one line per part)."""
    return json.dumps(to_json(lay), sort_keys=True, indent=0) + "\n"


def shipped(path: Path = SHIPPED) -> Layout:
    """The layout from the shipped file."""
    return from_json(json.loads(path.read_text(encoding="utf-8")))


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

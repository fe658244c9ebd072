"""Where the map's layout comes from at run time: a file computed once at build time
(`web_ui/data/map_layout.json`, shipped with the package), not a placement search in every
process (some seconds of CPU on a Pi and megabytes of memory the search leaves behind).

The file is `web_ui/map_layout.compute_layout()` written as JSON (this module reads and writes the
format; web_ui/map_layout_build.py computes and writes it: `make map-layout`, after a change of the
placement or the game data); tests/web/test_map_layout_file.py fails until the shipped file is what
the computation gives (a stale layout cannot ship).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .map_geometry import Box, Label, Layout, Segment

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

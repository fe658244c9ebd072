"""Benchmark: the map's layout (web_ui/map_layout.py), computed once per process when the app is
made: its time, the overlaps left in each text size (goal 0) and how much nearer each name stands
to its own place's dot than to any other (the worst margin, in map units; goal > 0), for the
README's figures.

    python bench/map_layout.py [--runs 3]

Figures printed, never asserted.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from web_ui.map_layout import compute_layout, nearest_margin, text_boxes  # noqa: E402
from web_ui.map_svg import map_svg  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        lay = compute_layout()
        times.append(time.perf_counter() - start)
    print(f"layout: median {statistics.median(times):.2f} s over {args.runs} runs (min {min(times):.2f} s)")
    print("overlaps left:", ", ".join(f"{size} {n}" for size, n in lay.conflicts.items()))
    worst = {size: min(nearest_margin(lab.loc, box) for lab in labels for box in text_boxes(lab))
             for size, labels in lay.labels.items()}
    print("worst margin of a name (units nearer its own dot than any other):",
          ", ".join(f"{size} {m:.1f}" for size, m in worst.items()))
    print(f"map SVG: {len(map_svg('map').encode()) / 1024:.1f} kB")


if __name__ == "__main__":
    main()

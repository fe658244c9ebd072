"""The journal's commit latency, with the WAL checkpoints in the commit (SQLite's automatic
checkpoint at 1000 pages, as before) and off it (the journal's background checkpointer).

    PYTHONPATH=. .venv/bin/python bench/journal_commit.py [--commits 3000]

Each sample is one `Journal.append` (one action line, one transaction, synchronous=FULL): what
the table session's owner thread waits for before it acknowledges an action. A game is 300-400
commits; SQLite's automatic checkpoint falls about every 400-500 commits and runs inside the
commit that crosses the threshold (fsync of the WAL, then writing and fsyncing the database).
Figures are printed, never asserted; the load average is printed with them.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rubicon.journal import Journal  # noqa: E402

LINE = "Caesar moves Legio 8 Genua-Roma"


def run(path: Path, commits: int, in_commit: bool) -> tuple[list[float], int]:
    journal = Journal(path)
    if in_commit:   # the old way: SQLite checkpoints inside the commit that crosses 1000 pages
        journal._db.execute("PRAGMA wal_autocheckpoint=1000")
        journal._wake = lambda: None     # type: ignore[method-assign]   # and no background thread
    game = journal.new_game()
    samples = []
    for _ in range(commits):
        t0 = time.perf_counter()
        journal.append(game, LINE)
        samples.append((time.perf_counter() - t0) * 1000)
    checkpoints = journal.checkpoints
    journal.close()
    return samples, checkpoints


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=3000)
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, in_commit in (("checkpoint inside the commit (SQLite's automatic, before)", True),
                                ("checkpoint in the background thread (now)", False)):
            samples, background = run(Path(tmp) / f"{in_commit}.sqlite3", args.commits, in_commit)
            slow = sum(s > 20 for s in samples)
            print(f"  {name}: {len(samples)} commits, p50 {statistics.median(samples):.2f} ms, "
                  f"p99 {pct(samples, 0.99):.2f} ms, p99.9 {pct(samples, 0.999):.2f} ms, max {max(samples):.1f} ms, "
                  f"{slow} over 20 ms; {background} background checkpoints")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

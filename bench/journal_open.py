"""What the journal's check at open costs (rubicon/journal_check.py: the database and its -wal
copied aside, quick_check, every game read and compared with the hash-chained copy), for
journals of a few sizes; and a recovery from the copy (the -wal deleted).

    PYTHONPATH=. .venv/bin/python bench/journal_open.py [--games 1,10,40] [--lines 400]

Each journal has GAMES games of LINES lines (a long game is 300-400); its -wal is left as a stop
by kill -9 leaves it (the last 100 lines uncheckpointed). Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rubicon.journal import Journal  # noqa: E402

LINE = "Caesar moves Legio 8 Genua-Roma"
FILES = ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm", "journal.sqlite3.record")


def build(where: Path, games: int, lines: int) -> Path:
    """A journal as a kill leaves it (its files copied while it is open)."""
    src = where / "src"
    src.mkdir()
    journal = Journal(src / "journal.sqlite3")
    for _ in range(games):
        game = journal.new_game()
        for n in range(lines):
            journal.append(game, f"{LINE} {n}")
    journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for n in range(100):
        journal.append(game, f"{LINE} tail {n}")
    cut = where / "cut"
    cut.mkdir()
    for name in FILES:
        if (src / name).exists():
            shutil.copy2(src / name, cut / name)
    journal.close()
    return cut


def timed_open(cut: Path, work: Path, damage=None) -> float:
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(cut, work)
    if damage is not None:
        damage(work)
    t0 = time.perf_counter()
    journal = Journal(work / "journal.sqlite3")
    ms = (time.perf_counter() - t0) * 1000
    journal.close()
    return ms


def drop_wal(work: Path) -> None:
    os.unlink(work / "journal.sqlite3-wal")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,10,40")
    parser.add_argument("--lines", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for games in (int(g) for g in args.games.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            cut = build(Path(tmp), games, args.lines)
            size = sum((cut / n).stat().st_size for n in FILES if (cut / n).exists()) / 1e6
            healthy = [timed_open(cut, Path(tmp) / "w") for _ in range(args.repeat)]
            damaged = [timed_open(cut, Path(tmp) / "w", drop_wal) for _ in range(args.repeat)]
            print(f"  {games} games x {args.lines} lines ({size:.1f} MB of files): open with the check "
                  f"median {statistics.median(healthy):.0f} ms (max {max(healthy):.0f}); "
                  f"-wal deleted, recovered from the copy: median {statistics.median(damaged):.0f} ms")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

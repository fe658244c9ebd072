"""Kill -9 at random moments of a scripted game, restart from the journal, compare: shared by
tests/table/test_kill.py (a dozen kills) and bench/table_kill.py (200).

Each round starts `python -m tests.table.driver JOURNAL STEPS [--table]` on the same journal,
reads a random number of its `ACK n` lines (n: actions in the journal when the action was
acknowledged; the driver stops at the reference game's length), waits a random few milliseconds
more so the kill also lands inside an action, and sends SIGKILL. After each kill the journal must
hold every acknowledged action and be a prefix of the game played without interruption (the
reference)."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.session import TableSession

from .driver import SEED, play, table_session

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class KillReport:
    kills: int = 0
    acknowledged: int = 0                  # the most actions acknowledged before a kill
    lost: list[str] = field(default_factory=list)        # "kill K: A acknowledged, J in the journal"
    diverged: list[str] = field(default_factory=list)    # "kill K: line N differs"
    resumed_equal: bool = False            # the game finished after the last kill equals the reference


def session_for(path: Path, table: bool) -> TableSession:
    return table_session(path) if table else TableSession(Journal(path), chance=RandomChance(SEED))


def reference_lines(path: Path, steps: int, table: bool) -> list[str]:
    session = session_for(path, table)
    session.start()
    try:
        play(session, steps)
        return session.journal.lines(session.snapshot().game_id)[1]
    finally:
        session.stop()


def kill_and_resume(work: Path, steps: int, kills: int, seed: int = 11, table: bool = False) -> KillReport:
    reference = reference_lines(work / "reference.sqlite3", steps, table)
    rng = random.Random(seed)
    path = work / "journal.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    report = KillReport()
    command = [sys.executable, "-m", "tests.table.driver", str(path), str(steps), "--max-lines", str(len(reference))]
    command += ["--table"] if table else []
    for kill in range(kills):
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for _ in range(rng.randint(1, 8)):
            line = proc.stdout.readline()
            if not line:
                break
            report.acknowledged = max(report.acknowledged, int(line.split()[1]))
        # A random moment after the last ACK read: often inside the next action or its journal write.
        time.sleep(rng.uniform(0, 0.02))   # chooses the kill moment; nothing waits on it
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
        proc.stdout.close()
        report.kills += 1
        journal = Journal(path)
        try:
            game_id = journal.current_game()
            lines = journal.lines(game_id)[1] if game_id is not None else []
        finally:
            journal.close()
        if len(lines) < report.acknowledged:
            report.lost.append(f"kill {kill}: {report.acknowledged} acknowledged, {len(lines)} in the journal")
        if lines != reference[:len(lines)]:
            first = next((n for n, (a, b) in enumerate(zip(lines, reference, strict=False)) if a != b), len(reference))
            report.diverged.append(f"kill {kill}: line {first + 1} differs from the uninterrupted game")
    resumed = session_for(path, table)
    resumed.start()
    try:
        play(resumed, steps, max_lines=len(reference))
        final = resumed.journal.lines(resumed.snapshot().game_id)[1]
    finally:
        resumed.stop()
    report.resumed_equal = final == reference
    return report

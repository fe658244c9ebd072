"""A deterministic player for session tests: at the n-th decision, a choice seeded by n among the
legal lines of the first side the game waits for (take-backs left out). Run as a script it plays
a game through a `TableSession` on a journal and prints `ACK <lines>` after each accepted action,
so a test can kill it at any moment and know what was acknowledged."""
from __future__ import annotations

import random
import sys

from rubicon.journal import Journal
from rubicon.table.session import RandomChance, Snapshot, TableSession

SEED = 5


def next_line(snap: Snapshot) -> tuple[str, str] | None:
    """(side, line) to play now, or None when the game is over or waits for chance."""
    for side in snap.waiting_for:
        if side in ("Caesar", "Pompeius"):
            legal = [x for x in snap.legal[side] if not x.endswith("takes back")]
            return side, random.Random(f"driver/{snap.lines}").choice(legal)
    return None


def play(session: TableSession, steps: int, ack=None) -> None:
    for _ in range(steps):
        choice = next_line(session.snapshot())
        if choice is None:
            return
        outcome = session.act(*choice)
        assert outcome.ok, outcome.refusal
        if ack is not None:
            ack(session.snapshot().lines)


if __name__ == "__main__":
    session = TableSession(Journal(sys.argv[1]), chance=RandomChance(SEED))
    session.start()

    def ack(lines: int) -> None:
        print(f"ACK {lines}", flush=True)
    play(session, int(sys.argv[2]), ack)
    session.stop()

"""Waiting for the table session in tests: deadlines as guards against a hang, never measurements;
the wait itself sleeps on the session's change notification."""
import time

GUARD_S = 20.0   # a deadline for a test that would otherwise hang, never a measurement


def until(session, predicate, what: str, guard_s: float = GUARD_S):
    """The first snapshot for which predicate(snapshot) holds (fails after `guard_s`)."""
    deadline = time.monotonic() + guard_s
    snap = session.snapshot()
    while not predicate(snap):
        left = deadline - time.monotonic()
        assert left > 0, f"never: {what}; table {snap.for_viewer(None)['table']}"
        snap = session.wait_for_change(snap.version, min(left, 0.5))
    return snap

"""The table session: one owner thread carries out every intent in order; readers get snapshots;
an acknowledged action is on disk; a refused one changes nothing; a restart resumes the game."""
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.session import NewGame, TableSession

from .driver import SEED, next_line, play

ROOT = Path(__file__).resolve().parents[2]


def test_a_new_session_deals_and_waits_for_both_discards(session):
    snap = session.snapshot()
    assert snap.waiting_for == ("Caesar", "Pompeius")
    assert snap.lines == 1                      # the deal, from the session's own chance source
    assert all(o["line"].startswith("Caesar discards") for o in snap.side("Caesar").options())


def test_an_accepted_action_is_in_the_journal_before_it_is_acknowledged(session):
    line = session.snapshot().side("Caesar").options()[0]["line"]
    outcome = session.act("Caesar", line)
    assert outcome.ok and outcome.accepted == (line,)
    _, lines = session.journal.lines(session.snapshot().game_id)
    assert lines[-1] == line


def test_a_refused_action_names_the_rule_and_changes_nothing(session):
    before = session.snapshot()
    outcome = session.act("Caesar", "Caesar moves Legio 13 Ravenna-Roma")
    assert not outcome.ok
    assert outcome.refusal["code"] and outcome.refusal["text"]
    after = session.snapshot()
    assert after.version == before.version and after.lines == before.lines
    assert session.journal.lines(after.game_id)[1] == session.journal.lines(before.game_id)[1]


@pytest.mark.parametrize("source,line,code", [
    ("Pompeius", "Caesar discards 3/1", "table.not-your-action"),
    ("chance", "Caesar discards 3/1", "table.not-your-action"),
    ("Brutus", "Caesar discards 3/1", "table.unknown-source"),
    ("Caesar", "Caesar dances", "notation.unknown-verb"),
])
def test_a_forged_or_misaddressed_request_is_refused(session, source, line, code):
    before = session.snapshot()
    outcome = session.act(source, line)
    assert outcome.refusal["code"] == code
    assert session.snapshot().lines == before.lines


def test_views_are_per_side_and_the_public_one_holds_no_hand(session):
    snap = session.snapshot()
    caesar, public = snap.for_viewer("Caesar"), snap.for_viewer(None)
    assert caesar["view"]["hand"] and "legal" in caesar
    assert "hand" not in public["view"] and "legal" not in public
    assert "Pompeius" not in str(caesar["legal"])


def test_many_threads_at_once_cannot_double_play_a_card(session):
    """Two threads on one Game used to double-reveal a card now and then: every intent is
    carried out alone, so exactly one discard per side is accepted however they race."""
    snap = session.snapshot()
    lines = [(s, x) for s in ("Caesar", "Pompeius") for x in (o["line"] for o in snap.side(s).options())]
    results, errors = [], []

    def racer(side, line):
        barrier.wait()
        results.append(session.act(side, line))

    def reader():
        barrier.wait()
        try:
            for _ in range(200):
                s = session.snapshot()
                s.for_viewer("Caesar"), s.for_viewer(None)
        except Exception as exc:   # a reader must never see a half-applied game
            errors.append(exc)
    threads = [threading.Thread(target=racer, args=x) for x in lines] + [threading.Thread(target=reader)]
    barrier = threading.Barrier(len(threads))
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors
    accepted = [r.accepted[0] for r in results if r.ok]
    assert sorted(x.split()[0] for x in accepted) == ["Caesar", "Pompeius"]
    journal_lines = session.journal.lines(session.snapshot().game_id)[1]
    assert sum(1 for x in journal_lines if "discards" in x) == 2


def test_wait_for_change_returns_the_next_snapshot(session):
    v = session.snapshot().version
    side, line = next_line(session.snapshot())
    done = threading.Event()

    def waiter():
        snap = session.wait_for_change(v, timeout=60)
        assert snap.version > v
        done.set()
    t = threading.Thread(target=waiter)
    t.start()
    session.act(side, line)
    t.join(60)
    assert done.is_set()


def test_a_restart_resumes_the_same_game(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = TableSession(Journal(path), chance=RandomChance(SEED))
    first.start()
    play(first, 60)
    before = first.snapshot()
    first.stop()
    second = TableSession(Journal(path), chance=RandomChance(SEED))
    second.start()
    after = second.snapshot()
    second.stop()
    assert (after.lines, after.public.view, after.side_views()) == \
        (before.lines, before.public.view, before.side_views())


def test_a_journal_that_cannot_be_replayed_is_named_and_a_new_game_can_start(tmp_path):
    path = tmp_path / "journal.sqlite3"
    j = Journal(path)
    g = j.new_game()
    j.append(g, "Caesar plays 3/2")     # a game cannot begin with a play: there was no deal
    s = TableSession(Journal(path), chance=RandomChance(SEED))
    s.start()
    try:
        snap = s.snapshot()
        assert "journal game 1:1" in snap.problem and "start a new game" in snap.problem
        assert s.act("Caesar", "Caesar plays 3/2").refusal["code"] == "table.no-game"
        s.submit(NewGame()).result(60)
        assert s.snapshot().problem is None and s.snapshot().lines == 1
    finally:
        s.stop()


def reference_lines(tmp_path, steps: int) -> list[str]:
    s = TableSession(Journal(tmp_path / "reference.sqlite3"), chance=RandomChance(SEED))
    s.start()
    play(s, steps)
    lines = s.journal.lines(s.snapshot().game_id)[1]
    s.stop()
    return lines


def test_kill_9_at_random_moments_loses_no_acknowledged_action(tmp_path):
    """The table's power-cut promise: a session killed at any moment restarts with every
    acknowledged action, and the game goes on exactly as the uninterrupted one (12 kills here;
    bench/table_kill.py runs 200)."""
    steps = 150
    reference = reference_lines(tmp_path, steps)
    rng = random.Random(11)
    path = tmp_path / "journal.sqlite3"
    acked = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for kill in range(12):
        proc = subprocess.Popen([sys.executable, "-m", "tests.table.driver", str(path), str(steps)],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        wait_for = rng.randint(1, 8)
        for _ in range(wait_for):
            line = proc.stdout.readline()
            if not line:
                break
            acked = max(acked, int(line.split()[1]))
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
        proc.stdout.close()
        options, lines = Journal(path).lines(Journal(path).current_game())
        assert len(lines) >= acked, f"kill {kill}: {acked} acknowledged, {len(lines)} in the journal"
        assert lines == reference[:len(lines)], f"kill {kill}: the resumed game differs"
    resumed = TableSession(Journal(path), chance=RandomChance(SEED))
    resumed.start()
    try:
        play(resumed, steps)
        final = resumed.journal.lines(resumed.snapshot().game_id)[1]
    finally:
        resumed.stop()
    assert final[:len(reference)] == reference


def test_every_intent_has_its_one_handler():
    """The owner thread dispatches by type (session.HANDLERS): an intent without a handler would be
    a KeyError at the first use, so every type of `Intent` but the loop's own Stop has one."""
    from typing import get_args

    from rubicon.table.session import HANDLERS, Intent, Stop
    assert set(get_args(Intent)) - {Stop} == set(HANDLERS)

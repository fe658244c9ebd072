"""Kill -9 `rubicon run` at a battle roll and look for the roll in the journal: shared by
tests/table/test_roll_kill.py and bench/table_kill.py (the roll points).

The state directory is laid out with a game waiting for a battle roll (`dice_state_dir`). The
table is a real `rubicon run` (tests/table/faulty_run.py: the same, with a slow disk or a kill
point) in a subprocess, on the virtual table (the page's `/virtual/roll`, paired as a phone is)
or with the simulated tray on a real pty (the Pi's bridge reading it with pyserial). Points:

- `virtual-answer`: killed as soon as the page has its answer (the faces);
- `tray-ack`: killed as soon as the tray has its ACK (it forgets the roll then);
- `tray-before-commit` / `tray-after-commit`: the Pi kills itself just before / just after the
  roll's commit (after: before the ACK, so the tray repeats the roll to the next start);
- `tray-random`: killed at a random moment after the roll was made.

After each kill the journal must hold every roll whose answer or ACK was given, exactly once;
a roll the tray still holds is taken by the next start.
"""
from __future__ import annotations

import http.cookiejar
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from engine import Game, Roll
from rubicon.journal import Journal
from rubicon.table.dice import RollDice, asked

from .driver import next_line, table_session

ROOT = Path(__file__).resolve().parents[2]
GUARD_S = 60.0    # a deadline for a child that would otherwise hang, never a measurement
POINTS = ("virtual-answer", "tray-ack", "tray-before-commit", "tray-after-commit", "tray-random")


def dice_state_dir(state_dir: Path, start: int = 0) -> tuple[int, int]:
    """Lay out `state_dir` with a game (the 705 battle record) played on to its `start`-th battle
    roll from now (each earlier one rolled on the phone), or play the game already there on so:
    (lines in the journal, dice the roll asked now)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    session = table_session(state_dir / "journal.sqlite3")
    session.start()
    try:
        rolls = 0
        for _ in range(2000):
            snap = session.snapshot()
            dice = (snap.public.table or {}).get("dice")
            if dice is not None:
                if rolls == start:
                    return snap.lines, int(dice["count"])
                rolls += 1
                assert session.submit(RollDice(dice["by"])).result(GUARD_S).ok
                continue
            choice = next_line(snap)
            if choice is None:
                raise GameOver(f"the game in {state_dir} ended before its next battle roll")
            assert session.act(*choice).ok
        raise AssertionError("no battle roll within 2000 actions")
    finally:
        session.stop()
        session.journal.close()


class GameOver(Exception):
    """The game ended: no battle roll is coming (a campaign starts a fresh state directory)."""


def journal_lines(state_dir: Path) -> list[str]:
    return journal_game(state_dir)[1]


def journal_game(state_dir: Path) -> tuple[dict[str, str], list[str]]:
    """The current game's options and lines in the state directory's journal."""
    journal = Journal(state_dir / "journal.sqlite3")
    try:
        game = journal.current_game()
        return journal.lines(game) if game is not None else ({}, [])
    finally:
        journal.close()


def asked_count(state_dir: Path) -> int:
    """How many dice the current game's roll asks for (it must ask for one)."""
    options, lines = journal_game(state_dir)
    game = Game(options)
    for line in lines:
        game.apply(line)
    decision = asked(game)
    assert decision is not None, "no roll is asked in this journal"
    return int(decision.params["dice"])


def start_run(state_dir: Path, *extra: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """`rubicon run` (with tests/table/faulty_run.py's faults from `env`) until its banner is out."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "tests.table.faulty_run", "run", "--host", "127.0.0.1",
                             "--port", "0", "--state-dir", str(state_dir), *extra], cwd=ROOT, env=full_env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("Ctrl-C stops Rubicon"):
            break
    banner = "".join(lines)
    assert "Ctrl-C stops Rubicon" in banner, banner
    return proc, banner


def kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(GUARD_S)
    if proc.stdout is not None:
        proc.stdout.close()


def stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    proc.wait(GUARD_S)
    if proc.stdout is not None:
        proc.stdout.close()
    return proc.returncode


def paired_browser(banner: str, side: str = "Caesar") -> tuple[urllib.request.OpenerDirector, str]:
    """A browser paired with `side` as a phone is (open the link, confirm): (opener, base URL)."""
    link = re.search(rf"pair {side}:\s+(\S+)", banner).group(1)
    base = link.split("/pair/")[0] + "/"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = opener.open(link, timeout=GUARD_S).read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    code = link.split("code=")[1]
    form = urllib.parse.urlencode({"code": code, "csrf_token": token}).encode()
    opener.open(urllib.request.Request(f"{base}pair/{side}", data=form, method="POST"), timeout=GUARD_S).read()
    return opener, base


def virtual_roll(opener: urllib.request.OpenerDirector, base: str, count: int) -> dict:
    """Roll `count` dice on the virtual table's page; its JSON answer."""
    html = opener.open(f"{base}virtual/", timeout=GUARD_S).read().decode()
    token = re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)
    request = urllib.request.Request(f"{base}virtual/roll", data=json.dumps({"count": count}).encode(),
                                     method="POST", headers={"Content-Type": "application/json",
                                                             "X-CSRFToken": token, "Origin": base.rstrip("/")})
    with opener.open(request, timeout=GUARD_S) as resp:
        return json.loads(resp.read())


def wait_until(predicate, what: str, guard_s: float = GUARD_S) -> None:
    """Poll `predicate` (a guard of GUARD_S against a hang, never a measurement)."""
    deadline = time.monotonic() + guard_s
    while not predicate():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.002)


@dataclass
class RollKills:
    """What a campaign of roll kills found."""
    kills: dict[str, int] = field(default_factory=dict)       # point -> kills
    shown: dict[str, int] = field(default_factory=dict)       # point -> rolls answered or ACKed before the kill
    lost: list[str] = field(default_factory=list)             # "point #n: ..." a roll shown and not in the journal
    doubled: list[str] = field(default_factory=list)          # "point #n: ..." a roll in the journal twice


def _check(report: RollKills, point: str, n: int, before: list[str], after: list[str], line: str,
           shown: bool, killed: bool = True) -> None:
    """`after` (the journal after the kill) against `before` (before the roll): nothing lost, the
    roll `line` next if it was `shown` (answered or ACKed), no roll taken twice."""
    if killed:
        report.kills[point] = report.kills.get(point, 0) + 1
        report.shown[point] = report.shown.get(point, 0) + shown
    new = after[len(before):]
    if after[:len(before)] != before:
        report.lost.append(f"{point} #{n}: the journal lost lines it had before the roll")
    if shown and (not new or new[0] != line):
        report.lost.append(f"{point} #{n}: {line!r} was shown, the journal goes on with {new[:1]}")
    if sum(1 for x in new if x.startswith("Chance rolls")) > 1:
        report.doubled.append(f"{point} #{n}: {new}")


def virtual_answer_kill(state_dir: Path, report: RollKills, n: int, slow_s: float = 0.3) -> None:
    """Roll on the virtual table's page and kill -9 the table the moment the answer is read."""
    before = journal_lines(state_dir)
    proc, banner = start_run(state_dir, env={"RUBICON_TEST_SLOW_COMMIT_S": str(slow_s)})
    try:
        opener, base = paired_browser(banner)
        count = asked_count(state_dir)
        answer = virtual_roll(opener, base, count)
    finally:
        kill(proc)
    assert answer["ok"] and len(answer["faces"]) == count, answer
    _check(report, "virtual-answer", n, before, journal_lines(state_dir), str(Roll(tuple(answer["faces"]))), True)


def tray_kill(state_dir: Path, sim, point: str, report: RollKills, n: int, rng: random.Random,
              slow_s: float = 0.3) -> None:
    """Roll the simulated tray for the table `rubicon run` runs with it, and kill at `point`;
    then start the table again (no fault) until it has taken what the tray still holds."""
    config = state_dir / "tray.toml"
    config.write_text(f'[devices]\ntray = "{sim.path}"\n', encoding="utf-8")
    before = journal_lines(state_dir)
    count = asked_count(state_dir)
    faces = tuple(rng.randint(1, 6) for _ in range(count))
    line = str(Roll(faces))
    env = {"RUBICON_TEST_SLOW_COMMIT_S": str(slow_s)}
    if point in ("tray-before-commit", "tray-after-commit"):
        env["RUBICON_TEST_KILL_AT"] = point[len("tray-"):].replace("commit", "roll-commit")
    proc, _ = start_run(state_dir, "--config", str(config), env=env)
    acked = False
    try:
        held = len(sim.device.unacked)
        assert sim.roll(faces, timeout=GUARD_S)
        if point == "tray-ack":
            wait_until(lambda: len(sim.device.unacked) == held, "the tray's ACK")
            acked = True
        elif point == "tray-random":
            time.sleep(rng.uniform(0, 0.6))    # chooses the kill moment; nothing waits on it
            acked = len(sim.device.unacked) == held
        else:
            proc.wait(GUARD_S)                 # the table kills itself at its kill point
    finally:
        if proc.poll() is None:
            kill(proc)
        elif proc.stdout is not None:
            proc.stdout.close()
    after_kill = journal_lines(state_dir)
    _check(report, point, n, before, after_kill, line, acked)
    # The next start takes what the tray still holds (or only ACKs a roll taken before the kill).
    proc, _ = start_run(state_dir, "--config", str(config))
    try:
        wait_until(lambda: not sim.device.unacked, "the next start to take the roll the tray holds")
    finally:
        stop(proc)
    after = journal_lines(state_dir)
    _check(report, point + " (next start)", n, before, after, line, True, killed=False)


def campaign(work: Path, point: str, kills: int, seed: int = 1) -> RollKills:
    """`kills` kills at `point` (one of POINTS), each at the next battle roll of a game played on
    between them (a fresh game in `work` when one ends)."""
    from firmware_bridge.sim.device_sim import DeviceSim

    rng = random.Random(f"{seed}/{point}")
    report = RollKills()
    sim = DeviceSim("dice", heartbeat_ms=100, settle_ms=0, motion_ms=1).start() if point.startswith("tray") else None
    games = 0
    state_dir = work / f"{point}-{games}"
    try:
        for n in range(kills):
            try:
                dice_state_dir(state_dir)
            except GameOver:
                games += 1
                state_dir = work / f"{point}-{games}"
                dice_state_dir(state_dir)
            if sim is None:
                virtual_answer_kill(state_dir, report, n)
            else:
                tray_kill(state_dir, sim, point, report, n, rng)
    finally:
        if sim is not None:
            sim.close()
    return report

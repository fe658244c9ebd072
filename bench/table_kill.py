"""Kill -9 the table session at random moments of a scripted game, 200 times, restarting it from
the journal each time: acknowledged actions lost (goal 0) and whether every journal after a kill
is a prefix of the uninterrupted game, and the game finished after the last kill equals it. Then
the roll points: `rubicon run` killed at battle rolls (tests/table/roll_kills.py), `--roll-kills`
times at each point: rolls shown (the page answered with the faces, the tray ACKed) and lost.

    PYTHONPATH=. .venv/bin/python bench/table_kill.py [--kills 200] [--per-journal 20] [--steps 300]
        [--mode table|selfplay] [--roll-kills 30] [--points virtual-answer,tray-ack,...]

The kills come in rounds of --per-journal on a fresh journal (each round's kills land inside the
game, not after its end), with a different random kill schedule each round.

`table`: the game starts in the 705 battle phase, the dice are rolled on the phones (RollDice)
or typed (TypeDice), the session draws the deal (TableChance). `selfplay`: the session draws every
chance outcome (RandomChance), as tests/table/test_session.py's kill test.

Roll points (each kill on a `rubicon run` whose journal commits 0.3 s late, a slow disk, so an
answer given before the commit would be seen long before the roll is on disk):
`virtual-answer` (killed as the virtual table's page gets the faces), `tray-ack` (as the simulated
tray on a pty gets its ACK), `tray-before-commit` / `tray-after-commit` (the Pi kills itself just
before / after the roll's commit), `tray-random` (a random moment up to 0.6 s after the roll);
after each tray kill the table is started again and must take what the tray still holds, once.
Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.table.killing import KillReport, kill_and_resume  # noqa: E402
from tests.table.roll_kills import POINTS, campaign  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--steps", type=int, default=300, help="actions the uninterrupted game plays")
    parser.add_argument("--per-journal", type=int, default=20, help="kills on one journal before a fresh one")
    parser.add_argument("--mode", choices=("table", "selfplay"), default="table")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--roll-kills", type=int, default=30, help="kills at each roll point (0: none)")
    parser.add_argument("--points", default=",".join(POINTS), help="roll points, comma separated")
    args = parser.parse_args(argv)
    if args.kills:
        random_kills(args)
    for point in filter(None, args.points.split(",")) if args.roll_kills else ():
        if point not in POINTS:
            parser.error(f"--points: {point!r} is not one of {', '.join(POINTS)}")
        roll_kills(point, args.roll_kills, args.seed)
    return 0


def random_kills(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    rounds = []
    for n in range((args.kills + args.per_journal - 1) // args.per_journal):
        kills = min(args.per_journal, args.kills - n * args.per_journal)
        with tempfile.TemporaryDirectory() as tmp:
            rounds.append(kill_and_resume(Path(tmp), args.steps, kills, seed=args.seed + n,
                                          table=args.mode == "table"))
    report = KillReport(kills=sum(r.kills for r in rounds), acknowledged=sum(r.acknowledged for r in rounds),
                        lost=[x for r in rounds for x in r.lost], diverged=[x for r in rounds for x in r.diverged],
                        resumed_equal=all(r.resumed_equal for r in rounds))
    elapsed = time.perf_counter() - started
    print(f"kill -9 x {report.kills} ({args.mode} mode, {args.steps}-action game, {elapsed:.0f} s): "
          f"{len(rounds)} journals, {report.acknowledged} actions acknowledged in all")
    print(f"  acknowledged actions lost: {len(report.lost)} kill(s)" + "".join(f"\n    {x}" for x in report.lost))
    print(f"  journal not a prefix of the uninterrupted game: {len(report.diverged)} kill(s)"
          + "".join(f"\n    {x}" for x in report.diverged))
    print(f"  each game resumed after its last kill equals the uninterrupted one: {report.resumed_equal}", flush=True)


def roll_kills(point: str, kills: int, seed: int) -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        report = campaign(Path(tmp), point, kills, seed)
    elapsed = time.perf_counter() - started
    shown = report.shown.get(point, 0)
    lost = [x for x in report.lost if x.startswith(f"{point} #")]
    missed = [x for x in report.lost if x.startswith(f"{point} (next start)")]
    checked = "" if point == "virtual-answer" else f", not in the journal after the next start {len(missed)}"
    print(f"roll point {point}: kill -9 x {report.kills.get(point, 0)} ({elapsed:.0f} s): {shown} rolls shown "
          f"(answered or ACKed) before the kill, of them lost {len(lost)}{checked}, taken twice "
          f"{len(report.doubled)}" + "".join(f"\n    {x}" for x in report.lost + report.doubled), flush=True)


if __name__ == "__main__":
    sys.exit(main())

"""A deterministic player for session tests: at the n-th decision, a choice seeded by n among the
legal lines of the first side the game waits for (take-backs left out). Run as a script it plays
a game through a `TableSession` on a journal and prints `ACK <lines>` after each accepted action,
so a test can kill it at any moment and know what was acknowledged.

    python -m tests.table.driver JOURNAL STEPS [--table] [--max-lines N] [--unseeded]

`--table` plays as at a table whose tray is not connected: the game starts in the battle phase of
705 (`battle_journal`, from tests/records/battle_first_turn_705.txt), the session draws only the
deal (`TableChance`) and each battle roll is rolled on the phone (`RollDice` by the firing side)
or, every other one, typed on it (`TypeDice`: faces drawn from a seed, as dice rolled by hand).
`--unseeded` draws chance from the system's CSPRNG (as `rubicon run` does) instead of `SEED`."""
from __future__ import annotations

import random
import sys
from pathlib import Path

from firmware_bridge.virtual_table import VirtualTable
from rubicon.journal import Journal
from rubicon.table.chance import ChanceSource, RandomChance, SystemChance, TableChance
from rubicon.table.dice import RollDice, TypeDice
from rubicon.table.physical import PhysicalTable
from rubicon.table.session import Act, Snapshot, TableSession

SEED = 5
RECORD = Path(__file__).resolve().parents[1] / "records" / "battle_first_turn_705.txt"


def next_line(snap: Snapshot) -> tuple[str, str] | None:
    """(side, line) to play now, or None when the game is over or waits for chance."""
    for side in snap.waiting_for:
        if side in ("Caesar", "Pompeius"):
            legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
            return side, random.Random(f"driver/{snap.lines}").choice(legal)
    return None


def next_intent(snap: Snapshot) -> Act | RollDice | TypeDice | None:
    """The next player line, or the phone roll (or typed faces) the table asks for; None when
    nothing is due."""
    dice = (snap.public.table or {}).get("dice")
    if dice is not None:
        if snap.lines % 2:
            rng = random.Random(f"driver/typed/{snap.lines}")
            return TypeDice(dice["by"], tuple(rng.randint(1, 6) for _ in range(int(dice["count"]))))
        return RollDice(dice["by"])
    choice = next_line(snap)
    return None if choice is None else Act(*choice)


def play(session: TableSession, steps: int, ack=None, max_lines: int | None = None) -> None:
    """Play `steps` intents (fewer if the game ends, or once it has `max_lines` lines)."""
    for _ in range(steps):
        snap = session.snapshot()
        intent = next_intent(snap)
        if intent is None or (max_lines is not None and snap.lines >= max_lines):
            return
        outcome = session.submit(intent).result(60)
        assert outcome.ok, outcome.refusal
        if ack is not None:
            ack(session.snapshot().lines)


def record_lines(until: str = "Caesar fights Roma") -> tuple[dict[str, str], list[str]]:
    """The options and lines of the battle record before the line `until` (the battle phase's first)."""
    options, lines = {}, []
    for raw in RECORD.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("Option "):
            key, value = line[len("Option "):].split(":", 1)
            options[key.strip()] = value.strip()
        elif line == until:
            return options, lines
        elif line:
            lines.append(line)
    raise ValueError(f"{RECORD} has no line {until!r}")


def battle_journal(path: str | Path, until: str = "Caesar fights Roma") -> Journal:
    """A journal whose current game is the battle record up to `until` (a new one if empty)."""
    journal = Journal(path)
    if journal.current_game() is None:
        options, lines = record_lines(until)
        game = journal.new_game(options)
        for line in lines:
            journal.append(game, line)
    return journal


def table_session(path: str | Path, seed: ChanceSource | int | str = SEED) -> TableSession:
    """A session as at a table whose dice are rolled on the phones (see the module docstring)."""
    # The tray is the source, but none is connected: the phones roll or type (the fallback).
    return TableSession(battle_journal(path), chance=TableChance(seed), dice_source="tray")


if __name__ == "__main__":
    journal_path, steps = sys.argv[1], int(sys.argv[2])
    source: ChanceSource | int = SystemChance() if "--unseeded" in sys.argv[3:] else SEED
    if "--table" in sys.argv[3:]:
        session = table_session(journal_path, source)
    else:
        session = TableSession(Journal(journal_path), chance=RandomChance(source))
    session.start()

    def ack(lines: int) -> None:
        print(f"ACK {lines}", flush=True)
    cap = int(sys.argv[sys.argv.index("--max-lines") + 1]) if "--max-lines" in sys.argv else None
    play(session, steps, ack, cap)
    session.stop()


def pi_plays_caesar(tmp_path: Path, seed: int) -> tuple[VirtualTable, TableSession]:
    """A started session on a virtual table whose Caesar the Pi plays (his blocks handled blind), and
    the virtual table (its board not yet laid out): (virtual, session)."""
    holder: dict[str, TableSession] = {}
    virtual = VirtualTable(sink=lambda event: holder["session"].sense(event), seed=seed)
    physical = PhysicalTable(virtual.reader_map, virtual.registry().block_of)
    physical.automated.add("Caesar")
    session = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(3), physical=physical)
    holder["session"] = session
    session.start()
    return virtual, session

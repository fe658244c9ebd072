"""Chance nobody can predict, tested as an attacker would try it: a player who kept an
old record replays it hoping the table draws the same deal, dice and Jupiter picks; a restart
must replay exactly what was journaled and draw nothing recorded again. Each attack is also run
against a seeded source (the old default), where it succeeds: the tests can tell the two apart."""
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from firmware_bridge.virtual_table import VirtualTable
from rubicon.journal import Journal
from rubicon.table.bot_player import BotPlayer
from rubicon.table.chance import (
    RandomChance,
    SeededChance,
    SystemChance,
    TableChance,
    chance_source,
    unpredictable_seed,
)
from rubicon.table.dice import RollDice
from rubicon.table.session import TableSession

from .driver import SEED, battle_journal, play

ROOT = Path(__file__).resolve().parents[2]


def finished_game(path: Path, chance: RandomChance) -> list[str]:
    """The lines of a whole game played by the driver's player with `chance`."""
    session = TableSession(Journal(path), chance=chance)
    session.start()
    try:
        play(session, 5000)
        snap = session.snapshot()
        assert snap.result is not None, "the driver's game did not end"
        return session.journal.lines(snap.game_id)[1]
    finally:
        session.stop()


def replay_player_lines(path: Path, record: list[str], chance: RandomChance) -> list[str]:
    """A new game fed the record's player lines in order, as long as the table takes them (a
    different deal makes them illegal soon); the new game's lines."""
    session = TableSession(Journal(path), chance=chance)
    session.start()
    try:
        for line in record:
            if not line.startswith("Chance ") and not session.act(line.split()[0], line).ok:
                break
        return session.journal.lines(session.snapshot().game_id)[1]
    finally:
        session.stop()


def redraw_at(path: Path, record: list[str], index: int, chance: RandomChance) -> str:
    """The chance line a table draws in a new game journaled exactly as `record` before `index`
    (the position of its chance line `index`, recreated move for move and roll for roll)."""
    journal = Journal(path)
    game = journal.new_game()
    if index:
        journal.append_many(game, record[:index])
    session = TableSession(journal, chance=chance)
    session.start()     # the journal ends where chance is due: the session draws it
    try:
        return session.journal.lines(session.snapshot().game_id)[1][index]
    finally:
        session.stop()


def test_a_new_game_fed_an_old_records_player_lines_gets_other_chance(tmp_path):
    record = finished_game(tmp_path / "old.sqlite3", RandomChance())
    again = replay_player_lines(tmp_path / "new.sqlite3", record, RandomChance())
    assert again[0].startswith("Chance deals") and again[0] != record[0]
    assert again != record[:len(again)]
    # The old default (a seed kept in the state directory): the same lines give the same game.
    seeded = finished_game(tmp_path / "seeded-old.sqlite3", RandomChance(SeededChance("state-dir secret")))
    assert replay_player_lines(tmp_path / "seeded-new.sqlite3", seeded,
                               RandomChance(SeededChance("state-dir secret"))) == seeded


def test_the_same_position_recreated_move_for_move_does_not_redraw_the_recorded_chance(tmp_path):
    """Even with the position of each chance outcome rebuilt exactly (every move and roll before
    it as recorded), the table draws anew: no deal comes back, and rolls agree no more often than
    dice do by chance."""
    deals = rolls = same_deals = same_rolls = 0
    for n in range(30):        # finished games until enough rolls of several dice were redrawn
        if rolls >= 10:
            break
        record = finished_game(tmp_path / f"old{n}.sqlite3", RandomChance())
        for index, line in enumerate(record):
            if not line.startswith("Chance "):
                continue
            drawn = redraw_at(tmp_path / f"new{n}-{index}.sqlite3", record, index, RandomChance())
            assert drawn.split()[:2] == line.split()[:2]        # the same kind of outcome was due
            if line.startswith("Chance deals"):
                deals, same_deals = deals + 1, same_deals + (drawn == line)
            elif line.startswith("Chance rolls") and len(line.split()) > 3:
                rolls, same_rolls = rolls + 1, same_rolls + (drawn == line)
    assert deals >= 10 and same_deals == 0
    # Two dice or more agree one time in 36 at most: half of ten or more agreeing would be a
    # replayed roll, not luck (about 4 in a million).
    assert rolls >= 10 and same_rolls * 2 < rolls, f"{same_rolls} of {rolls} rolls drawn again"
    # Seeded by (seed, actions so far), as before: every recorded outcome comes back.
    seeded = finished_game(tmp_path / "seeded.sqlite3", RandomChance(SeededChance(SEED)))
    redrawn = [(redraw_at(tmp_path / f"seeded-{index}.sqlite3", seeded, index, RandomChance(SeededChance(SEED))),
                line) for index, line in enumerate(seeded) if line.startswith("Chance ")]
    assert len(redrawn) >= 3 and all(drawn == line for drawn, line in redrawn)


def test_a_restart_continues_with_exactly_the_journaled_outcomes(tmp_path):
    path = tmp_path / "journal.sqlite3"
    first = TableSession(Journal(path), chance=RandomChance())
    first.start()
    play(first, 150)
    before = first.snapshot()
    recorded = first.journal.lines(before.game_id)[1]
    first.stop()
    assert sum(line.startswith("Chance ") for line in recorded) >= 2
    second = TableSession(Journal(path), chance=RandomChance())
    second.start()
    try:
        after = second.snapshot()
        assert second.journal.lines(after.game_id)[1] == recorded      # nothing drawn again
        assert (after.lines, after.public.view, after.side_views()) == (before.lines, before.public.view,
                                                                          before.side_views())
        play(second, 150)
        assert second.journal.lines(after.game_id)[1][:len(recorded)] == recorded
    finally:
        second.stop()


def run_driver_killed(path: Path, table: bool, kills: int) -> list[list[str]]:
    """The driver (unseeded chance, as `rubicon run`) killed -9 after a few acknowledged actions,
    `kills` times on one journal; the journal's lines after each kill."""
    rng = random.Random(3)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tests.table.driver", str(path), "400", "--unseeded"] + (["--table"] if table
                                                                                             else [])
    seen = []
    for _ in range(kills):
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(rng.randint(2, 10)):
            if not proc.stdout.readline():
                break
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
        proc.stdout.close()
        journal = Journal(path)
        seen.append(journal.lines(journal.current_game())[1])
        journal.close()
    return seen


def test_kill_9_and_restart_never_redraws_a_journaled_outcome(tmp_path):
    """Each restart after a power cut replays what the journal holds, deal and dice included,
    and only then draws: every journal is a prefix of the next one."""
    for table in (False, True):
        seen = run_driver_killed(tmp_path / f"journal-{table}.sqlite3", table, 5)
        for earlier, later in zip(seen, seen[1:], strict=False):
            assert later[:len(earlier)] == earlier
        assert len(seen[-1]) > len(seen[0])
        assert any(line.startswith("Chance rolls") for line in seen[-1]) or not table


def test_a_roll_on_the_phone_is_drawn_anew_for_the_same_position(tmp_path):
    rolls = set()
    for n in range(6):
        s = TableSession(battle_journal(tmp_path / f"{n}.sqlite3", until="Chance rolls 2 5"), chance=TableChance(),
                         dice_source="phone")
        s.start()
        try:
            rolls.add(s.submit(RollDice("Caesar")).result(30).accepted)
        finally:
            s.stop()
    assert len(rolls) > 1


def test_the_virtual_tray_rolls_from_the_system_unless_seeded():
    rolls = {VirtualTable(lambda event: None).roll(4) for _ in range(6)}
    assert len(rolls) > 1
    assert len({VirtualTable(lambda event: None, seed=9).roll(4) for _ in range(3)}) == 1


def test_the_bots_own_seed_is_not_the_table_state_but_can_be_given(tmp_path):
    session = TableSession(Journal(tmp_path / "j.sqlite3"), chance=RandomChance())
    seeds = {BotPlayer(session, "Pompeius").bot.seed for _ in range(3)}
    assert len(seeds) == 3 and all(len(str(seed)) == 32 for seed in seeds)
    assert BotPlayer(session, "Pompeius", seed=4).bot.seed == 4
    seeded = TableSession(Journal(tmp_path / "k.sqlite3"), chance=RandomChance(SeededChance(1)))
    other = TableSession(Journal(tmp_path / "l.sqlite3"), chance=RandomChance(SeededChance(1)))
    assert BotPlayer(seeded, "Caesar").bot.seed == BotPlayer(other, "Caesar").bot.seed


def test_no_seed_means_the_system_source_and_a_seed_means_a_seeded_one():
    assert isinstance(chance_source(None), SystemChance) and isinstance(RandomChance().source, SystemChance)
    assert isinstance(TableChance().source, SystemChance) and TableChance().table_kinds == {"dice"}
    assert chance_source(7).rng("chance", 3).random() == SeededChance(7).rng("chance", 3).random()
    assert unpredictable_seed(SystemChance()) != unpredictable_seed(SystemChance())


def test_seeded_games_at_the_table_stay_deterministic(tmp_path):
    games = []
    for n in range(2):
        games.append(finished_game(tmp_path / f"{n}.sqlite3", RandomChance(SeededChance(SEED))))
    assert games[0] == games[1]
    assert finished_game(tmp_path / "system.sqlite3", RandomChance()) != games[0]

"""The bot at the table: a `BotPlayer` plays one side of a `TableSession` (journal in tmp) from
that side's snapshot part only, a whole game against a random player acting through the session;
its explained moves carry nothing the rules hide from its opponent."""
import random
import re
from pathlib import Path

import pytest

from engine import BOARD, replay
from rubicon.journal import Journal
from rubicon.table.bot_explain import explain_turn
from rubicon.table.bot_player import BotPlayer
from rubicon.table.chance import RandomChance
from rubicon.table.session import TableSession

RECORDS = Path(__file__).resolve().parents[1] / "records"
GUARD_S = 60.0   # a generous guard against a dead thread, never a synchronisation


@pytest.fixture
def session(tmp_path):
    s = TableSession(Journal(tmp_path / "journal.sqlite3"), chance=RandomChance(11))
    s.start()
    yield s
    s.stop()


def _play_random(session: TableSession, side: str, seed: int, max_actions: int = 3000) -> None:
    """`side` plays uniformly at random through the session until the game ends."""
    rng = random.Random(seed)
    version = 0
    for _ in range(max_actions * 4):
        snap = session.wait_for_change(version, GUARD_S)
        assert snap.version > version, "the bot stopped playing"
        version = snap.version
        if snap.result is not None:
            return
        legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
        if legal:
            outcome = session.act(side, rng.choice(legal))
            assert outcome.ok, outcome.refusal
    raise AssertionError("no result")


def _hidden_words(side: str) -> list[str]:
    """Names the rules hide from the bot's opponent: the bot side's block names (its unrevealed
    blocks are 'a block' in the public log) and its card names before they are revealed."""
    prefix = side[0] + " "
    return [b.key for b in BOARD.blocks if b.key.startswith(prefix)]


def test_the_bot_plays_a_whole_game_against_a_random_player(session):
    bot = BotPlayer(session, "Pompeius", level="medium", seed=3)
    bot.start()
    try:
        _play_random(session, "Caesar", seed=4)
    finally:
        bot.stop()
    snap = session.snapshot()
    assert snap.result is not None and snap.lines > 50   # to its end (medium may win at the first winter)
    assert not bot.running and not bot.errors
    assert bot.refusals == []
    _, lines = session.journal.lines(snap.game_id)
    assert [x for x in lines if x.startswith("Pompeius")] == bot.played   # every bot line is journalled
    assert bot.explained, "the bot explained its turns"
    assert snap.for_viewer(None)["notes"]["bot"] == bot.explained[-1] == snap.for_viewer(None)["table"]["bot"]
    for summary in bot.explained:
        for word in _hidden_words("Pompeius"):
            assert not re.search(rf"\b{re.escape(word)}\b", summary["text"]), (word, summary["text"])


def public_turn(record: str, side: str, start: str, end: str) -> tuple[list, dict]:
    """The public log entries of `side` from the line `start` to `end` of a record, as the engine
    writes them (`Game.history_for(None)`), and the public view after them."""
    lines = [x.split("#")[0].strip() for x in (RECORDS / record).read_text().splitlines()]
    lines = [x for x in lines if x and not x.startswith("Option")]
    first, last = lines.index(start), lines.index(end)
    game = replay("\n".join(lines[:last + 1]) + "\n", record)
    return game.history_for(None, since=first), game.view(None)


def test_the_explanation_names_what_the_public_saw_and_nothing_hidden():
    entries, view = public_turn("first_turn_705.txt", "Pompeius", "Pompeius moves Legio 1 Neapolis-Roma",
                                "Pompeius ends command")
    s = explain_turn(entries, "Pompeius", view)
    assert s["items"] == [{"kind": "card", "card": "2/3"},
                          {"kind": "move", "path": ["Neapolis", "Roma"], "attacks": "Roma"},
                          {"kind": "move", "path": ["Neapolis", "Roma"], "attacks": "Roma"},
                          {"kind": "move", "path": ["Carthago Nova", "Tarraco"], "attacks": None},
                          {"kind": "levy", "places": [["Alexandria", 1], ["Utica", 1], ["Neapolis", 1]]}]
    assert s["lines"][0] == "played 2/3 this turn" and s["lines"][-1] == "levies 3 blocks: Alexandria, Utica, Neapolis"
    for word in _hidden_words("Pompeius") + ["Legio", "Navis", "Auxilia"]:
        assert not re.search(rf"\b{re.escape(word)}\b", repr(s)), word


def test_the_ends_of_a_command_and_a_regroup_are_not_listed_as_items():
    """Read from the engine's own log of a battle turn (a regroup's end among them): closing a step
    is no item."""
    game = replay((RECORDS / "battle_first_turn_705.txt").read_text(), "battle")
    entries = game.history_for(None)
    ends = [e for e in entries if e["action"]["type"] in ("end-command", "end-regroup")]
    assert {e["action"]["type"] for e in ends} == {"end-command", "end-regroup"}
    for side in ("Caesar", "Pompeius"):
        assert explain_turn([e for e in ends if e["actor"] == side], side, {"year": 705, "turn": 1})["items"] == []


def test_a_refused_decision_is_retried_once_then_the_bot_waits(session, monkeypatch):
    bot = BotPlayer(session, "Caesar", level="random", seed=1)
    monkeypatch.setattr(bot.bot, "decide", lambda info: "Caesar takes back")   # always refused
    assert bot._play(session.snapshot().side("Caesar")) is False
    assert [r["attempt"] for r in bot.refusals] == [1, 2]
    assert all(r["code"] for r in bot.refusals)
    assert session.snapshot().lines == 1   # nothing changed: only the deal


def test_a_stopped_bot_ends_its_thread(session):
    bot = BotPlayer(session, "Caesar", level="easy")
    bot.start()
    assert bot.running
    bot.stop()
    assert not bot.running


def test_rubicon_run_takes_the_bot_from_the_options_else_the_configuration(session):
    from argparse import Namespace
    from types import SimpleNamespace

    from rubicon.cli.run import start_bot
    config = SimpleNamespace(bot_side="Pompeius", bot_level="easy")
    assert start_bot(session, Namespace(bot=None, bot_level=None), SimpleNamespace(bot_side=None)) is None
    bot = start_bot(session, Namespace(bot=None, bot_level=None), config)
    try:
        assert (bot.side_name, bot.bot.level.name) == ("Pompeius", "easy")
    finally:
        bot.stop()
    bot = start_bot(session, Namespace(bot="caesar", bot_level="hard"), config)
    try:
        assert (bot.side_name, bot.bot.level.name) == ("Caesar", "hard")
    finally:
        bot.stop()


def test_a_searching_bot_says_how_far_it_got_while_it_thinks(session):
    """While a search runs the session carries the public note "thinking" (side, phase,
    iterations done of the budget), which the TV and phones show; it is gone once the bot acts."""
    said = []
    note = session.note

    def spy(key, value, *args, **kwargs):
        if key == "thinking":
            said.append(value)
        return note(key, value, *args, **kwargs)

    session.note = spy
    bot = BotPlayer(session, "Pompeius", level="hard", seed=3, iterations=10)
    bot.start()
    try:
        version = 0
        while not any(v is None for v in said):   # the first searched decision was made
            snap = session.wait_for_change(version, GUARD_S)
            assert snap.version > version and bot.running, "the bot stopped"
            version = snap.version
            legal = [o["line"] for o in snap.side("Caesar").options() if o["type"] != "take-back"]
            if legal:
                assert session.act("Caesar", legal[0]).ok
    finally:
        bot.stop()
    first = said[0]
    assert first == {"side": "Pompeius", "phase": first["phase"], "done": 0, "total": 10}
    assert first["phase"] in ("discard", "card")
    done = [v["done"] for v in said if v is not None]
    assert done == sorted(done) and done[-1] == 10 and len(done) >= 3
    assert "thinking" not in session.snapshot().notes

"""Every decision the bot makes is legal (Game.apply refuses anything else), through every
phase, and the same seed gives the same game."""
import pytest

from engine import SIDES, Game
from rubicon.bot.match import play_game


def _phases(game: Game) -> set:
    """The phases a finished game went through, read back from its record."""
    g = Game()
    seen = {g.state.phase}
    for line in game.history:
        g.apply(line)
        seen.add(g.state.phase)
    return seen


def test_heuristic_games_are_legal_through_every_phase():
    phases, winners = set(), set()
    for i, levels in enumerate([("easy", "random"), ("random", "medium"), ("easy", "easy"),
                                ("medium", "easy"), ("easy", "medium"), ("medium", "medium")] * 2):
        rec = play_game(levels, seed=21, index=i)
        assert rec.game.is_over()
        phases |= _phases(rec.game)
        winners.add(rec.game.result()["winner"])
    assert phases == {"deal", "discard", "card", "command", "battle", "winter", "over"}
    assert winners >= set(SIDES)


@pytest.mark.parametrize("levels, budgets", [
    (("hard", "random"), {"hard": 3}),
    (("easy", "hard"), {"hard": 4}),
])
def test_search_levels_with_tiny_budgets_play_legal_games(levels, budgets):
    rec = play_game(levels, seed=22, index=0, budgets=budgets)
    assert rec.game.is_over()
    assert {"command", "winter"} <= _phases(rec.game)
    assert all(rec.decision_s[lv] for lv in levels)


@pytest.mark.parametrize("level, budgets", [("easy", None), ("medium", None), ("hard", {"hard": 3})])
def test_a_level_is_reproducible_with_a_seed(level, budgets):
    a = play_game(("random", level), seed=31, index=2, budgets=budgets)
    b = play_game(("random", level), seed=31, index=2, budgets=budgets)
    c = play_game(("random", level), seed=32, index=2, budgets=budgets)
    assert a.game.history == b.game.history
    assert a.game.history != c.game.history


def test_an_eager_heuristic_still_ends_its_command(monkeypatch):
    """A style that scores every command action above ending (end below zero) once chose
    "declare main attack" over and over (its score was 0) and the game never ended: re-declaring
    now scores below any threshold, so a command ends when its moves run out."""
    from dataclasses import replace

    from rubicon.bot import heuristic, match
    from rubicon.bot.levels import LEVELS, Level

    eager = replace(heuristic.TUNED_CAESAR, end=-1.0)
    monkeypatch.setitem(LEVELS, "_eager", Level("_eager", style=eager, caesar_style=eager))
    monkeypatch.setattr(match, "MAX_ACTIONS", 20_000)
    for i in range(2):
        rec = play_game(("_eager", "medium"), seed=21, index=i)
        assert rec.game.is_over()
        declares = [" declares main attack " in line for line in rec.game.history]
        assert not any(a and b for a, b in zip(declares, declares[1:], strict=False))

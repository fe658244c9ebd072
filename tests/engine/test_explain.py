"""`Game.explain`: what `apply` would say, changing nothing (ENGINE-API item 3)."""
from __future__ import annotations

import json
import random

from engine.errors import IllegalAction, ParseError
from engine.game import Game
from engine.selfplay import game_rng, play_game

from .api_checks_explain import check_explain
from .helpers import command_game, refused, snapshot

GAMES = 40
CHECK_EVERY = 10  # of each game's positions, about one in CHECK_EVERY is checked


def test_explain_agrees_with_apply_through_random_games(sweep):
    games = sweep(GAMES, 4)
    checked = {"positions": 0, "phases": set()}

    for i in range(games):
        rng = random.Random(f"explain/{i}")

        def after(game, action, rng=rng):
            if rng.randrange(CHECK_EVERY) == 0:
                check_explain(game, rng)
                checked["positions"] += 1
                checked["phases"].add(game.state.phase)

        game, record = play_game(game_rng(31, i), after=after)
        check_explain(game, rng)   # the finished game refuses everything: "the game is over"
    assert checked["positions"] > games * 20
    assert {"discard", "card", "command", "battle", "winter"} <= checked["phases"]


def test_explain_returns_the_refusal_apply_raises_and_changes_nothing():
    g = command_game({"Genua": ["C Legio 8"], "Neapolis": ["P Legio 1"]})
    before, lines = snapshot(g), len(g.history)
    e = g.explain("Caesar moves Legio 8 Genua-Neapolis")
    assert isinstance(e, IllegalAction) and (e.rule, e.code) == ("6.1", "move.not-adjacent")
    assert e.params == {"from": "Genua", "to": "Neapolis"}
    assert snapshot(g) == before
    raised = refused(g, "Caesar moves Legio 8 Genua-Neapolis", "6.1 no road or sea border joins Genua and Neapolis")
    assert raised.to_json() == e.to_json()
    assert g.explain("Caesar moves Legio 8 Genua-Roma") is None
    assert snapshot(g) == before and len(g.history) == lines


def test_explain_reads_notation_lines_and_names_unreadable_ones():
    g = Game()
    e = g.explain("Caesar crosses the Rubicon")
    assert isinstance(e, ParseError) and e.code.startswith("notation")
    e = g.explain("Caesar plays 3/2")
    assert (e.code, e.rule) == ("turn.chance-due", "2.1") and e.params == {"awaited": "Chance's deal of 705"}
    json.dumps(e.to_json())

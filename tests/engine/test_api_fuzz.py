"""The engine as the table's partner, checked at every step of many random games (the
tests): the pending decisions partition the legal actions and each has an option; moves by
endpoints equal a brute-force filter of the legal moves; `explain` agrees with `apply` for the
actions tried (legal and illegal) and changes nothing; applying the effects to the previous
position reproduces the new one; undo restores the exact state or is refused across a
reveal; a save loads as the same game. `RUBICON_FUZZ_GAMES` sets how many games (default 300).

What runs where, to keep CI's whole run short on 2 cores (`python -m pytest
tests/engine/test_api_fuzz.py` ~5 min of CPU for 300 games): the effects and the pending
decisions at every step of every game; moves by endpoints and `explain` (a few legal and
illegal actions each time; test_explain.py tries many) at every third step; undo at one step
in ten and at every phase change; the save round trip the first time each game reaches a
phase and at one step in 40 (the record-text and no-checkpoint forms too at one in 200)."""
import os
import random

import pytest

from engine.game import Game, sample_chance

from . import api_checks_explain
from .api_checks_effects import check_effects, check_undo
from .api_checks_explain import check_explain
from .api_checks_pending import check_endpoints, check_pending
from .api_checks_saves import check_save_roundtrip

GAMES = int(os.environ.get("RUBICON_FUZZ_GAMES", "300"))
CHUNKS = 10
MAX_ACTIONS = 5000


def play_checked(index: int) -> set[str]:
    rng = random.Random(f"api-fuzz/{index}")
    game = Game({"winter_order": "first-edition"} if index % 4 == 3 else None)
    phases = set()
    for n in range(MAX_ACTIONS):
        if game.is_over():
            return phases
        phase = game.state.phase
        before = game.copy()
        if game.is_chance_node():
            action = sample_chance(game, rng)
        else:
            legal = [a for a in game.legal_actions(take_back=True)
                     if type(a).__name__ != "TakeBack" or rng.random() < 0.02]
            action = rng.choice(legal)
        effects = game.apply(action, effects=True)
        check_effects(before, game, effects)
        check_pending(game)
        changed = game.state.phase != phase
        if n % 3 == 0:
            check_endpoints(game, trials=1)
            check_explain(game, rng)
        if n % 10 == 0 or changed:
            check_undo(game, rng)
        if n % 40 == 0 or game.state.phase not in phases:
            check_save_roundtrip(game, all_forms=n % 200 == 0)
        phases.add(game.state.phase)
    raise AssertionError(f"game {index} did not end in {MAX_ACTIONS} actions")


@pytest.fixture(autouse=True)
def fewer_explain_trials(monkeypatch):
    monkeypatch.setattr(api_checks_explain, "LEGAL_TRIED", 3)
    monkeypatch.setattr(api_checks_explain, "ILLEGAL_TRIED", 4)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_step_of_random_games(chunk, sweep):
    games = sweep(GAMES, CHUNKS)
    phases = set()
    for index in range(chunk, games, CHUNKS):
        phases |= play_checked(index)
    if games >= CHUNKS * 5:
        assert {"discard", "card", "command", "battle", "winter", "over"} <= phases

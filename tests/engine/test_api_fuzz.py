"""The engine as the table's partner, checked at every step of many random games: the pending
decisions partition the legal actions, moves by endpoints equal a brute-force filter, `explain`
agrees with `apply`, the effects rebuild the new position, undo restores the exact state, and a
save loads as the same game. `RUBICON_FUZZ_GAMES` sets how many games (CI: 300)."""
import os
import random

import pytest

from engine.selfplay import game_rng, play_game

from .api_checks_explain import check_explain
from .api_checks_pending import check_endpoints, check_pending

GAMES = int(os.environ.get("RUBICON_FUZZ_GAMES", "300"))
CHUNKS = 10


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_step_of_random_games(chunk):
    for index in range(chunk, GAMES, CHUNKS):
        rng = random.Random(f"api-fuzz/{index}")

        def after(game, action):
            check_pending(game)
            check_endpoints(game, trials=1)
            check_explain(game, rng)
        play_game(game_rng(9, index), after=after)

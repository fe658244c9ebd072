"""CI fuzz: 300 seeded random full games (uniform choice among legal actions, chance from the
seeded RNG) with invariants after every action (see invariants.Checker); every game must
reach a result."""
import pytest

from engine.selfplay import game_rng, play_game

from .invariants import Checker

CHUNK = 25
CHUNKS = 12        # 300 games
FIRST_EDITION_CHUNKS = {3, 8}   # 50 of them with the other winter order


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_end_in_a_result_with_invariants(chunk, sweep):
    options = {"winter_order": "first-edition"} if chunk in FIRST_EDITION_CHUNKS else None
    for i in range(chunk * CHUNK, chunk * CHUNK + sweep(CHUNK, 2)):
        check = Checker()
        game, record = play_game(game_rng(2026, i), options, after=check)
        result = game.result()
        assert result is not None and result["winner"] in ("Caesar", "Pompeius", None), f"game {i}"
        assert check.actions == len(record)

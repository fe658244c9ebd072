"""Positions from bot games for the bot's tests: the real game at each of a bot's decisions."""
from __future__ import annotations

from engine import Game, game_rng, sample_chance
from rubicon.bot.info import information_state
from rubicon.bot.levels import Bot


def positions(levels=("easy", "random"), seed=5, index=0, every=1, limit=10_000):
    """Yield (game, side) at the decisions of a game between `levels` (the game is the live
    object: copy it before changing it); stops after `limit` positions."""
    game = Game()
    rng = game_rng(seed, index)
    # Search levels get a tiny budget: these games only lead to positions.
    bots = [Bot(s, levels[s], seed=seed, iterations=3 if levels[s] == "hard" else None)
            for s in (0, 1)]
    n = found = 0
    while not game.is_over():
        if game.is_chance_node():
            game.apply(sample_chance(game, rng))
            continue
        for s in game.current_player_ids():
            info = information_state(game, s, bots[s].memory)
            if info.legal:
                break
        if n % every == 0:
            yield game, s
            found += 1
            if found >= limit:
                return
        n += 1
        game.apply(bots[s].decide(info))

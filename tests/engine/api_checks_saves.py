"""Reusable check: a game played from the set-up survives save -> JSON text -> load exactly, in
any phase (the lead's API fuzz calls `check_save_roundtrip` at every step)."""
from __future__ import annotations

import json

from engine.game import Game
from engine.notation import replay


def check_save_roundtrip(game: Game, *, all_forms: bool = True) -> Game:
    """Save `game`, load the save from its JSON text and assert the loaded game is the same
    game: state (take-back point included), history, who acts, legal actions, the three
    views and whether each may undo. With `all_forms`, also without the checkpoint and from
    the record text. Returns the loaded game; `game` itself is left untouched."""
    before = game.state.to_json()
    data = game.save()
    assert data["format"] == "rubicon-save/1" and data["lines"] == game.history
    again = Game.load(json.loads(json.dumps(data)))
    _same(again, game)
    if all_forms:
        _same(Game.load(json.loads(json.dumps(game.save(checkpoint=False)))), game)
        _same(replay(game.save_text("round trip")), game)
    assert game.state.to_json() == before, "saving changed the game"
    return again


def _same(again: Game, game: Game) -> None:
    assert again.state.to_json() == game.state.to_json()
    assert again.history == game.history
    assert again.current_players() == game.current_players()
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in game.legal_actions()]
    for side in (None, "Caesar", "Pompeius"):
        assert again.view(side) == game.view(side)
        assert again.can_undo(side) == game.can_undo(side)

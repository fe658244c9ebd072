"""The state's incremental indices (`GameState.at`, `count`, `fielded`, `side_count`) equal a
full recount from `loc` and `owner` at every step of random games, with checked and unchecked
applies, after take-backs and undos, and in copies."""
from __future__ import annotations

import random

import pytest

from engine.board import BOARD
from engine.game import Game
from engine.selfplay import game_rng, play_game
from engine.state import COMMAND, GameState


def recount(state: GameState) -> dict:
    at: list[list[int]] = [[] for _ in range(BOARD.n_locs)]
    fielded: list[list[int]] = [[], []]
    side_count = [[0] * BOARD.n_locs, [0] * BOARD.n_locs]
    for b in range(BOARD.n_blocks):
        l = state.loc[b]
        if l >= 0:
            at[l].append(b)
            fielded[state.owner[b]].append(b)
            side_count[state.owner[b]][l] += 1
    return {"at": at, "fielded": fielded, "side_count": side_count,
            "count": [[side_count[0][l], side_count[1][l]] for l in range(BOARD.n_locs)]}


def indices(state: GameState) -> dict:
    return {"at": state.at, "fielded": state.fielded, "side_count": state.side_count, "count": state.count}


def check(state: GameState) -> None:
    assert indices(state) == recount(state)


@pytest.mark.parametrize("index", range(8))
def test_indices_equal_a_recount_at_every_step_of_random_games(index):
    steps = 0

    def after(game, action):
        nonlocal steps
        check(game.state)
        steps += 1
    # even games keep take-back and apply checked (an `after` hook does); odd ones are self-play's
    game, record = play_game(game_rng(123, index), after=after, take_back=index % 2 == 0)
    check(game.state.copy())
    assert steps == len(record) > 100


def test_indices_after_take_backs_undos_and_copies():
    rng = random.Random(11)
    game = Game()
    takes = undos = 0
    while not game.is_over() and (takes < 15 or undos < 15):
        if game.is_chance_node():
            game.apply(game.sample_chance(rng))
        else:
            game.apply(rng.choice(game.legal_listing()))
        check(game.state)
        if game.state.phase == COMMAND and game.state.command.log and rng.random() < 0.3:
            game.apply(f"{game.current_players()[0]} takes back")
            takes += 1
            check(game.state)
        if game.can_undo() and rng.random() < 0.3:
            game.undo()
            undos += 1
            check(game.state)
        copy = game.copy()
        check(copy.state)
        assert copy.state.fielded is not game.state.fielded   # a copy's indices are its own
    assert takes >= 15 and undos >= 15


def test_a_recount_sees_a_broken_index():
    """The check itself can fail: a block lifted behind the mutators' back."""
    state = GameState()
    b = state.fielded[0][0]
    state.fielded[0].remove(b)
    with pytest.raises(AssertionError):
        check(state)


def test_the_take_back_point_leaves_the_indices_out_and_its_copies_rebuild_them():
    """The command phase's take-back point is a `frozen_copy` (the copy of the indices
    was most of the cost of every command phase's start); a copy of it is the state it was taken
    from, indices included, and a take-back from it reaches exactly the phase's start."""
    rng = game_rng(3, 0)
    game = Game()
    seen = 0
    while not game.is_over() and seen < 6:
        if game.is_chance_node():
            game.apply(game.sample_chance(rng))
            continue
        state = game.state
        if state.phase == COMMAND and state.cmd is not None and not state.cmd.log and state.cmd.snapshot is not None:
            snap = state.cmd.snapshot
            assert not snap.indexed and snap.at == []
            again = snap.copy()
            assert again.indexed and indices(again) == recount(again) == indices(state)
            assert again.to_json() | {"cmd": None} == state.to_json() | {"cmd": None}
            seen += 1
        game.apply(rng.choice(game.legal_actions()))
    assert seen == 6

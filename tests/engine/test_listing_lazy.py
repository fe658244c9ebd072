"""The lazy listing (engine.listing, `Game.legal_listing/legal_count/legal_at`) is the full
listing, in order, at every decision of random games; and the trusted callers' options
(`Game(take_back=False)`, `apply(checked=False)`) end games in the same state as the checked
path."""
from __future__ import annotations

import random

import pytest

from engine.actions import TakeBack
from engine.errors import IllegalAction
from engine.game import Game
from engine.selfplay import game_rng, play_game
from engine.state import COMMAND

GAMES = 20
PER_TEST = 5


def check_listing(game: Game) -> int:
    """Count and every index of the lazy listing equal the full list, for every viewer."""
    checked = 0
    for side in (None, *game.current_players()):
        if side == "Chance":
            continue
        for tb in (False, True):
            full = game.legal_actions(side, take_back=tb)
            lazy = game.legal_listing(side, take_back=tb)
            assert len(lazy) == len(full) == game.legal_count(side, take_back=tb)
            for i, action in enumerate(full):
                assert lazy[i] == action
            for i in {0, len(full) // 2, len(full) - 1} if full else ():
                assert game.legal_at(i, side, take_back=tb) == full[i]   # a listing of its own each: a few
            if full:
                assert lazy[-1] == full[-1]
        assert list(lazy) == full
        no_take_back = [a for a in full if not isinstance(a, TakeBack)]
        assert list(game.legal_listing(side, take_back=False)) == no_take_back
        with pytest.raises(IndexError):
            lazy[len(full)]
        checked += len(full)
    return checked


@pytest.mark.parametrize("chunk", range(GAMES // PER_TEST))
def test_lazy_listing_equals_the_full_list_at_every_decision(chunk):
    checked = command = 0
    for i in range(chunk * PER_TEST, (chunk + 1) * PER_TEST):
        def after(game, action):
            nonlocal checked, command
            checked += check_listing(game)
            command += game.state.phase == COMMAND
        play_game(game_rng(77, i), after=after, take_back=i % 2 == 0)   # with TakeBack and without
    assert command > 100 * PER_TEST
    assert checked > 5_000 * PER_TEST


def test_lazy_listing_with_take_back_and_after_take_backs_and_undo():
    """A game that keeps take-back (the table's): TakeBack listed last, and the listing after
    take-backs and undos is still the full one."""
    rng = random.Random(5)
    game = Game()
    takes = undos = 0
    while not game.is_over() and (takes < 20 or undos < 20):
        if game.is_chance_node():
            game.apply(game.sample_chance(rng))
            continue
        check_listing(game)
        game.apply(rng.choice(game.legal_listing()))
        if game.state.phase == COMMAND and game.state.command.log and rng.random() < 0.3:
            assert isinstance(game.legal_at(-1, take_back=True), TakeBack)
            game.apply(f"{game.current_players()[0]} takes back")
            takes += 1
            check_listing(game)
        if game.can_undo() and rng.random() < 0.3:
            game.undo()
            undos += 1
            check_listing(game)
    assert takes >= 20 and undos >= 20


def test_draws_from_the_lazy_listing_are_the_draws_from_the_list():
    """rng.choice of the listing makes the same RNG calls and picks the same action."""
    a, b = random.Random(9), random.Random(9)
    game = Game()
    while not game.is_over() and len(game.history) < 400:
        if game.is_chance_node():
            game.apply(game.sample_chance(a))   # chance draws from `a`: `b` follows
            b.setstate(a.getstate())
            continue
        listed = a.choice(game.legal_actions(take_back=True))
        drawn = b.choice(game.legal_listing(take_back=True))
        assert drawn == listed
        assert a.getstate() == b.getstate()
        game.apply(drawn)
    assert len(game.history) >= 400 or game.is_over()


@pytest.mark.parametrize("index", range(6))
def test_trusted_options_end_the_game_in_the_same_state(index):
    """Take-back off and unchecked applies: the same game, the same state after every
    action but the take-back snapshot, the same end."""
    rng = game_rng(41, index)
    plain, trusted = Game(), Game(take_back=False)
    while not plain.is_over():
        if plain.is_chance_node():
            action = plain.sample_chance(rng)
            plain.apply(action, effects=False)
            trusted.apply(action, effects=False, checked=False)
        else:
            listed = [a for a in plain.legal_actions() if not isinstance(a, TakeBack)]
            assert list(trusted.legal_listing()) == listed
            action = rng.choice(listed)
            plain.apply(action, effects=False)
            trusted.apply(action, effects=False, checked=False)
        mine, theirs = plain.state.to_json(), trusted.state.to_json()
        if mine["cmd"] is not None:
            assert theirs["cmd"]["snapshot"] is None
            mine["cmd"]["snapshot"] = None
        assert mine == theirs
    assert trusted.is_over() and trusted.result() == plain.result()
    assert trusted.history == plain.history


def test_without_take_back_take_back_is_neither_listed_nor_accepted():
    rng = random.Random(3)
    game = Game(take_back=False)
    while not (game.state.phase == COMMAND and game.state.command.log):
        action = game.sample_chance(rng) if game.is_chance_node() else rng.choice(game.legal_actions())
        game.apply(action)
    assert not any(isinstance(a, TakeBack) for a in game.legal_actions())
    before = game.state.to_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply(f"{game.current_players()[0]} takes back")
    assert refused.value.code == "command.take-back-off"
    assert game.state.to_json() == before
    assert game.copy().state.take_back is False
    # its save carries no checkpoint (the replay would keep a snapshot) and loads
    save = game.save()
    assert Game.load(save).history == game.history


def test_self_play_applies_unchecked_and_keeps_no_snapshot():
    game, record = play_game(game_rng(1, 0))
    assert game.state.take_back is False and record
    seen = []
    play_game(game_rng(1, 0), after=lambda g, a: seen.append(g.state.take_back))
    assert seen and all(seen)
    seen.clear()
    play_game(game_rng(1, 0), after=lambda g, a: seen.append(g.state.take_back), take_back=False)
    assert seen and not any(seen)


def test_remembered_walks_are_dropped_when_a_road_fills_up_or_the_enemy_changes():
    """engine.movement remembers each location's walk for the rest of a command phase; after a
    move that fills a road (the cache dropped) and at every other command decision the lazy
    listing is still the full one."""
    dropped = kept = 0

    def after(game, action):
        nonlocal dropped, kept
        state = game.state
        if state.phase != COMMAND or game.is_chance_node():
            return
        if type(action).__name__ == "Move" and state.command.side == action.actor:
            if state.walk_cache is None:
                dropped += 1
            else:
                kept += 1
        assert list(game.legal_listing(take_back=False)) == game.legal_actions()
    for i in range(6):
        play_game(game_rng(91, i), after=after, take_back=False)
    assert dropped > 0 and kept > dropped

"""Property tests by seeded random legal play through many card and command phases:
invariants hold, every listed action is accepted, every acceptable move is listed, notation
and JSON round-trip, and refused actions change nothing."""
import json
import random

import pytest

from engine.actions import Move, TakeBack, parse_action
from engine.board import BOARD
from engine.command_phase import UNDOABLE
from engine.errors import IllegalAction
from engine.game import Game
from engine.movement import move_error
from engine.selfplay import play_game
from engine.state import COMMAND, GameState
from tests.engine.api_checks_saves import check_save_roundtrip
from tests.engine_battle.invariants import OFF_MAP, check_blocks


def check_invariants(st: GameState) -> None:
    for b in range(BOARD.n_blocks):
        assert st.loc[b] in OFF_MAP or 0 <= st.loc[b] < BOARD.n_locs
    check_blocks(st)   # 63 blocks, each in exactly one place; indices, steps, sea, dead leaders
    assert sum(len(a) for a in st.at) == sum(1 for b in range(BOARD.n_blocks) if st.loc[b] >= 0)
    total_cards = sum(len(h) for h in st.hands) + sum(1 for d in st.discards if d is not None)
    assert total_cards <= 12
    if st.phase == COMMAND:
        assert st.cmd.mp_used <= st.cmd.mp and st.cmd.lp_used <= st.cmd.lp
        # every contested location has its attack bookkeeping, and only those
        assert sorted(st.battles) == st.contested_locations()


class _Enough(Exception):
    pass


class _AggressiveRandom(random.Random):
    """Random choices that prefer attacks (moves into enemy or contested locations) two times
    in three, so that random play meets many battles, pins and reserves."""

    def __init__(self, seed, box):
        super().__init__(seed)
        self.box = box

    def choice(self, seq):
        game = self.box.get("game")
        if game is not None and self.random() < 0.67:
            st = game.state
            attacks = [a for a in seq if isinstance(a, Move) and st.count[a.path[-1]][1 - a.actor]]
            if attacks:
                return super().choice(attacks)
        return super().choice(seq)


def play(seed: int, max_actions: int, on_state=None, aggressive: bool = False) -> Game:
    """Seeded random legal play (engine.selfplay's driver) for at most `max_actions`;
    `on_state(game, rng)` inspects each position reached."""
    box = {}
    rng = _AggressiveRandom(seed, box) if aggressive else random.Random(seed)
    probe = random.Random(seed + 1)

    def after(game, action):
        box["game"] = game
        text = str(action)
        assert parse_action(text) == action, text
        check_invariants(game.state)
        if on_state and not game.is_over():
            on_state(game, probe)
        if len(game.history) >= max_actions:
            raise _Enough

    try:
        game, _ = play_game(rng, after=after)
    except _Enough:
        game = box["game"]
    return game


@pytest.mark.parametrize("seed", range(4))
def test_random_legal_play_keeps_invariants(seed):
    g = play(seed, 100_000, aggressive=seed % 2 == 1)
    assert g.is_over() and g.result()["reason"]


def _every_listed_action_applies(g: Game, rng) -> None:
    if g.is_chance_node() or rng.random() > 0.15:
        return
    for a in g.legal_actions(take_back=True):
        c = g.copy()
        c.apply(a)
        check_invariants(c.state)


@pytest.mark.parametrize("seed", range(3))
def test_every_listed_action_is_accepted(seed):
    play(1000 + seed, 400, on_state=_every_listed_action_applies, aggressive=seed > 0)


def _simple_paths(start, adj, depth):
    out, stack = [], [(start,)]
    while stack:
        p = stack.pop()
        for n in adj(p[-1]):
            if n not in p:
                q = p + (n,)
                out.append(q)
                if len(q) <= depth:
                    stack.append(q)
    return out


def _sea_neighbours(l):
    return [n for n, _ in BOARD.sea_adj[l]]


def _land_neighbours(l):
    return [n for n, _ in BOARD.land_adj[l]]


def _listed_moves_are_exactly_the_legal_ones(g: Game, rng) -> None:
    st = g.state
    if st.phase != COMMAND or g.is_chance_node() or rng.random() > 0.3:
        return
    side = st.cmd.side
    listed = {a for a in g.legal_actions() if isinstance(a, Move)}
    for b in range(BOARD.n_blocks):
        if st.owner[b] != side or st.loc[b] < 0:
            continue
        navis = BOARD.blocks[b].is_navis
        for p in _simple_paths(st.loc[b], _sea_neighbours if navis else _land_neighbours, 3):
            ok = move_error(st, side, b, p) is None
            assert ok == (Move(side, b, p) in listed), (Move(side, b, p), move_error(st, side, b, p))
        # amphibious: every port reachable by a legal amphibious route is listed once
        if not navis:
            listed_amph = {a.path[-1] for a in listed if a.block == b and BOARD.is_sea[a.path[1]]}
            legal_amph = {p[-1] for p in _simple_paths(st.loc[b], _sea_neighbours, 5)
                          if not BOARD.is_sea[p[-1]] and move_error(st, side, b, p) is None}
            assert listed_amph == legal_amph


@pytest.mark.parametrize("seed", range(4))
def test_listed_moves_are_exactly_the_acceptable_ones(seed):
    play(2000 + seed, 400, on_state=_listed_moves_are_exactly_the_legal_ones, aggressive=seed % 2 == 1)


def _json_round_trip(g: Game, rng) -> None:
    if rng.random() > 0.06:   # each load replays the game so far
        return
    check_save_roundtrip(g, all_forms=False)


@pytest.mark.parametrize("seed", range(3))
def test_save_round_trip(seed):
    play(3000 + seed, 500, on_state=_json_round_trip, aggressive=seed > 0)


def _refusals_change_nothing(g: Game, rng) -> None:
    st = g.state
    if st.phase != COMMAND or g.is_chance_node():
        return
    side = st.cmd.side
    before = json.dumps(g.state.to_json(), sort_keys=True)
    for _ in range(5):
        b = rng.randrange(BOARD.n_blocks)
        start = st.loc[b] if st.loc[b] >= 0 else rng.randrange(BOARD.n_locs)
        path = (start,) + tuple(rng.randrange(BOARD.n_locs) for _ in range(rng.randint(1, 3)))
        try:
            g.copy().apply(Move(side, b, path))
        except IllegalAction:
            with pytest.raises(IllegalAction):
                g.apply(Move(side, b, path))
            assert json.dumps(g.state.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("seed", range(3))
def test_random_refused_moves_leave_the_state_unchanged(seed):
    play(4000 + seed, 300, on_state=_refusals_change_nothing, aggressive=True)


def _take_back_undoes(g: Game, rng) -> None:
    st = g.state
    if st.phase != COMMAND or g.is_chance_node() or rng.random() > 0.3:
        return
    moves = [a for a in g.legal_actions() if isinstance(a, UNDOABLE)]
    if not moves:
        return
    c = g.copy()
    before = c.state.to_json()
    c.apply(rng.choice(moves))
    c.apply(TakeBack(st.cmd.side))
    assert c.state.to_json() == before


@pytest.mark.parametrize("seed", range(2))
def test_take_back_restores_the_state_before_the_last_action(seed):
    play(5000 + seed, 400, on_state=_take_back_undoes, aggressive=True)

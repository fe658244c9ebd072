"""Battle fuzz: random battle set-ups (attack by one or two roads, responders, navis at sea,
friendly and enemy neighbours, random steps, Mars), reached through the real command phase and
fought to the end with uniform random choices and seeded dice. Invariants after every action,
plus the battle's own: a round between 1 and 4, reserves only in round 1, hits only while a
block is firing, and every battle of the turn resolved. (These set-ups are built by hand, so
they have no record to save: mid-battle saves are checked on games played from the set-up,
tests/engine/test_saves.py.)"""
import random

import pytest

from engine.actions import Move, TakeBack
from engine.battle import current_fight
from engine.board import BOARD
from engine.game import Game, sample_chance
from engine.selfplay import DeadEnd

from .helpers import position, start_turn
from .invariants import Checker

LAND = [l for l in range(BOARD.n_locs) if not BOARD.is_sea[l] and len(BOARD.land_adj[l]) >= 2]


def side_blocks(side, navis):
    return [b.key for b in BOARD.blocks if b.side == side and b.is_navis == navis
            and b.type != "cleopatra"]


def scenario(rng: random.Random) -> Game:
    attacker = rng.choice((0, 1))
    defender = 1 - attacker
    target = rng.choice(LAND)
    near = [n for n, _ in BOARD.land_adj[target]]
    rng.shuffle(near)
    pools = {s: side_blocks(s, False) for s in (0, 1)}
    navies = {s: side_blocks(s, True) for s in (0, 1)}
    for s in (0, 1):
        rng.shuffle(pools[s])
        rng.shuffle(navies[s])
    placements: dict[str, list[str]] = {}

    def put(loc, side, n, navis=False):
        src = navies[side] if navis else pools[side]
        placements.setdefault(BOARD.loc_names[loc], []).extend(src.pop() for _ in range(min(n, len(src))))

    put(target, defender, rng.randint(1, 4))
    if BOARD.is_port[target] and rng.random() < 0.4:
        put(target, defender, 1, navis=True)
    put(near[0], attacker, rng.randint(1, 4))
    if len(near) > 1 and rng.random() < 0.6:
        put(near[1], attacker, rng.randint(1, 3))
    if len(near) > 2 and rng.random() < 0.6:
        put(near[2], defender, rng.randint(1, 3))
    for other in near[3:]:
        if rng.random() < 0.5:
            put(other, rng.choice((0, 1)), 1)
    for sea in BOARD.port_seas[target]:
        if rng.random() < 0.5:
            put(sea, rng.choice((0, 1)), 1, navis=True)
            for port in rng.sample(BOARD.sea_ports[sea], k=min(2, len(BOARD.sea_ports[sea]))):
                if BOARD.loc_names[port] not in placements:
                    put(port, rng.choice((0, 1)), 1)
    steps = {k: rng.randint(1, BOARD.blocks[BOARD.block(k)].max_steps) for ks in placements.values() for k in ks}
    g = position(placements, steps=steps)
    cards = ("Mars" if rng.random() < 0.2 else "4/1", "2/3") if attacker == 0 else ("2/3", "4/1")
    start_turn(g, *cards)
    assert g.state.player1 == attacker
    for side in (attacker, defender):
        # Every block that can reach the target in one step goes there (attack or response).
        while True:
            moves = [a for a in g.legal_actions() if isinstance(a, Move) and a.path[-1] == target
                     and len(a.path) == 2]
            if not moves:
                break
            g.apply(rng.choice(moves))
        g.apply(f"{('Caesar', 'Pompeius')[side]} ends command")
    return g


def fight_to_the_end(g: Game, rng: random.Random) -> int:
    check = Checker(view_every=1)
    battles = 0
    while g.state.phase == "battle":
        fight = current_fight(g.state)
        if fight is not None:
            d = fight.d
            assert 1 <= d["round"] <= 4
            assert d["round"] == 1 or not d["reserves"]
            assert d["hits"] == 0 or d["firing"] is not None
        if g.is_chance_node():
            action = sample_chance(g, rng)
        else:
            legal = [a for a in g.legal_actions() if not isinstance(a, TakeBack)]
            if not legal:
                raise DeadEnd(f"battle phase: nobody can act ({g.current_players()})")
            action = rng.choice(legal)
        battles += str(action).split()[1:2] == ["fights"]
        g.apply(action)
        check(g, action)
    assert not g.state.contested_locations()
    return battles


@pytest.mark.parametrize("chunk", range(6))
def test_random_battles(chunk):
    fought = 0
    for i in range(chunk * 50, (chunk + 1) * 50):
        rng = random.Random(f"battle-fuzz/{i}")
        g = scenario(rng)
        if g.state.phase != "battle":
            continue
        fought += fight_to_the_end(g, rng)
    assert fought >= 25

"""The bot never peeks: with the same seed its decision is the same when the opponent's hidden
information changes in ways its view cannot see, and its information state is the same too."""
import random

import pytest

from engine import BOARD, POOL, playable
from rubicon.bot.info import Memory, information_state
from rubicon.bot.levels import Bot
from tests.bot.helpers import positions


def _hidden_blocks(state, opp):
    """The opponent's blocks the rules hide: on the map outside battles, or standing in his pool."""
    fight = (state.ext.get("battle") or {}).get("fight") if state.phase == "battle" else None
    busy = set(state.battles) | ({fight["loc"]} if fight else set())
    on_map = [b for b in range(BOARD.n_blocks)
              if state.owner[b] == opp == BOARD.blocks[b].side and state.loc[b] >= 0 and state.loc[b] not in busy
              and not BOARD.blocks[b].is_leader and b != BOARD.cleopatra]
    pool = [b for b in range(BOARD.n_blocks) if state.loc[b] == POOL and BOARD.blocks[b].side == opp
            and not BOARD.blocks[b].is_leader]
    return on_map, pool


def _swap_places(state, a, b):
    """Exchange two blocks' places (and moved flags, which belong to the place's count)."""
    la, lb = state.loc[a], state.loc[b]
    for x in (a, b):
        if state.loc[x] >= 0:
            state.lift(x)
    state.moved[a], state.moved[b] = state.moved[b], state.moved[a]
    state.loc[a], state.loc[b] = POOL, POOL
    if lb >= 0:
        state.place(a, lb)
    else:
        state.loc[a] = lb
    if la >= 0:
        state.place(b, la)
    else:
        state.loc[b] = la


def hidden_variant(game, side, rng):
    """A copy of `game` that differs only in what `side` cannot see: the opponent's hand, discard
    and chosen card, which of his unrevealed blocks stand where (and in his pool), their strengths."""
    g = game.copy()
    s, opp = g.state, 1 - side
    on_map, pool = _hidden_blocks(s, opp)
    same_loc = {}
    for b in on_map:
        same_loc.setdefault(s.loc[b], []).append(b)
    for blocks in same_loc.values():   # two blocks of one location trade strengths
        if len(blocks) >= 2:
            a, b = blocks[0], blocks[1]
            s.steps[a], s.steps[b] = (min(s.steps[b], BOARD.blocks[a].max_steps),
                                      min(s.steps[a], BOARD.blocks[b].max_steps))
    for b in on_map:
        s.steps[b] = rng.randint(1, BOARD.blocks[b].max_steps)
    kinds = {}
    for b in on_map + pool:
        kinds.setdefault(BOARD.blocks[b].is_navis, []).append(b)
    for group in kinds.values():   # identities trade places (map <-> map, map <-> pool)
        rng.shuffle(group)
        for a, b in zip(group[::2], group[1::2], strict=False):
            if s.loc[a] >= 0 or s.loc[b] >= 0:
                _swap_places(s, a, b)
    if s.hands[opp] or s.discards[opp] is not None or s.chosen[opp] is not None:
        known = list(s.hands[side]) + [c for c in (s.discards[side], s.chosen[side]) if c is not None]
        for r in s.revealed:
            known += r[:2]
        unseen = list(BOARD.deck)
        for c in known:
            unseen.remove(c)
        rng.shuffle(unseen)
        n = len(s.hands[opp])
        s.hands[opp] = sorted(unseen[:n])
        rest = unseen[n:]
        if s.discards[opp] is not None:
            s.discards[opp] = rest.pop()
        if s.chosen[opp] is not None:
            s.chosen[opp] = next(c for c in rest if playable(s, c))
    return g


def _decisions(game, side, level, iterations=None):
    bot = Bot(side, level, seed=11, iterations=iterations)
    info = information_state(game, side, Memory(side))
    decision = str(bot.decide(info))
    SEARCHED.append(bool(bot.last_stats))
    return info.digest(), decision


SEARCHED: list[bool] = []


def _check(levels, level, iterations, every, limit, seed, phases=None):
    rng = random.Random(seed)
    checked = changed = 0
    games = (positions(levels, seed=seed, index=i, every=every) for i in range(20))
    for game, side in (p for g in games for p in g):
        if checked >= limit:
            break
        if phases and game.state.phase not in phases:
            continue
        variant = hidden_variant(game, side, rng)
        if variant.to_json() != game.to_json():
            changed += 1
        assert _decisions(game, side, level, iterations) == _decisions(variant, side, level, iterations), \
            (game.state.phase, game.state.year, game.state.turn)
        checked += 1
    return checked, changed


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_heuristic_decisions_ignore_the_opponents_hidden_information(level):
    checked, changed = _check(("easy", "easy"), level, None, every=3, limit=80, seed=3)
    assert checked == 80 and changed >= checked // 2


def test_expert_decisions_ignore_the_opponents_hidden_information():
    """The expert level scores command decisions over several determinizations: each is drawn
    from the information state alone, so the decision cannot change with what it cannot see."""
    checked, changed = _check(("expert", "easy"), "expert", None, every=2, limit=60, seed=5, phases=("command",))
    assert checked == 60 and changed >= checked // 2


def test_search_decisions_ignore_the_opponents_hidden_information():
    SEARCHED.clear()
    checked, changed = _check(("hard", "easy"), "hard", 6, every=1, limit=12, seed=4, phases=("discard", "card"))
    assert checked == 12 and changed >= checked // 2
    assert sum(SEARCHED) >= len(SEARCHED) // 3   # many of these decisions were searched


def test_a_variant_really_hides_something_the_game_knows():
    """The variants change the state (else the tests above would prove nothing)."""
    rng = random.Random(1)
    for game, side in positions(("easy", "random"), seed=2, every=5, limit=5):
        opp = 1 - side
        v = hidden_variant(game, side, rng)
        if game.state.phase in ("discard", "card", "command"):
            assert (v.state.hands[opp], v.state.loc, v.state.steps) != (game.state.hands[opp], game.state.loc,
                                                                      game.state.steps)

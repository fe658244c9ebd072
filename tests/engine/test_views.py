"""Hidden information as a security property: a side's view never shows the other side's
standing identities, strengths, hand, discard or unrevealed card, and does not change when
that hidden information changes."""
import json
import random

import pytest

from engine.board import BOARD
from engine.game import Game
from engine.state import POOL

from .helpers import command_game, year_begun
from .test_random_play import play

SIDE_NAMES = ("Caesar", "Pompeius")


def strings(x):
    if isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from strings(v)
    elif isinstance(x, str):
        yield x


def fight_location(game: Game):
    fight = game.view(None).get("fight")
    return BOARD.location(fight["location"]) if fight else None


def hidden_keys(game: Game, viewer) -> set[str]:
    """Keys of blocks whose identity the viewer must not learn: the other side's blocks
    standing on the map or in its levy pool (all standing blocks for the public), except the
    blocks of the battle being fought, which are revealed while it lasts."""
    st = game.state
    fight = game.view(None).get("fight")
    revealed = {r["block"] for side in (fight or {}).get("revealed", {}).values() for r in side}
    out = set()
    for b, info in enumerate(BOARD.blocks):
        if viewer is not None and st.owner[b] == viewer:
            continue
        if (st.loc[b] >= 0 or st.loc[b] == POOL) and info.key not in revealed:
            out.add(info.key)
    return out


def assert_view_secure(game: Game) -> None:
    st = game.state
    for viewer in (None, 0, 1):
        v = game.view(None if viewer is None else SIDE_NAMES[viewer])
        found = set(strings(json.loads(json.dumps(v))))
        leaked = hidden_keys(game, viewer) & found
        assert not leaked, (viewer, leaked)
        others = (0, 1) if viewer is None else (1 - viewer,)
        for o in others:
            assert "hand" not in v or viewer == o or v.get("side") != SIDE_NAMES[o]
        if viewer is not None:
            assert v["hand"] == [BOARD.cards[c].name for c in sorted(st.hands[viewer])]
            assert set(v) >= {"own_blocks", "hand", "discard", "chosen"}
        else:
            assert not set(v) & {"own_blocks", "hand", "discard", "chosen"}


def scramble_hidden(game: Game, owner: int, rng: random.Random) -> Game:
    """The same public situation with `owner`'s hidden information changed: identities of his
    unmoved standing blocks swapped between locations, strengths, hand, discard and chosen card."""
    g = game.copy()
    st = g.state
    # blocks in a battle location are out of bounds: their reserve status (and, while they are
    # fought, identity and strength) are public
    public = set(st.battles) | {fight_location(game)}
    cands = [b for b in range(BOARD.n_blocks) if st.owner[b] == owner and st.loc[b] >= 0
             and st.loc[b] not in public and BOARD.blocks[b].side == owner
             and not BOARD.blocks[b].is_navis and BOARD.blocks[b].type != "cleopatra"]
    rng.shuffle(cands)
    for a, b in zip(cands[::2], cands[1::2], strict=False):     # an odd one out stays put
        la, lb = st.loc[a], st.loc[b]
        if la != lb and st.moved[a] == st.moved[b]:
            st.relocate(a, lb)
            st.relocate(b, la)
    for b in range(BOARD.n_blocks):
        if st.owner[b] == owner and st.loc[b] >= 0 and st.loc[b] not in public:
            st.steps[b] = rng.randint(1, BOARD.blocks[b].max_steps)
    kinds = [c.id for c in BOARD.cards if not c.event]
    st.hands[owner] = sorted(rng.choice(kinds) for _ in st.hands[owner])
    if st.discards[owner] is not None:
        st.discards[owner] = rng.choice(kinds)
    if st.chosen[owner] is not None:
        st.chosen[owner] = rng.choice(kinds)
    return g


def assert_view_independent_of_hidden(game: Game, rng: random.Random) -> None:
    for viewer in (0, 1):
        g2 = scramble_hidden(game, 1 - viewer, rng)
        assert g2.view(SIDE_NAMES[viewer]) == game.view(SIDE_NAMES[viewer])
        assert g2.view(None) == game.view(None)


def _check(game, rng):
    if fight_location(game) is not None or rng.random() < 0.2:
        assert_view_secure(game)
        assert_view_independent_of_hidden(game, rng)


@pytest.mark.parametrize("seed", [6003, 6005])   # full random games with battles
def test_views_leak_nothing_in_random_states(seed):
    play(seed, 100_000, on_state=_check)


def test_blocks_of_the_battle_being_fought_are_public_and_hidden_again_after():
    seen = {"fight": 0, "after": 0}

    def check(game, rng):
        fight = game.view(None).get("fight")
        if fight:
            seen["fight"] += 1
            shown = {r["block"] for s in fight["revealed"].values() for r in s}
            assert shown and shown <= set(strings(game.view("Caesar")))
        elif seen["fight"] and game.state.phase == "card":
            seen["after"] += 1
            assert hidden_keys(game, None) & set(strings(game.view(None))) == set()

    play(6005, 100_000, on_state=check)
    assert seen["fight"] and seen["after"]


def test_chosen_card_is_private_but_having_chosen_is_public():
    g = year_begun(["3/2", "3/1", "2/1", "2/1", "1/2", "4/1"],
                   ["2/2", "2/3", "2/3", "1/3", "3/1", "3/1"], ("3/1", "1/3"))
    g.apply("Pompeius plays 2/3")
    assert g.view("Pompeius")["chosen"] == "2/3"
    cv = g.view("Caesar")
    assert cv["has_chosen"]["Pompeius"] is True and cv["chosen"] is None
    assert "1/3" not in set(strings(cv)) or "1/3" in cv["hand"]
    assert g.view("Pompeius")["discard"] == "1/3" and g.view("Caesar")["discard"] == "3/1"
    assert_view_independent_of_hidden(g, random.Random(1))


def test_owner_sees_identity_and_strength_public_sees_counts():
    g = command_game({"Ravenna": ["C Caesar", "C Legio 13"], "Neapolis": ["P Legio 1"]}, "3/1", "2/2",
                     steps={"C Legio 13": 2})
    own = {o["block"]: o for o in g.view("Caesar")["own_blocks"]}
    assert own["C Legio 13"]["strength"] == 2 and own["C Caesar"]["location"] == "Ravenna"
    pub = g.view(None)
    assert pub["locations"]["Ravenna"] == {"Caesar": {"blocks": 2, "moved": 0}}
    g.apply("Caesar moves Legio 13 Ravenna-Roma")
    assert g.view("Pompeius")["locations"]["Roma"] == {"Caesar": {"blocks": 1, "moved": 1}}
    assert_view_secure(g)

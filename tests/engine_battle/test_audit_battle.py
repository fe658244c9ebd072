"""Audit of the battle, winter, victory and hidden-information rules (7.x, 8.x, 1.2, rulings
"Hidden information"), as properties over random positions reached through the real phases:

* every illegal battle or winter action is refused with an IllegalAction naming its rule (or
  calling it malformed) and leaves the game exactly as it was (`state.to_json()` and history);
* a side's view and legal actions reveal nothing the rules hide: no hidden enemy block is named,
  legal actions name only the actor's own blocks, and neither the view nor the legal actions
  change when the opponent's hidden information (strengths of unrevealed blocks, reserves in
  round 1 and the blocks of a blind regroup included; identities, hand, discard, chosen card)
  changes — so the opponent's legal actions are not exposed through any field either.
"""
import dataclasses
import json
import random
import re

import pytest

from engine.actions import (
    AddStep,
    ChooseBattle,
    Disband,
    EndDisband,
    EndRegroup,
    Fire,
    Hit,
    Levy,
    Move,
    NavisToPort,
    Pass,
    Regroup,
    Retreat,
    Roll,
    TakeBack,
)
from engine.battle import current_fight, public_battle
from engine.board import BOARD
from engine.errors import IllegalAction
from engine.game import Game, sample_chance
from tests.engine.test_random_play import play
from tests.engine.test_views import assert_view_secure, scramble_hidden

from .test_battle_fuzz import scenario

SIDES = ("Caesar", "Pompeius")
RULE = re.compile(r"^(\d+\.\d+|malformed action)")
ODD_VALUES = (-1, 2, 63, 76, 999, None, "Roma", (1,))


def _snapshot(game: Game) -> str:
    return json.dumps(game.state.to_json(), sort_keys=True) + "\n".join(game.history)


def _due_roll(game: Game, action) -> bool:
    fight = current_fight(game.state)
    return (isinstance(action, Roll) and fight is not None and game.is_chance_node()
            and len(action.faces) == fight.dice_needed()
            and all(type(f) is int and 1 <= f <= 6 for f in action.faces))


def _variants(game: Game, rng: random.Random) -> list:
    """Actions close to the legal ones (another actor, block, place, sea flag, class) and a few
    malformed ones."""
    st = game.state
    blocks = [b for b in range(BOARD.n_blocks)]
    locs = list(range(BOARD.n_locs))
    out = []
    for a in game.legal_actions():
        actor = a.actor
        block = getattr(a, "block", rng.choice(blocks))
        loc = getattr(a, "loc", rng.choice(locs))
        names = (x.name for x in dataclasses.fields(a))
        out += [type(a)(*(1 - actor if f == "actor" else getattr(a, f) for f in names))]
        out += [Fire(actor, rng.choice(blocks)), Pass(actor, block), Hit(actor, rng.choice(blocks)),
                Retreat(actor, block, rng.choice(locs), rng.random() < 0.5), Retreat(actor, block, None),
                Regroup(actor, block, rng.choice(locs)),
                Regroup(actor, rng.choice(blocks), loc if loc is not None else 0),
                Disband(actor, rng.choice(blocks)), NavisToPort(actor, block, rng.choice(locs)),
                ChooseBattle(actor, rng.choice(locs), rng.choice((None, "Mars", "Neptune"))),
                EndRegroup(1 - actor), EndDisband(1 - actor)]
    need = 0
    fight = current_fight(st)
    if fight is not None:
        need = fight.dice_needed()
    out += [Roll(tuple(rng.randint(1, 6) for _ in range(max(1, need + rng.choice((-1, 1)))))),
            Roll((0,) * max(need, 1)), Roll((7,) * max(need, 1)), Roll(tuple(str(x) for x in range(1, need + 1)))]
    out += [cls(rng.choice(ODD_VALUES), rng.choice(ODD_VALUES)) for cls in (Fire, Pass, Hit, Disband)]
    out += [Retreat(rng.choice((0, 1)), rng.choice(ODD_VALUES), rng.choice(ODD_VALUES))]
    return out


def _refusals_change_nothing(game: Game, rng: random.Random, budget: int) -> int:
    legal = {str(a) for a in game.legal_actions()}
    candidates = _variants(game, rng)
    rng.shuffle(candidates)
    tried = 0
    before = _snapshot(game)
    for action in candidates[:budget]:
        try:
            text = str(action)
        except (IndexError, KeyError, TypeError, ValueError):
            text = None
        if text in legal or _due_roll(game, action):
            continue
        with pytest.raises(IllegalAction) as info:
            game.apply(action)
        assert RULE.match(str(info.value)), f"no rule named for {action!r}: {info.value}"
        assert _snapshot(game) == before, f"refused {action!r} changed the game"
        tried += 1
    return tried


def _step(game: Game, rng: random.Random) -> None:
    if game.is_chance_node():
        game.apply(sample_chance(game, rng))
    else:
        game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, TakeBack)]))


@pytest.mark.parametrize("chunk", range(3))
def test_illegal_battle_actions_are_refused_and_change_nothing(chunk):
    tried = phases = 0
    for i in range(chunk * 40, (chunk + 1) * 40):
        rng = random.Random(f"audit-b/illegal/{i}")
        g = scenario(rng)
        while g.state.phase == "battle":
            if rng.random() < 0.3:
                tried += _refusals_change_nothing(g, rng, 25)
                phases += 1
            _step(g, rng)
    assert phases > 50 and tried > 500


def test_illegal_winter_actions_are_refused_and_change_nothing():
    seen = {"winter": 0, "battle": 0}

    def probe(game, rng):
        phase = game.state.phase
        if phase in seen and not game.is_chance_node() and rng.random() < 0.5:
            seen[phase] += _refusals_change_nothing(game, rng, 15)

    for seed in (31, 32):
        play(seed, 100_000, on_state=probe, aggressive=True)
    assert seen["winter"] > 50 and seen["battle"] > 50, seen


# ----------------------------------------------------------------------------- hidden information
def _revealed(game: Game) -> set[int]:
    fight = public_battle(game.state)
    keys = {r["block"] for s in (fight or {}).get("revealed", {}).values() for r in s}
    return {b for b in range(BOARD.n_blocks) if BOARD.blocks[b].key in keys}


def _scramble_strengths(game: Game, owner: int, rng: random.Random) -> Game:
    """The opponent's hidden strengths changed everywhere, battle locations included: his
    reserves in round 1 and, during a blind regroup, all his blocks (only the blocks revealed in
    the battle being fought keep theirs). Plus his hand, discard and chosen card (scramble_hidden)."""
    g = scramble_hidden(game, owner, rng) if rng.random() < 0.5 else game.copy()
    st, shown = g.state, _revealed(game)
    for b in range(BOARD.n_blocks):
        if st.owner[b] == owner and st.loc[b] >= 0 and b not in shown and BOARD.blocks[b].type != "cleopatra":
            st.steps[b] = rng.randint(1, BOARD.blocks[b].max_steps)
    return g


def _probes_on_hidden_blocks(game: Game, viewer: int, rng: random.Random) -> list:
    """Actions an attacker might send naming the opponent's hidden blocks, to learn from the
    refusal where they stand or how strong they are."""
    st, shown = game.state, _revealed(game)
    hidden = [b for b in range(BOARD.n_blocks) if st.owner[b] != viewer and st.loc[b] >= 0 and b not in shown]
    roma, neapolis = BOARD.location("Roma"), BOARD.location("Neapolis")
    out = []
    for b in rng.sample(hidden, min(3, len(hidden))):
        out += [Fire(viewer, b), Hit(viewer, b), Retreat(viewer, b, roma), Regroup(viewer, b, roma),
                Disband(viewer, b), NavisToPort(viewer, b, neapolis), Move(viewer, b, (roma, neapolis)),
                AddStep(viewer, b), Levy(viewer, b, roma)]
    return out


def _refusals(game: Game, actions: list) -> list[str]:
    out = []
    for a in actions:
        try:
            game.copy().apply(a)
            out.append("accepted")
        except IllegalAction as e:
            out.append(str(e))
    return out


class HiddenInfoChecker:
    """Checks one position for every viewer; counts the positions where the scramble changed
    the opponent's legal actions, or hidden blocks in a battle location (the view and the
    viewer's actions must not have followed either)."""

    def __init__(self):
        self.positions = 0
        self.opponent_actions_changed = 0
        self.battle_blocks_changed = 0

    def __call__(self, game: Game, rng: random.Random) -> None:
        assert_view_secure(game)
        self.positions += 1
        for viewer in (0, 1):
            name = SIDES[viewer]
            acts = game.legal_actions(name)
            for a in acts:
                b = getattr(a, "block", None)
                assert b is None or game.state.owner[b] == viewer, f"{name} is offered {a}, not his block"
            view, public = game.view(name), game.view(None)
            other = game.legal_actions(SIDES[1 - viewer])
            g2 = _scramble_strengths(game, 1 - viewer, rng)
            assert g2.view(name) == view, f"{name}'s view depends on {SIDES[1 - viewer]}'s hidden information"
            assert g2.view(None) == public
            assert [str(a) for a in g2.legal_actions(name)] == [str(a) for a in acts], \
                f"{name}'s legal actions depend on {SIDES[1 - viewer]}'s hidden information"
            probes = _probes_on_hidden_blocks(game, viewer, rng)
            assert _refusals(g2, probes) == _refusals(game, probes), \
                f"refusing {name}'s actions on hidden {SIDES[1 - viewer]} blocks tells him something"
            if [str(a) for a in g2.legal_actions(SIDES[1 - viewer])] != [str(a) for a in other]:
                self.opponent_actions_changed += 1
            if any(g2.state.steps[b] != game.state.steps[b] for loc in game.state.battles
                   for b in game.state.at[loc] if game.state.owner[b] != viewer):
                self.battle_blocks_changed += 1


@pytest.mark.parametrize("chunk", range(2))
def test_battles_reveal_nothing_hidden_in_views_or_legal_actions(chunk):
    """Mid-battle (round 1 reserves, hits pending, retreats, blind regroup)."""
    check = HiddenInfoChecker()
    regroups = 0
    for i in range(chunk * 60, (chunk + 1) * 60):
        rng = random.Random(f"audit-b/hidden/{i}")
        g = scenario(rng)
        while g.state.phase == "battle":
            fight = current_fight(g.state)
            regroups += bool(fight and fight.d["regrouping"])
            if rng.random() < 0.4:
                check(g, rng)
            _step(g, rng)
    assert check.positions > 300 and regroups > 20
    assert check.battle_blocks_changed > 100


def test_every_phase_reveals_nothing_hidden_in_views_or_legal_actions():
    """Full aggressive random games: card, command, battle and winter (disbanding) positions."""
    check = HiddenInfoChecker()
    phases = set()

    def probe(game, rng):
        if rng.random() < 0.12:
            phases.add(game.state.phase)
            check(game, rng)

    play(41, 100_000, on_state=probe, aggressive=True)
    assert phases >= {"discard", "card", "command", "battle", "winter"}, phases
    assert check.opponent_actions_changed > 5


# ----------------------------------------------------------------------------- reserves in the views
def _reserve_views(g: Game):
    pub = {b["location"]: b["reserves"] for b in g.view(None)["battles"]}
    own = {o["block"]: o["reserve"] for o in g.view("Pompeius")["own_blocks"]}
    return pub, own


def test_views_count_reserves_only_while_they_wait():
    """7.3: reserves arrive at the start of round 2 and then fight as any block; a reserve that
    is gone (disrupted to death) is no longer one. The views must say so, not keep the command
    phase's bookkeeping."""
    from tests.engine_battle.helpers import battle_game, pass_all
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Legio 1"], "Brundisium": ["P Legio 3"],
                     "Sipontum": ["P Legio 4"]},
                    ["Caesar Roma-Neapolis"], ["Legio 3 Brundisium-Neapolis"])
    g.apply("Caesar fights Neapolis")
    pub, own = _reserve_views(g)
    assert pub["Neapolis"] == {"Caesar": 0, "Pompeius": 1} and own["P Legio 3"] is True
    pass_all(g, 2)
    pub, own = _reserve_views(g)
    assert pub["Neapolis"] == {"Caesar": 0, "Pompeius": 0}, "the reserve has arrived"
    assert own["P Legio 3"] is False


def test_a_reserve_eliminated_by_disruption_is_not_counted():
    from tests.engine_battle.helpers import battle_game
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Legio 1", "P Legio 2"], "Brundisium": ["P Legio 3"]},
                    ["Caesar Roma-Neapolis"], ["Legio 3 Brundisium-Neapolis"],
                    steps={"P Legio 1": 1, "P Legio 2": 1, "P Legio 3": 1})
    g.apply("Caesar fights Neapolis")
    g.apply("Caesar fires Caesar")
    g.apply("Chance rolls 1 1 6")
    g.apply("Pompeius takes the hit on Legio 1")     # then Legio 2: the main force is gone
    assert g.state.loc[BOARD.block("P Legio 3")] < 0   # disrupted at I: eliminated
    battles = {b["location"]: b["reserves"] for b in g.view(None)["battles"]}
    assert battles.get("Neapolis", {"Pompeius": 0})["Pompeius"] == 0


def test_the_dice_of_the_battle_are_public():
    """Rulings, Hidden information: all dice are public. The public battle view shows the last
    roll (firing block, faces, hits) to both sides alike."""
    from tests.engine_battle.helpers import battle_game
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Legio 1", "P Legio 2"]}, ["Caesar Roma-Neapolis"])
    g.apply("Caesar fights Neapolis")
    assert g.view(None)["fight"]["last_roll"] is None
    g.apply("Caesar fires Caesar")
    g.apply("Chance rolls 1 6 4")
    roll = {"block": "C Caesar", "faces": [1, 6, 4], "hits": 1}
    assert [g.view(v)["fight"]["last_roll"] for v in (None, "Caesar", "Pompeius")] == [roll] * 3


def test_the_last_roll_stops_naming_a_block_that_retreated():
    """A block that retreats stands up hidden again (7.1): the dice stay public, its name not."""
    from tests.engine_battle.helpers import battle_game, pass_all
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1", "P Legio 2"]}, ["Legio 7 Roma-Neapolis"])
    g.apply("Caesar fights Neapolis")
    pass_all(g, 2)
    g.apply("Pompeius fires Legio 1")
    g.apply("Chance rolls 6 6 6 6")
    assert g.view("Caesar")["fight"]["last_roll"] == {"block": "P Legio 1", "faces": [6, 6, 6, 6], "hits": 0}
    g.apply("Pompeius passes Legio 2")
    g.apply("Caesar passes Legio 7")
    g.apply("Pompeius retreats Legio 1 to Brundisium")
    assert g.view("Caesar")["fight"]["last_roll"] == {"block": None, "faces": [6, 6, 6, 6], "hits": 0}
    assert "P Legio 1" not in json.dumps(g.view("Caesar"))

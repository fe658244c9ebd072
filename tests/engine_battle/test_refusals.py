"""Structured refusals of the battle and winter phases (docs/refusals-battle.md): each names
its rule, a stable code and JSON-safe params, and leaves the game unchanged; the diagnosis
agrees with the legal list in random battles and winters, and never falls back to the
catch-all."""
import json
import random
import re

from engine import winter
from engine.actions import ChooseBattle, Disband, EndDisband, EndRegroup, Fire, Hit, NavisToPort, Pass, Regroup, Retreat
from engine.battle import current_fight
from engine.battle_fight import sea_neighbours
from engine.battle_refusals import fight_refusal
from engine.board import BOARD
from engine.errors import IllegalAction
from engine.game import sample_chance
from tests.engine.test_random_play import play

from .helpers import B, L, battle_game, pass_all, refused
from .test_battle_fuzz import scenario
from .test_winter import winter_game


def no(game, action, rule, code, **params):
    """`action` is refused with this rule and code (and at least these params), the game unchanged."""
    err = refused(game, action, "^" + re.escape(rule) + " ")
    assert (err.rule, err.code) == (rule, code), err.to_json()
    for k, v in params.items():
        assert err.params.get(k) == v, (k, err.to_json())
    json.dumps(err.to_json())
    assert str(err).startswith(f"{rule} ")
    return err


def neapolis(**kw):
    """Caesar (A3) attacks Neapolis from Roma; Pompeius holds it with Legio 1 and 2 at II."""
    return battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Legio 1", "P Legio 2"]},
                       ["Caesar Roma-Neapolis"], steps={"P Legio 1": 2, "P Legio 2": 2}, **kw)


def test_picking_a_battle():
    g = neapolis()
    no(g, "Caesar fights Roma", "7.1", "battle.not-contested", location="Roma")
    no(g, "Pompeius fights Neapolis", "7.1", "battle.not-player-1", side="Caesar")
    no(g, "Caesar fights Neapolis with Mars", "2.1", "battle.no-surprise", card="Mars")
    no(g, "Caesar fires Caesar", "7.1", "battle.pick-first")
    no(g, "Chance rolls 1 2 3", "7.4", "battle.no-dice-due")


def test_a_surprise_that_does_not_fit_and_one_already_used():
    # Neptune: a sea battle or a shore attack with navis by Player 1; Roma is Pompeius' attack.
    g = battle_game({"Mare Hispanum": ["C Navis 1"], "Mare Tyrrhenum": ["P Navis 3"], "Roma": ["C Legio 7"],
                     "Neapolis": ["P Legio 1"]}, ["Navis 1 Mare Hispanum-Mare Tyrrhenum"],
                    ["Legio 1 Neapolis-Roma"], cards=("Neptune", "2/3"))
    assert "Caesar fights Mare Tyrrhenum with Neptune" in {str(a) for a in g.legal_actions()}
    no(g, "Caesar fights Roma with Neptune", "2.1", "battle.surprise-misfit", card="Neptune", location="Roma")
    m = battle_game({"Roma": ["C Legio 7", "C Legio 8"], "Neapolis": ["P Legio 1"], "Asculum": ["P Legio 2"]},
                    ["Legio 7 Roma-Neapolis", "Legio 8 Roma-Asculum"], cards=("Mars", "2/3"),
                    steps={"P Legio 1": 1, "P Legio 2": 1})
    m.apply("Caesar fights Neapolis with Mars")
    m.apply("Caesar fires Legio 7")
    m.apply("Chance rolls 1 1 1")                 # Legio 1 gone: Caesar wins, regroups
    m.apply("Caesar ends regroup")
    no(m, "Caesar fights Asculum with Mars", "2.1", "battle.surprise-used", card="Mars")


def test_battle_turns():
    g = neapolis()
    g.apply("Caesar fights Neapolis")
    no(g, "Pompeius fires Legio 1", "7.2", "battle.not-your-turn", block="Legio 1")
    no(g, Fire(1, B("C Caesar")), "7.2", "battle.not-your-block", block="C Caesar", side="Pompeius")
    no(g, "Caesar retreats Caesar to Roma", "7.6", "battle.no-retreat-round-1", block="Caesar")
    no(g, Regroup(0, B("C Caesar"), L("Roma")), "7.7", "battle.no-regroup-yet")
    no(g, "Caesar takes the hit on Caesar", "7.4", "battle.no-hits-pending")
    no(g, "Caesar fights Neapolis", "7.1", "battle.not-now")
    no(g, "Caesar declares main attack on Neapolis from Roma", "7.3", "battle.main-fixed")
    g.apply("Caesar fires Caesar")
    no(g, "Caesar passes Caesar", "7.4", "battle.dice-due")
    no(g, "Chance rolls 1 2", "7.4", "battle.dice-count", need=3, given=2)
    g.apply("Chance rolls 1 6 6")
    no(g, "Caesar passes Caesar", "7.4", "battle.hits-pending", side="Pompeius", hits=1, firing="Caesar")
    no(g, "Caesar takes the hit on Legio 1", "7.4", "battle.not-your-hit", side="Pompeius")
    no(g, "Chance rolls 1", "7.4", "battle.no-dice-due")
    g.apply("Pompeius takes the hit on Legio 1")
    no(g, "Caesar fires Caesar", "7.2", "battle.already-acted", block="Caesar", round=1)


def test_a_hit_on_a_block_that_is_not_the_strongest_cites_7_4():
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Legio 1", "P Legio 2", "P Legio 3"]},
                    ["Caesar Roma-Neapolis"], steps={"P Legio 1": 3, "P Legio 2": 3, "P Legio 3": 2})
    g.apply("Caesar fights Neapolis")
    g.apply("Caesar fires Caesar")
    g.apply("Chance rolls 1 1 6")
    no(g, "Pompeius takes the hit on Legio 3", "7.4", "battle.not-strongest", block="Legio 3", strength=2,
       strongest=3, candidates=["Legio 1", "Legio 2"])


def tarraco_reserves():
    """Caesar attacks Tarraco from Narbo (main) and Bilbilis (reserve); Pompeius reinforces
    from Carthago Nova (reserve)."""
    g = battle_game({"Narbo": ["C Legio 7"], "Bilbilis": ["C Legio 8"], "Tarraco": ["P Legio 1"],
                     "Carthago Nova": ["P Legio 2"]},
                    ["Legio 7 Narbo-Tarraco", "Legio 8 Bilbilis-Tarraco"], ["Legio 2 Carthago Nova-Tarraco"])
    g.apply("Caesar fights Tarraco")
    g.apply("Caesar declares main attack on Tarraco from Narbo")
    return g


def test_a_reserve_firing_or_taking_a_hit_in_round_1_cites_7_3():
    g = tarraco_reserves()
    no(g, "Pompeius fires Legio 2", "7.3", "battle.reserve-round-1", block="Legio 2")
    no(g, "Caesar passes Legio 8", "7.3", "battle.reserve-round-1", block="Legio 8")
    g.apply("Pompeius fires Legio 1")
    g.apply("Chance rolls 1 6 6 6")
    assert g.state.steps[B("C Legio 7")] < 4 and current_fight(g.state).d["hits"] == 0
    g2 = battle_game({"Narbo": ["C Legio 7", "C Legio 9"], "Bilbilis": ["C Legio 8"], "Tarraco": ["P Legio 1"]},
                     ["Legio 7 Narbo-Tarraco", "Legio 9 Narbo-Tarraco", "Legio 8 Bilbilis-Tarraco"],
                     steps={"C Legio 7": 2, "C Legio 9": 2, "C Legio 8": 3})
    g2.apply("Caesar fights Tarraco")
    g2.apply("Caesar declares main attack on Tarraco from Narbo")
    g2.apply("Pompeius fires Legio 1")
    g2.apply("Chance rolls 1 6 6 6")
    no(g2, "Caesar takes the hit on Legio 8", "7.3", "battle.reserve-round-1", block="Legio 8")


def test_retreats():
    # Caesar attacks Neapolis from Roma (main) and Sipontum (reserve); round 2 on.
    g = battle_game({"Roma": ["C Legio 7"], "Sipontum": ["C Legio 8"], "Neapolis": ["P Legio 1"],
                     "Rhegium": ["P Legio 2"]},
                    ["Legio 7 Roma-Neapolis", "Legio 8 Sipontum-Neapolis"], steps={"P Legio 1": 4})
    g.apply("Caesar fights Neapolis")
    g.apply("Caesar declares main attack on Neapolis from Roma")
    pass_all(g, 2)
    g.apply("Pompeius passes Legio 1")
    no(g, "Caesar retreats Legio 7 to Brundisium", "7.62", "battle.retreat-attacker-road",
       block="Legio 7", destination="Brundisium")
    no(g, "Caesar retreats Legio 7 to Rhegium", "7.61", "battle.retreat-enemy", destination="Rhegium")
    no(g, "Caesar retreats Legio 7 to Genua", "7.6", "battle.retreat-not-adjacent", destination="Genua")
    no(g, "Caesar retreats Legio 7 nowhere", "7.6", "battle.retreat-not-required", block="Legio 7")
    no(g, "Caesar retreats Legio 7 by sea to Genua", "7.64", "battle.sea-retreat-port", destination="Genua")
    no(g, "Caesar retreats Legio 7 by sea to Massilia", "7.64", "battle.sea-retreat-not-on-sea")
    g.apply("Caesar retreats Legio 7 to Sipontum")     # by the reserve's road (7.62, collective)
    no(g, "Caesar retreats Legio 7 to Roma", "7.1", "battle.not-in-battle", block="Legio 7")


def test_a_defender_never_retreats_by_the_attackers_road():
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"]}, ["Legio 7 Roma-Neapolis"],
                    steps={"C Legio 7": 4})
    g.apply("Caesar fights Neapolis")
    pass_all(g, 2)
    no(g, "Pompeius retreats Legio 1 to Roma", "7.63", "battle.retreat-defender-road", destination="Roma")


def test_the_strait_retreat_limit_and_the_sea_retreat_limit():
    g = battle_game({"Roma": ["C Legio 7", "C Legio 8"], "Mare Tyrrhenum": ["C Navis 1"], "Genua": ["C Legio 9"],
                     "Neapolis": ["P Legio 1"]},
                    ["Legio 7 Roma-Neapolis", "Legio 8 Roma-Neapolis"], steps={"P Legio 1": 4})
    g.apply("Caesar fights Neapolis")
    pass_all(g, 2)
    g.apply("Pompeius passes Legio 1")
    g.apply("Caesar retreats Legio 7 by sea to Genua")
    no(g, "Caesar retreats Legio 8 by sea to Genua", "7.64", "battle.sea-retreat-used")


def test_round_4_attackers_must_retreat():
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"]}, ["Legio 7 Roma-Neapolis"],
                    steps={"C Legio 7": 4})
    g.apply("Caesar fights Neapolis")
    pass_all(g, 4)
    g.apply("Pompeius passes Legio 1")
    no(g, "Caesar fires Legio 7", "7.2", "battle.must-retreat", block="Legio 7")
    no(g, "Caesar passes Legio 7", "7.2", "battle.must-retreat")
    no(g, "Caesar retreats Legio 7 nowhere", "7.6", "battle.can-retreat", destinations=["Roma"])


def test_regroups():
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"], "Brundisium": ["P Legio 2"]},
                    ["Legio 7 Roma-Neapolis"], steps={"P Legio 1": 1})
    g.apply("Caesar fights Neapolis")
    g.apply("Pompeius passes Legio 1")
    g.apply("Caesar fires Legio 7")
    g.apply("Chance rolls 1 6 6")
    no(g, "Pompeius ends regroup", "7.7", "battle.not-victor", victor="Caesar")
    no(g, "Caesar fires Legio 7", "7.7", "battle.over")
    no(g, "Caesar regroups Legio 7 to Brundisium", "7.7", "battle.regroup-enemy", destination="Brundisium")
    no(g, "Caesar regroups Legio 7 to Genua", "7.7", "battle.regroup-not-adjacent")


def test_navis_retreats_cite_7_82():
    g = battle_game({"Mare Hispanum": ["C Navis 1"], "Mare Tyrrhenum": ["P Navis 3"], "Neapolis": ["P Legio 1"]},
                    ["Navis 1 Mare Hispanum-Mare Tyrrhenum"], steps={"P Navis 3": 2, "C Navis 1": 2})
    g.apply("Caesar fights Mare Tyrrhenum")
    pass_all(g, 2)
    no(g, "Pompeius retreats Navis 3 to Mare Hispanum", "7.82", "battle.navis-retreat-attacker-sea")
    no(g, "Pompeius retreats Navis 3 to Roma", "7.82", "battle.navis-retreat-vacant-port", destination="Roma")
    no(g, "Pompeius retreats Navis 3 by sea to Neapolis", "7.82", "battle.navis-by-sea")
    no(g, "Pompeius retreats Navis 3 to Mare Aegaeum", "7.82", "battle.navis-retreat-not-adjacent")
    g.apply("Pompeius retreats Navis 3 to Neapolis")       # a friendly port on the same sea
    # Caesar has won: nothing left to retreat from; a navis regroups by sea borders only.
    no(g, "Caesar regroups Navis 1 to Mare Aegaeum", "7.83", "battle.regroup-not-adjacent")


def test_an_attacking_navis_retreats_to_a_vacant_sea_only_where_the_attack_came_from():
    g = battle_game({"Mare Hispanum": ["C Navis 1"], "Mare Tyrrhenum": ["P Navis 3"], "Neapolis": ["P Legio 1"]},
                    ["Navis 1 Mare Hispanum-Mare Tyrrhenum"], steps={"P Navis 3": 2, "C Navis 1": 2})
    g.apply("Caesar fights Mare Tyrrhenum")
    pass_all(g, 2)
    g.apply("Pompeius passes Navis 3")
    no(g, "Caesar retreats Navis 1 to Mare Internum", "7.82", "battle.navis-retreat-origin",
       destination="Mare Internum")
    no(g, "Caesar retreats Navis 1 to Neapolis", "7.61", "battle.retreat-enemy")


# ----------------------------------------------------------------------------- winter
def test_winter_refusals():
    g = winter_game({"Mare Hispanum": ["C Navis 1"], "Massilia": ["C Legio 7"], "Genua": ["C Legio 8"],
                     "Alexandria": ["Cleopatra", "P Legio 1"]})
    no(g, NavisToPort(0, B("C Navis 1"), L("Carthago Nova")), "8.2", "winter.navis-port", port="Carthago Nova",
       ports=["Genua", "Massilia"])
    no(g, NavisToPort(0, B("C Navis 1"), L("Roma")), "8.2", "winter.navis-port", port="Roma")
    no(g, NavisToPort(0, B("C Legio 7"), L("Genua")), "8.2", "winter.navis-not-at-sea", block="Legio 7")
    no(g, "Pompeius ends disbanding", "8.2", "winter.not-your-turn", side="Pompeius")
    no(g, "Caesar disbands Legio 7", "8.2", "winter.wrong-step", step="navis")
    no(g, "Caesar fires Legio 7", "8.0", "winter.not-a-winter-action")
    g.apply("Caesar winters Navis 1 in Massilia")
    assert winter.current_step(g.state) == "disband" and g.state.phase == "winter"
    no(g, "Caesar disbands Cleopatra", "7.52", "winter.cleopatra")
    no(g, "Caesar disbands P Legio 1", "8.5", "winter.not-your-block", block="P Legio 1")
    no(g, "Caesar disbands Legio 9", "8.5", "winter.not-on-map", block="Legio 9")


def test_winter_supply_cites_8_3():
    five = ["C Legio 7", "C Legio 8", "C Legio 9", "C Legio 10", "C Legio 11"]
    g = winter_game({"Genua": five, "Roma": ["C Legio 12"], "Alexandria": ["Cleopatra"]})
    no(g, "Caesar disbands Legio 12", "8.3", "winter.supply", block="Legio 12", location="Roma", limit=5, count=1,
       oversupplied=["Genua"])


def test_ends_disbanding_for_a_side_with_no_block_left_says_the_step_ended_by_itself():
    g = winter_game({"Roma": ["C Legio 7", "C Legio 8"], "Alexandria": ["Cleopatra"]})
    assert winter.current_step(g.state) == "disband"       # Pompeius holds only Cleopatra
    no(g, "Pompeius ends disbanding", "8.5", "winter.no-block-left", side="Pompeius")
    g.apply("Caesar ends disbanding")           # Pompeius has nothing: the year resets at once
    assert (g.state.year, g.state.phase) == (706, "deal")


# ----------------------------------------------------------------------------- diagnosis = legal list
def _candidates(st, fight):
    here = fight.loc
    near = {x for x, _ in BOARD.land_adj[here]} | set(sea_neighbours(here))
    far = [l for l in range(BOARD.n_locs) if l not in near][:3]
    blocks = list(st.at[here]) + [b for b in range(BOARD.n_blocks) if st.loc[b] >= 0 and st.loc[b] != here][:3]
    out = []
    for actor in (0, 1):
        out += [EndRegroup(actor), ChooseBattle(actor, here)]
        for b in blocks:
            out += [Fire(actor, b), Pass(actor, b), Hit(actor, b), Retreat(actor, b, None)]
            for x in list(near) + far:
                out += [Retreat(actor, b, x), Retreat(actor, b, x, True), Regroup(actor, b, x)]
    return out


def test_the_battle_diagnosis_agrees_with_the_legal_list_and_is_always_precise():
    seen, codes = 0, set()
    for i in range(25):
        rng = random.Random(f"refusals/{i}")
        g = scenario(rng)
        while g.state.phase == "battle":
            fight = current_fight(g.state)
            if fight is not None and rng.random() < 0.5:
                legal = set(fight.legal_actions())
                for a in _candidates(g.state, fight):
                    err = fight_refusal(fight, a)
                    assert (err is None) == (a in legal), (str(a), err)
                    if err is not None:
                        assert err.code != "battle.not-legal" and err.rule, (str(a), err.to_json())
                        json.dumps(err.to_json())
                        codes.add(err.code)
                        seen += 1
            if g.is_chance_node():
                g.apply(sample_chance(g, rng))
            else:
                g.apply(rng.choice(g.legal_actions()))
    assert seen > 5000
    assert {"battle.not-your-turn", "battle.not-your-block", "battle.retreat-enemy", "battle.not-victor",
            "battle.hits-pending", "battle.no-retreat-round-1"} <= codes, codes


def test_the_winter_diagnosis_agrees_with_the_legal_list():
    seen = {"n": 0}

    def probe(game, rng):
        st = game.state
        if st.phase != "winter" or not winter.current_players(st):
            return
        cands = [EndDisband(0), EndDisband(1)]
        for b in range(BOARD.n_blocks):
            if st.loc[b] >= 0:
                cands += [Disband(0, b), Disband(1, b)]
                if BOARD.is_sea[st.loc[b]]:
                    cands += [NavisToPort(s, b, p) for s in (0, 1) for p in BOARD.sea_ports[st.loc[b]]]
        for a in cands:
            err = winter.refusal(st, a)
            assert (err is None) == (a in winter.legal_actions(st, a.actor)), (str(a), err)
            if err is not None:
                assert err.code != "winter.not-legal" and err.rule, (str(a), err.to_json())
                seen["n"] += 1

    play(7, 6000, on_state=probe, aggressive=True)
    assert seen["n"] > 200, seen


def test_a_refusal_is_an_illegal_action_with_the_english_line():
    g = neapolis()
    g.apply("Caesar fights Neapolis")
    try:
        g.apply("Caesar retreats Caesar to Roma")
    except IllegalAction as e:
        assert e.to_json() == {"rule": "7.6", "code": "battle.no-retreat-round-1", "params": {"block": "Caesar"},
                               "message": "no block retreats in battle round 1",
                               "text": "7.6 no block retreats in battle round 1"}
    else:
        raise AssertionError("a retreat in round 1 was accepted")

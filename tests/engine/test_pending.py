"""The pending decision (`Game.pending()`): one Decision per actor, its options exactly the
actor's legal actions, chance decisions saying what is due, and nothing hidden shown to a
viewer who may not see it."""
import json
import random

import pytest

from engine.board import BOARD, Side
from engine.game import Game, sample_chance
from engine.pending import KINDS, Decision
from engine.selfplay import game_rng, play_game
from tests.engine_battle.helpers import battle_game, fight
from tests.engine_battle.test_main_attack_declaration import tarraco_picked
from tests.engine_battle.test_winter import winter_game

from .api_checks_pending import check_pending, secret_blocks
from .helpers import B, command_game, deal, position, refused
from .test_events_cards import POS, jupiter_game


def only(g: Game, actor: str | None = None) -> Decision:
    ds = g.pending() if actor is None else [d for d in g.pending() if d.actor == actor]
    assert len(ds) == 1, ds
    return ds[0]


def public_text(d: Decision, viewer=None) -> str:
    return json.dumps(d.for_viewer(viewer).to_json())


def lines(d: Decision) -> set[str]:
    return {str(a) for a in d.options}


# --------------------------------------------------------------------------- random games
def test_every_step_of_40_random_games_partitions_the_legal_actions_among_the_decisions(sweep):
    seen = set()

    def after(game, _action):
        check_pending(game)
        seen.update(d.kind for d in game.pending())
    for i in range(sweep(40, 8)):
        options = {"winter_order": "first-edition"} if i % 4 == 3 else None
        play_game(game_rng(20260, i), options, after=after)
    # the random games reach most kinds; the others have hand-made positions below
    assert {"deal", "discard", "play", "command", "battle-turn", "dice", "choose-battle",
            "disband"} <= seen <= set(KINDS)


def test_check_pending_catches_a_decision_that_leaks_a_hidden_block():
    g = command_game({"Ravenna": ["C Legio 13"], "Roma": ["P Legio 1"]})
    d = only(g)
    leaky = Decision(d.actor, d.kind, d.rule, {**d.params, "spy": "C Legio 13"}, d.options, d.private)
    assert "C Legio 13" in secret_blocks(g, "Pompeius")
    assert "C Legio 13" in public_text(leaky, "Pompeius")
    assert "C Legio 13" not in public_text(d, "Pompeius")


# --------------------------------------------------------------------------- card phase
def test_the_deal_is_a_chance_decision_for_six_cards_each():
    g = Game()
    d = only(g)
    assert (d.actor, d.kind, d.rule, d.options) == ("Chance", "deal", "2.1", ())
    assert d.params == {"year": 705, "cards_each": 6}
    assert d.for_viewer(None) == d.for_viewer("Caesar") == d.for_viewer("Pompeius")
    assert len(sample_chance(g, random.Random(1)).caesar) == d.params["cards_each"]


def test_discard_and_play_wait_for_both_players_and_hide_the_hand():
    g = position({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]})
    deal(g, ["Apollo", "Jupiter"], ["Vulcan", "4/1"])
    ds = g.pending()
    assert [(d.actor, d.kind) for d in ds] == [("Caesar", "discard"), ("Pompeius", "discard")]
    caesar = ds[0]
    assert lines(caesar) == {f"Caesar discards {BOARD.cards[c].name}" for c in set(g.state.hands[0])}
    assert "Apollo" in caesar.params["hand"]
    for viewer in (None, "Pompeius"):
        text = public_text(caesar, viewer)
        assert "Apollo" not in text and "Jupiter" not in text and '"options": []' in text
    assert caesar.for_viewer("Caesar") is caesar is caesar.for_viewer(Side.CAESAR) is caesar.for_viewer("caesar")
    assert caesar.for_viewer(1) == caesar.for_viewer("Pompeius") == caesar.for_viewer(None)
    g.apply(f"Caesar discards {caesar.params['hand'][-1]}")
    assert [d.actor for d in g.pending()] == ["Pompeius"]
    g.apply(f"Pompeius discards {only(g).params['hand'][-1]}")
    ds = g.pending()
    assert [(d.actor, d.kind, d.params["turn"]) for d in ds] == [("Caesar", "play", 1), ("Pompeius", "play", 1)]
    assert "Caesar plays Apollo" not in lines(ds[0])   # not on the first turn (2.1)
    assert "Vulcan" not in public_text(ds[1], "Caesar")


def test_play_tells_its_owner_what_apollo_would_copy_and_nobody_else():
    g = position({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]})
    deal(g, ["Apollo", "2/2"], ["3/2", "2/3"])
    g.apply(f"Caesar discards {next(c for c in only(g, 'Caesar').params['hand'] if c not in ('Apollo', '2/2'))}")
    g.apply(f"Pompeius discards {next(c for c in only(g, 'Pompeius').params['hand'] if c != '3/2')}")
    g.apply("Caesar plays 2/2")
    g.apply("Pompeius plays 3/2")
    g.apply("Pompeius ends command")
    g.apply("Caesar ends command")
    d = only(g, "Caesar")
    assert d.kind == "play" and d.params["apollo_copies"] == "3/2"
    assert "apollo_copies" not in d.for_viewer("Pompeius").params


# --------------------------------------------------------------------------- command phase
def test_command_decision_gives_points_left_and_hides_which_blocks_can_act():
    g = command_game({"Ravenna": ["C Legio 13", "C Legio 8"], "Roma": ["P Legio 1"]}, "3/2", "1/2")
    d = only(g)
    assert (d.actor, d.kind, d.rule) == ("Caesar", "command", "6.0")
    assert {k: d.params[k] for k in ("card", "mp", "mp_left", "lp", "lp_left", "activated")} == \
        {"card": "3/2", "mp": 3, "mp_left": 3, "lp": 2, "lp_left": 2, "activated": []}
    assert set(d.options) == set(g.legal_actions("Caesar", take_back=True))
    assert d.params["choices"]["moves"] == sum(1 for a in d.options if type(a).__name__ == "Move")
    assert not d.params["can_take_back"] and d.params["can_end"]
    g.apply("Caesar moves Legio 13 Ravenna-Roma")
    d = only(g)
    assert d.params["mp_left"] == 2 and d.params["activated"] == ["Ravenna"]
    assert d.params["can_take_back"] and d.params["last"] == "Caesar moves Legio 13 Ravenna-Roma"
    seen = d.for_viewer("Pompeius")
    assert seen.options == () and set(seen.params) == set(d.params) - {"choices", "can_end", "can_take_back", "last"}
    assert "Legio 8" not in public_text(d) and "Legio 13" not in public_text(d, "Pompeius")


def test_jupiter_target_pick_and_send():
    g = jupiter_game(POS, steps={"P Legio 1": 2})
    d = only(g)
    assert (d.kind, d.rule, sorted(d.params["targets"]), d.params["may_decline"]) == \
        ("jupiter-target", "2.1", ["Mare Tyrrhenum", "Roma"], True)
    assert lines(d) == {"Caesar invokes Jupiter on Roma", "Caesar invokes Jupiter on Mare Tyrrhenum",
                        "Caesar ends command"}
    g.apply("Caesar invokes Jupiter on Roma")
    d = only(g)
    assert (d.actor, d.kind, d.options) == ("Chance", "jupiter-pick", ())
    assert d.params == {"card": "Jupiter", "player": "Caesar", "location": "Roma", "side": "Pompeius", "blocks": 2}
    for viewer in (None, "Caesar", "Pompeius"):
        text = public_text(d, viewer)
        assert "P Legio 1" not in text and "P Pompeius" not in text
    g.apply("Chance picks P Legio 1")
    d = only(g)
    assert (d.actor, d.kind, d.params["block"], d.params["destinations"]) == \
        ("Caesar", "jupiter-send", "P Legio 1", ["Genua"])
    assert lines(d) == {"Caesar sends P Legio 1 to Genua"}
    assert "P Legio 1" not in public_text(d) and "block" not in d.for_viewer("Pompeius").params


def test_vulcan_city():
    g = command_game({"Roma": ["C Legio 13"], "Massilia": ["P Legio 1"], "Utica": ["P Legio 2"]}, "Vulcan", "2/2")
    d = only(g)
    assert (d.actor, d.kind, d.rule) == ("Caesar", "vulcan-city", "2.1")
    assert d.params["targets"] == ["Massilia", "Utica"] and d.params["may_decline"]
    assert lines(d) == {"Caesar invokes Vulcan on Massilia", "Caesar invokes Vulcan on Utica", "Caesar ends command"}
    assert "P Legio" not in public_text(d)


# --------------------------------------------------------------------------- battles
def test_choose_battle_offers_the_mars_surprise_where_it_fits():
    g = battle_game({"Ravenna": ["C Legio 13"], "Roma": ["P Legio 1"], "Massilia": ["C Legio 8"],
                     "Narbo": ["P Legio 2"]},
                    ["Legio 13 Ravenna-Roma"], ["Legio 2 Narbo-Massilia"], cards=("Mars", "2/3"))
    d = only(g)
    assert (d.actor, d.kind, d.rule, d.params["surprise_event"]) == ("Caesar", "choose-battle", "7.1", "Mars")
    assert d.params["battles"] == [{"location": "Massilia", "attacker": "Pompeius", "surprise": []},
                                   {"location": "Roma", "attacker": "Caesar", "surprise": ["Mars"]}]
    assert lines(d) == {"Caesar fights Massilia", "Caesar fights Roma", "Caesar fights Roma with Mars"}
    assert d.for_viewer(None).params == d.params   # all public: counts, places and the revealed card


def test_main_attack_then_battle_turn_shows_only_revealed_blocks():
    g = tarraco_picked()
    d = only(g)
    assert (d.actor, d.kind, d.rule) == ("Caesar", "main-attack", "7.3")
    assert d.params["from"] == ["Narbo", "Bilbilis"] and d.params["current"] == "Narbo–Tarraco"
    assert d.params["location"] == "Tarraco" and not d.params["surprise"]
    assert "Legio" not in public_text(d)
    g.apply("Caesar declares main attack on Tarraco from Bilbilis")
    d = only(g)
    assert d.kind == "battle-turn" and d.rule == "7.2" and d.params["round"] == 1
    f = fight(g)
    assert [x["block"] for x in d.params["blocks"]] == [BOARD.blocks[b].key for b in f.eligible()]
    first = BOARD.blocks[f.eligible()[0]]
    attacking = d.actor == d.params["attacker"]
    assert d.params["letter"] == (first.initiative_attacking if attacking else first.initiative)
    assert all(x["fire"] and x["pass"] and x["retreat"] == [] for x in d.params["blocks"])   # no retreat in round 1
    text = public_text(d)
    for reserve in f.d["reserves"]:   # reserves stay hidden until round 2
        assert BOARD.blocks[reserve].key not in text


def hit_among_equals():
    """Caesar's Legio 13 (III) attacked two Pompeian legions at II; it is about to fire."""
    g = battle_game({"Ravenna": ["C Legio 13"], "Roma": ["P Legio 1", "P Legio 2"]},
                    ["Legio 13 Ravenna-Roma"], steps={"P Legio 1": 2, "P Legio 2": 2, "C Legio 13": 3})
    g.apply("Caesar fights Roma")
    while only(g).actor != "Caesar":
        g.apply(next(a for a in only(g).options if type(a).__name__ == "Pass"))
    return g


def test_dice_decision_asks_the_tray_for_exactly_the_firing_blocks_dice():
    g = hit_among_equals()
    g.apply("Caesar fires Legio 13")
    d = only(g)
    assert (d.actor, d.kind, d.rule, d.options) == ("Chance", "dice", "7.4", ())
    assert d.params["dice"] == 3 and d.params["block"] == "C Legio 13" and d.params["location"] == "Roma"
    assert d.params["hits_on"] == BOARD.blocks[B("C Legio 13")].firepower
    refused(g, "Chance rolls 1 1", "7.4")
    refused(g, "Chance rolls 1 1 1 1", "7.4")


def test_take_hit_names_the_equal_blocks_and_the_hits_left():
    g = hit_among_equals()
    g.apply("Caesar fires Legio 13")
    g.apply("Chance rolls 1 1 6")
    d = only(g)
    assert (d.actor, d.kind, d.rule) == ("Pompeius", "take-hit", "7.4")
    assert d.params["hits"] == 2 and d.params["blocks"] == ["P Legio 1", "P Legio 2"] and d.params["strength"] == 2
    assert lines(d) == {"Pompeius takes the hit on Legio 1", "Pompeius takes the hit on Legio 2"}
    assert d.for_viewer("Caesar").params == d.params   # revealed blocks: public


def test_regroup_hides_the_victors_blocks_from_the_loser():
    g = hit_among_equals()
    g.apply("Caesar fires Legio 13")
    g.apply("Chance rolls 1 1 1")
    g.apply("Pompeius takes the hit on Legio 1")   # 3 hits: II+II -> both at I, then one dies
    while g.state.count[BOARD.location("Roma")][1]:
        d = only(g)
        if d.kind == "dice":
            g.apply("Chance rolls " + " ".join("1" * d.params["dice"]))
        else:
            a = next((a for a in d.options if type(a).__name__ in ("Fire", "Hit")), d.options[0])
            g.apply(a)
    d = only(g)
    assert (d.actor, d.kind, d.rule, d.params["blocks"]) == ("Caesar", "regroup", "7.7", 1)
    assert d.params["destinations"] == {"C Legio 13": ["Asculum", "Genua", "Neapolis", "Ravenna"]}
    assert "Caesar ends regroup" in lines(d)
    assert "C Legio 13" not in public_text(d, "Pompeius") and "destinations" not in d.for_viewer(None).params


# --------------------------------------------------------------------------- winter
def test_navis_to_port_names_the_seas_not_the_navis():
    g = winter_game({"Mare Hispanum": ["C Navis 1", "C Navis 2"], "Massilia": ["C Legio 7"], "Genua": ["C Legio 8"],
                     "Utica": ["P Legio 1"], "Alexandria": ["Cleopatra"]})
    d = only(g)
    assert (d.actor, d.kind, d.rule) == ("Caesar", "navis-to-port", "8.2")
    assert d.params == {"seas": {"Mare Hispanum": 2},
                        "ports": {"C Navis 1": ["Genua", "Massilia"], "C Navis 2": ["Genua", "Massilia"]}}
    assert d.for_viewer(None).params == {"seas": {"Mare Hispanum": 2}}


def test_supply_says_which_city_and_how_many_over():
    g = winter_game({"Genua": ["C Legio 7", "C Legio 8", "C Legio 9", "C Legio 10", "C Legio 11"],
                     "Utica": ["P Legio 1"], "Alexandria": ["Cleopatra"]})
    d = only(g)
    assert (d.actor, d.kind, d.rule) == ("Caesar", "supply", "8.3")
    assert d.params == {"cities": [{"city": "Genua", "blocks": 5, "limit": 3, "over": 2}]}
    assert len(d.options) == 5 and "Legio" not in public_text(d, "Pompeius")


def test_voluntary_disbanding_then_game_over_has_nothing_pending():
    g = winter_game({"Genua": ["C Legio 7"], "Utica": ["P Legio 1"], "Alexandria": ["Cleopatra"]})
    d = only(g)
    assert (d.actor, d.kind, d.rule, d.params["blocks"]) == ("Caesar", "disband", "8.5", 1)
    assert lines(d) == {"Caesar ends disbanding", "Caesar disbands Legio 7"}
    assert d.for_viewer("Pompeius").params == {}
    g.state.phase = "over"
    assert g.pending() == []


def test_for_viewer_refuses_an_unknown_viewer():
    d = only(Game())
    with pytest.raises(ValueError, match="viewer"):
        d.for_viewer("Chance")

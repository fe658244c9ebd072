"""Battle rules beyond the book's worked examples: forced retreat in round 4, retreat roads and
limits, regroup, elephant and ballista, navis battles and retreats, leaders, Mars/Neptune."""
from engine.board import BOARD, CAESAR, POMPEIUS
from engine.state import DEAD, ELIMINATED

from .helpers import B, L, battle_game, eligible, fight, lines, pass_all, refused, steps


def neapolis(extra=None, caesar_moves=("Legio 7 Roma-Neapolis",), pompeius_moves=(), **kw):
    placements = {"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"]}
    placements.update(extra or {})
    g = battle_game(placements, list(caesar_moves), list(pompeius_moves), **kw)
    g.apply("Caesar fights Neapolis")
    return g


def test_attacker_must_retreat_in_round_4():
    g = neapolis()
    pass_all(g, 4)
    g.apply("Pompeius passes Legio 1")
    assert lines(g) == {"Caesar retreats Legio 7 to Roma"}     # no fire, no pass
    refused(g, "Caesar passes Legio 7", "7.2")
    g.apply("Caesar retreats Legio 7 to Roma")
    assert g.state.loc[B("C Legio 7")] == L("Roma")
    assert fight(g).d["winner"] == POMPEIUS and "Pompeius ends regroup" in lines(g)


def test_attacker_that_cannot_retreat_in_round_4_is_eliminated():
    # Pompeius occupies Roma behind the attacker: the way back is enemy.
    g = neapolis({"Asculum": ["P Legio 3"]}, pompeius_moves=("Legio 3 Asculum-Roma",))
    pass_all(g, 4)
    g.apply("Pompeius passes Legio 1")
    assert lines(g) == {"Caesar retreats Legio 7 nowhere"}
    g.apply("Caesar retreats Legio 7 nowhere")
    assert g.state.loc[B("C Legio 7")] < 0


def test_attacker_retreats_to_vacant_only_by_its_own_roads_defender_not_by_them():
    g = neapolis()
    pass_all(g, 2)
    # Defender: any friendly or vacant neighbour except Roma (the attacker's road).
    assert {l for l in lines(g) if "retreats" in l} == {
        "Pompeius retreats Legio 1 to Brundisium", "Pompeius retreats Legio 1 to Rhegium",
        "Pompeius retreats Legio 1 to Sipontum"}
    g.apply("Pompeius passes Legio 1")
    assert {l for l in lines(g) if "retreats" in l} == {"Caesar retreats Legio 7 to Roma"}


def test_retreat_road_limit_per_round():
    # Ravenna-Roma is a minor road: two retreating blocks per round; Genua-Roma is major.
    g = battle_game({"Ravenna": ["C Legio 7", "C Legio 8"], "Genua": ["C Legio 9"], "Roma": ["P Legio 1"]},
                    ["Legio 7 Ravenna-Roma", "Legio 8 Ravenna-Roma", "Legio 9 Genua-Roma"])
    g.apply("Caesar fights Roma")
    g.apply("Caesar declares main attack on Roma from Ravenna")
    pass_all(g, 2)
    g.apply("Pompeius passes Legio 1")
    g.apply("Caesar retreats Legio 7 to Ravenna")
    g.apply("Caesar retreats Legio 8 to Ravenna")
    assert g.state.count[L("Ravenna")][CAESAR] == 2
    assert "Caesar retreats Legio 9 to Ravenna" not in lines(g)
    assert "Caesar retreats Legio 9 to Genua" in lines(g)


def test_strait_retreat_limit_is_one_per_round():
    # Caesar holds Messana across the strait and attacks Rhegium from Neapolis with two blocks.
    g = battle_game({"Neapolis": ["C Legio 7", "C Legio 8"], "Messana": ["C Legio 9"], "Rhegium": ["P Legio 1"]},
                    ["Legio 7 Neapolis-Rhegium", "Legio 8 Neapolis-Rhegium"])
    g.apply("Caesar fights Rhegium")
    pass_all(g, 2)
    g.apply("Pompeius passes Legio 1")
    g.apply("Caesar retreats Legio 7 to Messana")
    assert {l for l in lines(g) if "retreats" in l} == {"Caesar retreats Legio 8 to Neapolis"}


def test_regroup_after_victory():
    g = neapolis(steps={"P Legio 1": 1})
    g.apply("Pompeius passes Legio 1")
    g.apply("Caesar fires Legio 7")
    g.apply("Chance rolls 1 6 6")
    assert fight(g).d["winner"] == CAESAR
    assert lines(g) == {"Caesar ends regroup", "Caesar regroups Legio 7 to Roma",
                        "Caesar regroups Legio 7 to Brundisium", "Caesar regroups Legio 7 to Rhegium",
                        "Caesar regroups Legio 7 to Sipontum"}
    g.apply("Caesar regroups Legio 7 to Brundisium")
    assert g.state.loc[B("C Legio 7")] == L("Brundisium")
    assert g.state.phase != "battle"      # the only battle is done: the turn goes on


def test_elephant_rolls_two_dice_per_step_and_loses_one_step_per_hit():
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Elephant"]}, ["Legio 7 Roma-Neapolis"])
    g.apply("Caesar fights Neapolis")
    assert g.state.strength(B("P Elephant")) == 4
    g.apply("Pompeius fires Elephant")
    refused(g, "Chance rolls 1 1", "4 dice")
    g.apply("Chance rolls 6 6 6 6")
    g.apply("Caesar fires Legio 7")
    g.apply("Chance rolls 1 6 6")
    assert steps(g, "P Elephant") == 1 and g.state.strength(B("P Elephant")) == 2


def test_ballista_is_b_defending_and_d_attacking():
    g = battle_game({"Roma": ["C Ballista", "C Legio 7"], "Neapolis": ["P Ballista", "P Legio 1"]},
                    ["Ballista Roma-Neapolis", "Legio 7 Roma-Neapolis"])
    g.apply("Caesar fights Neapolis")
    order = []
    while fight(g).d["round"] == 1:
        (key, *_) = eligible(g)
        order.append(key)
        side = "Caesar" if key.startswith("C ") else "Pompeius"
        g.apply(f"{side} passes {key[2:]}")
    assert order == ["P Ballista", "P Legio 1", "C Legio 7", "C Ballista"]


def test_navis_battle_defender_first_and_navis_retreat_rules():
    g = battle_game({"Mare Hispanum": ["C Navis 1"], "Mare Tyrrhenum": ["P Navis 3"],
                     "Neapolis": ["P Legio 1"], "Genua": ["C Legio 7"]},
                    ["Navis 1 Mare Hispanum-Mare Tyrrhenum"])
    g.apply("Caesar fights Mare Tyrrhenum")
    assert eligible(g) == ["P Navis 3"]
    pass_all(g, 2)
    retreats = {l for l in lines(g) if "retreats" in l}
    # Defender: friendly port on the sea (Neapolis); vacant seas except where the attacker
    # came from (Mare Hispanum); not Genua (enemy) nor vacant ports.
    assert "Pompeius retreats Navis 3 to Neapolis" in retreats
    assert "Pompeius retreats Navis 3 to Mare Internum" in retreats
    assert "Pompeius retreats Navis 3 to Mare Hispanum" not in retreats
    assert "Pompeius retreats Navis 3 to Genua" not in retreats
    assert "Pompeius retreats Navis 3 to Roma" not in retreats
    g.apply("Pompeius passes Navis 3")
    retreats = {l for l in lines(g) if "retreats" in l}
    # Attacker: where it came from (vacant), friendly ports on the sea (Genua).
    assert retreats == {"Caesar retreats Navis 1 to Mare Hispanum", "Caesar retreats Navis 1 to Genua"}


def test_leader_killed_is_a_trophy_worth_one_vp():
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Pompeius"]}, ["Caesar Roma-Neapolis"],
                    steps={"P Pompeius": 1})
    vp_before = g.state.vp(CAESAR)
    g.apply("Caesar fights Neapolis")
    g.apply("Caesar fires Caesar")
    g.apply("Chance rolls 1 6 6")
    assert g.state.loc[B("P Pompeius")] == DEAD
    assert g.state.vp(CAESAR) == vp_before + 1   # the trophy (Neapolis has no VP value)


def test_a_dead_leader_releases_the_third_leader():
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Pompeius"], "Brundisium": ["P Legio 2"]},
                    ["Caesar Roma-Neapolis"], steps={"P Pompeius": 1})
    g.apply("Caesar fights Neapolis")
    g.apply("Caesar fires Caesar")
    g.apply("Chance rolls 1 6 6")
    g.apply("Caesar ends regroup")
    assert (g.state.turn, g.state.phase) == (2, "card")
    for side in (0, 1):   # play a command card each
        card = next(c for c in g.state.hands[side] if not BOARD.cards[c].event)
        g.apply(f"{('Caesar', 'Pompeius')[side]} plays {BOARD.cards[card].name}")
    if g.state.player1 == CAESAR:
        g.apply("Caesar ends command")
    g.apply("Pompeius levies Brutus in Brundisium")
    assert g.state.loc[B("P Brutus")] == L("Brundisium")


def test_mars_attackers_fire_first_in_round_1():
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Pompeius"]}, ["Legio 7 Roma-Neapolis"],
                    cards=("Mars", "2/3"))
    assert "Caesar fights Neapolis with Mars" in lines(g)
    g.apply("Caesar fights Neapolis with Mars")
    assert eligible(g) == ["C Legio 7"]
    g.apply("Caesar passes Legio 7")
    assert eligible(g) == ["P Pompeius"]
    g.apply("Pompeius passes Pompeius")
    assert fight(g).d["round"] == 2 and eligible(g) == ["P Pompeius"]   # normal order again


def test_neptune_needs_navis_in_the_attack():
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"], "Mare Tyrrhenum": ["C Navis 1"]},
                    ["Navis 1 Mare Tyrrhenum-Neapolis"], cards=("Neptune", "2/3"))
    assert "Caesar fights Neapolis with Neptune" in lines(g)


def test_surprise_only_for_the_event_player_as_attacker():
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"]}, ["Legio 7 Roma-Neapolis"])
    assert lines(g) == {"Caesar fights Neapolis"}
    refused(g, "Caesar fights Neapolis with Mars", "2.1")
    refused(g, "Pompeius fights Neapolis", "7.1")


def test_attacking_navis_retreat_to_any_vacant_sea_the_attack_came_from():
    # 7.82 "Seas or Ports they came from" read like 7.62's roads: the seas the attacking navis
    # came from, together (docs/engine-design.md, Battles: readings).
    g = battle_game({"Mare Hispanum": ["C Navis 1"], "Mare Internum": ["C Navis 2"],
                     "Mare Tyrrhenum": ["P Navis 3"], "Neapolis": ["P Legio 1"]},
                    ["Navis 1 Mare Hispanum-Mare Tyrrhenum", "Navis 2 Mare Internum-Mare Tyrrhenum"])
    g.apply("Caesar fights Mare Tyrrhenum")
    g.apply("Caesar declares main attack on Mare Tyrrhenum from Mare Hispanum")
    pass_all(g, 2)
    g.apply("Pompeius passes Navis 3")
    retreats = {l for l in lines(g) if "retreats" in l}
    assert retreats == {f"Caesar retreats Navis {n} to {sea}" for n in (1, 2)
                        for sea in ("Mare Hispanum", "Mare Internum")}


def test_defender_never_retreats_by_the_attackers_road_even_to_a_friendly_city():
    # Caesar attacks Neapolis from Roma; Pompeius then occupies Roma behind him from Asculum.
    g = neapolis({"Asculum": ["P Legio 3"]}, pompeius_moves=("Legio 3 Asculum-Roma",))
    pass_all(g, 2)
    retreats = {l for l in lines(g) if "retreats" in l}
    assert "Pompeius retreats Legio 1 to Roma" not in retreats
    assert "Pompeius retreats Legio 1 to Brundisium" in retreats


def test_an_eliminated_block_goes_face_up_to_its_pool():
    g = neapolis(steps={"P Legio 1": 1})
    g.apply("Pompeius passes Legio 1")
    g.apply("Caesar fires Legio 7")
    g.apply("Chance rolls 2 6 6")
    assert g.state.loc[B("P Legio 1")] == ELIMINATED and g.state.steps[B("P Legio 1")] == 4


def test_major_road_retreat_limit_is_four_per_round_and_resets_each_round():
    five = ["C Legio 7", "C Legio 8", "C Legio 9", "C Legio 10", "C Legio 11"]
    g = battle_game({"Genua": five[:4], "Ravenna": [five[4]], "Roma": ["P Legio 1"]},
                    [f"{k[2:]} Genua-Roma" for k in five[:4]] + ["Legio 11 Ravenna-Roma"])
    g.apply("Caesar fights Roma")
    g.apply("Caesar declares main attack on Roma from Genua")
    pass_all(g, 2)
    g.apply("Pompeius passes Legio 1")
    for k in five[:3]:
        g.apply(f"Caesar retreats {k[2:]} to Genua")
    g.apply("Caesar retreats Legio 11 to Genua")        # the fourth on Genua-Roma this round
    assert "Caesar retreats Legio 10 to Genua" not in lines(g)
    g.apply("Caesar passes Legio 10")
    g.apply("Pompeius passes Legio 1")
    assert "Caesar retreats Legio 10 to Genua" in lines(g)   # round 3: fresh limits


def test_navis_regroup_after_a_sea_battle():
    g = battle_game({"Mare Hispanum": ["C Navis 1"], "Mare Tyrrhenum": ["P Navis 3"],
                     "Genua": ["C Legio 7"], "Neapolis": ["P Legio 1"]},
                    ["Navis 1 Mare Hispanum-Mare Tyrrhenum"], steps={"P Navis 3": 1})
    g.apply("Caesar fights Mare Tyrrhenum")
    g.apply("Pompeius passes Navis 3")
    g.apply("Caesar fires Navis 1")
    g.apply("Chance rolls 1 6")
    regroups = {l for l in lines(g) if "regroups" in l}
    # adjacent seas friendly or vacant, ports of the sea friendly or vacant; not Neapolis (enemy)
    assert "Caesar regroups Navis 1 to Mare Internum" in regroups
    assert "Caesar regroups Navis 1 to Genua" in regroups and "Caesar regroups Navis 1 to Roma" in regroups
    assert "Caesar regroups Navis 1 to Neapolis" not in regroups


def test_the_view_reveals_the_battle_blocks_only_while_the_battle_is_fought():
    g = battle_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"], "Brundisium": ["P Legio 3"]},
                    ["Legio 7 Roma-Neapolis"], ["Legio 3 Brundisium-Neapolis"], steps={"P Legio 1": 1})
    g.apply("Caesar fights Neapolis")
    seen = g.view("Caesar")["fight"]["revealed"]
    assert [x["block"] for x in seen["Pompeius"]] == ["P Legio 1"]      # the reserve stays hidden
    g.apply("Pompeius passes Legio 1")
    g.apply("Caesar fires Legio 7")
    g.apply("Chance rolls 1 6 6")       # Legio 1 dies; Legio 3 disrupted, then round 2
    assert [x["block"] for x in g.view("Caesar")["fight"]["revealed"]["Pompeius"]] == ["P Legio 3"]
    while fight(g).d["winner"] is None:
        g.apply(next(a for a in g.legal_actions() if type(a).__name__ in ("Pass", "Retreat")))
    assert g.view("Caesar")["fight"] is None         # over: blocks stand up, the regroup is blind

"""The rulebook's battle examples (7.x) as tests, played through the real card, command and
battle phases: reserves at Tarraco, the battle-turn order example, the hits example (III, II,
II), sea retreats at Utica for both players, disruption and Cleopatra's switch."""
from engine.board import CAESAR, POMPEIUS

from .helpers import B, L, acting_blocks, battle_game, eligible, fight, lines, pass_all, refused, steps

NARBO_FOUR = ["C Legio 7", "C Legio 8", "C Legio 9", "C Legio 10"]
CARTHAGO_FOUR = ["P Legio 1", "P Legio 2", "P Legio 3", "P Legio 4"]


def tarraco():
    """Caesar attacks Tarraco from Narbo with 4 blocks (main attack) and from Bilbilis with 2.
    Pompeius has 3 blocks defending Tarraco and moves 4 from Carthago Nova to Tarraco."""
    g = battle_game(
        {"Narbo": NARBO_FOUR, "Bilbilis": ["C Legio 11", "C Legio 12"],
         "Tarraco": ["P Legio 5", "P Legio 6", "P Equitatus 1"], "Carthago Nova": CARTHAGO_FOUR},
        [f"{k[2:]} Narbo-Tarraco" for k in NARBO_FOUR] + ["Legio 11 Bilbilis-Tarraco", "Legio 12 Bilbilis-Tarraco"],
        [f"{k[2:]} Carthago Nova-Tarraco" for k in CARTHAGO_FOUR])
    g.apply("Caesar fights Tarraco")
    g.apply("Caesar declares main attack on Tarraco from Narbo")   # two roads: he confirms Narbo
    return g


def test_tarraco_reserves_wait_for_round_2():
    g = tarraco()
    f = fight(g)
    assert sorted(f.d["reserves"]) == sorted(B(k) for k in ["C Legio 11", "C Legio 12", *CARTHAGO_FOUR])
    # Round 1: the 3 Tarraco blocks against the 4 from Narbo. Equitatus (B) goes first.
    assert eligible(g) == ["P Equitatus 1"]
    g.apply("Pompeius fires Equitatus 1")
    g.apply("Chance rolls 1 2")          # two hits, each on Caesar's strongest non-reserve block
    assert acting_blocks(g) == set(NARBO_FOUR)   # all at III; the reserves at III are not targets
    g.apply("Caesar takes the hit on Legio 7")
    g.apply("Caesar takes the hit on Legio 8")
    seen_round_1 = set()
    while f.d["round"] == 1:
        seen_round_1 |= acting_blocks(g)
        g.apply(next(a for a in g.legal_actions() if type(a).__name__ == "Pass"))
    assert seen_round_1 == {"P Legio 5", "P Legio 6", *NARBO_FOUR}
    # Round 2: the reserves have arrived and take normal turns.
    assert f.d["reserves"] == []
    assert eligible(g) == ["P Equitatus 1"]
    g.apply("Pompeius passes Equitatus 1")
    assert eligible(g) == sorted(["P Legio 5", "P Legio 6", *CARTHAGO_FOUR])


def test_reserves_cannot_fire_in_round_1():
    g = tarraco()
    refused(g, "Pompeius fires Legio 1", "7.3 Legio 1 is a reserve")
    refused(g, "Caesar fires Legio 11", "7.3 Legio 11 is a reserve")


def test_battle_turn_order_example():
    """Caesar (A3) and 1 Equitatus (B2) attack Pompey (B3) and 1 Navis (D2): Caesar, Pompey,
    the Equitatus, the Navis."""
    g = battle_game({"Roma": ["C Caesar", "C Equitatus 2"], "Neapolis": ["P Pompeius", "P Navis 3"]},
                    ["Caesar Roma-Neapolis", "Equitatus 2 Roma-Neapolis"])
    g.apply("Caesar fights Neapolis")
    order = []
    for _ in range(4):
        (key,) = eligible(g)
        order.append(key)
        side = "Caesar" if key.startswith("C ") else "Pompeius"
        g.apply(f"{side} passes {key[2:]}")
    assert order == ["C Caesar", "P Pompeius", "C Equitatus 2", "P Navis 3"]
    assert fight(g).d["round"] == 2 and eligible(g) == ["C Caesar"]


def test_hits_example_three_two_two():
    """Two hits on III, II, II: the first must go to the III block; then all are II and the
    owner chooses."""
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Legio 1", "P Legio 2", "P Legio 3"]},
                    ["Caesar Roma-Neapolis"], steps={"P Legio 1": 3, "P Legio 2": 2, "P Legio 3": 2})
    g.apply("Caesar fights Neapolis")
    g.apply("Caesar fires Caesar")
    refused(g, "Chance rolls 1 2", "7.4 the firing block rolls 3 dice")
    g.apply("Chance rolls 1 2 6")        # A3: 1 and 2 hit, 6 misses
    assert steps(g, "P Legio 1") == 2
    assert lines(g) == {"Pompeius takes the hit on Legio 1", "Pompeius takes the hit on Legio 2",
                        "Pompeius takes the hit on Legio 3"}
    g.apply("Pompeius takes the hit on Legio 3")
    assert [steps(g, k) for k in ("P Legio 1", "P Legio 2", "P Legio 3")] == [2, 2, 1]


def utica():
    """Battle in Utica; Caesar has a navis on Mare Internum and holds Syracusae, Pompeius has a
    navis on Mare Hispanum and holds Carthago Nova."""
    g = battle_game({"Tacape": ["C Legio 7", "C Legio 8"], "Utica": ["P Legio 39", "P Legio 2"],
                     "Mare Internum": ["C Navis 1"], "Syracusae": ["C Legio 9"],
                     "Mare Hispanum": ["P Navis 1"], "Carthago Nova": ["P Legio 4"]},
                    ["Legio 7 Tacape-Utica", "Legio 8 Tacape-Utica"])
    g.apply("Caesar fights Utica")
    pass_all(g, 2)
    return g


def test_sea_retreats_at_utica_for_both_players():
    g = utica()
    # Defender first in round 2 (all legions are C): Pompeius by his own sea only.
    by_sea = {l for l in lines(g) if "by sea" in l}
    assert by_sea == {"Pompeius retreats Legio 2 by sea to Carthago Nova",
                      "Pompeius retreats Legio 39 by sea to Carthago Nova"}
    g.apply("Pompeius retreats Legio 39 by sea to Carthago Nova")
    assert g.state.loc[B("P Legio 39")] == L("Carthago Nova")
    # One block per battle round may sea-retreat.
    assert not any("by sea" in l for l in lines(g))
    g.apply("Pompeius passes Legio 2")
    assert {l for l in lines(g) if "by sea" in l} == {
        "Caesar retreats Legio 7 by sea to Syracusae", "Caesar retreats Legio 8 by sea to Syracusae"}
    g.apply("Caesar retreats Legio 7 by sea to Syracusae")
    assert g.state.loc[B("C Legio 7")] == L("Syracusae")


def test_no_retreat_in_round_1():
    g = battle_game({"Tacape": ["C Legio 7"], "Utica": ["P Legio 39"], "Carthago Nova": ["P Legio 4"],
                     "Mare Hispanum": ["P Navis 1"]}, ["Legio 7 Tacape-Utica"])
    g.apply("Caesar fights Utica")
    assert not any("retreats" in l for l in lines(g))
    refused(g, "Pompeius retreats Legio 39 by sea to Carthago Nova", "7.6 no block retreats in battle round 1")


def test_disruption_and_defender_swap():
    """Pompeius defends Neapolis with Legio 1 (I) and responds from Brundisium with Legio 3.
    Caesar eliminates Legio 1 in round 1: Legio 3 is disrupted (loses a step) and, the
    disrupted player being the defender, Caesar becomes the defender."""
    g = battle_game({"Roma": ["C Caesar"], "Neapolis": ["P Legio 1"], "Brundisium": ["P Legio 3"]},
                    ["Caesar Roma-Neapolis"], ["Legio 3 Brundisium-Neapolis"], steps={"P Legio 1": 1})
    g.apply("Caesar fights Neapolis")
    f = fight(g)
    assert f.d["attacker"] == CAESAR and f.d["reserves"] == [B("P Legio 3")]
    g.apply("Caesar fires Caesar")
    g.apply("Chance rolls 1 6 6")
    assert g.state.loc[B("P Legio 1")] < 0
    assert steps(g, "P Legio 3") == 2
    assert f.d["attacker"] == POMPEIUS and f.d["defender"] == CAESAR
    assert f.d["round"] == 2 and eligible(g) == ["C Caesar"]   # the defender's A block first


def test_cleopatra_changes_sides_and_fights_for_caesar():
    g = battle_game({"Catabathmus": ["C Caesar"], "Alexandria": ["Cleopatra", "P Legio 38"]},
                    ["Caesar Catabathmus-Alexandria"], steps={"Cleopatra": 2, "P Legio 38": 1})
    g.apply("Caesar fights Alexandria")
    g.apply("Caesar fires Caesar")
    g.apply("Chance rolls 1 1 6")        # first hit: Cleopatra II -> I; second: owner's choice
    g.apply("Pompeius takes the hit on Cleopatra")
    cleo = B("Cleopatra")
    assert g.state.owner[cleo] == CAESAR and steps(g, "Cleopatra") == 1
    assert g.state.loc[cleo] == L("Alexandria")
    g.apply("Pompeius passes Legio 38")   # defending C first, then Cleopatra for Caesar
    assert "Caesar fires Cleopatra" in lines(g)

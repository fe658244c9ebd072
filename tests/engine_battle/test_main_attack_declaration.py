"""The main attack declared in the battle phase (rulings, Command phase: "the first road ... is
the main attack unless the attacker declares another before that battle is fought"): when
Player 1 picks a battle whose attacker entered by more than one road, the attacker names or
confirms his main attack before round 1; that decides the round-1 reserves."""
from engine.board import BOARD

from .helpers import battle_game, fight, lines, refused
from .test_rulebook_battles import CARTHAGO_FOUR, NARBO_FOUR

BILBILIS_TWO = ["C Legio 11", "C Legio 12"]


def tarraco_picked():
    """Caesar (Player 1) attacked Tarraco from Narbo (first, 4 blocks) and Bilbilis (2); Pompeius
    reinforced it from Carthago Nova. Caesar has picked the battle."""
    g = battle_game(
        {"Narbo": NARBO_FOUR, "Bilbilis": BILBILIS_TWO,
         "Tarraco": ["P Legio 5", "P Legio 6", "P Equitatus 1"], "Carthago Nova": CARTHAGO_FOUR},
        [f"{k[2:]} Narbo-Tarraco" for k in NARBO_FOUR] + [f"{k[2:]} Bilbilis-Tarraco" for k in BILBILIS_TWO],
        [f"{k[2:]} Carthago Nova-Tarraco" for k in CARTHAGO_FOUR])
    g.apply("Caesar fights Tarraco")
    return g


def keys(blocks) -> list[str]:
    return sorted(BOARD.blocks[b].key for b in blocks)


def own_reserves(g, side: str) -> list[str]:
    return sorted(x["block"] for x in g.view(side)["own_blocks"] if x["reserve"])


def test_after_the_pick_the_attacker_names_or_confirms_his_main_attack_and_nothing_else():
    g = tarraco_picked()
    assert g.current_players() == ["Caesar"]
    assert lines(g) == {"Caesar declares main attack on Tarraco from Narbo",
                        "Caesar declares main attack on Tarraco from Bilbilis"}
    assert g.legal_actions("Pompeius") == []
    assert g.view()["fight"] is None   # nothing revealed yet
    assert [b["declaring_main_attack"] for b in g.view()["battles"]] == [True]
    refused(g, "Pompeius fires Legio 5", "7.3 Caesar first declares his main attack on Tarraco")
    refused(g, "Pompeius declares main attack on Tarraco from Carthago Nova", "7.3 Pompeius is not attacking Tarraco")


def test_declaring_another_road_changes_the_round_1_reserves():
    g = tarraco_picked()
    assert own_reserves(g, "Caesar") == BILBILIS_TWO
    g.apply("Caesar declares main attack on Tarraco from Bilbilis")
    f = fight(g)
    assert keys(f.d["reserves"]) == sorted(NARBO_FOUR + CARTHAGO_FOUR)
    assert keys(f.engaged(0)) == BILBILIS_TWO
    assert sorted(x["block"] for x in g.view()["fight"]["revealed"]["Caesar"]) == BILBILIS_TWO
    assert own_reserves(g, "Caesar") == sorted(NARBO_FOUR)
    assert g.state.battles[BOARD.location("Tarraco")].main_edge == BOARD.edge(BOARD.location("Bilbilis"),
                                                                                BOARD.location("Tarraco"))


def test_confirming_the_first_road_keeps_the_reserves():
    g = tarraco_picked()
    g.apply("Caesar declares main attack on Tarraco from Narbo")
    assert keys(fight(g).engaged(0)) == sorted(NARBO_FOUR)
    assert keys(fight(g).d["reserves"]) == sorted(BILBILIS_TWO + CARTHAGO_FOUR)


def test_refused_for_a_road_the_attacker_did_not_use():
    g = tarraco_picked()
    refused(g, "Caesar declares main attack on Tarraco from Carthago Nova",
            "7.3 Caesar did not enter Tarraco from Carthago Nova")


def test_refused_once_the_battle_has_begun():
    g = tarraco_picked()
    g.apply("Caesar declares main attack on Tarraco from Narbo")
    refused(g, "Caesar declares main attack on Tarraco from Bilbilis",
            "7.3 the battle in Tarraco has begun: its main attack can no longer change")
    g.apply("Pompeius fires Equitatus 1")
    refused(g, "Caesar declares main attack on Tarraco from Bilbilis", "has begun")


def test_refused_in_the_battle_phase_before_player_1_picks_that_battle():
    g = battle_game(
        {"Narbo": NARBO_FOUR, "Bilbilis": BILBILIS_TWO, "Tarraco": ["P Legio 5"]},
        [f"{k[2:]} Narbo-Tarraco" for k in NARBO_FOUR] + [f"{k[2:]} Bilbilis-Tarraco" for k in BILBILIS_TWO])
    assert "Caesar declares main attack on Tarraco from Bilbilis" not in lines(g)
    refused(g, "Caesar declares main attack on Tarraco from Bilbilis",
            "7.3 in the battle phase the main attack on Tarraco is declared when Player 1 picks that battle")


def test_an_attacker_who_is_player_2_declares_after_player_1_picks():
    g = battle_game({"Tarraco": ["C Legio 7"], "Carthago Nova": ["P Legio 1"], "Bilbilis": ["P Legio 2"]},
                    [], ["Legio 1 Carthago Nova-Tarraco", "Legio 2 Bilbilis-Tarraco"])
    assert g.state.player1 == 0
    g.apply("Caesar fights Tarraco")
    assert g.current_players() == ["Pompeius"]
    refused(g, "Caesar declares main attack on Tarraco from Narbo", "7.3 Caesar is not attacking Tarraco")
    g.apply("Pompeius declares main attack on Tarraco from Bilbilis")
    assert keys(fight(g).engaged(1)) == ["P Legio 2"]
    assert keys(fight(g).d["reserves"]) == ["P Legio 1"]


def test_one_road_needs_no_declaration():
    g = battle_game({"Narbo": NARBO_FOUR, "Tarraco": ["P Legio 5"]},
                    [f"{k[2:]} Narbo-Tarraco" for k in NARBO_FOUR])
    g.apply("Caesar fights Tarraco")
    assert fight(g).d["round"] == 1
    assert not [a for a in lines(g) if " declares " in a]


def test_a_saved_game_waiting_for_the_declaration_resumes_there():
    """events_705.txt: Pompeius picks Roma, which Caesar entered by two roads; saved there, the
    loaded game waits for Caesar's declaration (a save is a record: hand-built positions have none)."""
    from pathlib import Path

    from engine.notation import read_record, replay
    from tests.engine.api_checks_saves import check_save_roundtrip
    text = (Path(__file__).resolve().parent.parent / "records" / "events_705.txt").read_text()
    record = read_record(text)
    upto = [n for n, line in record.actions].index(45) + 1
    g = replay("\n".join(line for _, line in record.actions[:upto]) + "\n")
    assert g.state.ext["battle"]["declaring"] is not None
    again = check_save_roundtrip(g)
    assert again.current_players() == ["Caesar"]
    again.apply("Caesar declares main attack on Roma from Ravenna")
    assert fight(again).d["round"] == 1


def test_random_two_road_battles_declare_and_end_without_dead_ends():
    """The battle fuzz's set-ups (attacks by one or two roads, either player attacking), fought
    with random choices: the declaration comes up, by both players, and every battle ends."""
    import random

    from .test_battle_fuzz import fight_to_the_end, scenario
    declared_by = set()
    for i in range(60):
        rng = random.Random(f"declare-fuzz/{i}")
        g = scenario(rng)
        if g.state.phase != "battle":
            continue
        start = len(g.history)
        fight_to_the_end(g, rng)
        declared_by |= {line.split()[0] for line in g.history[start:] if " declares main attack on " in line}
    assert declared_by == {"Caesar", "Pompeius"}

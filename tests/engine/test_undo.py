"""Undo (Game.undo / can_undo): back to the last barrier (a deal, dice, Jupiter's pick, a card
reveal, blocks revealed), restoring the state exactly, history and effects included."""
import json
import random

import pytest

from engine import undo as undo_module
from engine.errors import IllegalAction
from engine.game import Game, sample_chance
from engine.selfplay import play_game

from .api_checks_effects import check_undo
from .helpers import command_game, deal, position, snapshot
from .test_effects import _Attacking

UNDOABLE_KINDS = {"Discard", "Play", "Move", "Levy", "AddStep", "EndCommand", "TakeBack", "Fire", "Pass",
                  "Regroup", "EndRegroup", "Disband", "EndDisband"}


@pytest.mark.parametrize("every,seeds", [(32, range(8)), (1, range(8, 10)), (3, range(10, 12))])
def test_undo_restores_exactly_after_every_kind_of_player_action_in_random_games(every, seeds, monkeypatch):
    """Also with checkpoints at every action or every third: undo picks the right one."""
    monkeypatch.setattr(undo_module, "CHECKPOINT_EVERY", every)
    undone: set[str] = set()
    refused: set[str] = set()
    for seed in seeds:
        box = {}
        game = Game()
        box["game"] = game
        rng = _Attacking(seed, box) if seed % 2 else random.Random(seed)
        probe = random.Random(seed + 50)

        def after(g, action, probe=probe):
            if len(g.history) % 3 == 0:
                return
            done = check_undo(g, random.Random(probe.random()))
            if done is not None:
                undone.add(type(done).__name__)
            elif g.is_chance_node():
                refused.add("chance")

        play_game(rng, after=after, game=game, effects=True)
    if every == 32:
        assert UNDOABLE_KINDS - {"TakeBack"} <= undone, UNDOABLE_KINDS - undone
    assert {"Move", "Play", "Levy"} <= undone and "chance" in refused


@pytest.mark.parametrize("every", [32, 1, 2])
def test_undo_takes_back_moves_levies_and_steps_one_by_one_to_the_reveal(every, monkeypatch):
    monkeypatch.setattr(undo_module, "CHECKPOINT_EVERY", every)
    g = command_game({"Roma": ["C Legio 12", "C Legio 8"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    states = [snapshot(g)]
    for line in ("Caesar moves Legio 12 Roma-Asculum", "Caesar levies Auxilia 1 in Roma",
                 "Caesar adds a step to Auxilia 1", "Caesar ends command"):
        g.apply(line)
        states.append(snapshot(g))
    history = list(g.history)
    for i in range(4, 0, -1):
        assert g.can_undo()
        assert str(g.undo()) == history[len(history) - (5 - i)]
        assert snapshot(g) == states[i - 1]
    assert not g.can_undo()
    with pytest.raises(IllegalAction) as info:
        g.undo()
    assert info.value.code == "undo.barrier" and info.value.params["barrier"] == "card-reveal"
    assert info.value.params["action"] == g.history[-1]
    assert snapshot(g) == states[0]


def test_undo_of_a_take_back_brings_the_move_back():
    g = command_game({"Roma": ["C Legio 12", "C Legio 8"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    g.apply("Caesar moves Legio 12 Roma-Asculum")
    moved = snapshot(g)
    g.apply("Caesar takes back")
    assert snapshot(g) != moved
    assert str(g.undo()) == "Caesar takes back"
    assert snapshot(g) == moved and g.history[-1] == "Caesar moves Legio 12 Roma-Asculum"


def refused_undo(g: Game, barrier: str) -> IllegalAction:
    before, hist = snapshot(g), list(g.history)
    views = [json.dumps(g.history_for(v)) for v in (None, "Caesar", "Pompeius")]
    assert not g.can_undo()
    with pytest.raises(IllegalAction) as info:
        g.undo()
    assert info.value.code == "undo.barrier" and info.value.params["barrier"] == barrier, info.value.to_json()
    assert info.value.to_json()["params"]["reason"]
    assert snapshot(g) == before and g.history == hist
    assert [json.dumps(g.history_for(v)) for v in (None, "Caesar", "Pompeius")] == views
    return info.value


def test_undo_is_refused_across_the_deal_a_reveal_dice_and_jupiters_pick():
    g = position({"Roma": ["C Legio 12"], "Utica": ["P Legio 39"]})
    with pytest.raises(IllegalAction) as info:
        g.undo()
    assert info.value.code == "undo.nothing"
    deal(g, ["3/1"], ["2/2"])
    assert refused_undo(g, "deal").params["action"] == "Chance deals 6 cards to each player"   # no hand in it
    g.apply(f"Caesar discards {g.view('Caesar')['hand'][0]}")
    g.undo()
    refused_undo(g, "deal")

    pos = {"Genua": ["C Legio 12"], "Roma": ["P Legio 1", "P Pompeius"], "Massilia": ["C Legio 11"]}
    g = command_game(pos, "Jupiter", "2/2")
    refused_undo(g, "card-reveal")
    g.apply("Caesar invokes Jupiter on Roma")
    assert g.can_undo()
    g.apply("Chance picks P Legio 1")
    assert refused_undo(g, "jupiter-pick").params["action"] == "Chance picks a block in Roma"
    g.apply("Caesar sends P Legio 1 to Genua")
    refused_undo(g, "jupiter-defector")

    from tests.engine_battle.helpers import battle_game
    g = battle_game({"Narbo": ["C Legio 7"], "Tarraco": ["P Legio 5"]}, ["Legio 7 Narbo-Tarraco"])
    g.apply("Caesar fights Tarraco")
    refused_undo(g, "battle-reveal")
    rng = random.Random(2)
    while not g.is_chance_node():
        g.apply(next(a for a in g.legal_actions() if type(a).__name__ == "Fire"))
    g.apply(sample_chance(g, rng))
    refused_undo(g, "dice")


def test_actions_whose_effects_were_never_asked_for_are_undone_all_the_same():
    g = command_game({"Roma": ["C Legio 12", "C Legio 8"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    before = snapshot(g)
    g.apply("Caesar moves Legio 12 Roma-Asculum", checked=False)
    g.apply("Caesar moves Legio 8 Roma-Asculum")
    assert g.undo("Caesar") and g.undo("Caesar")
    assert snapshot(g) == before


def test_a_copy_undoes_on_its_own():
    g = command_game({"Roma": ["C Legio 12", "C Legio 8"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    g.apply("Caesar moves Legio 12 Roma-Asculum")
    moved = snapshot(g)
    twin = g.copy()
    twin.undo()
    assert snapshot(g) == moved and snapshot(twin) != moved and g.can_undo()
    assert g.history[-1] == "Caesar moves Legio 12 Roma-Asculum" and len(twin.history) == len(g.history) - 1


def test_a_side_takes_back_only_its_own_action():
    g = command_game({"Roma": ["C Legio 12", "C Legio 8"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    g.apply("Caesar moves Legio 12 Roma-Asculum")
    moved = snapshot(g)
    assert g.can_undo("Caesar") and not g.can_undo("Pompeius") and not g.can_undo("chance")
    with pytest.raises(IllegalAction) as info:
        g.undo("Pompeius")
    assert info.value.code == "undo.other-side" and snapshot(g) == moved
    assert str(g.undo("Caesar")) == "Caesar moves Legio 12 Roma-Asculum"

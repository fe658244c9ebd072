"""What each side saw (Game.history_for): own actions in full, public ones in full, the other
side's hidden parts redacted; never a hidden block or card of the other side."""
import json
import random

import pytest

from engine.game import Game, sample_chance
from engine.selfplay import play_game

from .api_checks_effects import check_entry_secrecy
from .helpers import command_game, deal, position
from .test_effects import _Attacking


@pytest.mark.parametrize("chunk", range(3))
def test_no_viewer_ever_sees_a_hidden_block_or_card_of_the_other_side(chunk):
    """Security: after every action of random games (half of them seeking battles), the newest
    entry of each viewer's history names only blocks that viewer may know at that moment."""
    for seed in range(100 + chunk * 4, 100 + chunk * 4 + 4):
        box = {"prev": Game()}
        game = Game()
        box["game"] = game
        rng = _Attacking(seed, box) if seed % 2 else random.Random(seed)

        def after(g, action, box=box):
            for v in (0, 1, None):
                check_entry_secrecy(box["prev"], g, v)
            box["prev"] = g.copy()

        play_game(rng, after=after, game=game, effects=True)
        for v in ("Caesar", "Pompeius", None):
            h = game.history_for(v)
            assert [e["index"] for e in h] == list(range(len(game.history)))
            json.dumps(h)


def texts(g, viewer):
    return [e["text"] for e in g.history_for(viewer)]


def test_the_deal_discards_and_plays_as_each_side_saw_them():
    g = position({"Roma": ["C Legio 12"], "Utica": ["P Legio 39"]})
    deal(g, ["3/1"], ["2/2"])
    g.apply("Caesar discards 1/2" if "1/2" in [c for c in g.view("Caesar")["hand"]] else
            f"Caesar discards {g.view('Caesar')['hand'][0]}")
    g.apply(f"Pompeius discards {g.view('Pompeius')['hand'][-1]}")
    g.apply("Caesar plays 3/1")
    c, p, pub = texts(g, "Caesar"), texts(g, "Pompeius"), texts(g, None)
    assert c[0].startswith("Chance deals Caesar: ") and c[0].endswith("; Pompeius: 6 cards")
    assert p[0].startswith("Chance deals Pompeius: ") and p[0].endswith("; Caesar: 6 cards")
    assert pub[0] == "Chance deals 6 cards to each player"
    assert c[1] == g.history[1] and p[1] == "Caesar discards a card" and pub[1] == "Caesar discards a card"
    assert c[2] == "Pompeius discards a card" and p[2] == g.history[2]
    assert p[3] == "Caesar plays a card" and pub[3] == "Caesar plays a card" and c[3] == "Caesar plays 3/1"
    assert g.history_for("Pompeius")[3]["effects"] == [
        {"kind": "card.chosen", "params": {"side": "Caesar"}, "redacted": True}]
    g.apply("Pompeius plays 2/2")   # both revealed: the plays are seen by all now
    for v in ("Caesar", "Pompeius", None):
        h = g.history_for(v)
        assert h[3]["text"] == "Caesar plays 3/1" and h[4]["text"] == "Pompeius plays 2/2"
        assert any(e["kind"] == "cards.revealed" for e in h[4]["effects"])
        assert h[1]["text"] == ("Caesar discards a card" if v != "Caesar" else g.history[1])   # discards stay secret


def test_command_actions_are_redacted_for_the_opponent_and_the_public():
    g = command_game({"Roma": ["C Legio 12", "C Legio 8"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    g.apply("Caesar moves Legio 12 Roma-Asculum")
    g.apply("Caesar levies Auxilia 1 in Roma")
    g.apply("Caesar adds a step to Auxilia 1")
    g.apply("Caesar ends command")
    own = texts(g, "Caesar")[-4:]
    assert own == g.history[-4:]
    for v in ("Pompeius", None):
        assert texts(g, v)[-4:] == ["Caesar moves a block Roma-Asculum", "Caesar levies a block in Roma",
                                    "Caesar adds a step to a block in Roma", "Caesar ends command"]
        dump = json.dumps(g.history_for(v))
        assert "Legio 12" not in dump and "Auxilia 1" not in dump


def test_entries_carry_index_actor_text_and_effects():
    g = command_game({"Roma": ["C Legio 12"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    g.apply("Caesar moves Legio 12 Roma-Asculum")
    last = g.history_for("Pompeius")[-1]
    assert last["index"] == len(g.history) - 1 and last["actor"] == "Caesar"
    assert last["effects"][0] == {"kind": "block.moved", "redacted": True,
                                  "params": {"side": "Caesar", "from": "Roma", "to": "Asculum", "cause": "move"}}
    with pytest.raises(ValueError):
        g.history_for("chance")


def test_jupiter_pick_is_named_to_the_owner_and_the_jupiter_player_then_to_all_once_moved():
    pos = {"Genua": ["C Legio 12"], "Roma": ["P Legio 1", "P Pompeius"], "Massilia": ["C Legio 11"]}
    g = command_game(pos, "Jupiter", "2/2")
    g.apply("Caesar invokes Jupiter on Roma")
    g.apply("Chance picks P Legio 1")
    assert texts(g, None)[-1] == "Chance picks a block in Roma"
    assert texts(g, "Pompeius")[-1] == g.history[-1] == "Chance picks P Legio 1"
    assert texts(g, "Caesar")[-1] == g.history[-1]
    assert "P Legio 1" not in json.dumps(g.history_for(None))
    g.apply("Caesar sends P Legio 1 to Genua")
    assert texts(g, None)[-1] == "Caesar sends P Legio 1 to Genua"


def test_a_leader_picked_by_jupiter_loses_a_step_seen_only_by_its_owner():
    pos = {"Genua": ["C Legio 12"], "Roma": ["P Pompeius"], "Massilia": ["C Legio 11"]}
    g = command_game(pos, "Jupiter", "2/2")
    g.apply("Caesar invokes Jupiter on Roma")
    g.apply(sample_chance(g, random.Random(1)))
    for v in ("Caesar", None):
        assert texts(g, v)[-1] == "Chance picks a block in Roma"
        assert "P Pompeius" not in json.dumps(g.history_for(v)[-1])
    assert "P Pompeius" in json.dumps(g.history_for("Pompeius")[-1])


def test_battle_actions_name_revealed_blocks_and_the_regroup_stays_blind():
    from tests.engine_battle.helpers import battle_game
    g = battle_game({"Narbo": ["C Legio 7"], "Tarraco": ["P Legio 5"], "Massilia": ["C Legio 11"]},
                    ["Legio 7 Narbo-Tarraco"])
    g.apply("Caesar fights Tarraco")
    rng = random.Random(4)
    while g.state.phase == "battle" and not any(type(a).__name__ == "Regroup" for a in g.legal_actions()):
        g.apply(sample_chance(g, rng) if g.is_chance_node() else
                next((a for a in g.legal_actions() if type(a).__name__ == "Fire"), g.legal_actions()[0]))
    pub = g.history_for(None)
    fires = [e["text"] for e in pub if " fires " in e["text"]]
    assert fires and all("a block" not in t for t in fires)   # blocks fighting are revealed
    regroup = next(a for a in g.legal_actions() if type(a).__name__ == "Regroup")
    g.apply(regroup)
    side = "Caesar" if regroup.actor == 0 else "Pompeius"
    other = "Pompeius" if side == "Caesar" else "Caesar"
    assert texts(g, other)[-1].startswith(f"{side} regroups a block to ")
    assert texts(g, side)[-1] == g.history[-1]

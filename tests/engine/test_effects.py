"""Effects of an action (engine.effects): what changed, automatic consequences included, who may
see it, and the table's instruction for it."""
import random

import pytest

from engine.actions import Move
from engine.effects import Effects, instruction
from engine.game import Game, sample_chance
from engine.selfplay import play_game

from .api_checks_effects import check_effects
from .helpers import B, command_game, position


def kinds(fx) -> list[str]:
    return [e.kind for e in fx]


def only(fx, kind):
    found = [e for e in fx if e.kind == kind]
    assert len(found) == 1, (kind, [e.to_json() for e in fx])
    return found[0]


class _Attacking(random.Random):
    """Prefers moves into enemy-held locations, so random games meet battles."""

    def __init__(self, seed, box):
        super().__init__(seed)
        self.box = box

    def choice(self, seq):
        g = self.box.get("game")
        if g is not None and self.random() < 0.7:
            st = g.state
            hits = [a for a in seq if isinstance(a, Move) and st.count[a.path[-1]][1 - a.actor]]
            if hits:
                return super().choice(hits)
        return super().choice(seq)


def play_checked(seed: int, attacking: bool) -> Game:
    box = {"prev": Game()}
    box["game"] = None
    rng = _Attacking(seed, box) if attacking else random.Random(seed)
    game = Game()
    box["game"] = game

    def after(g, action):
        check_effects(box["prev"], g, g.effects_at(-1))
        box["prev"] = g.copy()

    play_game(rng, after=after, game=game, effects=True)
    return game


@pytest.mark.parametrize("chunk", range(4))
def test_effects_replayed_on_the_previous_position_give_the_next_in_40_random_games(chunk):
    kinds_seen = set()
    for seed in range(chunk * 10, chunk * 10 + 10):
        g = play_checked(seed, attacking=seed % 2 == 0)
        kinds_seen |= {e.kind for i in range(len(g.history)) for e in g.effects_at(i)}
    assert {"block.moved", "block.placed", "cards.revealed", "phase.changed"} <= kinds_seen


def test_apply_returns_effects_naming_the_action_and_a_levy():
    g = command_game({"Roma": ["C Legio 12"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    fx = g.apply("Caesar levies Auxilia 1 in Roma", effects=True)
    assert isinstance(fx, Effects) and str(fx.action) == "Caesar levies Auxilia 1 in Roma"
    e = only(fx, "block.placed")
    assert e.params == {"block": "C Auxilia 1", "side": "Caesar", "to": "Roma", "from": "pool", "steps": 1,
                        "strength": 1, "cause": "levy"}
    assert e.seen_by == (0,) and fx.barrier is None
    assert instruction(e, "Caesar") == "put Auxilia 1 from the Caesar levy pool in Roma at I"
    assert instruction(e, "Pompeius") == "put a Caesar block from the levy pool in Roma"
    assert instruction(e, None) == "put a Caesar block from the levy pool in Roma"
    fx = g.apply("Caesar adds a step to Auxilia 1", effects=True)
    e = only(fx, "block.strength")
    assert (e.params["from"], e.params["to"], e.params["cause"]) == (1, 2, "add-step")
    assert instruction(e, "Caesar") == "turn Auxilia 1 in Roma to II"
    assert instruction(e, "Pompeius") == "turn a Caesar block in Roma"
    assert e.as_seen(1) == {"kind": "block.strength", "params": {"side": "Caesar", "at": "Roma", "cause": "add-step"},
                            "redacted": True}


def test_a_move_is_named_to_its_owner_and_counted_for_the_others():
    g = command_game({"Roma": ["C Legio 12"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    fx = g.apply("Caesar moves Legio 12 Roma-Asculum", effects=True)
    e = only(fx, "block.moved")
    assert (e.params["from"], e.params["to"], e.block) == ("Roma", "Asculum", B("C Legio 12"))
    assert instruction(e, "Caesar") == "move Legio 12 from Roma to Asculum"
    assert instruction(e, "Pompeius") == "move a Caesar block from Roma to Asculum"
    assert "C Legio 12" not in str(e.as_seen(None)) and "C Legio 12" in str(e.as_seen(0))
    vp = only(fx, "vp.changed")   # Roma is worth VP: Caesar left it
    assert vp.params["from"]["Caesar"] == vp.params["to"]["Caesar"] + 2


def test_vulcan_steps_are_private_eliminations_public_and_a_dead_leader_scores():
    pos = {"Ravenna": ["C Caesar", "C Legio 13", "C Navis 2", "C Equitatus 1"], "Neapolis": ["P Legio 1"]}
    g = command_game(pos, "2/2", "Vulcan", steps={"C Caesar": 1, "C Navis 2": 1})
    before = g.copy()
    fx = g.apply("Pompeius invokes Vulcan on Ravenna", effects=True)
    check_effects(before, g, fx)
    dead = [e for e in fx if e.kind == "block.eliminated"]
    assert {(e.params["block"], e.params["to"]) for e in dead} == {("C Caesar", "dead"), ("C Navis 2", "eliminated")}
    assert all(e.seen_by is None and e.params["cause"] == "vulcan" for e in dead)
    turned = [e for e in fx if e.kind == "block.strength"]
    assert {e.params["block"] for e in turned} == {"C Legio 13", "C Equitatus 1"}
    assert all(e.seen_by == (0,) for e in turned)
    assert instruction(dead[1] if dead[1].params["block"] == "C Navis 2" else dead[0], "Pompeius") == \
        "remove C Navis 2 from Ravenna; put it in the Caesar levy pool face up"
    leader = next(e for e in dead if e.params["block"] == "C Caesar")
    assert instruction(leader, "Caesar") == "remove Caesar from Ravenna: a dead leader, a trophy for Pompeius"
    assert only(fx, "vp.changed").params["to"]["Pompeius"] == only(fx, "vp.changed").params["from"]["Pompeius"] + 1
    assert fx.barrier == "elimination"
    assert only(fx, "phase.changed").params == {"from": "command", "to": "command", "side": "Caesar"}


def test_jupiter_pick_is_seen_by_the_owner_and_the_defector_is_named_once_moved():
    pos = {"Genua": ["C Legio 12"], "Roma": ["P Legio 1", "P Pompeius"], "Massilia": ["C Legio 11"]}
    g = command_game(pos, "Jupiter", "2/2")
    g.apply("Caesar invokes Jupiter on Roma")
    fx = g.apply("Chance picks P Legio 1", effects=True)
    pick = only(fx, "jupiter.picked")
    assert pick.visible_to(1) and pick.visible_to(0) and not pick.visible_to(None)
    assert fx.barrier == "jupiter-pick"
    fx = g.apply("Caesar sends P Legio 1 to Genua", effects=True)
    side = only(fx, "block.side")
    assert side.params == {"block": "P Legio 1", "from": "Pompeius", "to": "Caesar", "at": "Roma", "cause": "jupiter"}
    assert side.seen_by is None and only(fx, "block.moved").seen_by is None
    assert fx.barrier == "jupiter-defector"
    assert instruction(side, None) == "turn P Legio 1 in Roma to face Caesar: it now fights for Caesar"


def test_cards_dealt_and_chosen_are_private_the_reveal_public_and_a_barrier():
    g = position({"Roma": ["C Legio 12"], "Utica": ["P Legio 39"]})
    fx = g.apply(sample_chance(g, random.Random(3)), effects=True)
    assert [e.seen_by for e in fx if e.kind == "cards.dealt"] == [(0,), (1,)]
    assert fx.barrier == "deal"
    hands = [g.state.hands[0][0], g.state.hands[1][0]]
    g.apply(g.legal_actions("Caesar")[0])
    g.apply(g.legal_actions("Pompeius")[0])
    fx = g.apply(g.legal_actions("Caesar")[0], effects=True)
    assert kinds(fx) == ["card.chosen"] and fx.barrier is None and fx[0].redacted == {"side": "Caesar"}
    fx = g.apply(g.legal_actions("Pompeius")[0], effects=True)
    rev = only(fx, "cards.revealed")
    assert rev.seen_by is None and fx.barrier == "card-reveal" and rev.params["turn"] == 1
    assert rev.params["player1"] in ("Caesar", "Pompeius")
    assert hands   # the deal gave both sides cards


def test_battle_begins_reveals_rolls_hits_and_ends():
    from tests.engine_battle.helpers import battle_game
    g = battle_game({"Narbo": ["C Legio 7"], "Tarraco": ["P Legio 5"]}, ["Legio 7 Narbo-Tarraco"])
    fx = g.apply("Caesar fights Tarraco", effects=True)
    begun = only(fx, "battle.begun")
    assert begun.params["at"] == "Tarraco" and begun.params["attacker"] == "Caesar"
    assert {x["block"] for x in begun.params["revealed"]} == {"C Legio 7", "P Legio 5"}
    assert fx.barrier == "battle-reveal" and instruction(begun, None).startswith("battle in Tarraco")
    seen = set()
    for _ in range(60):
        if g.state.phase != "battle":
            break
        prev = g.copy()
        a = sample_chance(g, random.Random(1)) if g.is_chance_node() else \
            next((x for x in g.legal_actions() if type(x).__name__ == "Fire"), g.legal_actions()[0])
        fx = g.apply(a, effects=True)
        check_effects(prev, g, fx)
        seen |= set(kinds(fx))
        if type(a).__name__ == "Roll":
            roll = only(fx, "dice.rolled")
            assert roll.seen_by is None and roll.params["faces"] == list(a.faces) and fx.barrier == "dice"
    assert "battle.ended" in seen and ("block.strength" in seen or "block.eliminated" in seen)


def test_effects_named_on_demand_equal_those_named_at_once_whenever_they_are_asked():
    """apply() names nothing unless asked: asked right after the action (from
    its snapshot), long after (by replay from a checkpoint), from a copy, after an undo, or
    never asked before a history: the same effects and barriers as effects=True gives."""
    rng = random.Random(5)
    eager, lazy, untouched = Game(), Game(), Game()
    for n in range(160):
        a = sample_chance(eager, rng) if eager.is_chance_node() else rng.choice(eager.legal_actions())
        fx = eager.apply(a, effects=True)
        assert lazy.apply(a) is None and untouched.apply(a, checked=False) is None
        if n % 3 == 0:
            assert [e.to_json() for e in lazy.effects_at(-1)] == [e.to_json() for e in fx]
        if n % 7 == 0:
            assert lazy.copy().can_undo() == eager.can_undo()
    for i in (0, 1, 40, 77, 159, -1):
        assert eager.effects_at(i).to_json() == lazy.effects_at(i).to_json() == untouched.effects_at(i).to_json()
    for v in (None, "Caesar", "Pompeius"):
        assert eager.history_for(v) == lazy.history_for(v) == untouched.history_for(v)
    while eager.can_undo():
        assert untouched.can_undo() and eager.undo() == untouched.undo()
        assert eager.effects_at(-1).to_json() == untouched.effects_at(-1).to_json()
    assert not untouched.can_undo()
    assert eager.history_for("Caesar") == untouched.history_for("Caesar")


def test_vulcan_turns_cleopatra_in_public_and_the_year_end_stands_face_up_blocks_up():
    g = command_game({"Alexandria": ["Cleopatra", "P Legio 38"], "Roma": ["C Legio 12"]}, "Vulcan", "2/2",
                     steps={"Cleopatra": 1, "P Legio 38": 1})
    before = g.copy()
    fx = g.apply("Caesar invokes Vulcan on Alexandria", effects=True)
    check_effects(before, g, fx)
    side = only(fx, "block.side")
    assert side.params == {"block": "Cleopatra", "from": "Pompeius", "to": "Caesar", "at": "Alexandria",
                           "cause": "cleopatra"}
    assert side.seen_by is None and fx.barrier in ("elimination", "cleopatra")
    gone = only(fx, "block.eliminated")
    assert gone.params["block"] == "P Legio 38" and gone.params["to"] == "eliminated"
    # later the year ends: the face-up block stands up again, in public
    rng = random.Random(7)
    while g.state.year == 705 and not g.is_over():
        prev = g.copy()
        fx = g.apply(sample_chance(g, rng) if g.is_chance_node() else rng.choice(g.legal_actions()), effects=True)
        check_effects(prev, g, fx)
    assert g.state.year == 706
    back = [e for e in fx if e.kind == "block.returned"]
    assert {e.params["block"] for e in back} >= {"P Legio 38"} and all(e.seen_by is None for e in back)
    assert instruction(back[0], "Caesar").startswith("stand ")
    assert only(fx, "year.changed").params == {"from": 705, "to": 706}

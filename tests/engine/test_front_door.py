"""The engine's front door: `import engine` gives the game, with one name per
thing: `Side`, `Phase`, a typed `Outcome` with a code, errors under one root, take-backs only
when asked, one name for the chance actor, and a `repr` that round-trips."""
from __future__ import annotations

import json
import random

import pytest

import engine
from engine import (
    CHANCE_NAME,
    SIDES,
    AmbiguousName,
    CorruptSave,
    DeadEnd,
    EngineError,
    Game,
    IllegalAction,
    Outcome,
    ParseError,
    Phase,
    RecordError,
    Side,
    TakeBack,
    UnknownName,
    game_rng,
    parse_action,
    play_game,
    sample_chance,
)
from engine.victory import CODES, DRAWN, MORE_VP, ROME_DECIDES, TEN_VP, verdict

from .helpers import command_game


def test_import_engine_gives_every_name_it_lists():
    assert all(hasattr(engine, name) for name in engine.__all__)
    assert {"Game", "parse_action", "Side", "Phase", "Outcome", "EngineError", "Move"} <= set(engine.__all__)


def test_a_side_is_its_name_and_knows_its_id():
    assert Side.CAESAR == "Caesar" and Side.POMPEIUS.id == 1 and Side.CAESAR.other is Side.POMPEIUS
    assert SIDES == ("Caesar", "Pompeius") and all(isinstance(s, Side) for s in SIDES)
    assert Side.of(1) is Side.POMPEIUS and json.dumps({Side.CAESAR: Side.POMPEIUS}) == '{"Caesar": "Pompeius"}'
    g = command_game({"Roma": ["C Legio 12"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    assert g.legal_actions(Side.CAESAR) == g.legal_actions("Caesar") and g.current_players() == [Side.CAESAR]


def test_phases_are_an_enum_and_the_state_holds_one():
    g = Game()
    assert g.state.phase is Phase.DEAL and Phase.COMMAND == "command" and list(Phase)[-1] is Phase.OVER


def test_errors_have_one_root_and_keep_their_builtins():
    for cls, builtin in ((IllegalAction, ValueError), (ParseError, ValueError), (CorruptSave, ValueError),
                         (RecordError, ValueError), (UnknownName, LookupError), (AmbiguousName, LookupError),
                         (DeadEnd, RuntimeError)):
        assert issubclass(cls, EngineError) and issubclass(cls, builtin), cls
    with pytest.raises(EngineError):
        Game().apply("Caesar flies to Roma")
    assert not hasattr(engine, "PhaseNotAvailable")


def test_the_chance_actor_has_one_name_everywhere():
    g = Game()
    assert CHANCE_NAME == "Chance" and g.current_players() == [CHANCE_NAME]
    assert g.pending()[0].actor == CHANCE_NAME
    g.apply(sample_chance(g, random.Random(1)))
    assert g.history[0].startswith(f"{CHANCE_NAME} deals") and g.history_for(None)[0]["actor"] == CHANCE_NAME
    assert g.legal_actions("chance") == [] == g.legal_actions("Chance")   # read in any case


def test_take_back_is_listed_only_when_asked_but_stays_a_decision():
    g = command_game({"Roma": ["C Legio 12", "C Legio 8"], "Utica": ["P Legio 39"]}, "2/3", "1/2")
    g.apply("Caesar moves Legio 12 Roma-Asculum")
    assert not any(isinstance(a, TakeBack) for a in g.legal_actions())
    assert not any(isinstance(a, TakeBack) for a in g.legal_listing()) and g.legal_count() == len(g.legal_actions())
    asked = g.legal_actions(take_back=True)
    assert asked[-1] == TakeBack(0) and asked[:-1] == g.legal_actions()
    assert TakeBack(0) in g.pending()[0].options
    g.apply("Caesar takes back")   # still accepted


def test_repr_of_every_action_of_a_game_evaluates_back_to_it():
    game, record = play_game(game_rng(7, 0))
    names = {name: getattr(engine, name) for name in engine.__all__}
    for action in record + game.legal_actions():
        again = eval(repr(action), names)   # noqa: S307 - the point of the test
        assert again == action and type(again) is type(action)
    assert repr(parse_action("Caesar moves Legio 13 Ravenna-Roma")) == \
        "Move.from_line('Caesar moves Legio 13 Ravenna-Roma')"
    with pytest.raises(ParseError):
        engine.Move.from_line("Caesar ends command")


def test_the_outcome_is_typed_and_coded():
    assert verdict((10, 4), None, False) == (0, TEN_VP)
    assert verdict((11, 10), 1, False) == (0, MORE_VP) and verdict((6, 8), 0, True) == (1, MORE_VP)
    assert verdict((10, 10), 1, False) == (1, ROME_DECIDES) and verdict((7, 7), None, True) == (None, DRAWN)
    assert verdict((9, 9), 0, False) is None
    seen = set()
    for i in range(6):
        game, _ = play_game(game_rng(3, i))
        o = game.outcome()
        assert isinstance(o, Outcome) and o.code in CODES and o.rule == "1.2"
        assert o.winner in (None, Side.CAESAR, Side.POMPEIUS) and o.draw == (o.winner is None)
        assert o.vp == {Side.CAESAR: game.vp("Caesar"), Side.POMPEIUS: game.vp("Pompeius")}
        r = game.result()
        assert r == o.to_json() and r["reason"] == o.reason and json.loads(json.dumps(r)) == r
        assert set(r) == {"winner", "code", "rule", "year", "vp", "reason"}
        seen.add(o.code)
    assert seen
    assert Game().outcome() is None and Game().result() is None

"""Structured refusals of the card and command phases (ENGINE-API item 3): rule, stable code,
JSON-safe params; the refusals found misleading; the wrong side and stale decisions."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from engine.actions import Discard, Play
from engine.board import BOARD
from engine.errors import IllegalAction
from engine.state import CHANCE

from .helpers import command_game, deal, position, refused, year_begun

ROOT = Path(__file__).resolve().parent.parent.parent
OWNED = ("card_phase.py", "command_phase.py", "refusals.py", "movement.py", "levy.py", "events_cards.py", "game.py")
CODE = re.compile(r"^(id|move|levy|step|card|turn|command|event|jupiter|vulcan|main|phase|action|game)\.[a-z-]+$")


def _code(g, action, code: str, rule: str | None, match: str = ".") -> IllegalAction:
    e = refused(g, action, match)
    assert (e.code, e.rule) == (code, rule), e.to_json()
    assert g.explain(action).to_json() == e.to_json()
    json.dumps(e.to_json())
    return e


def _discard_fillers(g, keep_caesar: str, keep_pompeius: str) -> None:
    for side, keep in ((0, keep_caesar), (1, keep_pompeius)):
        card = next(c for c in g.state.hands[side] if c != BOARD.card(keep))
        g.apply(Discard(side, card))


# --- the catalogue ------------------------------------------------------------------------------

def test_every_code_raised_in_these_modules_is_in_the_catalogue():
    doc = (ROOT / "docs" / "refusals.md").read_text()
    listed = set(re.findall(r"^\| `([a-z]+\.[a-z-]+)` \|", doc, re.M))
    raised = set()
    for name in OWNED:
        tree = ast.parse((ROOT / "engine" / name).read_text())
        raised |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and CODE.match(n.value)}
    assert len(raised) > 60
    assert raised - listed == set()
    assert listed - raised == set()


# --- the refusals found misleading ----------------------------------------------

def test_a_move_after_both_events_says_the_turn_was_cancelled_and_what_is_awaited():
    g = command_game({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]}, "Mars", "Vulcan")
    assert (g.state.turn, g.state.phase) == (2, "card")
    e = _code(g, "Caesar moves Legio 11 Massilia-Narbo", "turn.cancelled", "2.1",
              r"^2\.1 turn 1 was cancelled: both players played events \(Caesar Mars, Pompeius Vulcan\)")
    assert e.params == {"turn": 1, "cards": {"Caesar": "Mars", "Pompeius": "Vulcan"},
                        "awaited": "Caesar's and Pompeius's card for turn 2"}
    g.apply("Pompeius plays 2/2")
    e = _code(g, "Pompeius ends command", "turn.cancelled", "2.1", "awaiting Caesar's card for turn 2")


def test_a_move_after_turn_5_was_cancelled_says_so_in_the_winter():
    g = position({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]})
    deal(g, ["Mars"], ["Vulcan"])
    _discard_fillers(g, "Mars", "Vulcan")
    g.state.turn = 5
    g.apply("Caesar plays Mars")
    g.apply("Pompeius plays Vulcan")
    assert g.state.phase == "winter"
    _code(g, "Caesar moves Legio 11 Massilia-Narbo", "turn.cancelled", "2.1", "turn 5 was cancelled")


def test_after_two_amphibious_moves_the_mp_they_spent_are_counted():
    g = command_game({"Genua": ["C Legio 8", "C Legio 12"], "Roma": ["C Legio 7"], "Mare Hispanum": ["C Navis 1"],
                      "Alexandria": ["P Legio 38"]}, "2/1", "1/2")
    g.apply("Caesar moves Legio 8 Genua-Mare Hispanum-Narbo")
    g.apply("Caesar moves Legio 12 Genua-Mare Hispanum-Massilia")
    e = _code(g, "Caesar moves Legio 7 Roma-Genua", "move.no-mp-left", "6.1",
              r"the 2/1 card gives 2 MP, all spent \(2 on amphibious blocks\)")
    assert e.params == {"location": "Roma", "card": "2/1", "mp": 2, "activated": 0, "amphibious": 2}
    assert "0 location" not in str(e)


def test_a_three_sea_navis_move_is_refused_by_6_2_without_mercury():
    g = command_game({"Massilia": ["C Legio 11", "C Navis 1"], "Alexandria": ["P Legio 38"]})
    e = _code(g, "Caesar moves Navis 1 Massilia-Mare Hispanum-Mare Tyrrhenum-Mare Internum", "move.too-far", "6.2",
              r"^6\.2 navis move one or two seas")
    assert "Mercury" not in str(e) and e.params == {"block": "Navis 1", "steps": 3, "limit": 2}
    e = _code(g, "Caesar moves Legio 11 Massilia-Genua-Roma-Neapolis", "move.too-far", "6.1")
    assert e.params["limit"] == 2


def test_event_cards_cite_their_own_text_not_the_general_rule():
    g = command_game({"Massilia": ["C Legio 7"], "Alexandria": ["P Legio 38"]}, "Mars", "2/2")
    _code(g, "Caesar levies Auxilia 1 in Massilia", "levy.card-gives-none", "2.1", "the Mars card gives no levy")
    g = command_game({"Massilia": ["C Legio 7"], "Alexandria": ["P Legio 38"]}, "Vulcan", "2/2")
    _code(g, "Caesar moves Legio 7 Massilia-Narbo", "move.card-gives-none", "2.1")
    _code(g, "Caesar invokes Vulcan on Mare Hispanum", "vulcan.not-enemy-city", "2.1", "Mare Hispanum is a sea")


def test_params_name_blocks_as_the_actor_sees_them():
    g = command_game({"Genua": ["C Legio 8"], "Neapolis": ["P Legio 1"]})
    e = _code(g, "Caesar moves P Legio 1 Neapolis-Roma", "move.not-own-block", "6.1")
    assert e.params == {"block": "P Legio 1", "side": "Caesar"}
    e = _code(g, "Caesar levies Legio 17 in Genua", "levy.not-named-city", "6.4")
    assert e.params == {"block": "Legio 17", "city": "Roma", "location": "Genua"}


# --- the wrong side, and a stale decision answered twice ---------------------------------------

def test_pompeius_acting_in_caesars_command_is_told_who_is_awaited():
    g = command_game({"Genua": ["C Legio 8"], "Neapolis": ["P Legio 1"]})
    e = _code(g, "Pompeius moves Legio 1 Neapolis-Roma", "turn.not-yours", "6.0", "it is Caesar's turn")
    assert e.params == {"actor": "Pompeius",
                        "awaited": "Caesar's command (Player 1, turn 1): moves, levies or ends command"}
    _code(g, "Chance picks P Legio 1", "turn.chance-not-due", "6.0", "no chance action is due")
    _code(g, "Pompeius plays 2/2", "phase.wrong-action", "2.1", "not a command-phase action")


def test_a_player_at_a_chance_node_is_told_chance_acts_first():
    g = position({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]})
    _code(g, "Caesar discards 2/2", "turn.chance-due", "2.1", "awaiting Chance's deal of 705")
    g = command_game({"Genua": ["C Legio 12"], "Roma": ["P Legio 1"]}, "Jupiter", "2/2")
    g.apply("Caesar invokes Jupiter on Roma")
    e = _code(g, "Caesar ends command", "turn.chance-due", "2.1", "Jupiter's block is picked blind first")
    assert e.params["awaited"] == "Chance's blind pick of the block Caesar touches in Roma (Jupiter)"
    _code(g, "Pompeius ends command", "turn.chance-due", "2.1")


def test_a_second_discard_and_a_second_play_are_stale():
    g = position({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]})
    deal(g, ["Apollo"], ["Mars"])
    caesar_filler = next(c for c in g.state.hands[0] if c != BOARD.card("Apollo"))
    g.apply(Discard(0, caesar_filler))
    e = _code(g, Discard(0, BOARD.card("Apollo")), "card.already-discarded", "2.1", "awaiting Pompeius's discard")
    assert e.params["actor"] == "Caesar"
    g.apply(Discard(1, next(c for c in g.state.hands[1] if c != BOARD.card("Mars"))))
    g.apply("Pompeius plays Mars")
    _code(g, Play(1, g.state.hands[1][0]), "card.already-played", "2.1",
          "Pompeius has already chosen his card for turn 1; awaiting Caesar's card for turn 1")


def test_ends_command_after_the_command_passed_on_is_stale():
    g = command_game({"Genua": ["C Legio 8"], "Neapolis": ["P Legio 1"]})
    g.apply("Caesar ends command")
    e = _code(g, "Caesar ends command", "command.ended", "6.0", "Caesar's command phase of turn 1 has ended")
    assert e.params["awaited"] == "Pompeius's command (Player 2, turn 1): moves, levies or ends command"
    _code(g, "Caesar moves Legio 8 Genua-Roma", "command.ended", "6.0")


def test_chance_is_not_a_card_player_and_bad_actors_are_malformed():
    g = year_begun(["Apollo"], ["Mars"], ("2/1", "2/1"))
    _code(g, Play(CHANCE, BOARD.card("Mars")), "card.not-a-player", "2.1")
    _code(g, Play(-1, BOARD.card("Mars")), "action.malformed", None)
    _code(g, Play(0, 99), "action.malformed", None)

"""Card phase (2.1) and the card rulings: deal, discard, simultaneous play, Player 1,
cancellation, Apollo, and what each event gives in the command phase."""
import random

import pytest

from engine.actions import Deal, Play
from engine.board import BOARD, CAESAR, POMPEIUS
from engine.errors import IllegalAction
from engine.game import Game, sample_chance

from .helpers import command_game, deal, position, refused, year_begun


def cards(*names):
    return tuple(sorted(BOARD.card(n) for n in names))


def test_deck_is_27_cards_7_events_20_commands():
    names = [BOARD.cards[c].name for c in BOARD.deck]
    assert len(names) == 27
    assert sum(1 for c in BOARD.deck if BOARD.cards[c].event) == 7
    expected = {"4/1": 1, "3/2": 2, "3/1": 3, "2/3": 4, "2/2": 4, "2/1": 3, "1/3": 1, "1/2": 2}
    for n, k in expected.items():
        assert names.count(n) == k


def test_year_starts_with_a_chance_deal_then_both_discard_secretly():
    g = Game()
    assert g.current_players() == ["Chance"]
    assert g.legal_actions() == []
    g.apply(sample_chance(g, random.Random(3)))
    assert g.current_players() == ["Caesar", "Pompeius"]
    assert all(len(h) == 6 for h in g.state.hands)
    c = g.legal_actions("Caesar")[0]
    g.apply(c)
    assert g.current_players() == ["Pompeius"]
    assert g.view(None)["has_discarded"] == {"Caesar": True, "Pompeius": False}
    assert "discard" not in g.view("Pompeius") or g.view("Pompeius")["discard"] is None
    g.apply(g.legal_actions("Pompeius")[0])
    assert g.state.phase == "card" and g.current_players() == ["Caesar", "Pompeius"]


def test_deal_must_fit_the_deck():
    g = Game()
    refused(g, Deal(cards("Apollo", "Apollo", "4/1", "3/2", "3/2", "3/1"),
                    cards("2/1", "2/1", "2/1", "1/3", "1/2", "1/2")),
            "deck holds only 1 Apollo")
    refused(g, Deal(cards("4/1", "3/2"), cards("2/1", "2/1", "2/1", "1/3", "1/2", "1/2")), "6 cards")


def test_cards_are_revealed_together_and_higher_moves_is_player_1():
    g = year_begun(["3/2", "2/1"],
                   ["2/2", "1/3"], ("2/1", "1/3"))
    g.apply("Pompeius plays 2/2")
    # chosen but not revealed: the opponent (and the public) only know that he has chosen
    assert g.view("Caesar")["has_chosen"]["Pompeius"] is True
    assert "2/2" not in str(g.view("Caesar")["revealed"])
    assert g.state.phase == "card"
    g.apply("Caesar plays 3/2")
    assert g.state.phase == "command"
    assert g.state.player1 == CAESAR and g.current_players() == ["Caesar"]
    assert g.view(None)["revealed"][0]["Pompeius"] == "2/2"


def test_game_turn_example_tie_on_moves_makes_caesar_player_1():
    # Rulebook game-turn example: Caesar 2/1, Pompey 2/2 -> tied on moves, Caesar is Player 1;
    # Caesar: 2 moves then 1 levy; Pompey: 2 moves then 2 levies.
    g = command_game({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]}, "2/1", "2/2")
    cmd = g.state.cmd
    assert g.state.player1 == CAESAR and (cmd.side, cmd.mp, cmd.lp) == (CAESAR, 2, 1)
    g.apply("Caesar ends command")
    cmd = g.state.cmd
    assert (cmd.side, cmd.mp, cmd.lp) == (POMPEIUS, 2, 2)


def test_pompeius_is_player_1_with_more_moves():
    g = command_game({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]}, "1/2", "3/1")
    assert g.state.player1 == POMPEIUS


def test_event_player_is_player_1_even_with_fewer_moves():
    g = command_game({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]}, "4/1", "Mars")
    assert g.state.player1 == POMPEIUS
    assert (g.state.cmd.mp, g.state.cmd.lp, g.state.cmd.event) == (1, 0, "Mars")


def test_both_events_cancel_and_the_turn_ends():
    g = command_game({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]}, "Jupiter", "Vulcan")
    assert g.state.phase == "card" and g.state.turn == 2
    assert g.view(None)["revealed"][0]["cancelled"] is True


def test_player_must_play_a_card_he_holds_once():
    g = position({"Massilia": ["C Legio 11"]})
    deal(g, ["3/2", "3/1", "2/1", "2/1", "1/2", "4/1"], ["2/2", "2/3", "2/3", "1/3", "3/1", "3/1"])
    g.apply("Caesar discards 3/1")
    refused(g, "Caesar plays 3/2", r"2.1 cards are played in the card phase")
    g.apply("Pompeius discards 2/3")
    refused(g, "Caesar plays Apollo", "holds no Apollo")
    g.apply("Caesar plays 3/2")
    refused(g, "Caesar plays 4/1", "already chosen")


def _play_turn(g, c, p):
    g.apply(f"Caesar plays {c}")
    g.apply(f"Pompeius plays {p}")
    while g.state.phase == "command":
        g.apply(f"{g.current_players()[0]} ends command")


def test_apollo_cannot_open_a_year_and_copies_the_opponents_previous_card():
    g = year_begun(["Apollo", "2/1", "1/2", "2/3", "3/1", "3/1"],
                   ["4/1", "2/2", "Pluto", "2/3", "3/2", "3/2"], ("2/3", "2/3"))
    assert Play(CAESAR, BOARD.card("Apollo")) not in g.legal_actions("Caesar")
    refused(g, "Caesar plays Apollo", "first turn of a year")
    _play_turn(g, "2/1", "4/1")
    g.apply("Caesar plays Apollo")
    g.apply("Pompeius plays 2/2")
    # Apollo counts as Pompeius' 4/1 of the previous turn: 4 moves against 2, Caesar is Player 1
    assert g.state.player1 == CAESAR
    cmd = g.state.cmd
    assert (BOARD.cards[cmd.card].name, cmd.mp, cmd.lp) == ("4/1", 4, 1)


def test_apollo_copying_apollo_copies_what_it_became():
    g = year_begun(["Apollo", "2/1", "1/2", "2/3", "1/2", "3/2"],
                   ["3/1", "2/2", "1/3", "2/3", "3/1", "3/1"], ("2/3", "2/3"))
    _play_turn(g, "2/1", "3/1")          # turn 1
    _play_turn(g, "Apollo", "2/2")       # turn 2: Caesar's Apollo becomes 3/1
    assert BOARD.cards[g.state.revealed[-1][2]].name == "3/1"
    # Pompeius cannot hold Apollo too (one in the deck); check the rule through the state
    from engine.card_phase import effective_card
    assert BOARD.cards[effective_card(g.state, POMPEIUS, BOARD.card("Apollo"))].name == "3/1"


def test_apollo_after_a_cancelled_turn_copies_the_card_as_played():
    g = year_begun(["Apollo", "Mars", "2/3", "2/1", "1/2", "3/1"],
                   ["Vulcan", "2/2", "2/3", "3/2", "3/2", "4/1"], ("2/3", "2/3"))
    g.apply("Caesar plays Mars")
    g.apply("Pompeius plays Vulcan")          # both events: cancelled
    assert g.state.turn == 2
    g.apply("Caesar plays Apollo")
    g.apply("Pompeius plays 2/2")
    assert g.state.cmd.event == "Vulcan" and g.state.player1 == CAESAR


@pytest.mark.parametrize("event,mp,lp", [("Mars", 1, 0), ("Neptune", 1, 0), ("Mercury", 1, 0),
                                         ("Pluto", 1, 0), ("Jupiter", 0, 0), ("Vulcan", 0, 0)])
def test_what_each_event_gives(event, mp, lp):
    g = command_game({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]}, event, "2/2")
    cmd = g.state.cmd
    assert (cmd.event, cmd.mp, cmd.lp) == (event, mp, lp)


def test_wrong_phase_and_wrong_player_are_refused():
    g = Game()
    refused(g, "Caesar plays 3/2", "card phase")
    refused(g, "Caesar moves Legio 13 Ravenna-Roma", "2.1")
    refused(g, "Chance picks P Legio 1", "not a card-phase action")
    with pytest.raises(IllegalAction, match="only Chance"):
        g.apply("Caesar deals Caesar: 4/1; Pompeius: 3/2")


@pytest.mark.parametrize("first,second", [("Pluto", "2/2"), ("2/2", "Pluto")])
def test_apollo_copying_an_event_executes_it_and_apollo_against_an_event_cancels(first, second):
    g = year_begun(["Apollo", "2/1", "2/3", "3/1", "1/2", "1/2"],
                   ["Pluto", "2/2", "2/3", "3/2", "3/2", "4/1"], ("2/3", "2/3"))
    _play_turn(g, "2/1", first)
    g.apply("Caesar plays Apollo")
    g.apply(f"Pompeius plays {second}")
    if second == "Pluto":   # Apollo counts as an event as played: both events, both cancelled
        assert g.state.turn == 3 and g.view(None)["revealed"][1]["cancelled"] is True
    else:                   # Apollo becomes Pompeius' Pluto of turn 1
        assert g.state.cmd.event == "Pluto" and g.state.player1 == CAESAR


def test_sample_chance_is_reproducible_and_takes_a_game_or_a_state():
    a = sample_chance(Game(), random.Random(5))
    b = sample_chance(Game().state, random.Random(5))
    assert a == b and isinstance(a, Deal)
    assert a != sample_chance(Game(), random.Random(6))

"""The known dead ends of other engines, each played on to a result: Vulcan with no enemy city,
Apollo copying an Apollo, an amphibious move that cannot land, a side with no blocks left."""
import random

from engine.actions import Move
from engine.board import BOARD, POMPEIUS
from engine.selfplay import play_game

from .helpers import B, L, command_game, position, start_turn
from .invariants import Checker


def finishes(game, seed=0):
    """Random play from `game` reaches a result (play_game raises DeadEnd otherwise)."""
    done, _ = play_game(random.Random(seed), game=game, after=Checker())
    assert done.result() is not None
    return done


def test_vulcan_with_no_enemy_city_is_no_dead_end():
    # Pompeius holds no city at all: only a navis at sea.
    g = command_game({"Roma": ["C Legio 7"], "Mare Internum": ["P Navis 1"], "Alexandria": []},
                     "Vulcan", "2/3")
    assert g.state.player1 == 0
    assert [str(a) for a in g.legal_actions()] == ["Caesar ends command"]
    finishes(g)


def test_apollo_copying_an_apollo_counts_as_what_it_became():
    g = position({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"]})
    start_turn(g, "2/2", "3/1")
    g.apply("Pompeius ends command")
    g.apply("Caesar ends command")
    st = g.state
    apollo = BOARD.card("Apollo")
    # Rewrite turn 1 as if Pompeius' card had been an Apollo that counted as 3/1 (only one
    # Apollo is in the deck, so the position is built by hand).
    st.revealed[-1][1] = apollo
    st.hands[0][0] = apollo
    g.apply("Caesar plays Apollo")
    g.apply(f"Pompeius plays {BOARD.cards[st.hands[1][0]].name}")
    assert st.revealed[-1][2] == BOARD.card("3/1")
    assert g.legal_actions(), "the Apollo player can act"
    finishes(g)


def test_amphibious_move_that_cannot_land_is_not_offered():
    # Caesar's navis makes Mare Aegypticum friendly, but every other port on it is enemy.
    aegypticum_ports = [BOARD.loc_names[p] for p in BOARD.sea_ports[L("Mare Aegypticum")]]
    placements = {"Mare Aegypticum": ["C Navis 1"], "Alexandria": ["C Legio 7"]}
    pompeius = iter(b.key for b in BOARD.blocks if b.side == POMPEIUS and b.type == "legion")
    for port in aegypticum_ports:
        if port != "Alexandria":
            placements[port] = [next(pompeius)]
    g = command_game(placements)
    legion = B("C Legio 7")
    sea_paths = [a for a in g.legal_actions()
                 if isinstance(a, Move) and a.block == legion and any(BOARD.is_sea[x] for x in a.path)]
    assert sea_paths == []
    assert any(isinstance(a, Move) and a.block == legion for a in g.legal_actions())  # by land still
    finishes(g)


def test_a_side_with_no_blocks_left_plays_on_to_a_result():
    g = position({"Roma": ["C Legio 7"], "Massilia": ["C Legio 8"]})   # Pompeius: nothing on the map
    assert g.state.count[L("Alexandria")][POMPEIUS] == 0
    done = finishes(g, seed=3)
    assert done.result()["winner"] in ("Caesar", "Pompeius", None)


def test_both_sides_emptied_by_winter_disbanding_play_on():
    # Disband everything (Cleopatra cannot be disbanded) and keep playing.
    g = position({"Roma": ["C Legio 7"], "Alexandria": ["Cleopatra"]})
    finishes(g, seed=11)

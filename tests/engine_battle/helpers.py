"""Helpers for battle and winter tests: reach a battle through the real card and command
phases, and read the fight in progress."""
from __future__ import annotations

from engine.battle import current_fight
from engine.board import BOARD
from engine.game import Game
from tests.engine.helpers import B, L, command_game, position, refused, start_turn  # noqa: F401


def battle_game(placements: dict[str, list[str]], caesar_moves: list[str], pompeius_moves: list[str] = (),
                cards: tuple[str, str] = ("4/1", "2/3"), **kw) -> Game:
    """A game in the battle phase after Caesar (Player 1 with the default cards) and then
    Pompeius made the given moves ("Legio 7 Narbo-Tarraco")."""
    g = command_game(placements, *cards, **kw)
    first, second = ("Caesar", "Pompeius") if g.state.player1 == 0 else ("Pompeius", "Caesar")
    moves = {"Caesar": caesar_moves, "Pompeius": pompeius_moves}
    for side in (first, second):
        for m in moves[side]:
            g.apply(f"{side} moves {m}")
        g.apply(f"{side} ends command")
    assert g.state.phase == "battle", g.state.phase
    return g


def fight(g: Game):
    f = current_fight(g.state)
    assert f is not None, "no battle is being fought"
    return f


def eligible(g: Game) -> list[str]:
    return sorted(BOARD.blocks[b].key for b in fight(g).eligible())


def acting_blocks(g: Game) -> set[str]:
    return {BOARD.blocks[a.block].key for a in g.legal_actions() if hasattr(a, "block")}


def lines(g: Game) -> set[str]:
    return {str(a) for a in g.legal_actions()}


def pass_all(g: Game, rounds_to: int) -> None:
    """Every block passes (attackers in round 4 excepted) until round `rounds_to` begins."""
    while fight(g).d["round"] < rounds_to:
        a = next(a for a in g.legal_actions() if type(a).__name__ == "Pass")
        g.apply(a)


def steps(g: Game, key: str) -> int:
    return g.state.steps[B(key)]

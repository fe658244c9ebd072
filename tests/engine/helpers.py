"""Test helpers: build a position (blocks placed by hand) and bring it to a command phase
through the real card phase (deal, discard, play, reveal)."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.actions import Deal
from engine.board import BOARD
from engine.errors import IllegalAction
from engine.game import Game
from engine.state import GameState

L = BOARD.location


def B(key: str) -> int:
    return BOARD.block(key)


def position(placements: dict[str, list[str]], *, steps: dict[str, int] | None = None,
             dead: tuple[str, ...] = (), eliminated: tuple[str, ...] = (), options=None) -> Game:
    """A game in the deal phase with only the given blocks on the map (keys like "C Legio 13"),
    every other block standing in its levy pool."""
    st = GameState(options, empty=True)
    for loc, keys in placements.items():
        for k in keys:
            st.place(B(k), L(loc))
    for k, n in (steps or {}).items():
        st.steps[B(k)] = n
    for k in dead:
        st.loc[B(k)] = -3
    for k in eliminated:
        st.loc[B(k)] = -2
    return Game(state=st)


def deal(game: Game, caesar: list[str], pompeius: list[str]) -> None:
    """Deal hands holding the named cards, filled up with command cards from the rest of the deck."""
    want = [[BOARD.card(c) for c in caesar], [BOARD.card(c) for c in pompeius]]
    rest = Counter(BOARD.deck) - Counter(want[0]) - Counter(want[1])
    fillers = [c for c in sorted(rest.elements(), key=lambda k: (BOARD.cards[k].event, -k)) if not BOARD.cards[c].event]
    hands = []
    for w in want:
        need = 6 - len(w)
        hands.append(tuple(sorted(w + fillers[:need])))
        fillers = fillers[need:]
    game.apply(Deal(hands[0], hands[1]))


def year_begun(caesar: list[str], pompeius: list[str], discards: tuple[str, str]) -> Game:
    """A small position in the card phase of turn 1: full hands dealt, both discards made."""
    g = position({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]})
    deal(g, caesar, pompeius)
    g.apply(f"Caesar discards {discards[0]}")
    g.apply(f"Pompeius discards {discards[1]}")
    return g


def start_turn(game: Game, caesar_card: str, pompeius_card: str) -> None:
    """From the deal phase: deal, discard a filler each, play the two cards (turn 1)."""
    deal(game, [caesar_card], [pompeius_card])
    for side, keep in (("Caesar", caesar_card), ("Pompeius", pompeius_card)):
        hand = game.state.hands[0 if side == "Caesar" else 1]
        filler = next(c for c in hand if c != BOARD.card(keep))
        game.apply(f"{side} discards {BOARD.cards[filler].name}")
    game.apply(f"Caesar plays {caesar_card}")
    game.apply(f"Pompeius plays {pompeius_card}")


def command_game(placements, caesar_card="4/1", pompeius_card="1/2", **kw) -> Game:
    g = position(placements, **kw)
    start_turn(g, caesar_card, pompeius_card)
    return g


def snapshot(game: Game) -> str:
    return json.dumps(game.state.to_json(), sort_keys=True)


def refused(game: Game, action, match: str) -> IllegalAction:
    """Assert the action is refused with a message matching `match` and the state unchanged."""
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=match) as info:
        game.apply(action)
    assert snapshot(game) == before
    return info.value


def destinations(game: Game, key: str) -> set[str]:
    b = B(key)
    return {BOARD.loc_names[a.path[-1]] for a in game.legal_actions()
            if getattr(a, "block", None) == b and hasattr(a, "path")}

"""The card phase (2.1): the yearly deal, the secret discard, the simultaneous secret play,
the reveal, Player 1, both-events cancellation and Apollo.

Phases served: deal (chance), discard and card (both players at once).
"""
from __future__ import annotations

import random
from collections import Counter

from . import turns
from .actions import Deal, Discard, Play, card_name
from .board import BOARD, CAESAR, CHANCE, POMPEIUS, SIDES, actor_name
from .errors import IllegalAction
from .state import CARD, DEAL, DISCARD, GameState, other

HAND_SIZE = 6
APOLLO = BOARD.card("Apollo")


def current_players(state: GameState) -> tuple[int, ...]:
    if state.phase == DEAL:
        return (CHANCE,)
    pending = state.discards if state.phase == DISCARD else state.chosen
    c, p = pending[CAESAR] is None, pending[POMPEIUS] is None
    return (CAESAR, POMPEIUS) if c and p else (CAESAR,) if c else (POMPEIUS,) if p else ()


def legal_actions(state: GameState, side: int) -> list:
    if side not in current_players(state) or side == CHANCE:
        return []
    if state.phase == DISCARD:
        discards = _DISCARDS[side]
        return [discards[c] for c in sorted(set(state.hands[side]))]
    plays = _PLAYS[side]
    return [plays[c] for c in sorted(set(state.hands[side])) if playable(state, c)]


# The listing hands out these immutable values rather than making new ones at every call.
_DISCARDS = tuple(tuple(Discard(side, c) for c in range(len(BOARD.cards))) for side in (CAESAR, POMPEIUS))
_PLAYS = tuple(tuple(Play(side, c) for c in range(len(BOARD.cards))) for side in (CAESAR, POMPEIUS))


def playable(state: GameState, card: int) -> bool:
    return not (card == APOLLO and state.turn == 1)


def apply(state: GameState, action) -> None:
    cards = (*getattr(action, "caesar", ()), *getattr(action, "pompeius", ()), getattr(action, "card", 0))
    bad = next((c for c in cards if not 0 <= c < len(BOARD.cards)), None)
    if bad is not None:
        raise IllegalAction(f"no card number {bad}")
    if isinstance(action, (Discard, Play)) and action.actor not in (CAESAR, POMPEIUS):
        who = actor_name(action.actor) if action.actor == CHANCE else f"actor {action.actor}"
        raise IllegalAction(f"2.1 only Caesar and Pompeius hold, discard and play cards, not {who}")
    if isinstance(action, Deal):
        _deal(state, action)
    elif isinstance(action, Discard):
        _discard(state, action)
    elif isinstance(action, Play):
        _play(state, action)
    else:
        raise IllegalAction(f"2.1 card phase: {action} is not a card-phase action "
                            f"(phase {state.phase}, waiting for {_waiting(state)})")


def _waiting(state: GameState) -> str:
    return " and ".join(actor_name(s) for s in current_players(state)) or "nobody"


def _deal(state: GameState, a: Deal) -> None:
    if state.phase != DEAL:
        raise IllegalAction(f"2.1 the cards are dealt at the start of a year, not in the {state.phase} phase")
    for side, hand in ((CAESAR, a.caesar), (POMPEIUS, a.pompeius)):
        if len(hand) != HAND_SIZE:
            raise IllegalAction(f"2.1 each player is dealt {HAND_SIZE} cards; {SIDES[side]} got {len(hand)}")
    need = Counter(a.caesar) + Counter(a.pompeius)
    have = Counter(BOARD.deck)
    for c, n in need.items():
        if n > have[c]:
            raise IllegalAction(f"2.1 the deck holds only {have[c]} {card_name(c)}; the deal gives out {n}")
    state.hands = [sorted(a.caesar), sorted(a.pompeius)]
    state.phase = DISCARD


def _discard(state: GameState, a: Discard) -> None:
    _take_card(state, a, DISCARD, state.discards, "the discard follows the deal", "has already discarded this year")
    if state.discards[other(a.actor)] is not None:
        turns.start_game_turn(state)


def _play(state: GameState, a: Play) -> None:
    _take_card(state, a, CARD, state.chosen, "cards are played in the card phase",
               "has already chosen his card this turn",
               None if playable(state, a.card) else "2.1 Apollo copies the opponent's card of the previous "
               "turn: it cannot be played on the first turn of a year")
    if state.chosen[other(a.actor)] is not None:
        reveal(state)


def _take_card(state: GameState, a, phase: str, slots: list, when: str, again: str,
               refusal: str | None = None) -> None:
    """Move a card from the actor's hand to `slots[actor]` (his discard or his chosen card);
    `refusal`, if given, is the rule that forbids this card now."""
    side = a.actor
    if state.phase != phase:
        raise IllegalAction(f"2.1 {when}; now is the {state.phase} phase")
    if slots[side] is not None:
        raise IllegalAction(f"2.1 {SIDES[side]} {again}")
    if a.card not in state.hands[side]:
        raise IllegalAction(f"2.1 {SIDES[side]} holds no {card_name(a.card)}")
    if refusal:
        raise IllegalAction(refusal)
    state.hands[side].remove(a.card)
    slots[side] = a.card


def effective_card(state: GameState, side: int, played: int) -> int:
    """What a played card counts as: Apollo copies what the opponent's previous card of this
    year counted as (an Apollo that copied stays what it became)."""
    if played != APOLLO:
        return played
    return state.revealed[-1][2 + other(side)]


def reveal(state: GameState) -> None:
    """Both cards are turned up together; decide Player 1 or cancel the turn."""
    played = list(state.chosen)
    eff = [effective_card(state, s, played[s]) for s in (CAESAR, POMPEIUS)]
    events = [BOARD.cards[played[s]].event for s in (CAESAR, POMPEIUS)]
    cancelled = events[0] and events[1]
    state.revealed.append([played[0], played[1], eff[0], eff[1], cancelled])
    state.chosen = [None, None]
    if cancelled:
        turns.end_game_turn(state)
        return
    if events[0] or events[1]:
        p1 = CAESAR if events[0] else POMPEIUS
    else:
        m0, m1 = BOARD.cards[eff[0]].move, BOARD.cards[eff[1]].move
        p1 = POMPEIUS if m1 > m0 else CAESAR
    state.player1 = p1
    turns.start_command(state, p1)


def sample_chance(state: GameState, rng: random.Random) -> Deal:
    deck = list(BOARD.deck)
    rng.shuffle(deck)
    return Deal(tuple(sorted(deck[:HAND_SIZE])), tuple(sorted(deck[HAND_SIZE:2 * HAND_SIZE])))

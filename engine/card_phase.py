"""The card phase (2.1): the yearly deal, the secret discard, the simultaneous secret play,
the reveal, Player 1 (on the cards as they count after Apollo copied), both-events
cancellation (on the cards as played) and Apollo. Refusals are structured (docs/refusals.md).

Phases served: deal (chance), discard and card (both players at once).
"""
from __future__ import annotations

import random
from collections import Counter

from . import turns
from .actions import Deal, Discard, Play, card_name
from .board import BOARD, CAESAR, CHANCE, CHANCE_NAME, POMPEIUS, SIDES
from .errors import IllegalAction
from .refusals import COMMAND_ACTIONS, wrong_phase
from .state import CARD, DEAL, DISCARD, WINTER, GameState, other

HAND_SIZE = 6
APOLLO = BOARD.card("Apollo")


def current_players(state: GameState) -> tuple[int, ...]:
    """Who acts now in the deal, discard and card phases: CHANCE for the deal, else each player still to discard
    or choose."""
    if state.phase == DEAL:
        return (CHANCE,)
    pending = state.discards if state.phase == DISCARD else state.chosen
    c, p = pending[CAESAR] is None, pending[POMPEIUS] is None
    return (CAESAR, POMPEIUS) if c and p else (CAESAR,) if c else (POMPEIUS,) if p else ()


def legal_actions(state: GameState, side: int) -> list:
    """The discards or plays open to `side` now."""
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
    """Whether card kind `card` may be played now (Apollo: not on a year's first turn)."""
    return not (card == APOLLO and state.turn == 1)


def _no(code: str, rule: str | None, message: str, **params) -> IllegalAction:
    return IllegalAction(message, rule=rule, code=code, params=params)


def awaited(state: GameState) -> str:
    """What the deal, discard or card phase waits for now, in words (for refusals)."""
    if state.phase == DEAL:
        return f"Chance's deal of {state.year}"
    who = " and ".join(f"{SIDES[s]}'s" for s in current_players(state))
    if state.phase == DISCARD:
        return f"{who} discard"
    return f"{who} card for turn {state.turn}"


def apply(state: GameState, action) -> None:
    """Validate a deal, discard or play (IllegalAction, nothing changed) and perform it; the reveal and Player 1
    follow when both have played."""
    if not isinstance(action, (Deal, Discard, Play)):
        actor = getattr(action, "actor", None)
        if state.phase == DEAL and actor in (CAESAR, POMPEIUS):
            raise _not_dealt(state, action)
        raise cancelled_turn_error(state, action) or wrong_phase(action, "card", awaited(state))
    cards = (*action.caesar, *action.pompeius) if isinstance(action, Deal) else (action.card,)
    bad = next((c for c in cards if not 0 <= c < len(BOARD.cards)), None)
    if bad is not None:
        raise _no("id.no-card", None, f"no card number {bad}", number=bad)
    if isinstance(action, Deal):
        _deal(state, action)
        return
    if action.actor not in (CAESAR, POMPEIUS):
        who = CHANCE_NAME if action.actor == CHANCE else f"actor {action.actor}"
        raise _no("card.not-a-player", "2.1", f"only Caesar and Pompeius hold, discard and play cards, not {who}",
                  actor=who)
    if state.phase == DEAL:
        raise _not_dealt(state, action)
    if isinstance(action, Discard):
        _discard(state, action)
    else:
        _play(state, action)


def apply_listed(state: GameState, action) -> None:
    """`apply` for a discard or play `legal_actions` listed now (`Game.apply(checked=False)`),
    performed without being validated again; the deal by `apply`."""
    kind = type(action)
    if kind is Play or kind is Discard:
        side = action.actor
        state.hands[side].remove(action.card)
        if kind is Play:
            state.chosen[side] = action.card
            if state.chosen[1 - side] is not None:
                reveal(state)
        else:
            state.discards[side] = action.card
            if state.discards[1 - side] is not None:
                turns.start_game_turn(state)
    else:
        apply(state, action)


def _not_dealt(state: GameState, action) -> IllegalAction:
    now = awaited(state)
    why = {Play: "cards are played in the card phase, once they are dealt",
           Discard: "each player discards one card once the cards are dealt"}.get(type(action),
                                                                                "the year begins with the deal")
    return _no("turn.chance-due", "2.1", f"{why}: the cards of {state.year} are not dealt yet; awaiting {now}",
               awaited=now)


def cancelled_turn_error(state: GameState, action) -> IllegalAction | None:
    """A command action right after a turn both players cancelled with events (2.1): say so,
    rather than only that this is not a card-phase action."""
    r = state.revealed
    if not (r and r[-1][4] and isinstance(action, COMMAND_ACTIONS)):
        return None
    if not (state.phase == CARD and state.turn == len(r) + 1 or state.phase == WINTER):
        return None
    turn = state.turn - 1 if state.phase == CARD else state.turn   # the winter follows turn 5
    cards: dict[str, str] = {SIDES[s]: card_name(r[-1][s]) for s in (CAESAR, POMPEIUS)}
    now = awaited(state) if state.phase == CARD else "the winter turn"
    return _no("turn.cancelled", "2.1", f"turn {turn} was cancelled: both players played events (Caesar "
               f"{cards['Caesar']}, Pompeius {cards['Pompeius']}), so nobody commands; awaiting {now}",
               turn=turn, cards=cards, awaited=now)


def _deal(state: GameState, a: Deal) -> None:
    if state.phase != DEAL:
        now = awaited(state)
        raise _no("card.deal-not-due", "2.1", f"the cards are dealt at the start of a year, not in the "
                  f"{state.phase} phase; awaiting {now}", phase=state.phase, awaited=now)
    for side, hand in ((CAESAR, a.caesar), (POMPEIUS, a.pompeius)):
        if len(hand) != HAND_SIZE:
            raise _no("card.deal-size", "2.1", f"each player is dealt {HAND_SIZE} cards; {SIDES[side]} got "
                      f"{len(hand)}", side=SIDES[side], count=len(hand), size=HAND_SIZE)
    need = Counter(a.caesar) + Counter(a.pompeius)
    have = Counter(BOARD.deck)
    for c, n in need.items():
        if n > have[c]:
            raise _no("card.deal-deck", "2.1", f"the deck holds only {have[c]} {card_name(c)}; the deal gives "
                      f"out {n}", card=card_name(c), deck=have[c], dealt=n)
    state.hands = [sorted(a.caesar), sorted(a.pompeius)]
    state.phase = DISCARD


def _discard(state: GameState, a: Discard) -> None:
    _take_card(state, a, DISCARD, state.discards, "card.already-discarded",
               "has already discarded this year")
    if state.discards[other(a.actor)] is not None:
        turns.start_game_turn(state)


def _play(state: GameState, a: Play) -> None:
    _take_card(state, a, CARD, state.chosen, "card.already-played",
               f"has already chosen his card for turn {state.turn}",
               None if playable(state, a.card) else _no(
                   "card.apollo-first-turn", "2.1", "Apollo copies the opponent's card of the previous turn: it "
                   "cannot be played on the first turn of a year", card=card_name(a.card)))
    if state.chosen[other(a.actor)] is not None:
        reveal(state)


def _take_card(state: GameState, a, phase: str, slots: list, again_code: str, again: str,
               refusal: IllegalAction | None = None) -> None:
    """Move a card from the actor's hand to `slots[actor]` (his discard or his chosen card);
    `refusal`, if given, is the rule that forbids this card now."""
    side = a.actor
    name = SIDES[side]
    if state.phase != phase:
        now = awaited(state)
        what = "discards" if phase == DISCARD else "plays"
        when = ("each player discards once, after the deal" if phase == DISCARD
                else "cards are played in the card phase of each turn, after the discards")
        raise _no("card.wrong-phase", "2.1", f"{when}: {name} {what} nothing now; awaiting {now}",
                  actor=name, phase=state.phase, awaited=now)
    if slots[side] is not None:   # a stale decision answered twice
        now = awaited(state)
        raise _no(again_code, "2.1", f"{name} {again}; awaiting {now}", actor=name, turn=state.turn, awaited=now)
    if a.card not in state.hands[side]:
        raise _no("card.not-in-hand", "2.1", f"{name} holds no {card_name(a.card)}", actor=name,
                  card=card_name(a.card))
    if refusal is not None:
        raise refusal
    state.hands[side].remove(a.card)
    slots[side] = a.card


def effective_card(state: GameState, side: int, played: int) -> int:
    """What a played card counts as: Apollo copies what the opponent's previous card of this
    year counted as (an Apollo that copied stays what it became)."""
    if played != APOLLO:
        return played
    return state.revealed[-1][2 + other(side)]


def reveal(state: GameState) -> None:
    """Both cards are turned up together; cancel the turn or decide Player 1."""
    played = [c for c in state.chosen if c is not None]
    assert len(played) == 2, "both cards are chosen before the reveal"
    eff = [effective_card(state, s, played[s]) for s in (CAESAR, POMPEIUS)]
    # Cancellation looks at the cards as played: Apollo against any event cancels (2.1).
    cancelled = BOARD.cards[played[0]].event and BOARD.cards[played[1]].event
    state.revealed.append([played[0], played[1], eff[0], eff[1], cancelled])
    state.chosen = [None, None]
    if cancelled:
        turns.end_game_turn(state)
        return
    state.player1 = player1(eff[0], eff[1])
    turns.start_command(state, state.player1)


def player1(caesar: int, pompeius: int) -> int:
    """Player 1 of a turn not cancelled, on the cards as they count (Apollo resolved): the
    Apollo card's text, "when determining Player 1, use the copied card", overrides 2.1's
    "the player of an Event card is always Player 1". An event (an Apollo that copied one
    too) makes its player Player 1; else the higher move value; equal moves: Caesar."""
    events = [BOARD.cards[c].event for c in (caesar, pompeius)]
    if events[0] or events[1]:
        return CAESAR if events[0] else POMPEIUS
    return POMPEIUS if BOARD.cards[pompeius].move > BOARD.cards[caesar].move else CAESAR


def sample_chance(state: GameState, rng: random.Random) -> Deal:
    """The year's deal, shuffled with `rng`."""
    deck = list(BOARD.deck)
    rng.shuffle(deck)
    return Deal(tuple(sorted(deck[:HAND_SIZE])), tuple(sorted(deck[HAND_SIZE:2 * HAND_SIZE])))

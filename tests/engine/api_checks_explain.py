"""A reusable check of `Game.explain` against `Game.apply` at one position of a game.

`check_explain(game, rng)` asserts, at the game's current position, that
* `explain` returns None for every legal action (and for the chance action due, if any);
* for illegal actions (legal for the other side, legal at an earlier step, with wrong ids, of
  the wrong phase, unreadable lines) `explain` and `apply` agree: the same refusal (code,
  rule, message, params), or both accept;
* neither `explain` nor a refused `apply` changes anything (state and history).
Called from `test_explain.py` after random actions, and from the lead's long fuzz.
"""
from __future__ import annotations

import dataclasses
import json
import random
import weakref
from collections import deque

from engine.actions import Action, TakeBack
from engine.board import BOARD
from engine.errors import IllegalAction
from engine.game import Game, sample_chance

RECENT = 60          # actions remembered per game: "legal at an earlier step"
LEGAL_TRIED = 12     # legal actions explained per call (all if fewer)
ILLEGAL_TRIED = 14   # illegal candidates tried per call

# A line of every phase, whatever the position: most are illegal wherever they are tried.
PHASE_LINES = (
    "Chance deals Caesar: 4/1 3/2 3/2 3/1 3/1 3/1; Pompeius: 2/3 2/3 2/3 2/3 2/2 2/2",
    "Caesar discards 2/2", "Pompeius plays 3/2", "Caesar plays Apollo",
    "Caesar moves Legio 13 Ravenna-Roma", "Pompeius levies Legio 32 in Athenae",
    "Caesar adds a step to Legio 13", "Pompeius ends command", "Caesar takes back",
    "Caesar invokes Jupiter on Brundisium", "Chance picks P Legio 3", "Caesar sends P Legio 3 to Sipontum",
    "Pompeius invokes Vulcan on Massilia", "Caesar declares main attack on Roma from Ravenna",
    "Caesar fights Roma", "Chance rolls 1 2 3", "Pompeius fires Legio 1", "Caesar passes Caesar",
    "Pompeius takes the hit on Legio 1", "Caesar retreats Legio 13 to Ravenna", "Caesar ends regroup",
    "Pompeius winters Navis 1 in Neapolis", "Caesar disbands Legio 13", "Pompeius ends disbanding",
    "Caesar moves Legio 13", "Pompeius crosses the Rubicon", "",
)

_recent: weakref.WeakKeyDictionary[Game, deque] = weakref.WeakKeyDictionary()


def _snapshot(game: Game) -> tuple[str, int]:
    return json.dumps(game.to_json(), sort_keys=True), len(game.history)


def _fields(a) -> dict:
    return {f.name: getattr(a, f.name) for f in dataclasses.fields(a)} if dataclasses.is_dataclass(a) else {}


def _variants(a, rng: random.Random) -> list:
    """The action with another actor, and with ids changed or out of range."""
    f = _fields(a)
    out = []

    def swap(**kw):
        try:
            out.append(dataclasses.replace(a, **kw))
        except (TypeError, ValueError):
            pass
    if f.get("actor") in (0, 1):
        swap(actor=1 - f["actor"])
        swap(actor=2)
    if "block" in f:
        swap(block=rng.randrange(BOARD.n_blocks))
        swap(block=rng.choice((-1, BOARD.n_blocks, 999)))
    if "loc" in f:
        swap(loc=rng.randrange(BOARD.n_locs))
        swap(loc=rng.choice((-2, BOARD.n_locs)))
    if "card" in f:
        swap(card=rng.randrange(len(BOARD.cards)))
        swap(card=rng.choice((-1, len(BOARD.cards))))
    if "path" in f and f["path"]:
        p = tuple(f["path"])
        swap(path=p[:-1] + (rng.randrange(BOARD.n_locs),))
        swap(path=p + (rng.randrange(BOARD.n_locs),))
        swap(path=p[:1])
    return out


def _text(a) -> str | None:
    try:
        return str(a)
    except (IndexError, KeyError, TypeError, ValueError):
        return None   # an id out of range: no notation line


def _same(e1: IllegalAction, e2: IllegalAction) -> bool:
    return (e1.code, e1.rule, e1.message, e1.params, str(e1)) == (e2.code, e2.rule, e2.message, e2.params, str(e2))


def check_explain(game: Game, rng: random.Random) -> None:
    """Assert that `explain` agrees with `apply` at this position and changes nothing."""
    before = _snapshot(game)
    legal = [a for a in game.legal_actions(take_back=True)]
    listed = {str(a) for a in legal}
    recent = _recent.setdefault(game, deque(maxlen=RECENT))

    tried_legal = legal if len(legal) <= LEGAL_TRIED else rng.sample(legal, LEGAL_TRIED)
    if game.is_chance_node():
        tried_legal = tried_legal + [sample_chance(game.copy(), random.Random(rng.random()))]
    for a in tried_legal:
        refusal = game.explain(a)
        assert refusal is None, f"explain refuses the legal {a}: {refusal}"
        assert game.explain(str(a)) is None, f"explain refuses the legal line {a}"

    pool: list = [v for a in tried_legal for v in _variants(a, rng)]
    pool += list(recent)
    pool += rng.sample(PHASE_LINES, 4)
    candidates = [c for c in pool if _text(c) not in listed]
    if len(candidates) > ILLEGAL_TRIED:
        candidates = rng.sample(candidates, ILLEGAL_TRIED)
    for c in candidates:
        refusal = game.explain(c)
        assert _snapshot(game) == before, f"explain({c!r}) changed the game"
        if refusal is None:
            game.copy().apply(c)   # explain accepted: apply must too (e.g. a route not listed)
            continue
        assert isinstance(refusal, IllegalAction)
        json.dumps(refusal.to_json())   # params are JSON-safe
        try:
            game.apply(c)
        except IllegalAction as e:
            assert _same(refusal, e), f"explain and apply disagree on {c!r}: {refusal.to_json()} / {e.to_json()}"
        else:
            raise AssertionError(f"explain refused {c!r} ({refusal}) but apply accepted it")
        assert _snapshot(game) == before, f"the refused {c!r} changed the game"

    recent.extend(a for a in tried_legal if isinstance(a, Action) and not isinstance(a, TakeBack))

"""An independent opponent for the bot's matches: a determinized 1-ply lookahead.

It shares nothing with `rubicon.bot.heuristic`: for its decision it draws a few
determinizations of its information state (`rubicon.bot.determinize`, the same public-only
sampling every level uses), applies each legal action (at most `MAX_ACTIONS`, drawn at random
when there are more) to each, and plays the one whose resulting positions score best on
average by its own static evaluation: VP held, strength on the map, dead leaders, and each
contested place shared by strength. `bench/bot_match.py --pairs expert:lookahead` registers it
as the level "lookahead".
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import BOARD, EndCommand, Game, IllegalAction  # noqa: E402
from rubicon.bot.determinize import determinize, supported  # noqa: E402
from rubicon.bot.levels import LEVELS, Level  # noqa: E402

SAMPLES = 3
_PREFERRED = ("Fire", "EndRegroup", "EndDisband", "NavisToPort")
MAX_ACTIONS = 40


def _strength(s, loc: int, side: int) -> int:
    return sum(s.strength(b) for b in s.at[loc] if s.owner[b] == side)


def value(s, side: int) -> float:
    """The position for `side`: VP difference, a tenth of the strength difference on the map, and
    each contested place's VP shared by strength."""
    if s.result is not None:
        w = s.result["winner"]
        return 0.0 if w is None else (100.0 if w == side else -100.0)
    opp = 1 - side
    x = float(s.vp(side) - s.vp(opp))
    for b in range(BOARD.n_blocks):
        if s.loc[b] >= 0:
            x += (0.1 if s.owner[b] == side else -0.1) * s.strength(b)
    for l in s.contested_locations():
        ours, theirs = _strength(s, l, side), _strength(s, l, opp)
        x += (BOARD.vp[l] + 0.5) * (ours - theirs) / max(1, ours + theirs)
    return x


def choose(info, rng: random.Random):
    """The lookahead's action among `info.legal`."""
    legal = list(info.legal)
    if len(legal) == 1:
        return legal[0]
    if not supported(info):   # a fight, a regroup, the winter: fixed preferences, no lookahead
        for kind in _PREFERRED:
            pick = [a for a in legal if type(a).__name__ == kind]
            if pick:
                return pick[0]
        return rng.choice(legal)
    if len(legal) > MAX_ACTIONS:
        keep = [a for a in legal if isinstance(a, EndCommand)]
        legal = keep + rng.sample([a for a in legal if a not in keep], MAX_ACTIONS - len(keep))
    states = [determinize(info, rng) for _ in range(SAMPLES)]
    best, best_v = legal[0], float("-inf")
    for a in legal:
        total = 0.0
        for s in states:
            g = Game(state=s.copy(), take_back=False)
            try:
                g.apply(a)
            except IllegalAction:
                total -= 50.0   # a sample where it cannot be played (the view settles not all)
                continue
            total += value(g.state, info.side)
        v = total / len(states) + rng.random() * 1e-6
        if v > best_v:
            best, best_v = a, v
    return best


def register() -> None:
    """Make "lookahead" a level the match driver can play."""
    LEVELS["lookahead"] = Level("lookahead", policy=choose, help="bench only: a determinized 1-ply lookahead")

"""How often a lifted block's two endpoints do not determine its move.

    python bench/paths_per_endpoint.py [--games 5] [--seed 1]

Plays random games; at every command decision groups the legal `Move` actions by (block,
origin, destination) and counts the triples with more than one legal path (the table must
then ask the player which one, `Game.moves_between`). Also times `moves_between` against
filtering the full legal list. Prints the counts, the largest number of paths for one triple
and the mix of what tells those paths apart.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import (  # noqa: E402
    COMMAND,  # noqa: E402
    Move,  # noqa: E402
    game_rng,
    play_game,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    triples = several = decisions = 0
    most = 0
    differ: Counter = Counter()
    listing_s = endpoint_s = 0.0
    lookups = 0

    def after(game, _action) -> None:
        nonlocal triples, several, decisions, most, listing_s, endpoint_s, lookups
        st = game.state
        if st.phase != COMMAND or game.is_chance_node():
            return
        decisions += 1
        side = st.cmd.side
        t = time.perf_counter()
        by_end: dict = {}
        for a in game.legal_actions(side):
            if isinstance(a, Move):
                by_end.setdefault((a.block, a.path[0], a.path[-1]), []).append(a)
        listing_s += time.perf_counter() - t
        for key, moves in by_end.items():
            triples += 1
            if len(moves) > 1:
                several += 1
                most = max(most, len(moves))
                t = time.perf_counter()
                opts = game.moves_between(side, *key)
                endpoint_s += time.perf_counter() - t
                lookups += 1
                differ[_what_differs(opts)] += 1

    for i in range(args.games):
        play_game(game_rng(args.seed, i), after=after)
    share = 100 * several / triples if triples else 0
    print(f"{args.games} random games (seed {args.seed}), {decisions} command decisions: {several:,} of "
          f"{triples:,} (block, from, to) triples have several legal paths ({share:.1f} %), at most {most}")
    print("what tells the paths of one triple apart: "
          + ", ".join(f"{k} {n}" for k, n in differ.most_common()))
    if lookups:
        print(f"moves_between: {1e6 * endpoint_s / lookups:.0f} µs per lookup; listing every legal action "
              f"of the decision: {1e6 * listing_s / decisions:.0f} µs")
    return 0


def _what_differs(opts) -> str:
    """The most telling difference between the options of one triple."""
    if len({o.mp for o in opts}) > 1:
        return "MP"
    if len({o.arrives_as for o in opts}) > 1:
        return "main attack or reserve"
    if len({o.amphibious for o in opts}) > 1:
        return "amphibious or not"
    if len({o.seas for o in opts}) > 1:
        return "seas crossed"
    if len({tuple(c for _, c in o.borders) for o in opts}) > 1:
        return "roads of different classes"
    return "roads of the same class"


if __name__ == "__main__":
    sys.exit(main())

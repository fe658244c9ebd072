"""Twin games: does a level's decision change with what its side cannot see?

    python bench/bot_twins.py --levels expert,hard --positions 4000 [--seed 1]

Plays bot games (`tests/bot/helpers.positions`: the level against easy, sides alternating) and
at every decision makes a twin of the game that differs only in the opponent's hidden facts
(`tests/bot/test_never_peeks.hidden_variant`: his hand, discard and chosen card, which of his
unrevealed blocks stand where or in his pool, their strengths). The bot, seeded alike, must give
the same information state and the same decision in both. Prints, per level, the decision
points checked, how many twins really differed, and the mismatches (exit 1 if any).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bot.helpers import positions  # noqa: E402
from tests.bot.test_never_peeks import _decisions, hidden_variant  # noqa: E402


def twins(level: str, limit: int, seed: int) -> dict:
    rng = random.Random(seed)
    checked = differed = mismatches = 0
    t0 = time.process_time()
    index = 0
    while checked < limit:
        pair = (level, "easy") if index % 2 == 0 else ("easy", level)
        for game, side in positions(pair, seed=seed, index=index):
            if checked >= limit:
                break
            if pair[side] != level:
                continue
            variant = hidden_variant(game, side, rng)
            differed += variant.to_json() != game.to_json()
            mismatches += _decisions(game, side, level) != _decisions(variant, side, level)
            checked += 1
        index += 1
    return {"level": level, "checked": checked, "twins_differing": differed, "mismatches": mismatches,
            "games": index, "cpu_s": round(time.process_time() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--levels", default="expert")
    p.add_argument("--positions", type=int, default=4000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    bad = 0
    for level in args.levels.split(","):
        r = twins(level, args.positions, args.seed)
        bad += r["mismatches"]
        print(f"{level}: {r['checked']} decision points over {r['games']} games, {r['twins_differing']} twins "
              f"differing, {r['mismatches']} mismatches ({r['cpu_s']} s CPU)", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

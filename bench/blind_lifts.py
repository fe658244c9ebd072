"""How many lifts the player needs to move the Pi's blocks blind.

Plays whole bot-against-bot games through the engine with a `PhysicalTable` beside them: the Pi
plays one side (its blocks handled blind, docs/bot.md), a bot stands in for the human's decisions.
After every action a simulated player puts the board right as the table tells the human's side:
his own blocks and any block he may know by name he moves at sight (not counted); for each
counted instruction about the Pi's blocks ("move a Caesar block (no. 2 from the left) from Genua
to Roma") he lifts the block at the named position of his physical row of the Pi's blocks there,
and is told "that one" or "not that one" (a wrong one goes back to the right end of its row). The
physical rows are the simulation's own (the order his hands set blocks down), not the table's.

Modes: `positions` (what the table says now), `blind` (the positions ignored: a block picked at
random among those not yet tried, the best a player could do with the old "put a Caesar block
back in Roma (from Genua)"). `--careless P`: each block he sets down lands at a random place in
its row with probability P instead of the right end (the table's picture of the order is then
wrong, and a wrong pick shows how it recovers).

    python bench/blind_lifts.py --games 20 --seed 1 [--mode positions|blind] [--careless 0.1] [--pi Caesar]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import (  # noqa: E402  # noqa: E402  # noqa: E402
    BATTLE,  # noqa: E402
    BOARD,
    MAX_ACTIONS,
    SIDES,
    Game,
    game_rng,
    revealed_blocks,  # noqa: E402
    sample_chance,
)
from firmware_bridge.board.reader_map import ReaderMap  # noqa: E402
from firmware_bridge.board.tag_registry import TagRegistry  # noqa: E402
from firmware_bridge.events import TagGone, TagSeen  # noqa: E402
from rubicon.bot.info import information_state  # noqa: E402
from rubicon.bot.levels import Bot  # noqa: E402
from rubicon.table import reconcile  # noqa: E402
from rubicon.table.physical import PhysicalTable  # noqa: E402

READERS = ReaderMap.load()
REGISTRY = TagRegistry(tags={f"C0DE{b.id:04X}": b.key for b in BOARD.blocks})
BLIND_CODES = ("table.move", "table.move-back", "table.remove", "table.place")


class Hands:
    """The simulated player's hands on the physical board: rows per place, left to right."""

    def __init__(self, table: PhysicalTable, rng: random.Random, careless: float):
        self.table, self.rng, self.careless = table, rng, careless
        self.rows: dict[str, list[str]] = {}
        self.lifts = 0

    def lift(self, key: str, game: Game) -> None:
        place = next(p for p, row in self.rows.items() if key in row)
        self.rows[place].remove(key)
        self.table.sense(TagGone("board", reader=READERS.index_of(place), uid=REGISTRY.uid_of(key) or ""), game)

    def set_down(self, key: str, place: str, game: Game) -> None:
        row = self.rows.setdefault(place, [])
        at = self.rng.randint(0, len(row)) if row and self.rng.random() < self.careless else len(row)
        row.insert(at, key)
        self.table.sense(TagSeen("board", reader=READERS.index_of(place), uid=REGISTRY.uid_of(key) or ""), game)

    def at_sight(self, game: Game, human: int, pi: int) -> bool:
        """Put right one difference he may see through (his blocks, a block named to him)."""
        revealed = revealed_blocks(game.state)
        for d in reconcile.differences(game.state, self.table.sensed):
            if game.state.owner[d.block] == pi and d.block not in revealed:
                continue
            key = BOARD.blocks[d.block].key
            if d.have is not None or d.in_hand:
                if not d.in_hand:
                    self.lift(key, game)
            if d.want is not None:
                self.set_down(key, d.want, game)
            return True
        return False


def settle(game: Game, table: PhysicalTable, hands: Hands, human: str, pi: int, mode: str,
           per_block: list[int], kinds: Counter, by_kind: dict[str, list[int]]) -> None:
    """Put the board right as the human's instructions say."""
    for _ in range(200):
        if hands.at_sight(game, SIDES.index(human), pi):
            continue
        ev = table.evaluate(game)
        steps = [s for s in table.instructions(game, ev, human) if s["params"].get("count")]
        if not steps:
            return
        step = steps[0]
        params = step["params"]
        assert step["code"] in BLIND_CODES, step
        source, target = params["from"], params["to"]
        kind = "levy" if source.endswith("levy pool") else step["code"]
        kinds[kind] += 1
        tried: set[str] = set()
        lifts = 0
        while True:
            row = [k for k in hands.rows.get(source, []) if game.state.owner[BOARD.block(k)] == pi]
            if mode == "positions" and params.get("positions"):
                key = row[params["positions"][0] - 1]
            else:     # at random among those he cannot see through (a revealed block shows its face)
                hidden = [k for k in row if BOARD.block(k) not in revealed_blocks(game.state)]
                untried = [k for k in hidden if k not in tried] or hidden
                key = hands.rng.choice(untried)
            hands.lift(key, game)
            lifts += 1
            told = table.instructions(game, table.evaluate(game), human)[0]
            if told["code"] == "table.right-pick":
                hands.set_down(key, told["params"]["to"], game)
                break
            # a wrong one: told so blind, or by name when it is a block he may know (revealed)
            assert told["code"] in ("table.wrong-pick", "table.put-back"), told
            tried.add(key)
            hands.set_down(key, source, game)
            again = [s for s in table.instructions(game, table.evaluate(game), human) if s["params"].get("count")]
            params = again[0]["params"] if again and again[0]["params"].get("from") == source else params
        assert target
        per_block.append(lifts)
        by_kind.setdefault(kind, []).append(lifts)


def play(seed: int, index: int, mode: str, careless: float, pi_side: str,
         per_block: list[int], kinds: Counter, by_kind: dict[str, list[int]]) -> int:
    game = Game()
    rng = game_rng(seed, index)
    pi = SIDES.index(pi_side)
    human = SIDES[1 - pi]
    bots = [Bot(s, "medium", seed=seed * 1_000_003 + index) for s in (0, 1)]
    table = PhysicalTable(READERS, REGISTRY.block_of)
    table.automated.add(pi_side)
    hands = Hands(table, random.Random(f"lifts/{seed}/{index}"), careless)
    blocks = list(BOARD.blocks)
    hands.rng.shuffle(blocks)          # the set-up: blocks set down in the order his hands took them
    n = 0
    while not game.is_over() and n <= MAX_ACTIONS:
        if game.is_chance_node():
            game.apply(sample_chance(game, rng))
        else:
            side = next(s for s in game.current_player_ids()
                        if information_state(game, s, bots[s].memory).legal)
            game.apply(bots[side].decide(information_state(game, side, bots[side].memory)))
        n += 1
        if n == 1:
            for b in blocks:
                place = reconcile.expected_place(game.state, b.id)[0]
                if place is not None:
                    hands.set_down(b.key, place, game)
        if game.state.phase == BATTLE:
            for bot in bots:
                bot.observe(game.view(SIDES[bot.side]))
        settle(game, table, hands, human, pi, mode, per_block, kinds, by_kind)
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=("positions", "blind"), default="positions")
    ap.add_argument("--careless", type=float, default=0.0)
    ap.add_argument("--pi", choices=SIDES, default="Pompeius")
    args = ap.parse_args(argv)
    per_block: list[int] = []
    kinds: Counter = Counter()
    by_kind: dict[str, list[int]] = {}
    actions = 0
    for i in range(args.games):
        actions += play(args.seed, i, args.mode, args.careless, args.pi, per_block, kinds, by_kind)
    dist = Counter(per_block)
    print(f"mode {args.mode}, careless {args.careless}, the Pi plays {args.pi}: {args.games} games, {actions} actions")
    print(f"blocks of the Pi's moved blind: {len(per_block)} ({dict(kinds)} instructions)")
    if per_block:
        print(f"lifts per block: mean {statistics.fmean(per_block):.3f}, max {max(per_block)}, "
              f"distribution {dict(sorted(dist.items()))}")
        print("mean lifts by instruction: " + ", ".join(f"{k} {statistics.fmean(v):.3f}" for k, v in by_kind.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

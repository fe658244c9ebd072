"""A player of the one-reader build for tests: at each decision, a seeded choice among the legal
lines of the side the game waits for; a line that uses a block is played as at the table (the
block tapped on the reader, the option picked on the phone, the block lifted off the reader),
the others on the phone (`Act`), the end of a command or regroup by Done.

    player = OneReaderPlayer(session, tap=..., lift=..., check=...)
    player.play(max_steps=3000)          # until the game is over
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import BOARD, SIDES, EndCommand, EndRegroup, parse_action
from rubicon.table.session import Snapshot, TableSession

from .waits import until


def uid_of(block: int) -> str:
    """A tag per block, a third with 7-byte UIDs as NTAG stickers have."""
    return f"04C0DE{block:08X}" if block % 3 == 0 else f"C0DE{block:04X}"


def registry_tags() -> dict[str, str]:
    return {uid_of(b.id): b.key for b in BOARD.blocks}


def without_version(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "version"}


@dataclass
class OneReaderPlayer:
    session: TableSession
    tap: Callable[[str], None]          # put the tag with this UID on the reader
    lift: Callable[[str], None]         # take it off
    seed: str = "one-reader"
    taps: int = 0
    phone: int = 0
    dones: int = 0
    kinds: set[str] = field(default_factory=set)

    def play(self, max_steps: int) -> Snapshot:
        for step in range(max_steps):
            snap = self.session.snapshot()
            if snap.result is not None:
                return snap
            side = next((s for s in snap.waiting_for if s in SIDES), None)
            assert side is not None, f"the game waits for {snap.waiting_for} and nothing supplies it"
            rng = random.Random(f"{self.seed}/{step}")
            legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
            line = rng.choice(legal)
            action = parse_action(line)
            block = getattr(action, "block", None)
            if block is not None:
                self.tapped(snap, side, block, line, rng)
            elif isinstance(action, (EndCommand, EndRegroup)):
                outcome = self.session.done(side)
                assert outcome.ok, outcome.refusal
                self.dones += 1
            else:
                outcome = self.session.act(side, line)
                assert outcome.ok, (line, outcome.refusal)
                self.phone += 1
        raise AssertionError(f"no result after {max_steps} steps")

    def tapped(self, before: Snapshot, side: str, block: int, line: str, rng: random.Random) -> None:
        """Tap `block`, check that only `side`'s phone heard of it, pick the option the line is
        (else any), lift the block off the reader."""
        other = SIDES[1 - SIDES.index(side)]
        uid = uid_of(block)
        label = BOARD.block_label(block, SIDES.index(side))
        self.tap(uid)
        snap = until(self.session, lambda s: (s.side(side).table.get("ask") or {}).get("block") == label,
                     f"{label} tapped: {side}'s phone asks")
        ask = snap.side(side).table["ask"]
        # Hidden information: the TV and the other phone learn nothing of the tap.
        for viewer in (None, other):
            assert without_version(snap.for_viewer(viewer)) == without_version(before.for_viewer(viewer)), viewer
        options = ask["options"]
        chosen = next((o for o in options if o["lines"][0] == line), None) or rng.choice(options)
        self.kinds.add(ask["kind"] + ":" + type(parse_action(chosen["lines"][0])).__name__)
        outcome = self.session.answer(side, chosen["value"])
        assert outcome.ok, (chosen, outcome.refusal)
        assert outcome.accepted[:len(chosen["lines"])] == tuple(chosen["lines"])
        self.taps += 1
        self.lift(uid)
        until(self.session, lambda s: not s.side(side).table.get("on_reader"), f"{label} lifted off the reader")

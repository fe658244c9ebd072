"""A physical table for session tests: every block enrolled with a made-up tag, the packaged
reader map, a feedback recorder standing in for the panel, and sensor-event scripts
(hardware/EVENTS.md) played into a `TableSession` through `Sense`."""
from __future__ import annotations

from pathlib import Path

from engine import BOARD, replay
from firmware_bridge.board.reader_map import ReaderMap
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.events import TagSeen
from firmware_bridge.sim.script import parse_events
from rubicon.journal import Journal
from rubicon.table.physical import PhysicalTable
from rubicon.table.reconcile import expected_place
from rubicon.table.session import TableSession

READERS = ReaderMap.load()
SENSED = {name for p in READERS.places for name in p.locations}   # no pool readers: the pools are not sensed
REGISTRY = TagRegistry(tags={f"C0DE{b.id:04X}": b.key for b in BOARD.blocks})
RECORDS = Path(__file__).resolve().parents[1] / "records"


class Rig:
    def __init__(self, journal_path: Path, feedback_log: list | None = None, readers=READERS):
        self.buzzes: list[tuple[str, str]] = feedback_log if feedback_log is not None else []
        self.readers = readers
        self.table = PhysicalTable(readers, REGISTRY.block_of,
                                   feedback=lambda kind, side: self.buzzes.append((kind, side)))
        self.session = TableSession(Journal(journal_path), physical=self.table)
        self.session.start()

    def play(self, script: str) -> list:
        """Each event of `script` through Sense; the outcomes."""
        return [self.session.sense(e) for e in parse_events(script, reader_map=self.readers, uid_of=REGISTRY.uid_of)]

    def act(self, *lines: str) -> None:
        for line in lines:
            source = line.split()[0]
            outcome = self.session.act(source, line)
            assert outcome.ok, (line, outcome.refusal)

    def set_board(self, skip: tuple[str, ...] = ()) -> None:
        """Every block sensed where the engine has it (the readers' first pass), but in `skip` and in the
        places no reader senses (the levy pools, the eliminated areas)."""
        game_state = self._state()
        for b in BOARD.blocks:
            place = expected_place(game_state, b.id)[0]
            if place is not None and place not in skip and place in self._sensed():
                self.session.sense(TagSeen("board", reader=self._reader_of(place), uid=REGISTRY.uid_of(b.key) or ""))

    def _sensed(self) -> set[str]:
        pools = {f"{p.side} levy pool" for p in self.readers.places if p.kind == "levy_pool"}
        return {name for p in self.readers.places for name in p.locations} | pools

    def _reader_of(self, place: str) -> int:
        if place.endswith(" levy pool"):
            return self.readers.levy_pool(place.removesuffix(" levy pool"))
        return self.readers.index_of(place)

    def _state(self):
        session = self.session
        _, lines = session.journal.lines(session.snapshot().game_id)
        return replay("\n".join(lines) + "\n", "journal").state

    def answer_all(self, side: str, suffix: str) -> list[str]:
        """Answer each of `side`'s open questions with its option ending in `suffix` (a shared antenna:
        "-Roma" for Roma rather than Asculum); the prompts answered."""
        prompts = []
        while (ask := self.part(side)["ask"]) is not None:
            option = next(o for o in ask["options"] if o.endswith(suffix))
            assert self.session.answer(side, option).ok
            prompts.append(ask["prompt"])
        return prompts

    def part(self, viewer: str) -> dict:
        snap = self.session.snapshot()
        return snap.public.table if viewer == "public" else snap.side(viewer).table

    def stop(self) -> None:
        self.session.stop()


def record_lines(name: str, upto: str | None = None) -> list[str]:
    """The action lines of a record in tests/records, up to (not including) the first line starting `upto`."""
    out = []
    for raw in (RECORDS / name).read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("Option"):
            continue
        if upto is not None and line.startswith(upto):
            break
        out.append(line)
    return out

"""Enrollment: teaching the registry which tag is in which block.

Bulk (`enroll_bulk`): the owner sets the board up as the 705 deployment with every other block in
its side's levy pool. One scan tells which tags sit where. A location holding one block assigns
itself; where several blocks share a reader, the owner is asked to lift them one at a time, and
the tag that left is that block (the last one by elimination). Tags already enrolled to a block
expected there are taken as they are, so a re-run only asks about what changed.
One-by-one (`enroll_one`): tap a block on the scan pad, type its name.
Everything odd (a silent reader, a tag on two readers, tags where none were expected, a count
that does not match, a tag or block already enrolled otherwise) is reported and that place is
skipped. The registry is saved only at the end of a run, so an aborted bulk run changes nothing.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from firmware_bridge.board.block_catalog import Block, BlockCatalog
from firmware_bridge.board.reader_map import SIDES, ReaderMap
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.rfid.reader_array import ReaderScan

Scan = Callable[[Iterable[int]], dict[int, ReaderScan]]
ATTEMPTS = 3


class Operator(Protocol):
    """The person at the board (a console, or a script in tests and demos)."""

    def tell(self, message: str) -> None:
        """Show `message` to the person enrolling."""

    def lift(self, block: Block, location: str) -> None:
        """Ask for `block` to be lifted off `location` and kept off; returns when done."""

    def put_back(self, location: str) -> None:
        """Ask for the lifted blocks to go back on `location`."""

    def wait(self, message: str) -> None:
        """Show `message` and return when the person is ready (raise EOFError to stop)."""

    def ask(self, message: str) -> str:
        """Ask `message` and return the typed answer; EOFError when the person stops (Ctrl-D)."""


@dataclass
class EnrollReport:
    """What an enrollment did: tags assigned this run, problems found, and blocks still without a tag."""
    assigned: dict[str, str] = field(default_factory=dict)  # uid -> block id, new this run
    problems: list[str] = field(default_factory=list)
    not_enrolled: list[str] = field(default_factory=list)  # block ids still without a tag


def steady_scan(scan: Scan, readers: list[int]) -> dict[int, ReaderScan]:
    """Scan until two consecutive passes agree (at most ATTEMPTS+1 passes); the last pass otherwise."""
    previous = scan(readers)
    for _ in range(ATTEMPTS):
        current = scan(readers)
        if all(current[r].uids == previous[r].uids for r in readers):
            return current
        previous = current
    return previous


def _expected(reader_map: ReaderMap, catalog: BlockCatalog) -> dict[int, tuple[str, list[str]]]:
    """Reader -> (its name, the blocks on it at set-up). A shared zone holds its locations' blocks
    together; a board with no levy-pool reader at all (`rubicon board-layout`'s) enrolls the pools'
    blocks on the scan pad instead (`enroll --one`)."""
    places: dict[int, tuple[str, list[str]]] = {}
    for loc, ids in catalog.setup_map.items():
        reader = reader_map.index_of(loc)
        name, held = places.get(reader, (" / ".join(reader_map.place(reader).locations), []))
        places[reader] = (name, held + list(ids))
    if not any(p.kind == "levy_pool" for p in reader_map.places):
        return places
    for side in SIDES:   # one side's pool without the other's is a half-made map: ConfigError
        reader = reader_map.levy_pool(side)
        places[reader] = (reader_map.name(reader), catalog.levy_pools[side])
    return places


def enroll_bulk(scan: Scan, reader_map: ReaderMap, catalog: BlockCatalog, registry: TagRegistry,
                operator: Operator) -> EnrollReport:
    """Enroll every block from the board set up as at 705: a reader holding one expected block assigns its tag;
    blocks sharing a reader are told apart by asking the operator to lift them one at a time."""
    report = EnrollReport()
    expected = _expected(reader_map, catalog)
    board = steady_scan(scan, reader_map.indices)
    readers_of: dict[str, list[int]] = {}
    for reader, result in board.items():
        if not result.answered:
            report.problems.append(f"{reader_map.name(reader)} (reader {reader}) does not answer")
        for uid in result.uids:
            readers_of.setdefault(uid, []).append(reader)
    on_two = {uid for uid, readers in readers_of.items() if len(readers) > 1}
    for uid in sorted(on_two):
        report.problems.append(f"tag {uid} is sensed by {' and '.join(reader_map.name(r) for r in readers_of[uid])}"
                               " (a block on a border?)")
    for reader, result in sorted(board.items()):
        if reader not in expected and result.uids - on_two:
            report.problems.append(f"{reader_map.name(reader)}: no blocks belong here at set-up, but tags "
                                   f"{', '.join(sorted(result.uids - on_two))} are sensed")
    pending: dict[str, str] = {}
    for reader, (location, ids) in sorted(expected.items()):
        result = board[reader]
        if not result.answered:
            continue
        tags = set(result.uids) - on_two
        blocks = [catalog.blocks[i] for i in ids]
        if len(tags) != len(blocks) or not result.complete:
            report.problems.append(f"{location}: expected {len(blocks)} blocks, sensed {len(tags)} tags"
                                   + ("" if result.complete else " (reader had read errors)") + "; skipped")
            continue
        for uid in list(tags):  # already enrolled as a block expected here: keep it
            known = registry.block_of(uid)
            if known in ids:
                tags.discard(uid)
                blocks = [b for b in blocks if b.id != known]
        found = _resolve_stack(scan, reader, location, blocks, tags, operator, report)
        pending.update(found)
    for uid, block_id in pending.items():
        known, known_uid = registry.block_of(uid), registry.uid_of(block_id)
        if known not in (None, block_id):
            report.problems.append(f"tag {uid} is already enrolled as {known}; not re-assigned to {block_id}")
            continue
        if known_uid not in (None, uid):
            report.problems.append(f"{block_id} is already enrolled with tag {known_uid}, but tag {uid} stands "
                                   "in its place; use `rubicon enroll --one` to change it")
            continue
        registry.assign(uid, block_id)
        report.assigned[uid] = block_id
    report.not_enrolled = [b for b in catalog.blocks if registry.uid_of(b) is None]
    if report.assigned:
        registry.save()
    return report


def _resolve_stack(scan: Scan, reader: int, location: str, blocks: list[Block], tags: set[str],
                   operator: Operator, report: EnrollReport) -> dict[str, str]:
    """Tell apart the tags of several blocks on one reader by lifting the blocks one at a time."""
    found: dict[str, str] = {}
    remaining = set(tags)
    lifted = False
    for block in blocks[:-1]:
        for _ in range(ATTEMPTS):
            operator.lift(block, location)
            lifted = True
            result = steady_scan(scan, [reader])[reader]
            now = result.uids
            left = remaining - now
            # Only a complete read says a tag left: a read error hides a tag that is still there.
            if result.complete and len(left) == 1 and now <= remaining | set(found):
                uid = left.pop()
                found[uid] = block.id
                remaining.discard(uid)
                break
            why = f"{len(left)} left" if result.complete else "the reader had read errors"
            operator.tell(f"{location}: expected exactly one tag to leave when {block.name} was lifted, "
                          f"{why}; all blocks back, then again")
            operator.put_back(location)
        else:
            report.problems.append(f"{location}: could not tell which tag is {block.name}; skipped the rest")
            return found
    if blocks and len(remaining) == 1:
        found[remaining.pop()] = blocks[-1].id
    if lifted:
        operator.put_back(location)
    return found


def enroll_one(scan: Scan, reader_map: ReaderMap, catalog: BlockCatalog, registry: TagRegistry,
               operator: Operator) -> EnrollReport:
    """Tap-and-name loop on the scan pad until the operator stops (EOFError from `wait`)."""
    report = EnrollReport()
    pad = reader_map.scan_pad
    while True:
        try:
            _enroll_one_block(scan, pad, catalog, registry, operator, report)
        except EOFError:
            break
    report.not_enrolled = [b for b in catalog.blocks if registry.uid_of(b) is None]
    return report


def _enroll_one_block(scan: Scan, pad: int, catalog: BlockCatalog, registry: TagRegistry, operator: Operator,
                      report: EnrollReport) -> None:
    """One tap-and-name round; a refusal or a bad answer ends the round without changing anything."""
    operator.wait("Put ONE block on the scan pad, then press Enter (Ctrl-D to finish)")
    result = steady_scan(scan, [pad])[pad]
    if not result.answered:
        operator.tell("the scan pad's reader does not answer: check its cable")
        report.problems.append("scan pad reader does not answer")
        return
    if not result.complete:  # a tag that could not be read may be the block about to be named
        operator.tell("the scan pad had read errors: lift the block, put it back alone, try again")
        return
    if len(result.uids) != 1:
        operator.tell(f"{len(result.uids)} tags on the scan pad: put exactly one block on it")
        return
    uid = next(iter(result.uids))
    known = registry.block_of(uid)
    if known:
        answer = operator.ask(f"tag {uid} is already {known}; enroll it as another block? [y/N] ")
        if answer.strip().lower() != "y":
            return
    block = _ask_block(catalog, operator)
    if block is None:
        return
    old = registry.assign(uid, block.id, replace=True)
    if old:
        operator.tell(f"{block.id} had tag {old}; that tag is no longer enrolled")
    registry.save()
    report.assigned[uid] = block.id
    operator.tell(f"tag {uid} is now {block.id}")


def _ask_block(catalog: BlockCatalog, operator: Operator) -> Block | None:
    for _ in range(ATTEMPTS):
        answer = operator.ask("Which block is it? (e.g. 'C Legio 7' or 'Pompeius Navis 2'): ")
        try:
            return catalog.find(answer)
        except LookupError as exc:
            operator.tell(str(exc))
    return None


__all__ = ["EnrollReport", "Operator", "enroll_bulk", "enroll_one", "steady_scan"]

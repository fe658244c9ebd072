"""What a tap means on the one-reader build's table (rubicon/table/one_reader.py), through the
table session: who is told, what is offered, what is refused and changes nothing."""
from __future__ import annotations

import random

import pytest

from engine import BOARD, AddStep, EndCommand, Levy, Move, parse_action
from firmware_bridge.board.reader_map import ReaderMap, one_reader_layout
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.events import TagGone, TagSeen
from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.one_reader import OneReaderTable
from rubicon.table.session import TableSession

from .one_reader_play import registry_tags, uid_of

LAYOUT = ReaderMap.load(one_reader_layout())
REGISTRY = TagRegistry(tags=registry_tags())


@pytest.fixture
def rig(tmp_path):
    buzzes: list[tuple[str, str]] = []
    table = OneReaderTable(LAYOUT, REGISTRY.block_of, feedback=lambda kind, side: buzzes.append((kind, side)))
    session = TableSession(Journal(tmp_path / "j.sqlite3"), chance=RandomChance(3), physical=table)
    session.start()
    for _ in range(2):      # the card phase on the phones
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    yield session, table, buzzes
    session.stop()


def tap(session, block: int, reader: int = 0):
    uid = uid_of(block)
    assert session.sense(TagSeen("readers", reader=reader, uid=uid)).ok
    assert session.sense(TagGone("readers", reader=reader, uid=uid)).ok
    return session.snapshot()


def acting(session):
    snap = session.snapshot()
    side = snap.waiting_for[0]
    return snap, side, "Pompeius" if side == "Caesar" else "Caesar"


def test_a_tapped_block_offers_its_moves_and_the_answer_is_the_move(rig):
    session, _, buzzes = rig
    snap, side, other = acting(session)
    move = next(m for m in snap.side(side).legal if isinstance(m, Move) and len(m.path) == 2)
    after = tap(session, move.block)
    ask = after.side(side).table["ask"]
    assert [str(move)] in [o["lines"] for o in ask["options"]]
    assert all(parse_action(o["lines"][0]).block == move.block for o in ask["options"])
    assert after.side(other).table["ask"] is None and after.public.table["ask"] is None
    assert after.side(other).table == snap.side(other).table and after.public.table == snap.public.table
    assert buzzes[-1] == ("ok", side)
    option = next(o["value"] for o in ask["options"] if o["lines"] == [str(move)])
    outcome = session.answer(side, option)
    assert outcome.ok and outcome.accepted[0] == str(move)
    assert session.snapshot().side(side).table["ask"] is None


def test_a_pool_block_offers_the_levy_at_each_strength(rig):
    session, _, _ = rig
    rng = random.Random(7)
    for _ in range(400):        # play on (seeded) until a side may levy
        snap, side, _ = acting(session)
        levy = next((a for a in snap.side(side).legal if isinstance(a, Levy)), None)
        if levy is not None:
            break
        legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
        assert session.act(side, rng.choice(legal)).ok
    assert levy is not None
    options = tap(session, levy.block).side(side).table["ask"]["options"]
    levies = [o for o in options if o["lines"][0] == str(levy)]
    assert levies and levies[0]["lines"] == [str(levy)]
    for option in levies[1:]:
        assert all(isinstance(a, AddStep) and a.block == levy.block for a in map(parse_action, option["lines"][1:]))


def test_an_enemy_block_is_told_to_its_owner_alone_with_the_same_beep(rig):
    session, _, buzzes = rig
    snap, side, other = acting(session)
    theirs = next(b.id for b in BOARD.blocks if b.side == (0 if other == "Caesar" else 1))
    after = tap(session, theirs)
    assert after.side(side).table["ask"] is None and after.side(other).table["ask"] is None
    assert after.side(other).table["messages"][0]["code"] == "table.tap-nothing"
    assert after.side(side).table == snap.side(side).table and after.public.table == snap.public.table
    assert buzzes[-1] == ("ok", other)


def test_a_tag_of_no_block_is_told_to_everyone_and_changes_nothing(rig):
    session, _, _ = rig
    snap = session.snapshot()
    assert session.sense(TagSeen("readers", reader=0, uid="DEADBEEF")).ok
    after = session.snapshot()
    assert all(part.table["messages"][0]["code"] == "table.unknown-tag"
               for part in (after.public, *after.sides.values()))
    assert after.lines == snap.lines and after.side("Caesar").table["ask"] is None


def test_a_forged_or_stale_answer_and_a_bad_done_change_nothing(rig):
    session, _, _ = rig
    snap, side, other = acting(session)
    move = next(m for m in snap.side(side).legal if isinstance(m, Move))
    ask = tap(session, move.block).side(side).table["ask"]
    assert session.answer(other, ask["options"][0]["value"]).refusal["code"] == "table.stale-answer"
    assert session.answer(side, "Roma-Roma").refusal["code"] == "table.unknown-option"
    assert session.done(other).refusal["code"] == "table.done-not-yours"
    assert session.snapshot().lines == snap.lines
    assert session.done(side).ok        # the game moves on (his command ends): the question is stale
    assert session.answer(side, ask["options"][0]["value"]).refusal["code"] == "table.stale-answer"


def test_done_ends_the_command(rig):
    session, _, _ = rig
    snap, side, _ = acting(session)
    outcome = session.done(side)
    assert outcome.ok and isinstance(parse_action(outcome.accepted[0]), EndCommand)
    assert session.snapshot().lines > snap.lines


def test_a_block_of_the_pis_side_is_told_to_nobody(rig):
    session, table, buzzes = rig
    snap, side, other = acting(session)
    table.automated.add(other)
    theirs = next(b.id for b in BOARD.blocks if b.side == (0 if other == "Caesar" else 1))
    before = list(buzzes)
    after = tap(session, theirs)
    assert [p.table for p in (after.public, *after.sides.values())] == \
        [p.table for p in (snap.public, *snap.sides.values())]
    assert buzzes == before

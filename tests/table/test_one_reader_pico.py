"""The one-reader build with its reader on a Pico over USB: `one_reader` set to
the Pico's port, assembled by the composition root, heard through the serial protocol (the device
simulator runs the board-scanner firmware's logic with one reader on a real pty). A tapped block is
asked on its owner's phone alone and the move picked there is played."""
from __future__ import annotations

import pytest

from engine import Move
from firmware_bridge.board.tag_registry import TagRegistry
from firmware_bridge.sim.device_sim import DeviceSim
from rubicon.config import parse_config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.chance import SeededChance
from rubicon.table.one_reader import OneReaderTable

from .one_reader_play import registry_tags, uid_of, without_version
from .waits import until


@pytest.fixture
def pico_table(tmp_path, monkeypatch):
    registry = TagRegistry(tmp_path / "tags.json", tags=registry_tags())
    registry.save()
    monkeypatch.setenv("RUBICON_TAGS", str(tmp_path / "tags.json"))
    sim = DeviceSim("board", readers=1, window_ms=20, heartbeat_ms=100).start()
    journal = Journal(tmp_path / "journal.sqlite3")
    table = assemble(parse_config(f'[devices]\none_reader = "{sim.path}"\n'), journal, chance=SeededChance(9))
    table.start()
    try:
        yield table, sim
    finally:
        table.stop()
        sim.close()
        journal.close()


def test_a_block_tapped_on_the_picos_reader_is_played_from_the_phone(pico_table):
    table, sim = pico_table
    session = table.session
    assert isinstance(session.physical, OneReaderTable) and [s.kind for s in table.specs] == ["board"]
    until(session, lambda s: s.public.table["devices"].get(f"board@{sim.path}") == "up", "the Pico is up")
    for _ in range(2):      # the card phase on the phones
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    before = session.snapshot()
    side = before.waiting_for[0]
    other = "Pompeius" if side == "Caesar" else "Caesar"
    move = next(m for m in before.side(side).legal if isinstance(m, Move) and len(m.path) == 2)
    sim.sensors.place(0, uid_of(move.block))
    snap = until(session, lambda s: s.side(side).table["ask"] is not None, "the tap is asked on the phone")
    for viewer in (None, other):
        assert without_version(snap.for_viewer(viewer)) == without_version(before.for_viewer(viewer))
    option = next(o for o in snap.side(side).table["ask"]["options"] if o["lines"][0] == str(move))
    sim.sensors.remove(0, uid_of(move.block))
    outcome = session.answer(side, option["value"])
    assert outcome.ok and outcome.accepted[0] == str(move)
    assert session.done(side).ok      # Done ends his command

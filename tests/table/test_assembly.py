"""The table `rubicon run` puts together from the configuration: phones only, the virtual table
(laid out as the game stands, its devices up, the dice left to its tray), or the real devices
(here the simulated tray on a real pty)."""
import dataclasses

import pytest

from firmware_bridge.sim.device_sim import DeviceSim
from rubicon.config import Config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble, device_specs
from rubicon.table.chance import RandomChance, SeededChance, SystemChance, TableChance
from rubicon.table.dice import RollRefused

from .waits import until


def test_phones_only(tmp_path):
    table = assemble(Config(), Journal(tmp_path / "j.sqlite3"), virtual=False)
    assert table.kind == "phones" and table.session.physical is None
    assert isinstance(table.session.chance, RandomChance)


def test_chance_is_the_systems_unless_a_seed_is_given(tmp_path):
    """`rubicon run` passes no chance source: the session's draws, the phones' rolls and the
    virtual tray all come from the system's CSPRNG; a test's seeded source reaches all three."""
    table = assemble(Config(), Journal(tmp_path / "a.sqlite3"))
    assert isinstance(table.session.chance_source, SystemChance)
    assert table.session.chance.source is table.session.chance_source
    seeded = SeededChance(7)
    table = assemble(Config(), Journal(tmp_path / "b.sqlite3"), seeded)
    assert table.session.chance_source is seeded and table.virtual is not None
    tray = SeededChance(7).rng("tray")
    table.start()      # a roll is answered once the session ruled on it (journal first, then show)
    try:
        with pytest.raises(RollRefused) as refused:       # no dice are asked for at the deal: refused
            table.virtual.roll(4)
        assert refused.value.faces == tuple(tray.randint(1, 6) for _ in range(4))
    finally:
        table.stop()


def test_the_virtual_table_matches_the_game_and_its_devices_are_up(tmp_path):
    table = assemble(Config(), Journal(tmp_path / "j.sqlite3"))
    table.start()
    try:
        assert table.kind == "virtual" and isinstance(table.session.chance, TableChance)
        snap = until(table.session, lambda s: len(s.public.table["devices"]) == 3
                     and not s.public.table["instructions"], "the virtual devices up and the board set")
        assert set(snap.public.table["devices"].values()) == {"up"}
    finally:
        table.stop()


def test_a_configured_tray_is_opened_and_heard(tmp_path):
    sim = DeviceSim("dice", settle_ms=0, motion_ms=1, heartbeat_ms=100).start()
    config = dataclasses.replace(Config(), tray=sim.path)
    assert [s.kind for s in device_specs(config)] == ["dice"]
    table = assemble(config, Journal(tmp_path / "j.sqlite3"))
    table.start()
    try:
        assert table.kind == "hardware" and "dice@" in table.describe()
        until(table.session, lambda s: s.public.table["devices"].get(f"dice@{sim.path}") == "up", "the tray is up")
    finally:
        table.stop()
        sim.close()

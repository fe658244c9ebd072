"""A sensor-event script played on the emulated MFRC522 array: the real driver reports the events scripted."""
from __future__ import annotations

from firmware_bridge.board.block_catalog import BlockCatalog
from firmware_bridge.emulation.demo_board import demo_uid
from firmware_bridge.events import EventQueue
from firmware_bridge.rfid.scanner import RfidScanner
from firmware_bridge.sim.player import ScriptPlayer
from firmware_bridge.sim.script import parse_events, read_script

SCRIPT = """# Legio 8 marches from Genua to Roma while Caesar stands in Ravenna
place Genua "C Legio 8"
place Ravenna "C Caesar"
lift Genua "C Legio 8"
place Roma "C Legio 8"
"""


def test_a_script_played_on_the_emulated_array_gives_the_scripted_events(rig, array, reader_map):
    catalog = BlockCatalog.load()
    uid_of = {b: demo_uid(b, seven_bytes=b == "C Caesar") for b in catalog.blocks}.get
    steps = read_script(SCRIPT, "march.txt", reader_map=reader_map, uid_of=uid_of)
    scanner = RfidScanner(array, EventQueue(), appear_scans=2, vanish_scans=2, place_name=reader_map.name)
    got = []
    player = ScriptPlayer(rig=rig, name="march.txt")
    for step in steps:      # let the scanner's debounce see each placement before the next step
        player.play_one(step.item)
        for _ in range(3):
            got += [e for e in scanner.poll_once() if e.kind in ("tag_seen", "tag_gone")]
    expected = parse_events(SCRIPT, reader_map=reader_map, uid_of=uid_of)
    assert [(e.kind, e.reader, e.uid) for e in got] == [(e.kind, e.reader, e.uid) for e in expected]
    assert got[0].reader == reader_map.index_of("Genua") and got[-1].reader == reader_map.index_of("Roma")

"""Bring-up at the owner's table: one tagged block walked over every place of an
emulated board whose radio is the layout tool's own field model (emulation/loop_air.py), read by the
real mfrc522 library and our driver at each RxGain step, with deliberately faulty loops: detuned,
dead, two swapped, one lying over its neighbour's place. The analysis must name each fault and write
a reader map from what it measured.
"""
from __future__ import annotations

from firmware_bridge.board.bringup import analyse, place_readers, reader_map_toml, walk
from firmware_bridge.board.loop_field import Loop, Tag, threshold_for_height
from firmware_bridge.board.reader_map import ReaderMap
from firmware_bridge.emulation.loop_air import LoopAir
from firmware_bridge.emulation.rig import EmulatedRig
from firmware_bridge.rfid.reader_array import array_of

PLACES = ("Roma", "Neapolis", "Asculum", "Brundisium", "Sipontum", "Ravenna", "Genua", "Messana")
PITCH = 55.0
DOTS = {name: (60.0 + PITCH * (k % 4), 60.0 + PITCH * (k // 4)) for k, name in enumerate(PLACES)}
TAG = Tag(coil_mm=12.0, height_mm=2.0)
UID = "04B10C4ED00001"


def square(x: float, y: float, side: float = 36.0) -> Loop:
    return Loop(x - side / 2, y - side / 2, x + side / 2, y + side / 2)


def planned_map(tmp_path) -> ReaderMap:
    lines = ["readers = ["]
    for k, name in enumerate(PLACES):
        lines.append(f'  {{ index = {k}, location = "{name}", kind = "city" }},')
    lines += [f'  {{ index = {len(PLACES)}, location = "Scan pad", kind = "scan_pad" }},', "]",
              "[bus]", "spi_bus = 0", "spi_device = 0", "speed_hz = 1000000", "reset_pin = 25",
              "address_pins = [5, 6, 12, 13, 16, 19, 20]", ""]
    path = tmp_path / "readers.toml"
    path.write_text("\n".join(lines))
    return ReaderMap.load(path)


def board_air(**faults) -> LoopAir:
    loops = {k: square(*DOTS[name]) for k, name in enumerate(PLACES)}
    threshold = threshold_for_height(loops[0], TAG, 20.0)     # a module that reads 20 mm up on a 36 mm loop
    air = LoopAir(loops, TAG, threshold)
    for reader, drive in faults.get("drive", {}).items():
        air.drive[reader] = drive
    for a, b in faults.get("swap", ()):
        air.loops[a], air.loops[b] = air.loops[b], air.loops[a]
    for reader, loop in faults.get("loops", {}).items():
        air.loops[reader] = loop
    return air


def bring_up(tmp_path, mock_pins, air: LoopAir):
    reader_map = planned_map(tmp_path)
    rig = EmulatedRig(reader_map.indices, reader_map.bus.address_pins, pin_factory=mock_pins, harsh=air)
    told = []
    with rig.installed():
        array = array_of(reader_map, pin_factory=mock_pins, clock=rig.clock)

        def probe(readers, gain):
            array.set_rx_gain(readers, gain)
            return {r: s.uids for r, s in array.scan_all(readers).items()}

        def tell(place, k, n):
            told.append((place, k, n))
            rig.lift(UID) if UID in rig.tags else None
            cx, cy = air.loops[0].centre
            rig.place(UID, 0, offset_mm=(DOTS[place][0] - cx, DOTS[place][1] - cy))

        try:
            readings = walk(probe, reader_map, PLACES, UID, tell)
        finally:
            array.close()
    assert [t[0] for t in told] == list(PLACES) and told[-1][1:] == (8, 8)
    return reader_map, readings, analyse(readings, place_readers(reader_map))


def kinds(report) -> dict[str, set[tuple[int, ...]]]:
    out: dict[str, set[tuple[int, ...]]] = {}
    for f in report.findings:
        out.setdefault(f.kind, set()).add(f.readers)
    return out


def test_a_sound_board_reads_each_place_on_its_own_loop_only(tmp_path, mock_pins):
    reader_map, readings, report = bring_up(tmp_path, mock_pins, board_air())
    assert all(set(r.seen) == {r.planned} for r in readings)
    assert all(r.seen[r.planned] <= 33 for r in readings)            # strong: read well below full gain
    assert report.problems == []
    assert report.zones == {k: [name] for k, name in enumerate(PLACES)}


def test_faulty_loops_are_named_and_the_measured_map_follows_the_wiring(tmp_path, mock_pins):
    r6_over_r7 = Loop(DOTS["Genua"][0] - 18, DOTS["Genua"][1] - 18, DOTS["Messana"][0] + 6, DOTS["Genua"][1] + 18)
    air = board_air(drive={1: 0.45, 2: 0.0}, swap=[(4, 5)], loops={6: r6_over_r7})
    reader_map, readings, report = bring_up(tmp_path, mock_pins, air)
    found = kinds(report)
    assert found["dead"] == {(2,)}
    assert found["unread"] == {(2,)}                      # Asculum: nobody reads it
    assert found["short"] == {(1,)}                       # detuned: reads its own place only at 43-48 dB
    assert found["swapped"] in ({(4, 5)}, {(5, 4)})
    assert any(6 in f.readers and "Messana" in f.places for f in report.problems)   # R6 lies over Messana
    # the measured map: the swap followed, the dead loop's place left out, the detuned loop at full gain
    assert report.zones[4] == ["Ravenna"] and report.zones[5] == ["Sipontum"]
    assert "Asculum" not in {p for z in report.zones.values() for p in z}
    assert report.gains[1] >= 43 and report.gains[0] <= 38
    written = tmp_path / "measured.toml"
    written.write_text(reader_map_toml(report, reader_map))
    measured = ReaderMap.load(written)
    assert measured.index_of("Ravenna") == 4 and measured.rx_gains[1] == report.gains[1]


def test_the_faults_would_not_pass_as_a_sound_board(tmp_path, mock_pins):
    """The same walk on the sound board finds none of those faults: the findings come from the loops."""
    _, _, report = bring_up(tmp_path, mock_pins, board_air())
    assert not {"dead", "short", "swapped", "unread", "shared"} & set(kinds(report))


def test_the_command_walks_an_emulated_board_and_names_the_planted_faults(tmp_path, capsys):
    """`rubicon board-bringup --emulate` with a detuned, a dead, two swapped loops and one moved over a
    neighbour's place: each named, exit 1, the measured map written and loadable."""
    from rubicon.cli import main

    out = tmp_path / "measured.toml"
    code = main(["board-bringup", "--emulate", "--places", "8", "--fault", "detuned:2", "--fault", "swap:4:5",
                 "--fault", "dead:6", "--fault", "over:0:Treviri", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 1
    assert "R2 reads Lugdunum only at 43 dB" in text or "R2 reads Lugdunum only at 48 dB" in text
    assert "R6 read nothing at any place" in text and "Tarraco: no reader reads the block" in text
    assert "R4 and R5 read each other's places" in text
    assert "R0 is left with no place of its own (it reads Treviri" in text
    measured = ReaderMap.load(out)
    assert measured.index_of("Narbo") == 4 and measured.rx_gains[2] >= 43

"""Several Picos feeding one table: three simulated serial board scanners (real ptys, the real serial
bridge, `TableDevices`), each scanning one region of the shipped layout and numbering its readers
from 0; the table's `first_reader` of each puts their readers where the reader map has them. The
705 set-up, laid out across the three, reads as the engine has it; a block lifted off one Pico's
region and set down in another's is one move on Done."""
import pytest

from engine import BOARD, Game
from firmware_bridge.serial_bridge.link import LinkConfig
from firmware_bridge.sim.device_sim import DeviceSim
from rubicon.config import parse_config, scanner_regions_problems
from rubicon.journal import Journal
from rubicon.table.assembly import device_specs
from rubicon.table.devices import DeviceSpec, TableDevices
from rubicon.table.physical import PhysicalTable
from rubicon.table.reconcile import expected_place
from rubicon.table.session import TableSession

from .physical_rig import READERS, REGISTRY, SENSED, record_lines
from .waits import until

FAST = LinkConfig(read_timeout=0.02, heartbeat=0.1, hello_timeout=0.3, silence_timeout=2.0,
                  backoff_min=0.01, backoff_max=0.1)
OPENING = record_lines("first_turn_705.txt", upto="Caesar moves")
REGIONS = READERS.pico_regions()


def test_the_layout_s_regions_are_three_picos_from_west_to_east():
    assert sorted(REGIONS) == [1, 2, 3]
    assert [min(REGIONS[p]) for p in (1, 2, 3)] == [0, 19, 39]
    assert sorted(i for ix in REGIONS.values() for i in ix) == sorted(READERS.indices)
    assert READERS.index_of("Genua") in REGIONS[2] and READERS.index_of("Massilia") in REGIONS[1]


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    journal.append_many(journal.new_game({"winter_order": "v1.01"}), OPENING)     # Caesar's command of 705
    physical = PhysicalTable(READERS, REGISTRY.block_of)
    session = TableSession(journal, physical=physical)
    session.start()
    picos = {p: DeviceSim("board", readers=len(ix), heartbeat_ms=100).start() for p, ix in REGIONS.items()}
    config = parse_config("[devices]\nscanners = [\n" + "".join(
        f'  {{ url = "{sim.path}", first_reader = {min(REGIONS[p])} }},\n' for p, sim in picos.items()) + "]\n")
    assert scanner_regions_problems(config.scanners, READERS) == []
    specs = device_specs(config)
    assert [(s.kind, s.first_reader) for s in specs] == [("board", 0), ("board", 19), ("board", 39)]
    devices = TableDevices(session, specs, link_config=FAST).start()
    yield session, physical, picos
    devices.stop()
    session.stop()
    for sim in picos.values():
        sim.close()


def on_pico(picos, reader: int):
    """The simulated Pico scanning `reader` of the map, and that reader's number on the Pico."""
    pico = next(p for p, ix in REGIONS.items() if reader in ix)
    return picos[pico], reader - min(REGIONS[pico])


def test_three_picos_read_the_board_as_one_and_a_move_across_regions_is_played(table):
    session, physical, picos = table
    until(session, lambda s: len(s.public.table["devices"]) == 3
          and set(s.public.table["devices"].values()) == {"up"}, "the three scanners are up")
    game = Game({"winter_order": "v1.01"})
    for line in OPENING:
        game.apply(line)
    for b in BOARD.blocks:
        place = expected_place(game.state, b.id)[0]
        if place in SENSED:
            sim, local = on_pico(picos, READERS.index_of(place))
            sim.place(local, REGISTRY.uid_of(b.key)).wait(5)
    until(session, lambda s: s.public.table["instructions"] == [], "the three regions read as the engine has it")
    assert physical.sensed.where("P Legio 34") == "Antiochia"        # Pico 3's region
    assert physical.sensed.where("C Legio 8") == "Genua"              # Pico 2's
    # (Lugdunum: a loop of its own; Massilia now shares one with Narbo, where the phone would ask which)
    genua, lugdunum = on_pico(picos, READERS.index_of("Genua")), on_pico(picos, READERS.index_of("Lugdunum"))
    assert genua[0] is picos[2] and lugdunum[0] is picos[1] and genua[1] == 0      # Genua is Pico 2's reader 0
    genua[0].remove(genua[1], REGISTRY.uid_of("C Legio 8")).wait(5)
    lugdunum[0].place(lugdunum[1], REGISTRY.uid_of("C Legio 8")).wait(5)
    until(session, lambda s: [p["line"] for p in s.side("Caesar").table["placements"]]
          == ["Caesar moves Legio 8 Genua-Lugdunum"],
          "Legio 8 is read in Lugdunum, on another Pico")
    outcome = session.done("Caesar")
    assert outcome.accepted == ("Caesar moves Legio 8 Genua-Lugdunum", "Caesar ends command")


def test_a_first_reader_is_for_a_serial_board_scanner_only():
    from rubicon.table.devices import DeviceSpecError
    assert DeviceSpec("board", url="/dev/ttyACM1", first_reader=22).source == "board@/dev/ttyACM1"
    with pytest.raises(DeviceSpecError, match="first_reader"):
        DeviceSpec("dice", url="/dev/ttyACM0", first_reader=22)
    with pytest.raises(DeviceSpecError, match="first_reader"):
        DeviceSpec("board", url="/dev/ttyACM1", first_reader=-1)

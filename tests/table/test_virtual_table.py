"""The virtual table produces the sensor events the real readers, tray and panel produce, names
only the viewer's own blocks, and refuses bad requests naming the field."""
import pytest

from engine import Game
from firmware_bridge.board.reader_map import ReaderMap
from firmware_bridge.events import DiceRolled, PanelPressed, TagGone, TagSeen
from firmware_bridge.virtual_table import VirtualTable, VirtualTableError, layout_from_views


@pytest.fixture
def events():
    return []


@pytest.fixture
def virtual(events):
    v = VirtualTable(events.append, seed=5)
    v.set_up_705()
    return v


def test_the_705_set_up_puts_every_block_on_its_reader(virtual, events):
    readers = virtual.reader_map
    registry = virtual.registry()
    seen = {registry.block_of(e.uid): readers.place(e.reader).locations for e in events}
    on_map = sum(len(ids) for ids in virtual.catalog.setup_map.values())
    pools = sum(len(ids) for ids in virtual.catalog.levy_pools.values())
    # The virtual board senses the levy pools too (a levy of the Pi's names its pool block).
    assert len(seen) == on_map + pools == len(events)
    assert all(seen[b] == ("Caesar levy pool",) for b in virtual.catalog.levy_pools["Caesar"])
    assert all(isinstance(e, TagSeen) and e.source == "virtual-board" for e in events)
    for location, ids in virtual.catalog.setup_map.items():
        assert all(location in seen[b] and virtual.where(b) == location for b in ids)   # its reader, its own city
    assert seen["P Legio 37"] == ("Messana", "Rhegium", "Syracusae")       # a shared antenna
    assert virtual.where("P Legio 37") == "Syracusae"
    assert all(virtual.where(b) == "pool:Caesar" for b in virtual.catalog.levy_pools["Caesar"])


def test_a_place_without_a_reader_is_a_place_all_the_same(events):
    virtual = VirtualTable(events.append, seed=5, reader_map=ReaderMap.load())   # the packaged map: no pool reader
    virtual.set_up_705()
    block = virtual.catalog.levy_pools["Caesar"][0]
    token = virtual._token[block]
    events.clear()
    virtual.move(token, "Roma")
    assert [type(e) for e in events] == [TagSeen]                 # out of the pool: only the map's reader
    virtual.move(token, "eliminated:Caesar")
    assert [type(e) for e in events] == [TagSeen, TagGone]        # into an unsensed area: the tag leaves
    assert virtual.where(block) == "eliminated:Caesar"
    places = {p["key"]: p for p in virtual.for_viewer(None)["places"]}
    assert {"pool:Caesar", "pool:Pompeius", "eliminated:Caesar", "eliminated:Pompeius", "Roma",
            "Asculum"} <= set(places)


def test_a_move_is_the_tag_leaving_one_reader_and_seen_on_another(virtual, events):
    readers = ReaderMap.load()
    block = virtual.catalog.setup_map["Genua"][0]
    token = next(t for t in virtual.tokens_at("Genua") if virtual._block(t) == block)
    events.clear()
    virtual.move(token, "Roma")
    gone, seen = events
    assert isinstance(gone, TagGone) and readers.name(gone.reader) == "Genua"
    assert isinstance(seen, TagSeen) and seen.reader == readers.index_of("Roma")     # the Asculum/Roma antenna
    assert gone.uid == seen.uid == virtual.registry().uid_of(block)
    assert virtual.where(block) == "Roma"
    virtual.lift(token)
    assert isinstance(events[-1], TagGone) and virtual.where(block) == "hand"
    events.clear()
    virtual.move(token, "hand")        # held and held again: nothing happens
    assert events == []


def test_dice_and_panel(virtual, events):
    faces = virtual.roll(3)
    assert events[-1] == DiceRolled("virtual-tray", faces=faces, t=events[-1].t) and len(faces) == 3
    virtual.press("Pompeius", "done")
    assert events[-1] == PanelPressed("virtual-panel", side="Pompeius", button="done", t=events[-1].t)


@pytest.mark.parametrize("call, field", [
    (lambda v: v.move("nope", "Roma"), "`token`"),
    (lambda v: v.move(v.tokens_at("Genua")[0], "Atlantis"), "`to`"),
    (lambda v: v.roll(5), "`count`"),
    (lambda v: v.roll("2"), "`count`"),
    (lambda v: v.press("Crassus", "done"), "`side`"),
    (lambda v: v.press("Caesar", "self-destruct"), "`button`"),
])
def test_bad_requests_name_the_field_and_change_nothing(virtual, events, call, field):
    before = (len(events), virtual.for_viewer("Caesar"))
    with pytest.raises(VirtualTableError, match=field):
        call(virtual)
    assert (len(events), virtual.for_viewer("Caesar")) == before


def test_each_viewer_reads_only_its_own_labels(virtual):
    for viewer in ("Caesar", "Pompeius", None):
        blocks = virtual.for_viewer(viewer)["blocks"]
        assert len(blocks) == len(virtual.catalog.blocks)
        for b in blocks:
            assert ("label" in b) == (b["side"] == viewer)
        text = repr(virtual.for_viewer(viewer))
        own = {b.name for b in virtual.catalog.blocks.values() if b.side == viewer} | {"Caesar", "Pompeius"}
        hidden = {b.name for b in virtual.catalog.blocks.values() if b.side != viewer} - own
        assert hidden
        assert not any(f"'{name}'" in text for name in hidden)


def test_tokens_are_random_per_table_not_derived_from_blocks(events):
    a, b = VirtualTable(events.append), VirtualTable(events.append)
    assert {a._token[x] for x in a._token}.isdisjoint(b._token[x] for x in b._token)


def test_a_resumed_game_lays_the_board_out_as_the_engine_has_it(events):
    game = Game({})
    virtual = VirtualTable(events.append)
    where = layout_from_views({s: game.view(s) for s in ("Caesar", "Pompeius")}, virtual.catalog)
    virtual.arrange(where)
    assert virtual.where("C Caesar") == "Ravenna"
    assert virtual.where(virtual.catalog.levy_pools["Pompeius"][0]) == "pool:Pompeius"
    assert len(events) == sum(len(ids) for ids in virtual.catalog.setup_map.values()) + sum(
        len(ids) for ids in virtual.catalog.levy_pools.values())      # the pools' readers too


def test_plugging_in_says_the_three_devices_are_up(virtual, events):
    events.clear()
    virtual.plug_in()
    assert {(e.kind, e.device_kind) for e in events} == {("device_up", "board"), ("device_up", "dice"),
                                                         ("device_up", "panel")}

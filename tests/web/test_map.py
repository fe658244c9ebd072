"""The drawn map (web_ui/map_layout.py, map_svg.py, map_blocks.py).

Layout: in both text sizes no label overlaps another label, a stack box (where blocks stand), a
dot or a road ending, checked here on the computed boxes, independently of the placer's own
count; it is the same every time. Blocks, as a security property: the TV's layer is a function
of the public view alone (the hidden strengths changed, it is the same) and shows only backs, as
many per side as the public counts; a phone's layer labels and weighs only its own side's
blocks, every other block a back; the states the pages receive carry exactly these layers."""
import random
import re

import pytest

from engine import BOARD, SIDES, Game
from web_ui import map_layout
from web_ui.map_blocks import map_layer, short_label
from web_ui.map_layout import FONT, MARK, layout
from web_ui.map_svg import map_svg

from .conftest import pair


@pytest.mark.parametrize("size", sorted(FONT))
def test_no_label_overlaps_a_label_a_stack_a_dot_or_a_road_ending(size):
    lay = layout()
    labels = lay.labels[size]
    found = []
    for i, lab in enumerate(labels):
        name = BOARD.loc_names[i]
        found += [(name, "label", BOARD.loc_names[j]) for j, other in enumerate(labels)
                  if j > i and lab.box.overlaps(other.box)]
        found += [(name, "stack", BOARD.loc_names[j]) for j, s in enumerate(lay.stacks)
                  if lab.box.overlaps(s.grown(MARK))]
        found += [(name, "dot", BOARD.loc_names[j]) for j, d in enumerate(lay.dots) if lab.box.overlaps(d)]
        found += [(name, "road ending", str(s)) for s in lay.road_ends if s.crosses(lab.box)]
    assert found == [] and lay.conflicts[size] == 0


def test_stacks_overlap_no_other_stack_or_dot_and_stand_nearest_their_own_dot():
    lay = layout()
    for i, s in enumerate(lay.stacks):
        box = s.grown(MARK)
        assert not any(box.overlaps(t.grown(MARK)) for j, t in enumerate(lay.stacks) if j != i), BOARD.loc_names[i]
        assert not any(box.overlaps(d) for j, d in enumerate(lay.dots) if j != i), BOARD.loc_names[i]
        own = s.distance_to(*BOARD.map_xy[i])
        nearer = [BOARD.loc_names[j] for j in range(BOARD.n_locs)
                  if j != i and s.distance_to(*BOARD.map_xy[j]) + 6 < own]
        assert nearer == [], BOARD.loc_names[i]


def test_the_layout_is_the_same_every_time():
    assert map_layout.compute_layout() == layout()


def test_the_svg_has_every_location_its_stack_box_and_both_label_sets():
    svg = map_svg("the map")
    assert svg.count('<g class="loc ') == BOARD.n_locs
    assert svg.count("data-stack=") == BOARD.n_locs
    for size in FONT:
        group = re.search(f'<g class="labels {size}"[^>]*>(.*?)</g></g>(?=<g class="labels|</svg>)', svg)
        assert group and group.group(1).count('<text class="name') == BOARD.n_locs
    assert svg.count('class="vp-stars"') == 2 * sum(1 for v in BOARD.vp if v)
    assert '<g class="map-layer"' in svg


def squares(layer: str, loc: str) -> list[str]:
    """Each block square drawn at `loc`: its markup."""
    m = re.search(f'<g class="stack" data-loc="{re.escape(loc)}">(.*?)</g>(?=<g class="stack"|$)', layer)
    return re.findall(r'<g class="block [^"]*">.*?</g>', m.group(1)) if m else []


def played_game(seed: int, steps: int) -> Game:
    """A game after `steps` random legal actions (chance drawn from the same seed)."""
    g = Game()
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over():
            break
        g.apply(g.sample_chance(rng) if g.is_chance_node() else
                rng.choice([a for a in g.legal_actions() if "takes back" not in str(a)]))
    return g


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_public_layer_shows_backs_only_as_the_public_counts_them(seed):
    g = played_game(seed, 120 * seed)
    view = g.view(None)
    layer = map_layer(view)
    assert "blabel" not in layer and "strength" not in layer
    for name, entry in view["locations"].items():
        drawn = squares(layer, name)
        assert all(" back" in sq for sq in drawn)
        for side in SIDES:
            n = entry.get(side, {}).get("blocks", 0)
            mine = [sq for sq in drawn if f"block {side.lower()}" in sq]
            more = [int(x) for sq in mine for x in re.findall(r">\+(\d+)<", sq)]
            assert len(mine) - len(more) + sum(more) == n, (name, side)


def test_the_public_layer_does_not_change_with_what_is_hidden():
    g = played_game(5, 200)
    before = map_layer(g.view(None))
    st = g.state
    for b in range(BOARD.n_blocks):                  # every block's strength, a hidden thing, changed
        st.steps[b] = 1 if st.steps[b] != 1 else BOARD.blocks[b].max_steps
    assert map_layer(g.view(None)) == before


@pytest.mark.parametrize("side", SIDES)
def test_a_side_sees_its_own_blocks_labelled_and_the_others_as_backs(side):
    g = played_game(7, 250)
    view = g.view(SIDES.index(side))
    layer = map_layer(view)
    other = SIDES[1 - SIDES.index(side)].lower()
    for name in view["locations"]:
        drawn = squares(layer, name)
        own = sorted((b for b in view["own_blocks"] if b["location"] == name), key=lambda b: b["block"])
        labelled = [sq for sq in drawn if "blabel" in sq]
        said = [(re.search(r'class="blabel"[^>]*>([^<]*)<', sq).group(1),
                 int(re.search(r'class="strength"[^>]*>(\d+)<', sq).group(1))) for sq in labelled]
        room = 3 if any(f"block {other}" in sq for sq in drawn) else 6
        assert said == [(short_label(b["block"]), b["strength"]) for b in own][:len(said)], name
        assert len(said) == (len(own) if len(own) <= room else room - 1), name
        assert not any(f"block {other}" in sq for sq in labelled)
        assert all(" back" in sq for sq in drawn if f"block {other}" in sq)


def test_a_crowded_location_shows_five_blocks_and_counts_the_rest():
    view = {"side": "Caesar", "locations": {"Roma": {"Caesar": {"blocks": 8, "moved": 0}}},
            "own_blocks": [{"block": b.key, "location": "Roma", "strength": 2, "moved": False}
                           for b in BOARD.blocks if b.side == 0][:8], "battles": []}
    drawn = squares(map_layer(view), "Roma")
    assert len(drawn) == 6 and ">+3<" in drawn[-1] and sum("blabel" in sq for sq in drawn) == 5


def test_battles_and_contested_places_are_outlined():
    view = {"locations": {"Roma": {"Caesar": {"blocks": 2, "moved": 1}, "Pompeius": {"blocks": 1, "moved": 0}},
                          "Genua": {"Caesar": {"blocks": 1, "moved": 0}, "Pompeius": {"blocks": 1, "moved": 0}},
                          "Utica": {"Pompeius": {"blocks": 3, "moved": 0}}},
            "battles": [{"location": "Roma", "attacker": "Caesar"}], "fight": {"location": "Roma"}}
    layer = map_layer(view)
    assert 'data-loc="Roma"><rect class="mark battle current"' in layer
    assert 'data-loc="Genua"><rect class="mark contested"' in layer
    assert re.search('data-loc="Utica">(<path class="tie"[^>]*>)?<g class="block', layer)
    assert len(squares(layer, "Roma")) == 3 and sum(" moved" in sq for sq in squares(layer, "Roma")) == 1


def test_the_pages_receive_their_viewers_layer(table, app):
    for _ in range(2):
        for side in SIDES:
            assert table.act(side, table.snapshot().side(side).options()[0]["line"]).ok
    snap = table.snapshot()
    assert app.test_client().get("/state").get_json()["map_layer"] == map_layer(snap.for_viewer(None)["view"])
    caesar = pair(app, "Caesar")
    mine = caesar.get("/play/state").get_json()["map_layer"]
    assert mine == map_layer(snap.for_viewer("Caesar")["view"]) and "blabel" in mine

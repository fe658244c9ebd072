"""The drawn map (web_ui/map_layout.py, map_svg.py, map_blocks.py).

Layout: in both text sizes no label overlaps another label, a stack box (where blocks stand) or a
dot, and crosses a road ending only where every other place is taken, checked here on the
computed boxes, independently of the placer's own count; every name, and every stack however few
blocks it holds, stands nearer its own place's dot than any other; it is the same every time.
Blocks, as a security property: the TV's layer is a function
of the public view alone (the hidden strengths changed, it is the same) and shows only backs, as
many per side as the public counts; a phone's layer labels and weighs only its own side's
blocks, every other block a back; the states the pages receive carry exactly these layers."""
import random
import re

import pytest

from engine import BOARD, SIDES, Game
from web_ui import map_layout
from web_ui.map_blocks import map_layer, short_label, stack_cells
from web_ui.map_geometry import Box, bounds
from web_ui.map_layout import BLOCK, CLEAR, FONT, MARK, NEARER, PITCH, STACK_NEARER, layout
from web_ui.map_svg import map_svg

from .conftest import pair


@pytest.mark.parametrize("size", sorted(FONT))
def test_no_label_overlaps_a_label_a_stack_or_a_dot(size):
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
    assert found == [] and lay.conflicts[size] == 0


def nearest_dot(box: Box) -> tuple[float, int, float]:
    """The box's distance to the nearest location's dot, that location, and to the next one."""
    (d0, loc), (d1, _) = sorted((box.distance_to(*BOARD.map_xy[j]), j) for j in range(BOARD.n_locs))[:2]
    return d0, loc, d1


@pytest.mark.parametrize("size", sorted(FONT))
def test_every_name_stands_nearer_its_own_place_than_any_other(size):
    """A name names the nearest place: its text's box, from the largest any font may draw (the
    label's box without the room kept clear around it) to the smallest (its capitals above the
    baseline), is nearer its own dot than any other dot, by a margin (NEARER of the font size)."""
    wrong = []
    for lab in layout().labels[size]:
        largest = lab.box.grown(-CLEAR)
        smallest = Box(lab.x, lab.y - 0.7 * lab.size, largest.x1, lab.y)
        for box in (largest, smallest):
            near, loc, nxt = nearest_dot(box)
            if loc != lab.loc or nxt - near < NEARER * lab.size:
                wrong.append((BOARD.loc_names[lab.loc], BOARD.loc_names[loc], round(nxt - near, 1)))
    assert wrong == []


@pytest.mark.parametrize("size", sorted(FONT))
def test_a_name_crosses_a_road_ending_only_where_every_free_place_is_taken(size):
    """A road leaving a dot is kept free of names; a name crosses it only where each of its
    candidate places that crosses none would overlap something or stand nearer another place."""
    lay = layout()
    labels = lay.labels[size]
    dots = [d.grown(3) for d in lay.dots]
    solid = [*dots, *(s.grown(MARK) for s in lay.stacks)]
    crossing, avoidable = [], []
    for i, lab in enumerate(labels):
        if not any(s.crosses(lab.box) for s in lay.road_ends):
            continue
        crossing.append(BOARD.loc_names[i])
        others = [o.box for j, o in enumerate(labels) if j != i]
        for cand in map_layout._label_candidates(i, lab.size):
            if not (any(cand.box.overlaps(b) for b in [*solid, *others])
                    or any(s.crosses(cand.box) for s in lay.road_ends)
                    or min(map_layout.nearest_margin(i, b) for b in map_layout.text_boxes(cand)) < NEARER * lab.size):
                avoidable.append((BOARD.loc_names[i], cand.box))
                break
    print(f"{size}: names over a road ending, every other place taken: {crossing}")
    assert avoidable == [] and len(crossing) <= 8


def test_stacks_overlap_no_other_stack_or_dot_and_stand_nearest_their_own_dot():
    lay = layout()
    for i, s in enumerate(lay.stacks):
        box = s.grown(MARK)
        assert not any(box.overlaps(t.grown(MARK)) for j, t in enumerate(lay.stacks) if j != i), BOARD.loc_names[i]
        assert not any(box.overlaps(d) for j, d in enumerate(lay.dots) if j != i), BOARD.loc_names[i]
        near, loc, nxt = nearest_dot(s)
        assert loc == i and nxt - near >= STACK_NEARER, (BOARD.loc_names[i], BOARD.loc_names[loc])


def test_blocks_drawn_stand_nearest_their_own_place_however_few():
    """However many blocks a place holds, of one side or both, the squares drawn (the cells each
    side fills first) stand nearer that place's dot than any other."""
    lay = layout()
    wrong = []
    for loc in range(BOARD.n_locs):
        box = lay.stacks[loc]

        def square(cell: tuple[int, int], box: Box = box) -> Box:
            return Box(box.x0 + cell[0] * PITCH, box.y0 + cell[1] * PITCH,
                       box.x0 + cell[0] * PITCH + BLOCK, box.y0 + cell[1] * PITCH + BLOCK)

        (one,), (first, second) = stack_cells(loc, 1), stack_cells(loc, 2)
        drawn = [one[:k] for k in range(1, len(one) + 1)]
        drawn += [first[:a] + second[:b] for a in range(1, len(first) + 1) for b in range(1, len(second) + 1)]
        for cells in drawn:
            near, nearest, nxt = nearest_dot(bounds([square(c) for c in cells]))
            if nearest != loc or nxt - near < STACK_NEARER:
                wrong.append((BOARD.loc_names[loc], cells))
    assert wrong == []


def test_names_and_stacks_keep_near_the_outermost_places_so_the_map_stays_narrow():
    """A name or a stack reaches at most 40 units beyond the outermost dots (250 at the left,
    where Oceanus Atlanticus' long name stands left of its dot: to its right Gades, Tingis and
    Sala would claim it), 150 above and below: the view is at most 2680 units wide (it was 2778),
    so a map 1384 px wide draws the large names (31 units) at 16 px."""
    lay = layout()
    xs = [x for x, _ in BOARD.map_xy]
    ys = [y for _, y in BOARD.map_xy]
    room = Box(min(xs) - 13 - 250, min(ys) - 13 - 150, max(xs) + 13 + 40, max(ys) + 13 + 150)
    boxes = [(BOARD.loc_names[lab.loc], lab.box) for labs in lay.labels.values() for lab in labs]
    boxes += [(BOARD.loc_names[i], s.grown(MARK)) for i, s in enumerate(lay.stacks)]
    outside = [name for name, b in boxes if b.x0 < room.x0 or b.y0 < room.y0 or b.x1 > room.x1 or b.y1 > room.y1]
    assert outside == []
    assert lay.view.x1 - lay.view.x0 <= 2680 and FONT["large"] * 1384 / (lay.view.x1 - lay.view.x0) >= 16


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

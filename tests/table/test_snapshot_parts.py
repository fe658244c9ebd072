"""The snapshot is typed per viewer: a frozen `PublicPart` and a `SidePart` per `engine.Side`,
made by keyword only; no notation in it (a side's legal moves are engine actions, his options data
with their line), while `for_viewer` still gives the JSON the pages read."""
import dataclasses

import pytest

from engine import Action, Side, TakeBack, line_of
from rubicon.table.snapshots import PublicPart, SidePart, Snapshot


def test_the_parts_are_frozen_keyword_only_and_keyed_by_side(session):
    snap = session.snapshot()
    assert isinstance(snap.public, PublicPart) and set(snap.sides) == set(Side)
    assert all(type(key) is Side and isinstance(part, SidePart) for key, part in snap.sides.items())
    assert snap.side("caesar") is snap.side(Side.CAESAR) is snap.sides[Side.CAESAR]
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.public.view = {}  # type: ignore[misc]
    for cls in (Snapshot, PublicPart, SidePart):
        with pytest.raises(TypeError):
            cls(*[None] * len(dataclasses.fields(cls)))


def test_no_notation_is_kept_but_the_json_still_says_the_lines(session):
    snap = session.snapshot()
    for side in Side:
        part = snap.side(side)
        assert part.legal and all(isinstance(a, Action) for a in part.legal)
        assert [o["line"] for o in part.options()] == [line_of(a) for a in part.legal]
        mine = snap.for_viewer(side)
        assert mine["legal"] == [line_of(a) for a in part.legal]
        assert set(mine) == {"version", "waiting_for", "lines", "result", "problem", "notes", "view", "legal",
                             "pending", "log", "can_undo", "table"}
    assert set(snap.for_viewer(None)) == {"version", "waiting_for", "lines", "result", "problem", "notes", "view",
                                          "pending", "log", "table"}
    assert not any(isinstance(a, TakeBack) for a in snap.side("Caesar").legal)   # nothing to take back yet

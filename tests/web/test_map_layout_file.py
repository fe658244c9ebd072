"""The map's layout ships as a file computed at build time (web_ui/map_layout_file.py): no process
computes it, and the shipped file is exactly what the computation gives now (after a change of the
placement or the game data, `make map-layout` writes it again; until then this fails)."""
import pytest

from web_ui import map_layout, map_layout_file


def test_regenerating_the_layout_gives_the_shipped_file():
    assert map_layout_file.SHIPPED.read_text(encoding="utf-8") == map_layout_file.text_of(map_layout.compute_layout())


def test_the_file_reads_back_as_the_layout_it_was_written_from():
    lay = map_layout_file.shipped()
    assert map_layout_file.from_json(map_layout_file.to_json(lay)) == lay
    assert len(lay.dots) == len(lay.stacks) and set(lay.labels) == set(map_layout.FONT)


def test_no_process_computes_the_layout(monkeypatch):
    def computing():
        raise AssertionError("the layout was computed at run time")
    monkeypatch.setattr(map_layout, "compute_layout", computing)
    map_layout._layout.cache_clear()
    try:
        assert map_layout.layout() == map_layout_file.shipped()
    finally:
        map_layout._layout.cache_clear()


def test_a_file_of_another_format_is_refused_with_the_make_target():
    data = map_layout_file.to_json(map_layout_file.shipped())
    with pytest.raises(ValueError, match="make map-layout"):
        map_layout_file.from_json({**data, "format": 0})

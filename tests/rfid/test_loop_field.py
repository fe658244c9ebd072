"""The loop field model (firmware_bridge/board/loop_field.py) against outside truths: the closed-form
on-axis field of a square loop, the far field of a small loop (a dipole, 1/z³), the known shape at a
tag's height (main lobe inside, a null just outside the wire, a reversed lobe beyond it), and the
layout tool's field check on a small map."""
from __future__ import annotations

import math

import pytest

from firmware_bridge.board.field_check import check_field, design_layout
from firmware_bridge.board.layout import LayoutRules, MapSpot
from firmware_bridge.board.loop_field import (
    MU0,
    Loop,
    Tag,
    bz,
    centre_coupling,
    coupling,
    height_for_threshold,
    on_axis_square,
    threshold_for_height,
)
from firmware_bridge.board.table_measure import LARGE_ON_END, SMALL_CUBE, MeasureError, parse_block

SQUARE = Loop(-18.0, -18.0, 18.0, 18.0)
TAG = Tag(coil_mm=12.0, height_mm=2.0)


@pytest.mark.parametrize("z", [0.5, 2.0, 10.0, 36.0, 200.0])
def test_on_axis_the_biot_savart_sum_is_the_square_loop_s_closed_form(z):
    assert bz(SQUARE, 0.0, 0.0, z) == pytest.approx(on_axis_square(36.0, z), rel=1e-9)


def test_far_away_a_small_loop_is_a_dipole():
    """Bz on the axis of a loop of area A, far off: μ0 I A / (2π z³)."""
    z = 2000.0
    dipole = MU0 * (0.036 ** 2) / (2 * math.pi * (z / 1000) ** 3)
    assert bz(SQUARE, 0.0, 0.0, z) == pytest.approx(dipole, rel=1e-3)


def test_the_shape_at_a_tag_s_height_main_lobe_null_reversed_lobe():
    centre = centre_coupling(SQUARE, TAG)
    profile = {x: coupling(SQUARE, TAG, x, 0.0) / centre for x in (0, 10, 16, 18, 20, 24, 30, 50)}
    assert profile[10] > 1.0                               # strongest towards the wire, inside
    assert 0.3 < profile[18] < 0.5                         # over the wire: the tag straddles it
    assert abs(profile[20]) < 0.05                         # the null 1-3 mm outside (the dead strip)
    assert profile[24] < -0.4                              # the reversed lobe just outside
    assert profile[30] < 0 and abs(profile[30]) < abs(profile[24])
    assert abs(profile[50]) < 0.05                         # and it fades
    # symmetric: the same on every side
    assert coupling(SQUARE, TAG, 0.0, 24.0) == pytest.approx(coupling(SQUARE, TAG, -24.0, 0.0), rel=1e-6)


def test_read_height_and_threshold_are_inverse():
    threshold = threshold_for_height(SQUARE, TAG, 20.0)
    assert height_for_threshold(SQUARE, TAG, threshold) == pytest.approx(20.0, abs=0.01)
    assert threshold < centre_coupling(SQUARE, TAG)       # reading higher up needs less coupling


def test_the_owner_s_measurements_are_parsed_or_refused_by_name():
    assert parse_block("large") is LARGE_ON_END and parse_block("small") is SMALL_CUBE
    assert LARGE_ON_END.tag_half == (25.4 / 2, 12.7 / 2) and LARGE_ON_END.largest_sticker_mm == 10
    assert SMALL_CUBE.largest_sticker_mm == 18
    measured = parse_block("24x13@3x1")
    assert measured.cluster_mm == (72, 13) and measured.tag_half == (24, 0)
    with pytest.raises(MeasureError, match="--block"):
        parse_block("1 inch")


def _spots(pitch: float) -> list[MapSpot]:
    names = ("Roma", "Neapolis", "Capua", "Brundisium")
    return [MapSpot(n, "city", 60.0 + pitch * k, 60.0) for k, n in enumerate(names)]


SMALL_BOARD = LayoutRules(board_w=300.0, board_h=140.0, regions=1, merge_below=10.0)


def test_loops_far_apart_pass_the_field_check_with_margin():
    design = design_layout(_spots(60.0), SMALL_BOARD, TAG, rounds=2)
    report = design.report
    assert report.failing == [] and report.min_db >= 3.0
    assert len(report.loops) == 4 and design.changes == ()
    assert 10 < report.read_height_mm < 40


def test_loops_too_close_read_each_other_and_the_design_loop_fixes_it():
    """Cities 30 mm apart: their 36 mm loops, pushed apart, leave the blocks by the gap in the reversed lobe of the
    neighbour's loop. The check
    says so; the design loop merges or spreads them until every loop has its margin."""
    spots = _spots(30.0)
    from firmware_bridge.board.layout import compute_layout

    plain = compute_layout(spots, SMALL_BOARD)
    report = check_field(plain, TAG)
    assert report.failing and any("couples to" in p for p in report.problems())
    design = design_layout(spots, SMALL_BOARD, TAG)
    assert design.report.failing == []
    assert design.changes                                   # it changed the layout to get there
    assert design.report.min_db > report.min_db

"""Loop inductance and AN1445-style matching (firmware_bridge/board/antenna_match.py) against outside truths:
Grover's closed form for a square loop, a matched network that presents the real impedance it was
computed for, Q = 35, and the detuning a loop's spread costs."""
from __future__ import annotations

import math

import pytest

from firmware_bridge.board.antenna_match import (
    MU0,
    OMEGA,
    _z_in,
    detuning_loss_db,
    loop_inductance,
    loop_resistance,
    match,
    resonance_shift,
    tolerance,
)


def test_a_square_loop_s_inductance_is_grover_s_closed_form():
    """Square of side a, wire radius r: L = (2 μ0 a / π) (ln(a / r) - 0.774) (Grover, 'Inductance
    Calculations', the square loop)."""
    a, r = 0.036, 0.0002
    grover = 2 * MU0 * a / math.pi * (math.log(a / r) - 0.774)
    assert loop_inductance(36, 36, 1, 0.4) == pytest.approx(grover, rel=0.01)
    assert loop_inductance(36, 36, 3) == pytest.approx(9 * loop_inductance(36, 36, 1))


def test_the_matched_loop_presents_the_asked_impedance_at_q_35():
    m = match(loop_inductance(36, 36, 3), loop_resistance(36, 36, 3), r_match=40.0)
    z = _z_in(m, m.l_h)
    assert z.real == pytest.approx(40.0, rel=1e-6) and abs(z.imag) < 1e-6
    assert m.q == pytest.approx(35.0)
    assert detuning_loss_db(m, 0.0) == pytest.approx(0.0, abs=1e-9)


def test_a_loop_off_by_a_few_percent_loses_field_and_the_tolerance_is_where_it_reaches_the_margin():
    m = match(loop_inductance(36, 36, 3), loop_resistance(36, 36, 3))
    assert detuning_loss_db(m, 0.03) < detuning_loss_db(m, 0.01) < 0
    tol = tolerance(m, 3.0)
    assert 0.02 < tol < 0.15
    assert detuning_loss_db(m, tol) == pytest.approx(-3.0, abs=0.05) or detuning_loss_db(m, -tol) == pytest.approx(
        -3.0, abs=0.05)
    assert resonance_shift(0.03) == pytest.approx(-0.0147, abs=1e-3)       # 3 % in L: 1.5 % in frequency


def test_a_loop_too_big_for_the_impedance_is_refused_by_name():
    with pytest.raises(ValueError, match="cannot be matched"):
        match(1e-9, 5.0, r_match=1000.0)
    assert OMEGA > 0

"""The pass-time model (bench/rfid_pass_model.py) runs on the real layout and boards, and its figures
move the way the timings say they must."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "rfid_pass_model.py"


def _bench():
    spec = importlib.util.spec_from_file_location("rfid_pass_model", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module      # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_model_reports_both_boards_for_every_build(capsys):
    bench = _bench()
    assert bench.main(["--games", "2", "--json", "--no-field"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    boards = {r["board"] for r in results}
    assert boards == {"705 set-up", "crowded mid-game"}
    setup = [r for r in results if r["board"] == "705 set-up"]
    assert setup[0]["blocks_on_map"] == 30 and setup[0]["antennas"] >= 60
    for r in results:
        assert 0 < r["p50_ms"] <= r["p95_ms"] <= r["p95_window_ms"]
        assert r["p95_window_ms"] >= 400          # the 400 ms presence window alone
    by_build = {r["build"]: r for r in setup}
    one_pi = by_build["Pi, Python, one bus, fields in turn"]
    assert one_pi["p95_ms"] > 1000                # the Pi-wired bus cannot do it


def test_timings_move_the_right_way():
    bench = _bench()
    slow = bench.Build("x", 50, 1, False)
    fast = bench.Build("x", 50, 1, False, timeout_ms=0.5, burst=True)
    assert bench.read_us(0, slow) > bench.read_us(0, fast) > 0.5 * 1000
    for tags in (1, 3, 7):
        assert bench.read_us(tags, slow) > bench.read_us(tags - 1, slow)
        assert bench.read_us(tags, slow) > bench.read_us(tags, fast)
    loads = [0, 2, 0, 1, 0, 0, 3]
    in_turn, _ = bench.schedule(loads, slow, 5.1)
    piped, _ = bench.schedule(loads, bench.Build("x", 50, 1, True), 5.1)
    assert piped < in_turn
    # each antenna costs at least its settle time when fields go in turn
    assert in_turn >= len(loads) * 5.1 * 1000


def test_the_firmware_as_shipped_is_modelled_from_its_configuration(tmp_path):
    """The model reads hardware/firmware/firmware_config.py as shipped: arrivals are not held by the
    departure window, and the set-down p95 is within 0.5 s on both boards."""
    bench = _bench()
    shipped = bench.shipped_build()
    assert shipped.arrival == "at once" and shipped.settle_ms == 6.0
    old = tmp_path / "firmware_config.py"
    old.write_text("FIELD_MS = 6\nDEBOUNCE_MS = 400\nPIPELINE = False\n")      # the firmware before: the window
    assert bench.shipped_build(old).arrival == "window"
    layout = bench.board_layout(3, field=False)
    counts = bench.setup_705()
    for build, limit in ((shipped, 500), (bench.shipped_build(old), None)):
        samples = []
        for loads in bench.scanner_loads(layout, counts, build.scanners):
            period, reads = bench.schedule(loads, build, build.settle_ms)
            samples += bench.latency_samples(period, reads, build.arrival, build.settle_ms)
        p95 = bench.percentile(samples, 95)
        if limit:
            assert p95 <= limit
        else:
            assert p95 > 500                     # the window held every set-down

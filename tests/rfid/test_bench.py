"""The RFID benchmark runs, reads the whole benchmark board, and its minimum is a lower bound."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from firmware_bridge.board.reader_map import ReaderMap

BENCH = Path(__file__).resolve().parents[2] / "bench" / "rfid_scan.py"


def test_benchmark_reports_traffic_against_the_minimum(capsys):
    spec = importlib.util.spec_from_file_location("rfid_scan_bench", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--passes", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["readers"] == len(ReaderMap.load().places) == 60
    assert result["tags"] == 30 and max(result["stacks"]) == 6
    assert result["spi_bytes"] >= result["min_spi_bytes"] > 0
    assert result["spi_transfers"] >= result["min_spi_transfers"]
    assert result["at"]["1MHz"]["scan_s"] > result["at"]["4MHz"]["scan_s"] > result["air_time_s"]
    assert result["empty_reader_library"][1] > 10 * result["empty_reader_ours"][1]

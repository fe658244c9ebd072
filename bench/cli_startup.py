"""Benchmark of `rubicon --help` start-up: this tree against a baseline commit, and bare Python.

    python bench/cli_startup.py [--runs 30] [--baseline 8800145] [--json]

Extracts the baseline's packages (`git archive`) into a temporary directory (removed
afterwards), then runs `python -m rubicon --help` from each tree and `python -c pass`, one run
of each in turn so that load from other work falls on all three alike, and prints the median
and mean wall time of each. Target: `rubicon --help` under 0.25 s. Figures are printed, never
asserted.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "8800145"
PACKAGES = ("rubicon", "engine", "firmware_bridge", "web_ui")
TARGET_S = 0.25


def _extract(commit: str, dest: Path) -> None:
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, *PACKAGES],
                         check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest, filter="data")


def _time(argv: list[str], root: Path | None) -> float:
    env = dict(os.environ)
    if root is not None:
        env["PYTHONPATH"] = str(root)
    t = time.perf_counter()
    subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL, cwd=tempfile.gettempdir())
    return time.perf_counter() - t


def measure(runs: int, baseline: str) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="rubicon-cli-baseline-"))
    help_cmd = [sys.executable, "-m", "rubicon", "--help"]
    cases = {"this tree": (help_cmd, ROOT), f"baseline {baseline}": (help_cmd, tmp),
             "python -c pass": ([sys.executable, "-c", "pass"], None)}
    times: dict[str, list[float]] = {k: [] for k in cases}
    try:
        _extract(baseline, tmp)
        for argv, root in cases.values():   # warm-up: byte-code caches
            _time(argv, root)
        for _ in range(runs):
            for name, (argv, root) in cases.items():
                times[name].append(_time(argv, root))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"runs": runs, "load_average": [round(x, 2) for x in os.getloadavg()],
            "seconds": {k: {"median": round(statistics.median(v), 4), "mean": round(statistics.fmean(v), 4)}
                        for k, v in times.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    result = measure(args.runs, args.baseline)
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return 0
    print(f"rubicon --help start-up, {args.runs} runs each, interleaved; load average {result['load_average']}")
    for name, r in result["seconds"].items():
        print(f"  {name:22} median {r['median']:.3f} s  mean {r['mean']:.3f} s")
    ours = result["seconds"]["this tree"]["median"]
    print(f"target < {TARGET_S} s: {'met' if ours < TARGET_S else 'NOT met'} (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

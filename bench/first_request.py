"""Benchmark: the CPU the first requests cost a freshly started `rubicon run` (the goal: the first
request <= 0.2 s of CPU; before the map's layout shipped as a file, some 1-3 s per process).

    nice .venv/bin/python bench/first_request.py [--runs 3] [--root DIR]

The real server in a child process (`rubicon run`, the virtual table, a temporary state
directory, 127.0.0.1 on a free port); the child's CPU time (user + system, all its threads, from
/proc/PID/stat) read once its banner is printed, then after each of the TV's page, its state,
the virtual table's page and a phone's pairing page, fetched in that order. `--root`: the source
tree whose server runs (the figures before a change: `git archive COMMIT | tar -x -C DIR`).
Figures printed, never asserted.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
PAGES = ("/", "/state", "/virtual/", "/pair/Caesar")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK        # utime, stime


def one_run(root: Path) -> list[float]:
    with tempfile.TemporaryDirectory(prefix="rubicon-first-") as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("RUBICON_CONFIG", "RUBICON_STATE_DIR")}
        env["PYTHONPATH"] = str(root)
        child = subprocess.Popen([sys.executable, "-m", "rubicon", "run", "--host", "127.0.0.1", "--port", "0",
                                  "--state-dir", str(Path(tmp) / "state")], cwd=tmp, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert child.stdout is not None
            base = ""
            for line in child.stdout:
                if m := re.search(r"the table \(TV\):\s+(\S+)/", line):
                    base = m.group(1)
                if line.startswith("Ctrl-C stops"):
                    break
            costs = []
            before = cpu_s(child.pid)
            for page in PAGES:
                try:
                    urllib.request.urlopen(base + page, timeout=60).read()
                except urllib.error.HTTPError:
                    pass           # the pairing page without its code: refused, rendered all the same
                after = cpu_s(child.pid)
                costs.append(after - before)
                before = after
            return costs
        finally:
            child.terminate()
            child.wait(30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--root", type=Path, default=ROOT)
    args = ap.parse_args()
    runs = [one_run(args.root.resolve()) for _ in range(args.runs)]
    print(f"first requests of a fresh `rubicon run` (server from {args.root}), CPU s per request, "
          f"median of {args.runs} (load {os.getloadavg()[0]:.2f}):")
    for i, page in enumerate(PAGES):
        print(f"  {page:14s} {statistics.median(r[i] for r in runs):6.3f}   (runs: "
              f"{', '.join(f'{r[i]:.3f}' for r in runs)})")
    print("  goal: the first request <= 0.2 s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())

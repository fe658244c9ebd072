"""Benchmark of `rubicon run` as a service: start-up time and resident memory.

    python bench/run_service.py [--runs 5] [--actions 300] [--json]

Starts `rubicon run` (a temporary state directory, port 0) `--runs` times and measures the time
from spawning the process to systemd's READY=1 (a notify socket of our own) and to the first
answered HTTP request. Then, in one more run, the resident memory (VmRSS, VmHWM of
/proc/PID/status) idle after start, and during a game played over HTTP by two paired phones
(`--actions` actions, each side playing its first legal line), sampled after every action.
Goals: ready within 2 s, at most 60 MB. Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.test_run_service import Phone, Table  # noqa: E402  (the tests' own HTTP driver)

GOAL_READY_S, GOAL_RSS_MB = 2.0, 60.0


def rss_mb(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def start_times(tmp: Path, n: int) -> tuple[float, float]:
    """Seconds from spawn to READY=1 and to the first HTTP answer, as one run measures them."""
    sock_path = str(tmp / f"notify{n}.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(sock_path)
    listener.settimeout(60)
    t0 = time.perf_counter()
    table = Table(tmp / f"state{n}", env={"NOTIFY_SOCKET": sock_path})
    ready = 0.0
    try:
        while not listener.recv(4096).startswith(b"READY=1"):
            pass
        ready = time.perf_counter() - t0
        urllib.request.urlopen(table.base + "state", timeout=60).read()
        served = time.perf_counter() - t0
    finally:
        table.stop(signal.SIGTERM)
        listener.close()
    return ready, served


def memory(tmp: Path, actions: int) -> dict:
    table = Table(tmp / "memory")
    try:
        pid = table.proc.pid
        time.sleep(1.0)   # idle: what a started table holds before anyone connects
        idle = rss_mb(pid)[0]
        phones = {side: Phone(table, side) for side in ("Caesar", "Pompeius")}
        peak = idle
        played = 0
        for _ in range(actions):
            state = phones["Caesar"].state()
            if state["result"] is not None or not state["waiting_for"]:
                break
            side = state["waiting_for"][0]
            legal = phones[side].state()["legal"]
            if not legal:
                break
            answer = phones[side].act(legal[0])
            played += len(answer["accepted"])
            peak = max(peak, rss_mb(pid)[0])
        after, hwm = rss_mb(pid)
    finally:
        table.stop(signal.SIGTERM)
    return {"idle_mb": round(idle, 1), "during_game_peak_mb": round(peak, 1), "after_game_mb": round(after, 1),
            "high_water_mb": round(hwm, 1), "lines_played": played}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--actions", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        times = [start_times(tmp, n) for n in range(args.runs)]
        mem = memory(tmp, args.actions)
    ready = [t[0] for t in times]
    served = [t[1] for t in times]
    result = {"runs": args.runs, "ready_s_median": round(statistics.median(ready), 3),
              "ready_s_max": round(max(ready), 3), "first_answer_s_median": round(statistics.median(served), 3),
              **mem, "cpus": os.cpu_count(), "goal_ready_s": GOAL_READY_S, "goal_rss_mb": GOAL_RSS_MB}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"start to READY=1: median {result['ready_s_median']} s, max {result['ready_s_max']} s "
              f"(first HTTP answer: median {result['first_answer_s_median']} s; goal {GOAL_READY_S} s)")
        print(f"resident memory: idle {mem['idle_mb']} MB, during a game of {mem['lines_played']} lines peak "
              f"{mem['during_game_peak_mb']} MB, high-water {mem['high_water_mb']} MB (goal {GOAL_RSS_MB} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of what pairing adds to every request: the Host check and the paired-device lookup in
the journal's database (SQLite, WAL, synchronous=FULL), alone and while the owner thread commits.

    python bench/pairing_checks.py [--requests 5000] [--devices 4]

Prints p50/p99 in microseconds of HostCheck.allows (a name, the Pi's address, a forged name) and
of Pairings.side_of, idle and with a writer appending journal lines meanwhile (each append holds
the journal's lock across its fsync, which a lookup waits for).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rubicon.cli.run import lan_address  # noqa: E402
from rubicon.journal import Journal  # noqa: E402
from rubicon.pairings_store import PairingStore  # noqa: E402
from web_ui.host_check import HostCheck  # noqa: E402
from web_ui.pairing import Pairings  # noqa: E402


def timed(fn, n: int) -> tuple[float, float]:
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99) - 1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--requests", type=int, default=5000)
    p.add_argument("--devices", type=int, default=4)
    args = p.parse_args(argv)
    hosts = HostCheck(["rubicon.home"])
    own = lan_address() + ":8080"
    for name, host in (("name", "raspberrypi.local:8080"), ("own address", own), ("forged", "evil.example")):
        p50, p99 = timed(lambda host=host: hosts.allows(host), args.requests)
        print(f"HostCheck.allows {name:12s} p50 {p50:7.1f} µs  p99 {p99:7.1f} µs")
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "journal.sqlite3")
        pairings = Pairings(PairingStore(journal))
        tokens = []
        for i in range(args.devices):
            side = ("Caesar", "Pompeius")[i % 2]
            code = pairings.code(side) or pairings.invite(tokens[i - 2])[1].code
            tokens.append(pairings.pair(side, code, "bench"))
        p50, p99 = timed(lambda: pairings.side_of(tokens[0]), args.requests)
        print(f"Pairings.side_of idle               p50 {p50:7.1f} µs  p99 {p99:7.1f} µs")
        game = journal.new_game()
        stop = threading.Event()
        commits = [0]

        def writer() -> None:
            while not stop.is_set():
                journal.append(game, "Caesar discards 3/1")
                commits[0] += 1
        thread = threading.Thread(target=writer)
        thread.start()
        p50, p99 = timed(lambda: pairings.side_of(tokens[0]), args.requests)
        stop.set()
        thread.join()
        print(f"Pairings.side_of while committing   p50 {p50:7.1f} µs  p99 {p99:7.1f} µs  ({commits[0]} commits)")
        journal.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

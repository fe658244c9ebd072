"""The table's figures with the dice tray: a dice line on the serial wire to the published
snapshot, the rebuild of a full game from the journal, and the session's resident memory.

    PYTHONPATH=. .venv/bin/python bench/table_serial_latency.py [--rolls 300] [--rebuilds 20]

1. Latency: the simulated tray (device_core on a real pty) and `TableDevices` (the real serial
   bridge) feed a `TableSession` at the 705 battle phase (tests/table/driver.py). Each time the
   session asks for dice, the tray rolls that many; one sample is from the moment the device
   wrote its ROLL line on the pty to the moment a reader blocked in `wait_for_change` received
   the snapshot with the roll applied and journaled (SQLite, synchronous=FULL). Player actions in
   between come from the driver. When a game leaves its battles, a fresh journal starts another.
   Goal: p99 <= 20 ms.
2. Rebuild: a whole game played to its end by the driver (self-play chance), then a new session
   started on that journal: `TableSession.start()` (journal read, replay, first snapshot), and
   the replay alone. Goal <= 0.2 s.
3. Memory: peak RSS of this process (session, bridge, simulator, the Python runtime) after all of
   it, and the RSS growth over the latency run's games. Goal <= 60 MB.
Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import replay_lines  # noqa: E402
from firmware_bridge.serial_bridge.link import LinkConfig  # noqa: E402
from firmware_bridge.sim.device_sim import DeviceSim  # noqa: E402
from rubicon.journal import Journal  # noqa: E402
from rubicon.table.chance import RandomChance, TableChance  # noqa: E402
from rubicon.table.devices import DeviceSpec, TableDevices  # noqa: E402
from rubicon.table.session import TableSession  # noqa: E402
from tests.table.driver import SEED, battle_journal, next_line, play  # noqa: E402

LINK = LinkConfig(read_timeout=0.02, heartbeat=0.5, hello_timeout=0.5, backoff_min=0.01, backoff_max=0.1)
GUARD_S = 30.0


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


class Published(threading.Thread):
    """A reader of the session's snapshots, as the phones' live stream is: it records when it
    received each snapshot and how many lines the game had then."""

    def __init__(self, session: TableSession):
        super().__init__(daemon=True)
        self.session = session
        self.seen: list[tuple[float, int]] = []
        self.cond = threading.Condition()
        self.done = False

    def run(self) -> None:
        version = self.session.snapshot().version
        while not self.done:
            snap = self.session.wait_for_change(version, 0.2)
            if snap.version != version:
                version = snap.version
                with self.cond:
                    self.seen.append((time.perf_counter(), snap.lines))
                    self.cond.notify_all()

    def when_lines(self, lines: int) -> float:
        with self.cond:
            self.cond.wait_for(lambda: any(n >= lines for _, n in self.seen), GUARD_S)
            return next(t for t, n in self.seen if n >= lines)


def wait(predicate, what: str) -> None:
    deadline = time.monotonic() + GUARD_S
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.001)


def latency(rolls: int, work: Path) -> tuple[list[float], int, float, int]:
    sim = DeviceSim("dice", settle_ms=0, motion_ms=1, heartbeat_ms=200, seed=1).start()
    written: list[float] = []
    sim.tap = lambda line: written.append(time.perf_counter()) if b",ROLL," in line else None
    rng = random.Random(3)
    samples: list[float] = []
    refused = 0
    games = 0
    rss_start = rss_mb()
    while len(samples) < rolls:
        games += 1
        session = TableSession(battle_journal(work / f"game{games}.sqlite3"), chance=TableChance(SEED))
        session.start()
        devices = TableDevices(session, [DeviceSpec("dice", sim.path)], link_config=LINK).start()
        reader = Published(session)
        reader.start()
        source = f"dice@{sim.path}"
        wait(lambda s=session, src=source: s.snapshot().public.table["devices"].get(src) == "up", "the tray is up")
        for _ in range(400):
            snap = session.snapshot()
            dice = snap.public.table["dice"]
            if dice is None:
                choice = next_line(snap)
                if choice is None:
                    break
                session.act(*choice)
                continue
            wait(lambda: sim.sensors.led == "blink", "the tray is asked")
            before = len(written)
            sim.roll([rng.randint(1, 6) for _ in range(dice["count"])])
            wait(lambda n=before: len(written) > n, "the ROLL line is written")
            t0 = written[before]
            try:
                t1 = reader.when_lines(snap.lines + 1)
            except StopIteration:
                refused += 1
                continue
            samples.append((t1 - t0) * 1000)
            if len(samples) >= rolls:
                break
        reader.done = True
        devices.stop()
        session.stop()
        session.journal.close()
    sim.close()
    return samples, games, rss_mb() - rss_start, refused


def rebuild(work: Path, times: int) -> tuple[int, list[float], list[float]]:
    path = work / "full.sqlite3"
    session = TableSession(Journal(path), chance=RandomChance(SEED))
    session.start()
    play(session, 5000)
    assert session.snapshot().result is not None, "the driver's game did not end"
    session.stop()
    session.journal.close()
    starts, replays = [], []
    for _ in range(times):
        journal = Journal(path)
        t0 = time.perf_counter()
        again = TableSession(journal, chance=RandomChance(SEED))
        again.start()
        starts.append(time.perf_counter() - t0)
        options, lines = journal.lines(again.snapshot().game_id)
        again.stop()
        journal.close()
        t0 = time.perf_counter()
        replay_lines(options, lines, "journal")
        replays.append(time.perf_counter() - t0)
    return len(lines), starts, replays


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--rebuilds", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        samples, games, growth, refused = latency(args.rolls, Path(tmp))
        lines, starts, replays = rebuild(Path(tmp), args.rebuilds)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"dice tray -> table: {len(samples)} rolls over a pty through the serial bridge into the session "
          f"({games} games from the 705 battle phase; {refused} rolls not applied)")
    print(f"  ROLL line written -> snapshot with the roll applied and journaled, received by a reader: "
          f"p50 {statistics.median(samples):.1f} ms, p99 {pct(samples, 0.99):.1f} ms, max {max(samples):.1f} ms "
          f"(goal p99 <= 20 ms)")
    print(f"  rebuild of a full game ({lines} lines) from the journal: session start median "
          f"{statistics.median(starts) * 1000:.0f} ms (max {max(starts) * 1000:.0f}), replay alone median "
          f"{statistics.median(replays) * 1000:.0f} ms (goal <= 200 ms)")
    print(f"  resident memory: peak {peak:.0f} MB for the process (session, bridge, simulator, runtime); "
          f"{growth:+.1f} MB over the {games} games (goal <= 60 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

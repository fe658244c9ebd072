"""Benchmark of the table app: a phone's action to the other phone's and the TV's live update,
the rebuild of a game from the journal, and the session's resident memory.

    python bench/table_latency.py [--actions 300] [--seed 1]

Runs the real path in one process: a `TableSession` on a SQLite journal in a temporary
directory, the Flask app under waitress on a loopback port, two phones paired the way a phone
pairs (HTTP, cookies, CSRF), and two SSE streams (the other phone, the TV) read by threads.
Each action is POSTed by the side to act; the time until both streams have delivered the
resulting snapshot is one sample. Figures are printed, never asserted.
Goals: p99 <= 50 ms action -> other phone and TV; rebuild <= 0.2 s; RSS <= 60 MB.
"""
from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import random
import re
import resource
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import replay_lines  # noqa: E402
from rubicon.journal import Journal  # noqa: E402
from rubicon.table.chance import RandomChance  # noqa: E402
from rubicon.table.session import TableSession  # noqa: E402
from web_ui import create_app  # noqa: E402
from web_ui.server import make_server  # noqa: E402


class Phone:
    def __init__(self, base: str, app, side: str):
        self.base, self.side = base, side
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        code = app.extensions["rubicon.pairings"].code(side)
        page = self.opener.open(f"{base}/pair/{side}?code={code}").read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        data = f"code={code}&csrf_token={token}".encode()
        self.opener.open(urllib.request.Request(f"{base}/pair/{side}", data=data))
        page = self.opener.open(f"{base}/play/").read().decode()
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)

    def act(self, line: str) -> dict:
        req = urllib.request.Request(f"{self.base}/play/act", data=json.dumps({"line": line}).encode(),
                                     headers={"Content-Type": "application/json", "X-CSRFToken": self.csrf,
                                              "Origin": self.base})
        return json.loads(self.opener.open(req).read())

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class Stream(threading.Thread):
    """Reads one SSE stream; records when each snapshot version arrived."""

    def __init__(self, port: int, path: str, cookie: str | None = None):
        super().__init__(daemon=True)
        self.port, self.path, self.cookie = port, path, cookie
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        conn.request("GET", self.path, headers=headers)
        resp = conn.getresponse()
        while True:
            line = resp.readline()
            if not line:
                return
            if line.startswith(b"id: "):
                with self.cond:
                    self.arrived[int(line[4:])] = time.perf_counter()
                    self.cond.notify_all()

    def wait_for(self, version: int, timeout: float = 30.0) -> float:
        with self.cond:
            self.cond.wait_for(lambda: version in self.arrived, timeout)
            return self.arrived[version]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp())
    session = TableSession(Journal(tmp / "journal.sqlite3"), chance=RandomChance(args.seed))
    session.start()
    app = create_app(session)
    server = make_server(app, "127.0.0.1", 0, threads=12)
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{server.effective_port}"
    phones = {s: Phone(base, app, s) for s in ("Caesar", "Pompeius")}
    streams = {"Caesar": Stream(server.effective_port, "/play/stream", phones["Caesar"].cookie_header()),
               "Pompeius": Stream(server.effective_port, "/play/stream", phones["Pompeius"].cookie_header()),
               "TV": Stream(server.effective_port, "/stream")}
    for s in streams.values():
        s.start()
    rng = random.Random(args.seed)
    samples: list[float] = []
    for _ in range(args.actions):
        snap = session.snapshot()
        if snap.result is not None:
            session.new_game()
            continue
        side = next(s for s in snap.waiting_for if s != "Chance")
        line = rng.choice([o["line"] for o in snap.side(side).options() if o["type"] != "take-back"])
        other = "Pompeius" if side == "Caesar" else "Caesar"
        t0 = time.perf_counter()
        version = phones[side].act(line)["version"]
        done = max(streams[other].wait_for(version), streams["TV"].wait_for(version))
        samples.append((done - t0) * 1000)
    lines = session.journal.lines(session.snapshot().game_id)
    t0 = time.perf_counter()
    replay_lines(*lines, "journal")
    rebuild = time.perf_counter() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    session.stop()
    print(f"table app: {len(samples)} phone actions over HTTP, each until the other phone's and the TV's SSE "
          f"streams delivered it")
    print(f"  action -> other phone and TV: p50 {statistics.median(samples):.1f} ms, p99 {pct(samples, 0.99):.1f} ms, "
          f"max {max(samples):.1f} ms (goal p99 <= 50 ms)")
    print(f"  rebuild of the game from the journal ({len(lines[1])} lines): {rebuild * 1000:.0f} ms (goal <= 200 ms)")
    print(f"  peak resident memory of the process (session + web app + bench client): {rss_mb:.0f} MB "
          f"(goal <= 60 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of the virtual table's live updates: a block moved by one side's browser to the other
side's page (its `/virtual/stream`), and the bytes of one update.

    python bench/virtual_latency.py [--moves 200] [--seed 1]

Runs the real path in one process: a `TableSession` fed by a `VirtualTable`, on a SQLite journal in
a temporary directory, the Flask app under waitress on a loopback port, both sides paired the way a
browser pairs (HTTP, cookies, CSRF). Caesar's browser lifts and sets down his own blocks (POST
/virtual/move, alternately to the hand and back); the time until Pompeius's stream has delivered a
state with the block at its new place is one sample. Before the stream the page polled /virtual/state
every 1.5 s: a change waited 0.75 s on average and up to 1.5 s, plus the request. Figures are
printed, never asserted.
"""
from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_bridge.virtual_table import VirtualTable, layout_from_views  # noqa: E402
from rubicon.journal import Journal  # noqa: E402
from rubicon.table.chance import RandomChance  # noqa: E402
from rubicon.table.physical import PhysicalTable  # noqa: E402
from rubicon.table.session import TableSession  # noqa: E402
from web_ui import create_app  # noqa: E402
from web_ui.server import make_server, stop_server  # noqa: E402


class Browser:
    """A browser paired with `side` (cookie jar, CSRF token of the virtual table's page)."""

    def __init__(self, base: str, app, side: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        code = app.extensions["rubicon.pairings"].code(side)
        page = self.opener.open(f"{base}/pair/{side}?code={code}").read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        self.opener.open(urllib.request.Request(f"{base}/pair/{side}", data=f"code={code}&csrf_token={token}".encode()))
        page = self.opener.open(f"{base}/virtual/").read().decode()
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)

    def move(self, token: str, to: str) -> dict:
        req = urllib.request.Request(f"{self.base}/virtual/move", data=json.dumps({"token": token, "to": to}).encode(),
                                     headers={"Content-Type": "application/json", "X-CSRFToken": self.csrf,
                                              "Origin": self.base})
        return json.loads(self.opener.open(req).read())

    def state(self) -> dict:
        return json.loads(self.opener.open(f"{self.base}/virtual/state").read())

    def cookie(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class Watch(threading.Thread):
    """Reads a /virtual/stream; tells when a block's place is seen as wanted."""

    def __init__(self, port: int, cookie: str):
        super().__init__(daemon=True)
        self.port, self.cookie = port, cookie
        self.places: dict[str, str] = {}
        self.sizes: list[int] = []
        self.cond = threading.Condition()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/virtual/stream", headers={"Cookie": self.cookie})
        resp = conn.getresponse()
        while True:
            line = resp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                state = json.loads(line[6:])
                with self.cond:
                    self.sizes.append(len(line))
                    self.places = {b["token"]: b["at"] for b in state["blocks"]}
                    self.cond.notify_all()

    def wait_for(self, token: str, at: str, timeout: float = 10.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.places.get(token) == at, timeout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        holder: dict[str, TableSession] = {}
        virtual = VirtualTable(sink=lambda event: holder["session"].sense(event), seed=args.seed)
        physical = PhysicalTable(virtual.reader_map, virtual.registry().block_of)
        session = holder["session"] = TableSession(Journal(Path(tmp) / "j.sqlite3"), chance=RandomChance(args.seed),
                                                   physical=physical)
        session.start()
        virtual.arrange(layout_from_views(session.snapshot().side_views(), virtual.catalog))
        app = create_app(session, virtual=virtual)
        server = make_server(app, host="127.0.0.1", port=0, threads=8)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        base = f"http://127.0.0.1:{server.effective_port}"
        caesar, pompeius = Browser(base, app, "Caesar"), Browser(base, app, "Pompeius")
        watch = Watch(server.effective_port, pompeius.cookie())
        watch.start()
        mine = [(b["token"], b["at"]) for b in caesar.state()["blocks"] if b.get("label") and b["at"] != "hand"]
        samples, missed = [], 0
        for _ in range(args.moves // 2):
            token, home = rng.choice(mine)
            for to in ("hand", home):       # lifted, then set down where it stood
                start = time.perf_counter()
                assert caesar.move(token, to)["ok"]
                if watch.wait_for(token, to):
                    samples.append((time.perf_counter() - start) * 1000)
                else:
                    missed += 1
        samples.sort()
        q = statistics.quantiles(samples, n=100)
        print(f"move -> other side's stream, {len(samples)} moves ({missed} missed): "
              f"p50 {q[49]:.1f} ms, p90 {q[89]:.1f} ms, p99 {q[98]:.1f} ms, max {samples[-1]:.1f} ms")
        print(f"one update: {statistics.median(watch.sizes) / 1024:.1f} kB (median of {len(watch.sizes)}); "
              f"the 1.5 s poll fetched it every 1.5 s, changed or not "
              f"({statistics.median(watch.sizes) / 1024 / 1.5 * 60:.0f} kB a minute per page)")
        session.stop()
        stop_server(server, thread)


if __name__ == "__main__":
    main()

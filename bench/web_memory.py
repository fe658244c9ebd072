"""Benchmark: the resident memory of the table app (session + Flask under waitress) with three
live clients (two phones and a TV) connected over SSE for a while, the game moving on.

    python bench/web_memory.py [--minutes 10] [--every 3] [--clients 3]

The server runs in a child process (so the clients' memory is not counted): a `TableSession` on
a SQLite journal in a temporary directory, the app under waitress, playing one random legal line
every `--every` seconds (a new game when one ends) so every stream keeps receiving snapshots.
The parent opens the streams (the TV's public one, two paired phones' private ones) and reads
them, and samples the child's VmRSS from /proc every 10 s. Figures printed, never asserted.
Goal: report; the Pi's budget for the whole app is 60 MB. The malloc arena
limit of `rubicon run` is set here too; bench/memory_soak.py measures `rubicon run` itself, with
the phones playing through their pages' endpoints.
"""
from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def serve(port_out, cookies_out, every: float) -> None:
    from rubicon.journal import Journal
    from rubicon.malloc_arenas import limit_malloc_arenas
    from rubicon.table.chance import RandomChance
    from rubicon.table.session import TableSession
    from web_ui import create_app
    from web_ui.server import make_server

    limit_malloc_arenas()    # as `rubicon run` does, before its threads start
    table = TableSession(Journal(Path(tempfile.mkdtemp()) / "journal.sqlite3"), chance=RandomChance(1))
    table.start()
    app = create_app(table)
    server = make_server(app, host="127.0.0.1", port=0, threads=16)
    cookies = []
    for side in ("Caesar", "Pompeius"):        # pair the way a phone does, keep its session cookie
        client = app.test_client()
        code = app.extensions["rubicon.pairings"].code(side)
        page = client.get(f"/pair/{side}?code={code}").get_data(as_text=True)
        token = page.split('name="csrf_token" value="')[1].split('"')[0]
        resp = client.post(f"/pair/{side}", data={"code": code, "csrf_token": token})
        cookies.append(resp.headers["Set-Cookie"].split(";")[0])
    cookies_out.send(cookies)
    port_out.send(server.effective_port)
    threading.Thread(target=server.run, daemon=True).start()
    rng = random.Random(1)
    while True:
        time.sleep(every)
        snap = table.snapshot()
        if snap.result is not None:
            table.new_game()
            continue
        side = next(s for s in snap.waiting_for if s != "Chance")
        table.act(side, rng.choice([o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]))


def read_stream(port: int, path: str, cookie: str | None, counts: list[int], i: int, stop: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Accept": "text/event-stream", **({"Cookie": cookie} if cookie else {})})
    resp = conn.getresponse()
    while not stop.is_set():
        line = resp.readline()
        if not line:
            break
        if line.startswith(b"id: "):
            counts[i] += 1
    conn.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--every", type=float, default=3.0, help="seconds between two actions")
    args = ap.parse_args()
    port_r, port_w = mp.Pipe(duplex=False)
    cook_r, cook_w = mp.Pipe(duplex=False)
    child = mp.Process(target=serve, args=(port_w, cook_w, args.every), daemon=True)
    child.start()
    cookies = cook_r.recv()
    port = port_r.recv()
    time.sleep(1.0)
    before = rss_kb(child.pid)
    stop = threading.Event()
    counts = [0, 0, 0]
    streams = [("/stream", None), ("/play/stream", cookies[0]), ("/play/stream", cookies[1])]
    threads = [threading.Thread(target=read_stream, args=(port, p, c, counts, i, stop), daemon=True)
               for i, (p, c) in enumerate(streams)]
    for t in threads:
        t.start()
    samples = []
    end = time.monotonic() + args.minutes * 60
    while time.monotonic() < end:
        time.sleep(min(10.0, max(0.0, end - time.monotonic())))
        samples.append(rss_kb(child.pid))
        print(f"  t={len(samples) * 10:4d}s RSS {samples[-1] / 1024:.1f} MB events {counts}", flush=True)
    stop.set()
    child.terminate()
    child.join(10)
    print(f"web memory: 3 SSE clients for {args.minutes:g} min, one action every {args.every:g} s")
    print(f"  RSS before the clients {before / 1024:.1f} MB; with them: first {samples[0] / 1024:.1f} MB, "
          f"max {max(samples) / 1024:.1f} MB, last {samples[-1] / 1024:.1f} MB")
    print(f"  snapshots received per stream: {counts}")


if __name__ == "__main__":
    main()

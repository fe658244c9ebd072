"""Benchmark: the players are served while guests flood the table.

    python bench/flood.py [--seconds 60] [--streams 200] [--half-open 100] [--idle 0] [--distinct-hosts]
                          [--every 0.5] [--code DIR]

Starts `rubicon run --host 127.0.0.1 --port 0 --new-game` (the virtual table, a state directory
in /tmp) in a child process, pairs two phones over HTTP the way a browser does and opens the
TV's stream and both phones' streams from 127.0.0.1. Then a flood process holds, from other
loopback addresses (127.0.1.x, 127.0.2.x: ten connections per address, as from many devices),
`--streams` cookie-less `GET /stream` (read; reopened a second after a refusal or a drop) and
`--half-open` requests that send one byte every 5 s (reopened when the server closes them);
`--idle` of the streams read nothing after their headers (a client that lets the server queue);
`--distinct-hosts`: each stream names another Host (the public view's links depend on it).
While the flood is held, Caesar's phone plays a card and takes it back, one action every
`--every` s, and Pompeius's phone asks for its state over a new connection each time, as fast as
it is answered. Measured: each action's round trip; each update's arrival on the TV's and the
two phones' streams (from the action's POST); Pompeius's requests served per second; the
server's RSS before and with the flood. Figures printed, never asserted. Goal: p99 <= 250 ms.
Loopback only. Bounded: the flood opens at most --streams + --half-open connections at a time
and everything stops after --seconds (the child is killed at exit).
`--code DIR`: the server runs another checkout's code (e.g. a checkout of the previous commit, for the figures before).
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

TIMEOUT_S = 5.0       # a request or update not answered within this counts as this long (and as a timeout)
PER_ADDRESS = 10


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_server(state_dir: str, code: str | None) -> tuple[subprocess.Popen, int, dict[str, str]]:
    """`rubicon run` in a child; its port and the pairing links its banner prints (each side's, and the
    table's screen's under "screen")."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("RUBICON_CONFIG", None)
    if code:
        env["PYTHONPATH"] = code
    child = subprocess.Popen([sys.executable, "-m", "rubicon", "run", "--host", "127.0.0.1", "--port", "0",
                              "--state-dir", state_dir, "--new-game"], cwd=state_dir, env=env,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    port, links = 0, {}
    for line in child.stdout:
        if m := re.search(r"the table \(TV\):\s+http://127\.0\.0\.1:(\d+)/", line):
            port = int(m.group(1))
        if m := re.search(r"pair (\w+):\s+http://[^/]+(/pair/\S+)", line):
            links[m.group(1)] = m.group(2)
        if m := re.search(r"table's screen:\s+http://[^/]+(/pair/\S+)", line):
            links["screen"] = m.group(1)
        if line.startswith("Ctrl-C"):
            break
    threading.Thread(target=lambda: [None for _ in child.stdout or ()], daemon=True).start()  # keep draining
    return child, port, links


def connection(port: int) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)


def pair(port: int, path: str) -> tuple[str, str]:
    """Pair a phone with the link `path`: its session cookie and CSRF token."""
    side = path.split("/")[2].split("?")[0]
    code = parse_qs(urlsplit(path).query)["code"][0]
    conn = connection(port)
    conn.request("GET", path)
    resp = conn.getresponse()
    page = resp.read().decode()
    cookie = (resp.getheader("Set-Cookie") or "").split(";")[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, "no CSRF token on the pairing page"
    conn.request("POST", f"/pair/{side}", body=urlencode({"code": code, "csrf_token": token.group(1)}),
                 headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    resp = conn.getresponse()
    resp.read()
    cookie = (resp.getheader("Set-Cookie") or cookie).split(";")[0]
    conn.request("GET", "/play/", headers={"Cookie": cookie})
    resp = conn.getresponse()
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', resp.read().decode())
    cookie = (resp.getheader("Set-Cookie") or cookie).split(";")[0]    # the session now holds the token
    assert resp.status == 200 and csrf, f"pairing {side} failed ({resp.status})"
    conn.close()
    return cookie, csrf.group(1)


class StreamClock(threading.Thread):
    """Reads one SSE stream and notes when each version arrived."""

    def __init__(self, port: int, path: str, cookie: str | None) -> None:
        super().__init__(daemon=True)
        self.port, self.path, self.cookie = port, path, cookie
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()
        self.drops = 0

    def run(self) -> None:
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                conn.request("GET", self.path, headers={"Accept": "text/event-stream",
                                                        **({"Cookie": self.cookie} if self.cookie else {})})
                resp = conn.getresponse()
                event_id = None
                while line := resp.readline():
                    if line.startswith(b"id: "):
                        event_id = int(line[4:])
                    elif line == b"\n" and event_id is not None:
                        with self.cond:
                            self.arrived[event_id] = time.perf_counter()
                            self.cond.notify_all()
                        event_id = None
            except OSError:
                pass
            self.drops += 1

    def wait_for(self, version: int, since: float) -> float:
        """Seconds from `since` until an event of `version` or later arrived (TIMEOUT_S at most)."""
        with self.cond:
            self.cond.wait_for(lambda: any(v >= version for v in self.arrived), since + TIMEOUT_S - time.perf_counter())
            times = [t for v, t in self.arrived.items() if v >= version]
        return min(min(times) - since, TIMEOUT_S) if times else TIMEOUT_S


def flood(port: int, streams: int, half_open: int, idle: int, hosts: bool, stop, report) -> None:
    """The flood process: holds `streams` guest streams (the first `idle` of them never read
    past their headers) and `half_open` half-sent requests."""
    sel = selectors.DefaultSelector()
    stats = {"stream_open": 0, "stream_200": 0, "stream_503": 0, "stream_dropped": 0, "half_open": 0,
             "half_closed_by_server": 0, "refused_connect": 0, "bytes": 0}
    pending: list[tuple[float, str, int]] = []      # (when, kind, index) to (re)open
    slow_line = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 4000
    socks: dict[socket.socket, dict] = {}

    def source(kind: str, i: int) -> str:
        return f"127.0.{1 if kind == 'stream' else 2}.{1 + i // PER_ADDRESS}"

    def open_one(kind: str, i: int) -> None:
        s = socket.socket()
        try:
            s.bind((source(kind, i), 0))
            s.settimeout(2.0)
            s.connect(("127.0.0.1", port))
            if kind == "stream":
                host = b"guest%d.local" % i if hosts else b"127.0.0.1:%d" % port
                s.sendall(b"GET /stream HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n" % host)
            else:
                s.sendall(slow_line[:1])
            s.setblocking(False)
        except OSError:
            s.close()
            stats["refused_connect"] += 1
            pending.append((time.monotonic() + 1.0, kind, i))
            return
        socks[s] = {"kind": kind, "i": i, "head": b"", "sent": 1, "next": time.monotonic() + 5.0, "ok": False}
        sel.register(s, selectors.EVENT_READ)
        stats["stream_open" if kind == "stream" else "half_open"] += 1

    def lost(s: socket.socket, again_in: float) -> None:
        info = socks.pop(s)
        if not info.get("idle"):
            sel.unregister(s)
        s.close()
        if info["kind"] == "stream":
            stats["stream_open"] -= 1
            if info["ok"]:
                stats["stream_dropped"] += 1
        else:
            stats["half_open"] -= 1
            stats["half_closed_by_server"] += 1
        pending.append((time.monotonic() + again_in, info["kind"], info["i"]))

    for i in range(half_open):
        open_one("half", i)
    for i in range(streams):
        open_one("stream", i)
    last_report = 0.0
    while not stop.is_set():
        for key, _ in sel.select(timeout=0.2):
            s = key.fileobj
            info = socks[s]
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                lost(s, 1.0 if info["kind"] == "stream" else 0.5)
                continue
            stats["bytes"] += len(data)
            if info["kind"] == "stream" and not info["ok"] and not info["head"].startswith(b"HTTP"):
                info["head"] += data
            if info["kind"] == "stream" and not info["ok"] and b"\r\n" in info["head"]:
                if b" 200 " in info["head"].split(b"\r\n")[0]:
                    info["ok"] = True
                    stats["stream_200"] += 1
                    if info["i"] < idle:      # from now on this one reads nothing
                        sel.unregister(s)
                        info["idle"] = True
                else:
                    stats["stream_503"] += 1
                    lost(s, 1.0)
        now = time.monotonic()
        for s, info in list(socks.items()):
            if info["kind"] == "half" and now >= info["next"]:
                info["next"] = now + 5.0
                try:
                    s.send(slow_line[info["sent"] % len(slow_line):][:1])
                    info["sent"] += 1
                except OSError:
                    lost(s, 0.5)
        due = [p for p in pending if p[0] <= now]
        pending[:] = [p for p in pending if p[0] > now]
        for _, kind, i in due:
            open_one(kind, i)
        if now - last_report >= 1.0:
            last_report = now
            report.put(dict(stats, held=sum(1 for x in socks.values() if x["kind"] == "stream" and x["ok"])))
    for s in list(socks):
        s.close()
    report.put(dict(stats, done=True))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def describe(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    timeouts = sum(1 for v in values if v >= TIMEOUT_S)
    return (f"  {name:34s} n={len(ms):4d}  p50 {percentile(ms, 50):7.1f} ms  p99 {percentile(ms, 99):7.1f} ms  "
            f"max {max(ms, default=float('nan')):7.1f} ms  timeouts {timeouts}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="how long the players are measured under the flood")
    ap.add_argument("--streams", type=int, default=200)
    ap.add_argument("--half-open", type=int, default=100)
    ap.add_argument("--idle", type=int, default=0, help="how many of the guest streams never read")
    ap.add_argument("--distinct-hosts", action="store_true",
                    help="each guest stream names its own Host (each is then a rendering of its own)")
    ap.add_argument("--every", type=float, default=0.5, help="seconds between two of Caesar's actions")
    ap.add_argument("--code", default=None, help="run the server from this checkout (PYTHONPATH)")
    args = ap.parse_args()
    state_dir = tempfile.mkdtemp(prefix="rubicon-flood-")
    child, port, links = start_server(state_dir, args.code)
    try:
        run(args, child, port, links)
    finally:
        child.terminate()
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()


def run(args, child: subprocess.Popen, port: int, links: dict[str, str]) -> None:
    caesar, pompeius = pair(port, links["Caesar"]), pair(port, links["Pompeius"])
    clocks = {"TV /stream": StreamClock(port, "/stream", None),
              "Caesar /play/stream": StreamClock(port, "/play/stream", caesar[0]),
              "Pompeius /play/stream": StreamClock(port, "/play/stream", pompeius[0])}
    for clock in clocks.values():
        clock.start()
    time.sleep(1.0)
    rss_before = rss_kb(child.pid)

    stop, report = mp.Event(), mp.Queue()
    flooder = mp.Process(target=flood, daemon=True, args=(port, args.streams, args.half_open, args.idle,
                                                          args.distinct_hosts, stop, report))
    flooder.start()
    latest: dict = {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:        # until the flood is in place (or 30 s)
        latest = report.get(timeout=10)
        if latest["held"] >= args.streams and latest["half_open"] >= args.half_open:
            break
    print(f"flood in place: {latest}", flush=True)

    actions: list[float] = []
    updates: dict[str, list[float]] = {name: [] for name in clocks}
    polls: list[float] = []
    refused: list[int] = []
    rss: list[int] = []
    held: list[int] = []
    end = time.monotonic() + args.seconds
    done = threading.Event()

    def poll() -> None:
        while not done.is_set():
            t0 = time.perf_counter()
            try:
                conn = connection(port)
                conn.request("GET", "/play/state", headers={"Cookie": pompeius[0]})
                conn.getresponse().read()
                conn.close()
                polls.append(time.perf_counter() - t0)
            except OSError:
                polls.append(TIMEOUT_S)
    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    phone = connection(port)
    headers = {"Cookie": caesar[0], "X-CSRFToken": caesar[1], "Content-Type": "application/json"}
    take_back = False
    while time.monotonic() < end:
        tick = time.monotonic() + args.every
        try:
            if take_back:
                path, body = "/play/undo", "{}"
            else:
                phone.request("GET", "/play/state", headers={"Cookie": caesar[0]})
                legal = json.loads(phone.getresponse().read())["legal"]
                path, body = "/play/act", json.dumps({"line": next(x for x in legal if "takes back" not in x)})
            t0 = time.perf_counter()
            phone.request("POST", path, body=body, headers=headers)
            answer = json.loads(phone.getresponse().read())
            actions.append(time.perf_counter() - t0)
            if answer["ok"]:
                take_back = not take_back
                for name, clock in clocks.items():
                    updates[name].append(clock.wait_for(answer["version"], t0))
            else:
                refused.append(1)
        except (OSError, http.client.HTTPException):
            actions.append(TIMEOUT_S)
            phone.close()
            phone = connection(port)
        while not report.empty():
            latest = report.get()
            held.append(latest["held"])
        rss.append(rss_kb(child.pid))
        time.sleep(max(0.0, tick - time.monotonic()))
    done.set()
    poller.join(TIMEOUT_S + 1)
    stop.set()
    flooder.join(10)
    while not report.empty():
        latest = report.get()

    print(f"flood: {args.streams} cookie-less streams ({args.idle} never read"
          f"{', each its own Host' if args.distinct_hosts else ''}), "
          f"{args.half_open} half-open (1 byte / 5 s) from loopback; "
          f"players measured {args.seconds:g} s, Caesar acts every {args.every:g} s"
          + (f"; server code {args.code}" if args.code else ""))
    print(f"  guest streams held during the measurement: min {min(held, default=0)}, max {max(held, default=0)}; "
          f"flood totals: {latest}")
    print(describe("Caesar's actions (POST round trip)", actions) + f"  refused {len(refused)}")
    for name, values in updates.items():
        print(describe(f"update on {name}", values) + f"  drops {clocks[name].drops}")
    print(describe("Pompeius GET /play/state (new conn)", polls)
          + f"  {len(polls) / args.seconds:.0f} req/s")
    print(f"  server RSS: {rss_before / 1024:.1f} MB before the flood; with it: "
          f"max {max(rss, default=0) / 1024:.1f} MB, last {rss[-1] / 1024 if rss else 0:.1f} MB")


if __name__ == "__main__":
    main()

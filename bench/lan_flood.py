"""Benchmark: players before guests at the socket, under three floods of a LAN attacker.

    python bench/lan_flood.py [--seconds 30] [--quiet 20] [--shapes idle,gets,streams] [--code DIR]

Starts `rubicon run --host 127.0.0.1 --port 0 --new-game` (the virtual table, a state directory in
/tmp) in a child process; pairs the TV as the table's screen (the link the terminal prints) from
127.0.0.4 and the two phones (the codes the terminal prints) from 127.0.0.2 and 127.0.0.3, as
browsers do. Then, for each flood shape, first a quiet baseline (`--quiet` s, no flood) and then
the same measurement with the flood held (`--seconds` s), from a separate flooding process:

- `idle`: 700 connections from 12 addresses (127.0.7.1-12, 58-59 each, under the per-address cap)
  that send nothing; each one the server closes is opened again 0.2 s later;
- `gets`: 100 addresses (127.0.8.1-100), each a kept-alive connection sending `GET /state` as
  fast as it is answered (a 429 included; a closed one is reopened);
- `streams`: 300 guest `GET /stream` from 30 addresses (127.0.9.x, ten each), reopened a second
  after a refusal or a drop.

Measured, each with p50/p99/max and timeouts (`TIMEOUT_S`): Caesar's actions (POST round trip,
one every 0.5 s, a card played then taken back, on a kept-alive connection); Pompeius's
`GET /play/state`, each over a NEW connection, back to back; the TV's stream closed and reopened
every second (time to its first snapshot; a 503 counted as refused). Beside every figure: the
1-minute load average at the phase's start and end (the machine is shared; say so). Goal:
players' p99 <= 250 ms, no timeout, the TV's stream never refused. Printed, never asserted.
Loopback only; bounded: at most 700 sockets held, everything stops after each phase.
`--code DIR`: the server runs another checkout's code (e.g. an old worktree, for the figures before).
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from flood import flood as stream_flood  # noqa: E402
from flood import percentile, start_server  # noqa: E402

TIMEOUT_S = 5.0
PHONES = {"Caesar": "127.0.0.2", "Pompeius": "127.0.0.3"}
TV = "127.0.0.4"
CAESAR = {"played": False}     # whether Caesar's last action was a card played (the next one takes it back)


def connection(port: int, source: str, timeout: float = TIMEOUT_S) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))


def pair(port: int, path: str, source: str) -> tuple[str, str]:
    """Pair a browser at `source` with the link `path`: its session cookie and CSRF token."""
    side = path.split("/")[2].split("?")[0]
    code = parse_qs(urlsplit(path).query)["code"][0]
    conn = connection(port, source, timeout=60)     # the first page of a fresh start (the map laid out)
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
    assert resp.status == 302, f"pairing {side} failed ({resp.status})"
    cookie = (resp.getheader("Set-Cookie") or cookie).split(";")[0]
    conn.request("GET", "/play/" if side != "screen" else "/", headers={"Cookie": cookie})
    resp = conn.getresponse()
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', resp.read().decode())
    cookie = (resp.getheader("Set-Cookie") or cookie).split(";")[0]
    conn.close()
    return cookie, csrf.group(1) if csrf else ""


# --- the floods (a process of their own) ------------------------------------------------------
def idle_flood(port: int, stop, report) -> None:
    """700 connections from 12 addresses that send nothing; reopened 0.2 s after the server closes one."""
    sel = selectors.DefaultSelector()
    pending: list[tuple[float, int]] = []
    stats = {"held": 0, "closed_by_server": 0, "refused_connect": 0}

    def open_one(i: int) -> None:
        s = socket.socket()
        try:
            s.bind((f"127.0.7.{1 + i % 12}", 0))
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            s.close()
            stats["refused_connect"] += 1
            pending.append((time.monotonic() + 0.2, i))
            return
        sel.register(s, selectors.EVENT_READ, i)
        stats["held"] += 1

    for i in range(700):
        open_one(i)
    last = 0.0
    while not stop.is_set():
        for key, _ in sel.select(timeout=0.1):
            s = key.fileobj
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                sel.unregister(s)
                s.close()
                stats["held"] -= 1
                stats["closed_by_server"] += 1
                pending.append((time.monotonic() + 0.2, key.data))
        now = time.monotonic()
        for _, i in [p for p in pending if p[0] <= now]:
            open_one(i)
        pending[:] = [p for p in pending if p[0] > now]
        if now - last >= 1.0:
            last = now
            report.put(dict(stats))
    for key in list(sel.get_map().values()):
        key.fileobj.close()


def get_flood(port: int, stop, report) -> None:
    """100 addresses, each one kept-alive connection sending GET /state as fast as it is answered."""
    sel = selectors.DefaultSelector()
    stats = {"answered": 0, "200": 0, "429": 0, "reopened": 0}
    request = b"GET /state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: application/json\r\n\r\n" % port

    def open_one(i: int) -> None:
        s = socket.socket()
        try:
            s.bind((f"127.0.8.{1 + i}", 0))
            s.settimeout(2.0)
            s.connect(("127.0.0.1", port))
            s.sendall(request)
            s.setblocking(False)
        except OSError:
            s.close()
            return
        sel.register(s, selectors.EVENT_READ, {"i": i, "buf": b""})

    for i in range(100):
        open_one(i)
    last = time.monotonic()
    while not stop.is_set():
        for key, _ in sel.select(timeout=0.1):
            s, info = key.fileobj, key.data
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                sel.unregister(s)
                s.close()
                stats["reopened"] += 1
                open_one(info["i"])
                continue
            info["buf"] += data
            while b"\r\n\r\n" in info["buf"]:
                head, _, rest = info["buf"].partition(b"\r\n\r\n")
                m = re.search(rb"content-length:\s*(\d+)", head, re.I)
                length = int(m.group(1)) if m else 0
                if len(rest) < length:
                    break
                info["buf"] = rest[length:]
                status = head.split(b" ", 2)[1].decode()
                stats["answered"] += 1
                stats[status] = stats.get(status, 0) + 1
                try:
                    s.send(request)
                except OSError:
                    pass
        now = time.monotonic()
        if now - last >= 1.0:
            last = now
            report.put(dict(stats))
    for key in list(sel.get_map().values()):
        key.fileobj.close()


def streams_flood(port: int, stop, report) -> None:
    """300 guest streams (bench/flood.py's flood, from 127.0.1.x: ten per address)."""
    stream_flood(port, 300, 0, 0, False, stop, report)


FLOODS = {"idle": idle_flood, "gets": get_flood, "streams": streams_flood}


# --- the players ----------------------------------------------------------------------------
def tv_reopens(port: int, cookie: str, done: threading.Event, times: list[float], refused: list[int]) -> None:
    """The TV's stream closed and reopened every second: the time to its first snapshot."""
    while not done.is_set():
        t0 = time.perf_counter()
        try:
            conn = connection(port, TV)
            conn.request("GET", "/stream", headers={"Accept": "text/event-stream", "Cookie": cookie})
            resp = conn.getresponse()
            if resp.status != 200:
                refused.append(resp.status)
                resp.read()
            else:
                while line := resp.readline():
                    if line.startswith(b"event: snapshot"):
                        break
                times.append(time.perf_counter() - t0)
            conn.close()
        except (OSError, http.client.HTTPException):
            times.append(TIMEOUT_S)
        done.wait(1.0)


def polls(port: int, cookie: str, done: threading.Event, times: list[float]) -> None:
    """Pompeius's GET /play/state, each over a new connection, back to back."""
    while not done.is_set():
        t0 = time.perf_counter()
        try:
            conn = connection(port, PHONES["Pompeius"])
            conn.request("GET", "/play/state", headers={"Cookie": cookie})
            resp = conn.getresponse()
            resp.read()
            conn.close()
            times.append(time.perf_counter() - t0 if resp.status == 200 else TIMEOUT_S)
        except (OSError, http.client.HTTPException):
            times.append(TIMEOUT_S)


def measure(port: int, phones: dict[str, tuple[str, str]], tv: tuple[str, str], seconds: float) -> dict:
    """Caesar's actions, Pompeius's new-connection polls and the TV's reopened stream for `seconds`."""
    done = threading.Event()
    res: dict = {"actions": [], "polls": [], "tv": [], "tv_refused": [], "load": [os.getloadavg()[0]]}
    threads = [threading.Thread(target=polls, args=(port, phones["Pompeius"][0], done, res["polls"]), daemon=True),
               threading.Thread(target=tv_reopens, args=(port, tv[0], done, res["tv"], res["tv_refused"]),
                                daemon=True)]
    for t in threads:
        t.start()
    cookie, csrf = phones["Caesar"]
    headers = {"Cookie": cookie, "X-CSRFToken": csrf, "Content-Type": "application/json"}
    phone = connection(port, PHONES["Caesar"])
    take_back = CAESAR["played"]      # a card played at the end of the last phase is taken back first
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tick = time.monotonic() + 0.5
        try:
            if take_back:
                path, body = "/play/undo", "{}"
            else:
                phone.request("GET", "/play/state", headers={"Cookie": cookie})
                legal = json.loads(phone.getresponse().read())["legal"]
                path, body = "/play/act", json.dumps({"line": next(x for x in legal if "takes back" not in x)})
            t0 = time.perf_counter()
            phone.request("POST", path, body=body, headers=headers)
            answer = json.loads(phone.getresponse().read())
            res["actions"].append(time.perf_counter() - t0)
            if answer.get("ok"):
                take_back = not take_back
                CAESAR["played"] = take_back
        except (OSError, http.client.HTTPException, ValueError):
            res["actions"].append(TIMEOUT_S)
            phone.close()
            phone = connection(port, PHONES["Caesar"])
        time.sleep(max(0.0, tick - time.monotonic()))
    done.set()
    for t in threads:
        t.join(TIMEOUT_S + 2)
    res["load"].append(os.getloadavg()[0])
    return res


def describe(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    timeouts = sum(1 for v in values if v >= TIMEOUT_S)
    return (f"    {name:38s} n={len(ms):5d}  p50 {percentile(ms, 50):7.1f} ms  p99 {percentile(ms, 99):7.1f} ms  "
            f"max {max(ms, default=float('nan')):7.1f} ms  timeouts {timeouts}")


def show(title: str, res: dict, flood: dict | None) -> None:
    print(f"  {title}  (load average 1 min: {res['load'][0]:.2f} at start, {res['load'][1]:.2f} at end)")
    print(describe("Caesar's actions (POST, kept-alive)", res["actions"]))
    print(describe("Pompeius GET /play/state (new conn)", res["polls"]))
    print(describe("TV stream reopened: first snapshot", res["tv"]) + f"  refused {len(res['tv_refused'])}")
    if flood is not None:
        print(f"    flood's own count at the end: {flood}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="each flood's measurement")
    ap.add_argument("--quiet", type=float, default=20.0, help="each quiet baseline's measurement")
    ap.add_argument("--shapes", default="idle,gets,streams")
    ap.add_argument("--code", default=None, help="run the server from this checkout (PYTHONPATH)")
    args = ap.parse_args()
    state_dir = tempfile.mkdtemp(prefix="rubicon-lan-flood-")
    child, port, links = start_server(state_dir, args.code)
    try:
        phones = {side: pair(port, links[side], PHONES[side]) for side in PHONES}
        tv = pair(port, links["screen"], TV) if "screen" in links else ("", "")
        print(f"rubicon run on 127.0.0.1:{port}; {os.cpu_count()} cores; TV "
              f"{'paired as the table screen' if tv[0] else 'a guest (no screen link: old code)'}"
              + (f"; server code {args.code}" if args.code else ""), flush=True)
        for shape in args.shapes.split(","):
            print(f"\n{shape}:", flush=True)
            show("quiet baseline", measure(port, phones, tv, args.quiet), None)
            stop, report = mp.Event(), mp.Queue()
            flooder = mp.Process(target=FLOODS[shape], args=(port, stop, report), daemon=True)
            flooder.start()
            time.sleep(5.0)           # the flood in place
            res = measure(port, phones, tv, args.seconds)
            stop.set()
            latest = None
            while True:
                try:
                    latest = report.get(timeout=2)
                except Exception:
                    break
            flooder.join(10)
            show(f"under the {shape} flood", res, latest)
            time.sleep(3.0)           # the server settles (closed sockets, streams ended)
    finally:
        child.terminate()
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()


if __name__ == "__main__":
    main()

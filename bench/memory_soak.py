"""Benchmark: the resident memory (RSS) of `rubicon run` over a soak with two phones and the TV
live (goal: at most 60 MB over 30 minutes), as an RSS curve against the actions played.

    nice .venv/bin/python bench/memory_soak.py [--minutes 5] [--every 0.5] [--max-actions 100000]
        [--sample 10] [--env MALLOC_ARENA_MAX=2] [--tracemalloc] [--goal-mb 60]
    nice .venv/bin/python bench/memory_soak.py --minutes 30 --every 2      # the issue's soak
    nice .venv/bin/python bench/memory_soak.py --virtual --minutes 30 --every 2    # the same, with the virtual table

The server is the real one, in a child process the way `rubicon run` serves a table: the same
command (`rubicon.cli.main(["run", ...])`: session, SQLite journal in a temporary state
directory, the Flask app under waitress), phones only (`--no-virtual`, the session draws the
chance), bound to 127.0.0.1 on a free port (loopback only). This process is the three devices:
it pairs both phones with their one-time links (as the TV shows them), keeps the TV's
`/stream` and both phones' `/play/stream` open and reads every event (as the pages do), and
plays: each action is a legal line of the side the game waits for, chosen at random, posted to
that phone's `/play/act` once its stream has shown the state after the previous action; a
finished game is followed by a new one, voted from both phones. Bounded: `--minutes` and
`--max-actions`, whichever ends first. `--virtual`: the table as `rubicon run` serves it by
default, with the virtual table (the board sensed from it, the dice from its tray): the dice the
table asks for are rolled in the virtual tray by the phone of the side to roll (`/virtual/roll`,
its paired browser), the moves still played on the phones (the virtual board is then told what to
put right, as a real board would be), the three streams as above.

Every `--sample` seconds the child's VmRSS (from /proc) is printed with the actions played and
the events and bytes each stream received; at the end: RSS before the streams, after the first
actions, max, last, the growth per action (least squares over the samples), and the goal.
`--tracemalloc` traces the child's Python allocations (and prints them beside RSS): tracemalloc
costs memory of its own, so its RSS figures are not the goal's. `--env NAME=VALUE` passes an
environment variable to the server (e.g. MALLOC_ARENA_MAX=2). Figures printed, never asserted.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent

# The child: `rubicon run` itself, with (only under --tracemalloc) a reporter thread that prints the
# traced Python memory to stderr, and the lines that grew most since its second report. The stop
# signals are blocked in that thread as in every thread of `rubicon run`, so SIGTERM still reaches
# its sigwait.
CHILD = """
import os, signal, sys, threading, time
if os.environ.get("SOAK_TRACEMALLOC"):
    import tracemalloc
    tracemalloc.start(1)
    def report():
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        base = None
        for n in range(1 << 30):
            time.sleep(float(os.environ["SOAK_TRACEMALLOC"]))
            current, peak = tracemalloc.get_traced_memory()
            print(f"TRACEMALLOC {current} {peak}", file=sys.stderr, flush=True)
            if n == 1:
                base = tracemalloc.take_snapshot()
            elif base is not None:
                diff = tracemalloc.take_snapshot().compare_to(base, "lineno")[:8]
                print("TRACEMALLOC-TOP " + " | ".join(str(d) for d in diff), file=sys.stderr, flush=True)
    threading.Thread(target=report, daemon=True).start()
for setting in filter(None, os.environ.get("SOAK_WAITRESS", "").split(",")):
    import waitress.adjustments    # an experiment: another default for one of waitress's settings
    name, value = setting.split("=")
    setattr(waitress.adjustments.Adjustments, name, int(value))
from rubicon.cli import main
sys.exit(main(sys.argv[1:]))
"""


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Stream:
    """One open live stream, as a page reads it: the events and bytes so far, the last state."""
    name: str
    path: str
    cookie: str | None
    events: int = 0
    bytes: int = 0
    state: dict[str, Any] | None = None
    ended: str | None = None
    changed: threading.Condition = field(default_factory=threading.Condition)


class Phone:
    """A paired phone: its session cookie and CSRF token, as its browser keeps them."""

    def __init__(self, port: int, side: str, link: str):
        self.port, self.side = port, side
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        path = urlsplit(link).path + "?" + urlsplit(link).query
        conn.request("GET", path)
        resp = conn.getresponse()
        first = (resp.getheader("Set-Cookie") or "").split(";")[0]     # the CSRF token's session
        page = resp.read().decode()
        form_token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert form_token, f"no CSRF token on {path}"
        code = re.search(r"code=([^&]+)", link)
        assert code
        body = f"code={code.group(1)}&csrf_token={form_token.group(1)}"
        conn.request("POST", urlsplit(link).path, body=body,
                     headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": first})
        resp = conn.getresponse()
        resp.read()
        assert resp.status in (302, 303), f"pairing {side}: HTTP {resp.status}"
        self.cookie = (resp.getheader("Set-Cookie") or "").split(";")[0]
        conn.request("GET", "/play/", headers={"Cookie": self.cookie})
        resp = conn.getresponse()
        self.cookie = (resp.getheader("Set-Cookie") or self.cookie).split(";")[0]   # now with its CSRF token
        page = resp.read().decode()
        meta = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
        assert meta, "no CSRF token on the phone's page"
        self.csrf = meta.group(1)
        self.conn = conn

    def post(self, path: str, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        for attempt in (1, 2):
            try:
                self.conn.request("POST", path, body=json.dumps(data),
                                  headers={"Cookie": self.cookie, "X-CSRFToken": self.csrf,
                                           "Content-Type": "application/json", "Accept": "application/json"})
                resp = self.conn.getresponse()
                return resp.status, json.loads(resp.read() or b"{}")
            except (http.client.HTTPException, ConnectionError):
                # The server closed the idle keep-alive connection (a side that waited long for
                # its turn): a new one, as a browser opens.
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def read_stream(port: int, stream: Stream, stop: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", stream.path, headers={"Accept": "text/event-stream",
                                              **({"Cookie": stream.cookie} if stream.cookie else {})})
    resp = conn.getresponse()
    data: list[bytes] = []
    try:
        while not stop.is_set():
            line = resp.readline()
            if not line:
                stream.ended = "closed by the server"
                break
            stream.bytes += len(line)
            if line.startswith(b"data: "):
                data.append(line[6:])
            elif line == b"\n" and data:
                state = json.loads(b"".join(data))
                data = []
                with stream.changed:
                    stream.events += 1
                    stream.state = state
                    stream.changed.notify_all()
    except OSError as exc:
        stream.ended = f"{type(exc).__name__}: {exc}"
    finally:
        conn.close()
        with stream.changed:
            stream.changed.notify_all()


def wait_state(stream: Stream, version: int, timeout: float = 60.0) -> dict[str, Any]:
    """The stream's state once it shows `version` or later (the guard: `timeout`)."""
    with stream.changed:
        ok = stream.changed.wait_for(lambda: stream.ended is not None or (
            stream.state is not None and stream.state["version"] >= version), timeout)
        if not ok or stream.state is None or stream.ended is not None:
            raise RuntimeError(f"{stream.name}: no state of version {version} ({stream.ended or 'timeout'})")
        return stream.state


def start_server(tmp: Path, env_extra: dict[str, str], tracemalloc_every: float | None,
                 root: Path = ROOT, virtual: bool = False) -> tuple[subprocess.Popen, int, dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("RUBICON_CONFIG", "RUBICON_STATE_DIR")}
    env.update(env_extra)
    env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    if tracemalloc_every:
        env["SOAK_TRACEMALLOC"] = str(tracemalloc_every)
    child = subprocess.Popen([sys.executable, "-c", CHILD, "run", *(() if virtual else ("--no-virtual",)),
                              "--host", "127.0.0.1", "--port", "0", "--state-dir", str(tmp / "state")],
                             cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    links: dict[str, str] = {}
    port = 0
    for line in child.stdout:
        if m := re.search(r"the table \(TV\):\s+http://127\.0\.0\.1:(\d+)/", line):
            port = int(m.group(1))
        if m := re.search(r"pair (Caesar|Pompeius):\s+(\S+)", line):
            links[m.group(1)] = m.group(2)
        if line.startswith("Ctrl-C stops"):
            break
    if not port or len(links) != 2:
        child.kill()
        raise RuntimeError(f"rubicon run did not start: {child.stderr.read() if child.stderr else ''}")
    return child, port, links


def fit_slope(points: list[tuple[int, int]]) -> float:
    """KB of RSS per action, least squares over (actions, rss_kb)."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="length of the soak (the issue's goal: 30)")
    ap.add_argument("--every", type=float, default=0.5, help="seconds between two actions")
    ap.add_argument("--max-actions", type=int, default=100_000, help="stop after this many actions")
    ap.add_argument("--sample", type=float, default=10.0, help="seconds between two RSS samples")
    ap.add_argument("--env", action="append", default=[], metavar="NAME=VALUE", help="environment for the server")
    ap.add_argument("--tracemalloc", action="store_true", help="trace the server's Python allocations too")
    ap.add_argument("--goal-mb", type=float, default=60.0)
    ap.add_argument("--virtual", action="store_true", help="with the virtual table (its tray rolls the dice)")
    ap.add_argument("--seed", type=int, default=1, help="the choice of the actions (chance: the server's own)")
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="the source tree whose server runs (default: this one; for figures before a change, "
                         "e.g. `git archive COMMIT | tar -x -C DIR`)")
    args = ap.parse_args(argv)
    env_extra = dict(e.split("=", 1) for e in args.env)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="rubicon-soak-") as tmpdir:
        child, port, links = start_server(Path(tmpdir), env_extra, args.sample if args.tracemalloc else None,
                                          args.root.resolve(), args.virtual)
        traced: list[int] = [0]
        top: list[str] = [""]

        def read_stderr() -> None:
            assert child.stderr is not None
            for line in child.stderr:
                if line.startswith("TRACEMALLOC "):
                    traced[0] = int(line.split()[1])
                elif line.startswith("TRACEMALLOC-TOP "):
                    top[0] = line.split(" ", 1)[1]
                else:
                    sys.stderr.write("  server: " + line)
        threading.Thread(target=read_stderr, daemon=True).start()
        try:
            return soak(args, child, port, links, rng, traced)
        finally:
            if top[0]:
                print("  Python allocations grown most since the second sample (tracemalloc):")
                for item in top[0].strip().split(" | "):
                    print(f"    {item}")
            child.terminate()
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()


def soak(args: argparse.Namespace, child: subprocess.Popen, port: int, links: dict[str, str],
         rng: random.Random, traced: list[int]) -> int:
    phones = {side: Phone(port, side, link) for side, link in links.items()}
    before = rss_kb(child.pid)
    stop = threading.Event()
    tv = Stream("TV", "/stream", None)
    mine = {side: Stream(side, "/play/stream", phone.cookie) for side, phone in phones.items()}
    streams = [tv, *mine.values()]
    for s in streams:
        threading.Thread(target=read_stream, args=(port, s, stop), daemon=True).start()
    started = time.monotonic()
    end = started + args.minutes * 60
    actions, games, refused = 0, 1, 0
    samples: list[tuple[float, int, int]] = []
    env_text = " ".join(args.env) or "no --env"
    if args.root.resolve() != ROOT:
        env_text += f", server from {args.root}"
    print(f"memory soak: rubicon run (pid {child.pid}, {env_text}{', the virtual table' if args.virtual else ''}), "
          f"2 phones + TV streaming, "
          f"one action every {args.every:g} s, up to {args.minutes:g} min / {args.max_actions} actions")
    print(f"  RSS before the streams: {before / 1024:.1f} MB")
    print("     t   actions  games   RSS MB" + ("  traced MB" if args.tracemalloc else "")
          + "   events (TV/C/P)   MB sent (TV/C/P)")

    def sample() -> None:
        rss = rss_kb(child.pid)
        samples.append((time.monotonic() - started, actions, rss))
        extra = f"  {traced[0] / 1e6:9.1f}" if args.tracemalloc else ""
        print(f"  {samples[-1][0]:4.0f}s  {actions:7d}  {games:5d}  {rss / 1024:7.1f}{extra}   "
              f"{'/'.join(str(s.events) for s in streams):>16s}   "
              f"{'/'.join(f'{s.bytes / 1e6:.1f}' for s in streams)}", flush=True)

    next_sample = started + args.sample
    version = 0
    while time.monotonic() < end and actions < args.max_actions:
        now = time.monotonic()
        if now >= next_sample:
            sample()
            next_sample += args.sample
        state = wait_state(tv, version)
        if state["result"] is not None:         # both phones vote for a new game
            for phone in phones.values():
                status, body = phone.post("/play/new-game", {"agree": True})
            version = body["version"]
            games += 1
            continue
        dice = (state.get("table") or {}).get("dice")
        if args.virtual and dice and "Chance" in state["waiting_for"]:     # rolled in the virtual tray
            roller = phones[dice.get("by") if dice.get("by") in phones else "Caesar"]
            status, body = roller.post("/virtual/roll", {"count": dice["count"]})
            if status != 200:
                refused += 1
                if refused > 20:
                    raise RuntimeError(f"too many refusals, the last: {body}")
                version = state["version"] + 1
            else:
                actions += 1
                version = body["state"]["version"]
            time.sleep(max(0.0, min(args.every, end - time.monotonic())))
            continue
        side = next(s for s in state["waiting_for"] if s in phones)
        mine_now = wait_state(mine[side], version)
        lines = [x for x in mine_now["legal"] if not x.endswith("takes back")]
        status, body = phones[side].post("/play/act", {"line": rng.choice(lines)})
        if status != 200:
            refused += 1
            if refused > 20:
                raise RuntimeError(f"too many refusals, the last: {body}")
        else:
            actions += 1
            version = body["version"]
        time.sleep(max(0.0, min(args.every, end - time.monotonic())))   # the pace of play, not a wait for a state
    sample()
    stop.set()
    ended = [f"{s.name}: {s.ended}" for s in streams if s.ended]
    rss = [r for _, _, r in samples]
    steady = [(a, r) for _, a, r in samples if a >= min(50, actions)]
    print(f"memory soak: {samples[-1][0] / 60:.1f} min, {actions} actions in {games} game(s) ({refused} refused), "
          f"{env_text}{', the virtual table' if args.virtual else ''}; load average {os.getloadavg()[0]:.2f} "
          f"(2 cores)")
    print(f"  RSS before the streams {before / 1024:.1f} MB; first sample {rss[0] / 1024:.1f} MB, "
          f"max {max(rss) / 1024:.1f} MB, last {rss[-1] / 1024:.1f} MB")
    print(f"  growth: {fit_slope(steady):.1f} KB per action (least squares after the first 50 actions); "
          f"goal: RSS <= {args.goal_mb:g} MB: {'met' if max(rss) <= args.goal_mb * 1024 else 'NOT met'}")
    print(f"  events per stream (TV/C/P): {'/'.join(str(s.events) for s in streams)}; "
          f"MB sent: {'/'.join(f'{s.bytes / 1e6:.1f}' for s in streams)}" + (f"; ended: {ended}" if ended else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

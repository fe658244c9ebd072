"""Serving the app: waitress, a production WSGI server that suits a Pi, in the session's process,
hardened so that guests on the Wi-Fi cannot starve the two phones and the TV.

- Live streams hold no worker thread. A stream's request is answered by a worker like any other
  (headers, the `retry:` hint); then its connection is handed over to the app's live hub
  (web_ui/live.py), one thread that writes every update to every stream, and the worker is free.
  Measured (bench/flood.py): with one worker per stream, 13 guest streams beside the TV and two
  phones took all 16 workers and every other request timed out.
- Half-open connections cannot fill the server: a request must arrive whole within
  `REQUEST_DEADLINE_S` of its first byte (waitress's own `channel_timeout` counts only silence,
  so a client sending a byte every few seconds kept a connection forever), an idle connection is
  closed after `IDLE_TIMEOUT_S`, one client address may hold at most `connections_per_address`
  connections, and `connection_limit` is sized for the streams (waitress's default of 100 let 99
  half-sent requests lock every new client out). poll() instead of select(): select() cannot watch
  a descriptor numbered above 1023.
- A request's header and body are bounded by what the app accepts (not waitress's 256 KB header
  and 1 GB body, which an attacker's connections could make the Pi buffer).
- Players before guests: a connection that carried a request of a paired device (a
  side's or the table's screen: web_ui/admission.py tells the server), and every new connection
  from an address that did lately (`TRUSTED_ADDRESSES`, an LRU), is *trusted*: its requests go
  to the front of the workers' queue, it is not held to `connections_per_address`, and it is
  never closed to make room. When `connection_limit` connections are open, a new one is not left
  waiting in the kernel's backlog (a phone's request would time out behind 700 idle guests):
  the server closes the least recently active idle connection of the address holding the most
  (a guest's: no request in progress, no live stream) and takes the new one.
- Time: idle connections and slow requests are timed on the monotonic clock (waitress times them
  on the wall clock, so a step back of an hour kept every idle connection for an hour).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from flask import Flask
from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher, WSGITask

from .admission import PAUSE_KEY, TRUST_KEY
from .bounded import BoundedTable
from .live import DETACH_KEY, LiveHub, LiveStream

log = logging.getLogger(__name__)

DEFAULT_THREADS = 16
CONNECTION_LIMIT = 600          # 256 guest streams, players, TVs, and room to refuse the rest by address
CONNECTIONS_PER_ADDRESS = 16    # an unpaired device: a browser opens 6 per site, a stream, a tab more (paired: no cap)
ACCEPTS_PER_WAKE = 64           # connections taken from the kernel's backlog each time the loop wakes
REQUEST_DEADLINE_S = 10.0       # from a request's first byte to its last (headers and body)
IDLE_TIMEOUT_S = 30             # a kept-alive connection with no request in progress
MAX_HEADER_BYTES = 16 * 1024
MAX_BODY_BYTES = 64 * 1024      # the app refuses more than 16 KB anyway (MAX_CONTENT_LENGTH)
BACKLOG_BYTES = 64 * 1024       # unsent bytes of a stream whose reader does not keep up: it is closed
TRUSTED_ADDRESSES = 64          # addresses of paired devices seen lately (an LRU)
HARD_LIMIT_MARGIN = 64          # waitress's own limit, above ours: what may be open while evicted ones close

# waitress appends everything a response writes to one in-memory buffer per connection and, the
# client reading along, only moves a read position: the buffer is dropped when it is rotated,
# after `outbuf_high_watermark` bytes (default 16 MiB). A live stream never ends, so each kept up
# to 16 MiB of old events (RSS +47-97 KB per action with two phones and the TV).
# Rotating every 64 KiB bounds that to about twice this per connection; it is also the most a
# slow client may have pending before its writer thread waits for it (a stream then sends the
# newest snapshot, not a backlog).
OUTBUF_HIGH_WATERMARK = 64 * 1024


TOO_MANY_CONNECTIONS = (b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\nContent-Length: 0\r\n"
                        b"Connection: close\r\n\r\n")


class StreamWriter:
    """How the live hub writes to one handed-over connection (from its own thread: never blocks)."""

    def __init__(self, task: LiveTask) -> None:
        self.task = task
        self.channel: LiveChannel = task.channel

    def alive(self) -> bool:
        """Whether the client is still connected and the connection is not closing."""
        channel = self.channel
        return channel.connected and not (channel.will_close or channel.close_when_flushed)

    def send(self, data: bytes) -> bool:
        """Queue `data` (one chunk of the chunked response); False once the connection is gone or
        its reader fell `BACKLOG_BYTES` behind (then it is closed: the browser reconnects and
        gets the current snapshot)."""
        if not self.alive():
            return False
        if self.channel.total_outbufs_len > BACKLOG_BYTES:
            self.close()
            return False
        try:
            # write_soon sends what the socket takes now (non-blocking) and queues the rest: the hub
            # never waits for a reader (one that falls BACKLOG_BYTES behind is closed above).
            self.task.write(data)
        except (ClientDisconnected, OSError):
            return False
        return True

    def close(self) -> None:
        """End the response and close the connection once what is queued is sent."""
        channel = self.channel
        if channel.connected:
            try:
                if self.task.chunked_response:
                    channel.write_soon(b"0\r\n\r\n")    # the chunked body's end
            except (ClientDisconnected, OSError):
                pass
            with channel.requests_lock:
                channel.close_when_flushed = True
            try:
                channel.server.pull_trigger()
            except OSError:
                pass    # the server has closed already (and with it this connection)


class LiveTask(WSGITask):
    """A request's task that can hand its connection over to a live stream once answered."""

    live: LiveStream | None = None

    def get_environment(self) -> dict[str, Any]:
        """The WSGI environ, with the hooks that hand a live stream over to the hub and that trust
        this connection (a paired device's request)."""
        environ = super().get_environment()
        environ[DETACH_KEY] = self._detach
        environ[TRUST_KEY] = self.channel.trust
        environ[PAUSE_KEY] = self.channel.pause
        return environ

    def _detach(self, stream: LiveStream) -> None:
        self.live = stream

    def service(self) -> None:
        """Serve the request; a live stream whose response never got out is abandoned."""
        try:
            super().service()
        finally:
            if self.live is not None and self.live.writer is None:
                self.live.abandon()    # the response never got out (client gone, error)

    def finish(self) -> None:
        """End the response; a live stream's connection stays open for the hub to write on."""
        if self.live is None or not self.status.startswith("200"):
            super().finish()
            return
        if not self.wrote_header:
            self.write(b"")
        channel = self.channel
        with channel.requests_lock:
            # The connection now belongs to the stream: requests pipelined behind it are dropped
            # (with a thread per stream they would never have been answered either).
            del channel.requests[1:]
            channel.live = self.live
        self.close_on_finish = False    # the channel must not end the response: the hub writes on
        self.live.attach(StreamWriter(self))


class LiveChannel(HTTPChannel):
    """A connection; it remembers when its current request began, and once it carries a live
    stream it takes nothing more from its client."""

    task_class = LiveTask
    live: LiveStream | None = None
    request_began = 0.0
    trusted = False
    _active = 0.0

    @property
    def last_activity(self) -> float:
        """When the connection was last active, on the monotonic clock (waitress writes its wall
        clock here: the setter takes the moment, not the value)."""
        return self._active

    @last_activity.setter
    def last_activity(self, _wall_clock: float) -> None:
        """Note the moment on the monotonic clock (waitress's wall-clock value is ignored)."""
        self._active = time.monotonic()

    def trust(self) -> None:
        """A paired device's request came on this connection: it, and its address, are served first."""
        self.trusted = True
        self.server.trust(_host(self.addr))

    counted: str | None = None     # the address this connection is counted for in `server.held`

    def del_channel(self, map: Any = None) -> None:
        """waitress's, and its address's count of connections kept up to date (no scan per accept)."""
        super().del_channel(map)
        host, self.counted = self.counted, None
        if host is not None:
            left = self.server.held.get(host, 1) - 1
            if left > 0:
                self.server.held[host] = left
            else:
                self.server.held.pop(host, None)     # an address with none is forgotten

    def pause(self, seconds: float) -> None:
        """Its unpaired client went over its rate: read nothing from its address for `seconds`."""
        self.server.paused_addresses.put(_host(self.addr), time.monotonic() + seconds)

    def readable(self) -> bool:
        """waitress's, except while an untrusted client's address is paused (its bytes wait in the kernel)."""
        if not self.trusted and self.live is None and len(self.server.paused_addresses):
            until = self.server.paused_addresses.peek(_host(self.addr))
            if until is not None and until > time.monotonic():
                return False
        return bool(super().readable())

    def handle_write(self) -> None:
        """Flush under the output lock: the hub writes from its own thread."""
        if self.live is None:
            super().handle_write()
            return
        # waitress flushes without the lock when no request runs, trusting that nobody else writes;
        # the hub does, from its own thread.
        with self.outbuf_lock:
            super().handle_write()

    def received(self, data: bytes) -> bool:
        """Take bytes of a request (and note when it began, for the deadline); a live stream ignores what its
        client sends."""
        if self.live is not None:
            return True
        if self.request is None and data:
            self.request_began = time.monotonic()
        began = self.request
        done = super().received(data)
        if self.request is not None and self.request is not began:
            self.request_began = time.monotonic()    # the rest of data started the next request
        return done


class PlayersFirst(ThreadedTaskDispatcher):
    """waitress's workers, taking a trusted connection's request before the guests' queued ones."""

    def add_task(self, task: Any) -> None:
        """Queue `task` (a connection with a request to serve): a trusted one at the front."""
        if not getattr(task, "trusted", False):
            super().add_task(task)
            return
        with self.lock:
            self.queue.appendleft(task)
            self.queue_cv.notify()


def _host(addr: Any) -> str:
    return addr[0] if isinstance(addr, tuple) else str(addr)


class LiveServer(TcpWSGIServer):
    """waitress's server, with live streams handed to the hub, connections limited per address, a deadline on
    slow requests, and the paired devices' connections served first and never closed for room."""
    channel_class = LiveChannel
    connections_per_address = CONNECTIONS_PER_ADDRESS
    request_deadline = REQUEST_DEADLINE_S
    connection_limit = CONNECTION_LIMIT
    next_cleanup = 0.0
    evicted = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.trusted_addresses: BoundedTable[str, bool] = BoundedTable(TRUSTED_ADDRESSES)
        self.paused_addresses: BoundedTable[str, float] = BoundedTable()
        self.held: dict[str, int] = {}       # address -> connections open (only addresses with some)
        super().__init__(*args, **kwargs)

    def trust(self, host: str) -> None:
        """`host` is a paired device's address: its next connections are trusted from their start."""
        self.trusted_addresses.put(host, True)

    def readable(self) -> bool:
        """waitress's, with its clean-up scheduled on the monotonic clock."""
        now = time.monotonic()
        if now >= self.next_cleanup:
            self.next_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return self.accepting and len(self._map) < self.adj.connection_limit

    def handle_accept(self) -> None:
        """Accept what waits in the kernel's backlog (up to `ACCEPTS_PER_WAKE`: a phone's connection
        must not wait one loop per flooder's reconnection ahead of it), each as `_take` decides."""
        for _ in range(ACCEPTS_PER_WAKE):
            try:
                accepted = self.accept()
            except OSError:
                return
            if accepted is None:
                return
            self._take(*accepted)

    def _take(self, conn: Any, addr: Any) -> None:
        """A new connection, unless its (untrusted) address holds too many already; when the server
        is full, an idle guest's connection is closed to make room (or a guest refused when none is)."""
        host = _host(addr)
        trusted = self.trusted_addresses.get(host) is not None
        if not trusted and self.held.get(host, 0) >= self.connections_per_address:
            self._refuse(conn)       # this device holds enough connections already
            return
        if len(self.active_channels) >= self.connection_limit and not self._make_room() and not trusted:
            self._refuse(conn)
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        channel = self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)
        channel.trusted = trusted
        if channel.connected:
            channel.counted = host
            self.held[host] = self.held.get(host, 0) + 1

    @staticmethod
    def _refuse(conn: Any) -> None:
        try:      # a last word, best effort, and close
            conn.setblocking(False)
            conn.send(TOO_MANY_CONNECTIONS)
        except OSError:
            pass
        conn.close()

    def _make_room(self) -> bool:
        """Close the least recently active idle guest connection of the address holding the most
        connections; False when every connection is trusted, live or busy."""
        idle = [c for c in self.active_channels.values()
                if not c.trusted and c.live is None and not c.requests and c.connected]
        if not idle:
            return False
        held = self.held
        victim = min(idle, key=lambda c: (-held.get(_host(c.addr), 0), c.last_activity))
        victim.handle_close()       # in the loop's thread, no task on it: closed at once
        self.evicted += 1
        return True

    def maintenance(self, now: float) -> None:
        """waitress's clean-up (silent connections with nothing running, on the monotonic clock: `now`
        and every channel's `last_activity` are), and close connections whose request is still
        arriving after the deadline (a slow drip)."""
        super().maintenance(now)
        late = time.monotonic() - self.request_deadline
        for channel in list(self.active_channels.values()):
            if getattr(channel, "request", None) is not None and channel.live is None \
                    and channel.request_began < late:
                channel.will_close = True    # a request still arriving after the deadline (a slow drip)


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int = DEFAULT_THREADS, *,
                connection_limit: int = CONNECTION_LIMIT, connections_per_address: int = CONNECTIONS_PER_ADDRESS,
                request_deadline: float = REQUEST_DEADLINE_S) -> LiveServer:
    """A waitress server bound to (host, port); call `.run()` (blocks) on a thread of its own, and
    `stop_server` to end it.
    `channel_request_lookahead=1` lets waitress notice a closed client while its request runs."""
    adj = Adjustments(
        host=host, port=port, threads=threads, channel_request_lookahead=1, ident="rubicon",
        connection_limit=connection_limit + HARD_LIMIT_MARGIN, asyncore_use_poll=True, channel_timeout=IDLE_TIMEOUT_S,
        cleanup_interval=1, max_request_header_size=MAX_HEADER_BYTES, max_request_body_size=MAX_BODY_BYTES,
        outbuf_high_watermark=OUTBUF_HIGH_WATERMARK)
    workers = PlayersFirst()
    workers.set_thread_count(threads)
    server = LiveServer(app, map={}, adj=adj, sockinfo=adj.listen[0], dispatcher=workers)
    server.connection_limit = connection_limit
    server.connections_per_address = connections_per_address
    server.request_deadline = request_deadline
    return server


def stop_server(server, serving: threading.Thread, timeout: float = 30.0) -> bool:
    """End the server whose loop `serving` runs, closing each file descriptor only once no thread can
    use it any more. Stop the table session first: its live streams then end within a heartbeat.

    Waitress's loop polls the listening socket, every connection and the read end of a wake-up
    pipe; its worker threads, and the live hub's, write a byte to the pipe's write end (a bare
    descriptor number) after each request or stream's end. So `server.close()` from another thread
    closes descriptors under the loop's poll (EBADF in the loop's thread), and closing everything
    from inside the loop (a trigger thunk) still closes the pipe while a worker that outlived its
    shutdown may write to it: EBADF in that thread, or a byte into whatever file has taken that
    number since. Here, in order:
    1. the workers and the live hub finish, while the loop still runs (a worker may wait for it to
       send a response);
    2. the loop, woken by the pipe, takes every socket out of its map and closes none: it ends;
    3. once its thread has ended, this thread closes the connections, the listening socket and,
       if no worker or hub is left, the pipe (else the pipe stays open: two fds, never reused).
    Returns whether everything was closed."""
    workers = server.task_dispatcher
    workers.shutdown(cancel_pending=True, timeout=timeout)
    hub = getattr(server.application, "extensions", {}).get("rubicon.live")
    hub_left = isinstance(hub, LiveHub) and not hub.join(timeout)   # it ends its streams, then itself
    writers_left = bool(workers.threads) or hub_left
    socket_map = server._map               # waitress's socket map: fd -> dispatcher
    taken: list = []

    def leave_loop() -> None:              # runs in the loop's thread: `while map: poll()` ends
        taken.extend(socket_map.values())
        socket_map.clear()

    if not server.trigger._closed:         # closed only by waitress's own handling of an error
        server.trigger.pull_trigger(leave_loop)
    serving.join(timeout)
    if serving.is_alive():
        log.warning("waitress's loop did not end within %s s; its sockets are left open", timeout)
        return False
    if not taken:                          # the loop had ended before (an error): nothing polls now
        taken.extend(socket_map.values())
        socket_map.clear()
    for dispatcher in taken:
        if dispatcher is not server and dispatcher is not server.trigger:
            dispatcher.handle_close()      # a connection: its buffers too
    if writers_left:
        log.warning("%d waitress worker(s)%s still running after %s s; its wake-up pipe is left open",
                    len(workers.threads), " and the live hub" if hub_left else "", timeout)
        wasyncore.dispatcher.close(server)  # the listening socket alone
        return False
    server.close()                         # the listening socket and the wake-up pipe
    return True

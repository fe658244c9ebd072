"""Serving the app: waitress, a production WSGI server that suits a Pi, in the session's process.

Each open live stream holds one worker thread (measured: with threads=4 a fourth stream starved
every other request), so `threads` is sized for two phones, a few TVs and ordinary requests.
"""
from __future__ import annotations

from flask import Flask
from waitress.server import create_server

DEFAULT_THREADS = 16

# waitress appends everything a response writes to one in-memory buffer per connection and, the
# client reading along, only moves a read position: the buffer is dropped when it is rotated,
# after `outbuf_high_watermark` bytes (default 16 MiB). A live stream never ends, so each kept up
# to 16 MiB of old events (RSS +47-97 KB per action with two phones and the TV, issue 22.5).
# Rotating every 64 KiB bounds that to about twice this per connection; it is also the most a
# slow client may have pending before its writer thread waits for it (a stream then sends the
# newest snapshot, not a backlog).
OUTBUF_HIGH_WATERMARK = 64 * 1024


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int = DEFAULT_THREADS):
    """A waitress server bound to (host, port); call `.run()` (blocks) and `.close()`.
    `channel_request_lookahead=1` lets a closed client free its thread within one heartbeat."""
    return create_server(app, host=host, port=port, threads=threads, channel_request_lookahead=1,
                         outbuf_high_watermark=OUTBUF_HIGH_WATERMARK, ident="rubicon")

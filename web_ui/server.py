"""Serving the app: waitress, a production WSGI server that suits a Pi, in the session's process.

Each open live stream holds one worker thread (measured: with threads=4 a fourth stream starved
every other request), so `threads` is sized for two phones, a few TVs and ordinary requests.
"""
from __future__ import annotations

from flask import Flask
from waitress.server import create_server

DEFAULT_THREADS = 16


def make_server(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int = DEFAULT_THREADS):
    """A waitress server bound to (host, port); call `.run()` (blocks) and `.close()`.
    `channel_request_lookahead=1` lets a closed client free its thread within one heartbeat."""
    return create_server(app, host=host, port=port, threads=threads, channel_request_lookahead=1,
                         ident="rubicon")

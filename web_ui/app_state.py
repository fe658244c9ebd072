"""Where the app keeps the table session and the pairings it serves (one of each per app), and the
table epoch: a random id drawn at each start, sent with every state (web_ui/__init__.py)."""
from __future__ import annotations

from flask import current_app

from rubicon.table.session import TableSession

from .pairing import Pairings


def table() -> TableSession:
    return current_app.extensions["rubicon.table"]


def pairings() -> Pairings:
    return current_app.extensions["rubicon.pairings"]


def epoch() -> str:
    return current_app.extensions["rubicon.epoch"]

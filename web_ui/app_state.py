"""Where the app keeps the table session and the pairings it serves (one of each per app), and the
table epoch: a random id drawn at each start, sent with every state (web_ui/__init__.py)."""
from __future__ import annotations

from flask import current_app

from rubicon.table.session import TableSession

from .pairing import Pairings


def table() -> TableSession:
    """The table session this app serves (set by create_app)."""
    return current_app.extensions["rubicon.table"]


def pairings() -> Pairings:
    """The pairings of this app: which device plays which side."""
    return current_app.extensions["rubicon.pairings"]


def epoch() -> str:
    """This server run's epoch: a page that sees it change reloads, since the server restarted."""
    return current_app.extensions["rubicon.epoch"]

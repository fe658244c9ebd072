"""The public blueprint: the TV's page, its state and live stream. Built from the public part of
the snapshot only (nothing private, ever), plus the pairing codes until both sides are paired."""
from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, jsonify, render_template, request, url_for

from rubicon.table.session import Snapshot

from .app_state import pairings, table
from .i18n.localize import localize
from .live import stream as sse_stream

bp = Blueprint("public", __name__)


def pairing_links() -> dict[str, dict[str, str]]:
    """For each side not yet paired: its pairing link and the link's QR code (SVG data URI)."""
    out = {}
    for side, done in pairings().paired().items():
        if not done:
            link = url_for("pairing.pair", side=side, code=pairings().code(side), _external=True)
            out[side] = {"link": link, "qr": segno.make(link, error="m").svg_data_uri(scale=4, border=2)}
    return out


def public_state(snap: Snapshot) -> dict[str, Any]:
    return localize({**snap.for_viewer(None), "pairing": pairing_links()})


@bp.get("/")
def page():
    return render_template("public.html")


@bp.get("/state")
def state():
    return jsonify(public_state(table().snapshot()))


@bp.get("/stream")
def stream():
    return sse_stream(table(), public_state, request.headers.get("Last-Event-ID"))

"""The virtual table's blueprint: a page with the map where blocks are picked up and set down
on locations, dice rolled and the panel pressed — producing the sensor events the real readers,
tray and panel produce, so the whole path (events → table session → engine → phones) runs with
no hardware.

It exists only when `rubicon run` found no hardware (`app.extensions["rubicon.virtual"]`). A
browser sees the labels of its paired side's blocks only, as a player at a real table reads only
the labels turned towards him; only a paired browser may touch the board, and only the blocks its
side may handle (`rubicon.table.handling`): its own, the Pi's, Jupiter's defector it sends.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template

from rubicon.table.handling import handled_by, sent_by

from .aborts import refuse
from .app_state import pairings, table
from .i18n.localize import localize, localize_refusal
from .player import paired_side
from .request_body import json_object

bp = Blueprint("virtual", __name__, url_prefix="/virtual")


def board() -> Any:
    virtual = current_app.extensions.get("rubicon.virtual")
    if virtual is None:
        refuse(404, "virtual.no-table", "this table has real readers and a tray: there is no virtual table")
    return virtual


@bp.get("/")
def page():
    board()
    return render_template("virtual.html", side=paired_side())


@bp.get("/state")
def state():
    side = paired_side()
    snap = table().snapshot().for_viewer(side)
    shown = localize({"table": snap.get("table"), "pending": snap.get("pending", []),
                      "result": snap.get("result"), "problem": snap.get("problem")})
    return jsonify({**_board_for(board(), side), "side": side,
                    "table": shown.get("table"), "pending": shown["pending"]})


def _touching() -> tuple[Any, str, dict[str, Any]]:
    virtual = board()
    side = paired_side()
    if side is None:
        refuse(401, "virtual.not-paired",
               "pair this browser with a side (the pairing link the table shows) to touch the virtual table")
    return virtual, side, json_object()


def _hands(virtual: Any, side: str) -> frozenset[str]:
    """The blocks `side`'s browser may handle now, from the table's latest snapshot."""
    printed = {block: info.side for block, info in virtual.catalog.blocks.items()}
    return handled_by(table().snapshot(), side, bot_sides=pairings().bot_sides, printed=printed)


def _done(virtual: Any, side: str, extra: dict[str, Any] | None = None):
    return jsonify({"ok": True, **(extra or {}), **_board_for(virtual, side)})


def _board_for(virtual: Any, side: str | None) -> dict[str, Any]:
    """The board as `side`'s browser reads it: its labels, the defector it sends, what it may move."""
    if side is None:
        return virtual.for_viewer(None)
    return virtual.for_viewer(side, hands=_hands(virtual, side), known=sent_by(table().snapshot(), side))


def _refused(exc: ValueError):
    code = getattr(exc, "code", "virtual.bad-field")
    # A block this browser may not handle is refused with no param at all: the answer must be the
    # same whichever of the other side's blocks the token is.
    params = {} if code == "virtual.not-your-block" else {"field": getattr(exc, "field", "?")}
    refusal = {"code": code, "rule": None, "params": params, "text": str(exc)}
    return jsonify({"ok": False, "refusal": localize_refusal(refusal)}), 403 if code == "virtual.not-your-block" \
        else 400


@bp.post("/move")
def move():
    """Set the block `token` down on `to` (a location, pool:SIDE, eliminated:SIDE, scan_pad, or hand)."""
    virtual, side, data = _touching()
    try:
        virtual.move(data.get("token"), data.get("to"), hands=_hands(virtual, side))
    except ValueError as exc:
        return _refused(exc)
    return _done(virtual, side)


@bp.post("/roll")
def roll():
    """Roll `count` dice (1-4) in the virtual tray."""
    virtual, side, data = _touching()
    try:
        faces = virtual.roll(data.get("count"))
    except ValueError as exc:
        return _refused(exc)
    return _done(virtual, side, {"faces": list(faces)})


@bp.post("/press")
def press():
    """Press this side's `button` ("done") on the panel."""
    virtual, side, data = _touching()
    try:
        virtual.press(side, data.get("button"))
    except ValueError as exc:
        return _refused(exc)
    return _done(virtual, side)

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

from flask import Blueprint, current_app, jsonify, render_template, request, session

from engine import FIRST_YEAR
from rubicon.table.dice import RollRefused
from rubicon.table.handling import handled_by, sent_by
from rubicon.table.session import Snapshot

from .aborts import refuse
from .app_state import epoch, pairings, table
from .errors import WebUiError
from .i18n.lang import lang
from .i18n.localize import localize, localize_refusal
from .live import Viewer
from .live import stream as sse_stream
from .player import paired_side, placed_counted
from .request_body import json_object

bp = Blueprint("virtual", __name__, url_prefix="/virtual")


def board() -> Any:
    """The virtual table of this app; 404 when the table has real readers and a tray."""
    virtual = current_app.extensions.get("rubicon.virtual")
    if virtual is None:
        refuse(404, "virtual.no-table", "this table has real readers and a tray: there is no virtual table")
    return virtual


@bp.get("/")
def page():
    """GET /virtual/: the virtual table's page."""
    board()
    return render_template("virtual.html", side=paired_side())


@bp.get("/state")
def state():
    """GET /virtual/state: the blocks as the viewer may see them, with the table's instructions and pending
    decisions."""
    return jsonify(virtual_state(board(), table().snapshot(), paired_side()))


@bp.get("/stream")
def stream():
    """The board and the table's word to this browser, pushed at every change of the table (a block
    lifted or set down on any browser is a sensor event, so a new snapshot): the state's JSON as
    each SSE event, the version its id."""
    virtual = board()
    side = paired_side()
    token = session.get("player_token")

    def render(snap: Snapshot) -> dict[str, Any] | None:
        # Checked on every update: pairing the side again revokes this browser's stream at once.
        if side is not None and pairings().side_of(token) != side:
            return None
        return virtual_state(virtual, snap, side)
    # Its own rendering key: the phone's stream of the same side and language renders another page.
    viewer = Viewer(side, request.remote_addr or "", ("virtual", side, token if side else None, lang()))
    return sse_stream(table(), render, request.headers.get("Last-Event-ID"), viewer)


def virtual_state(virtual: Any, snap: Snapshot, side: str | None) -> dict[str, Any]:
    """What `side`'s browser (None: an unpaired one) reads of the board and the table in `snap`."""
    part = snap.for_viewer(side)
    if side is not None:
        part = placed_counted(part)
    shown = localize({"table": part.get("table"), "pending": part.get("pending", []),
                      "result": part.get("result"), "problem": part.get("problem")})
    return {**_board_for(virtual, snap, side), "side": side, "epoch": epoch(), "version": snap.version,
            "table": shown.get("table"), "pending": shown["pending"], "pi": list(pairings().bot_sides),
            "set_out": side is not None and setting_up(snap, side)}


def setting_up(snap: Snapshot, side: str) -> bool:
    """Whether the board is to be set out for a game not yet begun: the first card phase of its
    first year, and blocks not where the game has them. Then the page sets them all out in one step
    ("Set out the blocks"), not one instruction at a time; once the first command is played every
    block is moved by hand, the Pi's blind (docs/bot.md)."""
    view = snap.public.view or {}
    fresh = view.get("year") == FIRST_YEAR and view.get("turn") == 1 and view.get("phase") in ("deal", "discard",
                                                                                               "card")
    steps = (snap.side(side).table or {}).get("instructions") or []
    return bool(fresh and steps)


def _touching() -> tuple[Any, str, dict[str, Any]]:
    virtual = board()
    side = paired_side()
    if side is None:
        refuse(401, "virtual.not-paired",
               "pair this browser with a side (the pairing link the table shows) to touch the virtual table")
    return virtual, side, json_object()


def _hands(virtual: Any, snap: Snapshot, side: str) -> frozenset[str]:
    """The blocks `side`'s browser may handle in `snap`."""
    printed = {block: info.side for block, info in virtual.catalog.blocks.items()}
    return handled_by(snap, side, bot_sides=pairings().bot_sides, printed=printed)


def _done(virtual: Any, side: str, extra: dict[str, Any] | None = None):
    return jsonify({"ok": True, **(extra or {}), "state": virtual_state(virtual, table().snapshot(), side)})


def _board_for(virtual: Any, snap: Snapshot, side: str | None) -> dict[str, Any]:
    """The board as `side`'s browser reads it: its labels, the defector it sends, what it may move,
    and what the game says of its own blocks (their strength, where the game has them)."""
    if side is None:
        return virtual.for_viewer(None)
    details = own_details(snap.side(side).view or {}, side)
    # The blocks his Done would play (set down during his decision): every other of his blocks
    # standing where the game does not have it is a block to put right, the other way round.
    for entry in ((snap.side(side).table or {}).get("placements") or []):
        key = (entry.get("params") or {}).get("key")
        if key in details:
            details[key] = {**details[key], "planned": True}
    return virtual.for_viewer(side, hands=_hands(virtual, snap, side), known=sent_by(snap, side), details=details)


def own_details(view: dict[str, Any], side: str) -> dict[str, dict[str, Any]]:
    """Block id -> what `side` knows of its own block beyond the label: "game", where the game has it
    (a location or its levy pool: a block standing elsewhere on the board is a placement not yet
    played), and "strength" on the map, as the block stands turned towards him. A block off the map
    and out of the pool (eliminated, dead) has no one right place (reconcile.expected_place): none."""
    details: dict[str, dict[str, Any]] = {b: {"game": f"pool:{side}"} for b in view.get("own_levy_pool", [])}
    for entry in view.get("own_blocks", []):
        details[entry["block"]] = {"game": entry["location"], "strength": entry["strength"]}
    return details


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
        virtual.move(data.get("token"), data.get("to"), hands=_hands(virtual, table().snapshot(), side))
    except ValueError as exc:
        return _refused(exc)
    return _done(virtual, side)


@bp.post("/set-out")
def set_out():
    """Set every block out where the game has it, while a new game is being set up (`setting_up`)."""
    virtual, side, _ = _touching()
    snap = table().snapshot()
    if not setting_up(snap, side):
        return _refused(VirtualSetOutRefused())
    virtual.set_out(snap.side_views())
    return _done(virtual, side)


class VirtualSetOutRefused(WebUiError, ValueError):
    """Set-out asked when the game is under way (its blocks are moved one by one) or already set out."""
    code = "virtual.set-out-now"
    field = "set-out"

    def __init__(self) -> None:
        super().__init__("the blocks are set out all at once only for a new game, before its first command")


@bp.post("/roll")
def roll():
    """Roll `count` dice (1-4) in the virtual tray."""
    virtual, side, data = _touching()
    try:
        faces = virtual.roll(data.get("count"))
    except RollRefused as exc:      # the faces are not the table's: answered as the refusal they are
        return jsonify({"ok": False, "refusal": localize_refusal(exc.refusal), "message": exc.message,
                        "state": virtual_state(virtual, table().snapshot(), side)}), 409
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

"""The public blueprint: the TV's page, its state and live stream. Built from the public part of
the snapshot only (nothing private, ever), plus the pairing codes of the sides waiting for a device.
Once the game is over everything is revealed (both sides' blocks) and its record can be
downloaded; before that the record endpoints answer 404 (it would tell the hands and the deck)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from engine import Game, replay_lines
from rubicon.journal import JournalError
from rubicon.table.session import Snapshot

from .aborts import refuse
from .app_state import epoch, pairings, table
from .battle_view import layout
from .i18n.localize import localize
from .live import guest_viewer
from .live import stream as sse_stream
from .map_blocks import map_layer
from .pairing_views import link_of

bp = Blueprint("public", __name__)


def pairing_parts() -> dict[str, Any]:
    """`pairing`: for each side waiting for a device, its pairing link, the link's QR code (SVG data
    URI) and the seconds it has left; `renewal`: for each paired side a person plays, "requested"
    while a new code asked for at the table waits for that side's consent, else "available" (the
    TV offers to ask for one)."""
    shown = pairings().codes()
    renewal = {side: "requested" if pairings().requested(side) else "available"
               for side, paired in pairings().paired().items() if paired and side not in shown}
    return {"pairing": {side: link_of(side, code) for side, code in shown.items()}, "renewal": renewal}


def final_reveal(snap: Snapshot) -> dict[str, Any] | None:
    """At the end of the game every block is revealed: each side's blocks with their strength."""
    if snap.result is None:
        return None
    return {side: [{k: b[k] for k in ("block", "location", "strength")}
                   for b in snap.private[side].get("own_blocks", [])] for side in ("Caesar", "Pompeius")}


def public_state(snap: Snapshot) -> dict[str, Any]:
    """The public snapshot for the TV: localized, with the pairing state, the battle grid and, at the end, the
    final reveal."""
    data = localize(snap.for_viewer(None))
    return {**data, "epoch": epoch(), **pairing_parts(), "battle": layout(data.get("view") or {}, data.get("log", [])),
            "final": final_reveal(snap), "map_layer": map_layer(data.get("view") or {})}


def finished_game() -> Game:
    """The game just finished, replayed from the journal; 404 while a game is being played."""
    snap = table().snapshot()
    if snap.result is None or snap.game_id is None:
        refuse(404, "web.record-too-early", "the record can be downloaded once the game is over")
    return journal_record(snap.game_id)


def journal_record(game_id: int) -> Game:
    """A game of the journal replayed, if it is over (an unfinished one would tell the hands): the
    game just finished, or an earlier one once a new game was started after it."""
    try:
        options, lines = table().journal.lines(game_id)
    except JournalError:
        refuse(404, "http.404", "no such game in the journal")
    game = replay_lines(options, lines, f"journal game {game_id}")
    if game.result() is None:
        refuse(404, "web.record-too-early", "the record can be downloaded once the game is over")
    return game


@bp.get("/")
def page():
    """GET /: the TV's page."""
    return render_template("public.html")


@bp.get("/state")
def state():
    """GET /state: the public snapshot."""
    return jsonify(public_state(table().snapshot()))


@bp.get("/stream")
def stream():
    """GET /stream: the public snapshots as server-sent events (guest streams are limited)."""
    return sse_stream(table(), public_state, request.headers.get("Last-Event-ID"), guest_viewer())


def json_download(game: Game, name: str) -> Response:
    """`Game.save()`'s record (with its checkpoint), as a download named `name`."""
    resp = jsonify(game.save())
    resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


def text_download(game: Game, name: str) -> Response:
    """The same record as people read it (docs/notation.md)."""
    return Response(game.save_text(), mimetype="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/record.json")
def record_json():
    """GET /record.json: the finished game's record as JSON (404 while the game goes on)."""
    return json_download(finished_game(), "rubicon-game.json")


@bp.get("/record.txt")
def record_text():
    """GET /record.txt: the finished game's record as notation lines (404 while the game goes on)."""
    return text_download(finished_game(), "rubicon-game.txt")


@bp.get("/record/<int:game_id>.json")
def old_record_json(game_id: int):
    """An earlier game's record, once a new game was started after it: finished games only."""
    return json_download(journal_record(game_id), f"rubicon-game-{game_id}.json")


@bp.get("/record/<int:game_id>.txt")
def old_record_text(game_id: int):
    """GET /record/<game>.txt: an earlier finished game's record (404 for an unfinished one: it would tell the
    hands)."""
    return text_download(journal_record(game_id), f"rubicon-game-{game_id}.txt")

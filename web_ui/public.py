"""The public blueprint: the TV's page, its state and live stream. Built from the public part of
the snapshot only (nothing private, ever); the table's screen (a TV page paired from the Pi)
gets the pairing codes of the sides waiting for a device besides, no other browser ever does.
Once the game is over everything is revealed (both sides' blocks) and its record can be
downloaded; before that the record endpoints answer 404 (it would tell the hands and the deck)."""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, session

from engine import Game, replay_lines
from rubicon.journal import JournalError
from rubicon.table.session import Snapshot

from .aborts import refuse
from .app_state import epoch, pairings, table
from .battle_view import layout
from .bounded import BoundedTable
from .i18n.lang import lang
from .i18n.localize import localize
from .i18n.messages import N_, gettext
from .live import guest_viewer, screen_viewer
from .live import stream as sse_stream
from .map_blocks import map_layer
from .pairing_views import link_of

bp = Blueprint("public", __name__)
PUBLIC_RENDERINGS = 32     # guest renderings of /state kept (a version's, per language and Host)

UNFINISHED_HEADER = N_("Rubicon, game %(number)s, unfinished: what the table showed (nothing hidden); it can be "
                       "taken up again from a phone")


def pairing_parts(screen: bool) -> dict[str, Any]:
    """`waiting`: the sides a person plays that have no device yet (public); `screen`: whether this
    is the table's screen; `pairing`, on the table's screen only: for each waiting side its
    pairing link, the link's QR code (SVG data URI) and the seconds it has left."""
    shown = pairings().codes() if screen else {}
    return {"waiting": pairings().waiting(), "screen": screen,
            "pairing": {side: link_of(side, code) for side, code in shown.items()}}


def is_screen() -> bool:
    """Whether this browser is the table's screen (paired from the Pi)."""
    return pairings().is_screen(session.get("player_token"))


def final_reveal(snap: Snapshot) -> dict[str, Any] | None:
    """At the end of the game every block is revealed: each side's blocks with their strength."""
    if snap.result is None:
        return None
    return {side: [{k: b[k] for k in ("block", "location", "strength")}
                   for b in snap.side(side).view.get("own_blocks", [])] for side in ("Caesar", "Pompeius")}


def public_state(snap: Snapshot, screen: bool = False) -> dict[str, Any]:
    """The public snapshot for the TV: localized, with the pairing state (codes on the table's
    screen only), the battle grid and, at the end, the final reveal."""
    data = localize(snap.for_viewer(None))
    return {**data, "epoch": epoch(), **pairing_parts(screen),
            "battle": layout(data.get("view") or {}, data.get("log", [])), "final": final_reveal(snap),
            "map_layer": map_layer(data.get("view") or {})}


def finished_game() -> Game:
    """The game just finished, replayed from the journal; 404 while a game is being played."""
    snap = table().snapshot()
    if snap.result is None or snap.game_id is None:
        refuse(404, "web.record-too-early", "the record can be downloaded once the game is over")
    return journal_record(snap.game_id)


def replayed(game_id: int) -> Game:
    """A game of the journal, replayed (404 when the journal has no such game)."""
    try:
        options, lines = table().journal.lines(game_id)
    except JournalError:
        refuse(404, "http.404", "no such game in the journal")
    game = replay_lines(options, lines, f"journal game {game_id}")
    return game


def journal_record(game_id: int) -> Game:
    """A game of the journal replayed, if it is over (an unfinished one would tell the hands): the
    game just finished, or an earlier one once a new game was started after it."""
    game = replayed(game_id)
    if game.result() is None:
        refuse(404, "web.record-too-early", "the record can be downloaded once the game is over")
    return game


def public_text(game_id: int, game: Game) -> Response:
    """An unfinished game's record as the TV showed it: its public log in the reader's words, nothing
    hidden (no hand, no card chosen, no strength of a block not revealed), so it may be read by
    anyone while the game can still be taken up again."""
    said = [gettext(UNFINISHED_HEADER, number=game_id), ""]
    for entry in localize({"log": game.history_for(None)})["log"]:
        said.append(entry["line_text"])
        said += ["    " + x for x in entry["said"]]
    return Response("\n".join(said) + "\n", mimetype="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="rubicon-game-{game_id}-public.txt"'})


@bp.get("/")
def page():
    """GET /: the TV's page."""
    return render_template("public.html")


@bp.get("/state")
def state():
    """GET /state: the public snapshot (with the waiting sides' codes for the table's screen). A
    guest's is rendered once per snapshot version, language and Host, then served from memory:
    a crowd polling it costs a lookup each, not a rendering."""
    snap = table().snapshot()
    if is_screen():
        return jsonify(public_state(snap, True))
    key = (epoch(), snap.version, lang(), request.host, tuple(pairings().waiting()))
    cache = current_app.extensions.setdefault("rubicon.public-cache", BoundedTable(PUBLIC_RENDERINGS))
    body = cache.get(key)
    if body is None:
        body = json.dumps(public_state(snap), separators=(",", ":")).encode()
        cache.put(key, body)
    return Response(body, mimetype="application/json")


@bp.get("/stream")
def stream():
    """GET /stream: the public snapshots as server-sent events (guest streams are limited; the table's
    screen's stream is not a guest's: it has its own place)."""
    if not is_screen():
        return sse_stream(table(), public_state, request.headers.get("Last-Event-ID"), guest_viewer())
    token = session.get("player_token")

    def render(snap: Snapshot) -> dict[str, Any] | None:
        # Checked on every update: a revoked screen's stream ends (its page reloads as a guest's).
        return public_state(snap, True) if pairings().is_screen(token) else None
    return sse_stream(table(), render, request.headers.get("Last-Event-ID"), screen_viewer(token))


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
    """GET /record/<game>.txt: an earlier finished game's record; for one left unfinished, its public record
    (the full one would tell the hands); 404 for the game being played."""
    game = replayed(game_id)
    if game.result() is None and game_id != table().snapshot().game_id:
        return public_text(game_id, game)    # left unfinished: what the table showed, nothing hidden
    return text_download(journal_record(game_id), f"rubicon-game-{game_id}.txt")

"""The player blueprint: a paired phone's private page, its state, its live stream and its
actions. Every response is built for the side the browser is paired with, from that side's
part of the snapshot only."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, request, session

from rubicon.table.session import Snapshot

from .aborts import refuse
from .app_state import epoch, pairings, table
from .battle_view import layout
from .i18n.localize import localize, localize_prompts, localize_refusal
from .live import player_viewer
from .live import stream as sse_stream
from .map_blocks import map_layer
from .prompts import prompts
from .request_body import json_object, text_field

bp = Blueprint("player", __name__, url_prefix="/play")


def paired_side() -> str | None:
    """The side this browser is paired for, or None."""
    return pairings().side_of(session.get("player_token"))


def require_side() -> str:
    """The side this browser is paired for; 401 with what to do if it is not paired."""
    side = paired_side()
    if side is None:
        refuse(401, "http.401", "this phone is not paired (or another phone was paired for this side since): "
                               "scan the pairing code the table shows")
    return side


def player_state(snap: Snapshot, side: str) -> dict:
    """What `side`'s phone receives: its part of the snapshot, its decisions as prompts and the
    battle under way laid out by initiative (both built from that part only)."""
    data = localize(placed_counted(snap.for_viewer(side)))
    data["prompts"] = localize_prompts(prompts(data.get("pending", []), side))
    data["battle"] = layout(data.get("view") or {}, data.get("log", []))
    data["map_layer"] = map_layer(data.get("view") or {})
    data["epoch"] = epoch()
    data["pairing"] = {"devices": len(pairings().devices(side)), "requested": pairings().requested(side)}
    return data


def placed_counted(view: dict) -> dict:
    """`view` with its command's points left counted after the blocks its side set down on the board
    (the table part's "left"): they are his moves once he presses Done, so the phone does not say
    "3 moves left" beside three blocks moved."""
    left = (view.get("table") or {}).get("left")
    if not left:
        return view
    pending = [{**d, "params": {**d.get("params", {}), **left}} if d.get("kind") == "command" else d
               for d in view.get("pending", [])]
    return {**view, "pending": pending}


@bp.get("/")
def page():
    """GET /play/: the paired side's page, or the page that says how to pair (401)."""
    side = paired_side()
    if side is None:
        return render_template("unpaired.html"), 401
    # With a virtual table (no hardware) a tablet paired from this page opens it from here; and its
    # readers never miss a block, so there is no "accept the board as sensed" to offer.
    return render_template("player.html", side=side, virtual=current_app.extensions.get("rubicon.virtual") is not None)


@bp.get("/state")
def state():
    """GET /play/state: the side's snapshot, localized."""
    side = require_side()
    return jsonify(player_state(table().snapshot(), side))


@bp.get("/stream")
def stream():
    """GET /play/stream: the side's snapshots as server-sent events, ended at once if the phone is unpaired."""
    side = require_side()
    token = session.get("player_token")

    def render(snap):
        # Checked on every update of a long stream: pairing the side again revokes this phone at once.
        if pairings().side_of(token) != side:
            return None
        return player_state(snap, side)
    return sse_stream(table(), render, request.headers.get("Last-Event-ID"), player_viewer(side, token))


@bp.post("/act")
def act():
    """POST /play/act: play a notation line for this side; the outcome, with a refusal's text in the page's
    language."""
    side = require_side()
    line = text_field(json_object(), "line")
    if line is None:
        return jsonify({"ok": False, "refusal": localize_refusal({"code": "web.no-line", "rule": None,
                                                                  "params": {}})}), 400
    return answer(table().act(side, line))


@bp.post("/undo")
def undo():
    """Take back this side's last action (a wrong tap), unless something was revealed since."""
    return answer(table().undo(require_side()))


@bp.post("/answer")
def answer_question():
    """Answer the table's open question to this side (`table.ask`, e.g. which path a placed
    block took) with one of its options."""
    side = require_side()
    option = text_field(json_object(), "option")
    if option is None:
        return jsonify({"ok": False, "refusal": localize_refusal({"code": "web.no-option", "rule": None,
                                                                   "params": {}})}), 400
    return answer(table().answer(side, option))


@bp.post("/done")
def done():
    """The phone's Done button, the same as the panel's: this side's placements on the board
    become its moves (journal first), ending his command or step."""
    return answer(table().done(require_side()))


@bp.post("/confirm")
def confirm():
    """Accept the board as sensed despite the differences shown (a reader that cannot see a block);
    play goes on once both sides confirmed the same differences."""
    return answer(table().confirm(require_side()))


@bp.post("/new-game")
def new_game():
    """Offer a new game, or accept the other side's offer (`{"agree": true}`); withdraw or decline
    it (`{"agree": false}`). It starts once every human side agreed (the Pi's side has no say);
    the game being played stays in the journal."""
    side = require_side()
    agree = json_object().get("agree")
    if not isinstance(agree, bool):
        return jsonify({"ok": False, "refusal": localize_refusal({"code": "web.no-agree", "rule": None,
                                                                   "params": {}})}), 400
    voters = tuple(s for s in ("Caesar", "Pompeius") if s not in pairings().bot_sides)
    return answer(table().vote_new_game(side, agree, voters))


def answer(outcome):
    """The JSON reply to an intent: ok, the snapshot version, what was accepted and the refusal (409 when refused)."""
    body = {"ok": outcome.ok, "version": outcome.version, "accepted": list(outcome.accepted),
            "refusal": localize_refusal(outcome.refusal), "message": outcome.message}
    return jsonify(body), (200 if outcome.ok else 409)

"""The player blueprint: a paired phone's private page, its state, its live stream and its
actions. Every response is built for the side the browser is paired with, from that side's
part of the snapshot only."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, request, session

from rubicon.table.dice import RollDice, TypeDice
from rubicon.table.resume import unfinished
from rubicon.table.session import ANSWER_TIMEOUT_S, Snapshot

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
    data["pairing"] = {"devices": len(pairings().devices(side)), "asks": pairings().asks(side)}
    data["voters"] = list(voters())
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
        sides = [s for s in ("Caesar", "Pompeius") if s not in pairings().bot_sides]
        return render_template("unpaired.html", sides=sides), 401
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


@bp.post("/roll")
def roll():
    """The phone's Roll button: the dice the game waits for, rolled by the table for this side (his
    block fires and the dice are rolled on the phone: no tray, or the players chose the phone)."""
    return answer(table().submit(RollDice(require_side())).result(ANSWER_TIMEOUT_S))


@bp.post("/faces")
def faces():
    """The faces of real dice rolled by hand, typed on the phone (`{"faces": [2, 5]}`: the table
    option "dice source" is "typed"); each refusal names the field."""
    return answer(table().submit(TypeDice(require_side(), json_object().get("faces"))).result(ANSWER_TIMEOUT_S))


@bp.post("/new-game")
def new_game():
    """Offer a new game, or accept the other side's offer (`{"agree": true}`); withdraw or decline
    it (`{"agree": false}`). It starts once every human side agreed (the Pi's side has no say);
    the game being played stays in the journal."""
    side = require_side()
    body = json_object()
    agree, game = body.get("agree"), body.get("game")
    if not isinstance(agree, bool) or not (game is None or (isinstance(game, int) and not isinstance(game, bool))):
        return jsonify({"ok": False, "refusal": localize_refusal({"code": "web.no-agree", "rule": None,
                                                                   "params": {}})}), 400
    return answer(table().vote_new_game(side, agree, voters(), game=game))


def voters() -> tuple[str, ...]:
    """The sides a person plays: a new game is theirs to agree on (the Pi's side has no say)."""
    return tuple(s for s in ("Caesar", "Pompeius") if s not in pairings().bot_sides)


@bp.get("/games")
def games():
    """GET /play/games: the journal's unfinished games (not the one played now), newest first, to
    take one up again."""
    require_side()
    listed = unfinished(table().journal, table().snapshot().game_id)
    return jsonify({"games": [{"game": g.game_id, "created": g.created, "lines": g.lines} for g in listed]})


@bp.post("/dismiss")
def dismiss():
    """A player has read the journal's fault report `{"fault": N}` (what a recovery found, said on
    every page until then): journaled, no longer said anywhere."""
    side = require_side()
    number = json_object().get("fault")
    if not isinstance(number, int) or isinstance(number, bool):
        return jsonify({"ok": False, "refusal": localize_refusal({"code": "web.no-fault", "rule": None,
                                                                   "params": {}})}), 400
    return answer(table().dismiss_fault(side, number))


def answer(outcome):
    """The JSON reply to an intent: ok, the snapshot version, what was accepted and the refusal (409 when refused)."""
    body = {"ok": outcome.ok, "version": outcome.version, "accepted": list(outcome.accepted),
            "refusal": localize_refusal(outcome.refusal), "message": outcome.message}
    return jsonify(body), (200 if outcome.ok else 409)

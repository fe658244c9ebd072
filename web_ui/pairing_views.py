"""The pairing blueprint: a device opens a side's one-time link (from the QR code on the table's
screen, on a paired phone, or printed on the Pi's terminal), confirms, and is bound to that side
by its session cookie; or it asks to join a side and shows a number that a paired device of that
side, seeing the same number, approves. A paired device invites one more, approves or declines
an ask, or unpairs itself. Nothing here answers a pairing code to a browser that is not paired,
and no game action touches it (docs/pairing.md)."""
from __future__ import annotations

import segno
from flask import Blueprint, jsonify, redirect, render_template, request, session, url_for

from rubicon.table.session import ANSWER_TIMEOUT_S, Refresh

from .app_state import pairings, table
from .i18n.localize import localize_refusal
from .i18n.messages import render_refusal
from .pairing import PAIRABLE, SIDES, PairingRefused, ShownCode
from .request_body import json_object, text_field

bp = Blueprint("pairing", __name__, url_prefix="/pair")


def link_of(side: str, shown: ShownCode) -> dict[str, object]:
    """A code as a link, its QR code (an SVG data URI) and the seconds it has left."""
    link = url_for("pairing.pair", side=side, code=shown.code, _external=True)
    return {"link": link, "qr": segno.make(link, error="m").svg_data_uri(scale=4, border=2),
            "expires_in": max(0, round(shown.expires - pairings().now()))}


def _refused_page(exc: PairingRefused):
    return render_template("error.html", message=render_refusal({"code": exc.code})), exc.status


def _refused_json(exc: PairingRefused):
    refusal = localize_refusal({"code": exc.code, "rule": None, "params": {}})
    return jsonify({"ok": False, "refusal": refusal}), exc.status


def _published() -> None:
    """What a side's devices or the screen show changed: a new snapshot, before the answer."""
    table().submit(Refresh()).result(ANSWER_TIMEOUT_S)


def _paired_now(token: str):
    """This browser now holds `token` (its former pairing, if any, is no longer anyone's)."""
    old = session.get("player_token")
    if old:
        pairings().revoke(token=old)
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang      # pairing starts a new session but keeps the language chosen
    session["player_token"] = token


@bp.get("/<side>")
def pair(side: str):
    """The page a code's link opens: asks to confirm (a GET never pairs, so a link preview or a
    prefetch cannot use the code up). Without a code: the page to ask the side's devices."""
    if side not in PAIRABLE:
        return _refused_page(PairingRefused("pairing.unknown-side", side, 404))
    if side in pairings().bot_sides:
        return _refused_page(PairingRefused("pairing.bot-side", side, 409))
    code = request.args.get("code", "")
    if not code and side in SIDES:
        return render_template("ask.html", side=side)
    return render_template("pair.html", side=side, code=code)


@bp.post("/<side>")
def confirm(side: str):
    """POST /pair/<side>: pair this browser for `side` (or as the table's screen) with the code typed or scanned;
    the refusal page names what went wrong."""
    code = request.form.get("code", "")
    try:
        token = pairings().pair(side, code, request.remote_addr or "?", label=request.user_agent.string)
    except PairingRefused as exc:
        return _refused_page(exc)
    _paired_now(token)
    # The screen stops showing this side's code, its phones count one more device: published
    # before the answer, so whatever the browser does next sees it.
    _published()
    return redirect(url_for("public.page" if side not in SIDES else "player.page"))


@bp.post("/invite")
def invite():
    """A paired device asks for a code for one more device of its side, shown to it alone."""
    try:
        side, shown = pairings().invite(session.get("player_token"))
    except PairingRefused as exc:
        return _refused_json(exc)
    return jsonify({"ok": True, "side": side, **link_of(side, shown)})


@bp.post("/ask/<side>")
def ask(side: str):
    """An unpaired browser asks to join `side`: the number it shows, which the side's devices show too."""
    try:
        asked = pairings().ask(side, request.remote_addr or "?", request.user_agent.string)
    except PairingRefused as exc:
        return _refused_json(exc)
    session["join_ask"] = asked.secret
    _published()
    return jsonify({"ok": True, "side": side, "number": asked.number})


@bp.post("/ask")
def ask_state():
    """The asking browser's question: is its ask approved (it is then paired), waiting, or over?"""
    try:
        token = pairings().claim(session.get("join_ask"), request.remote_addr or "?")
    except PairingRefused as exc:
        session.pop("join_ask", None)
        return _refused_json(exc)
    if token is None:
        asked = pairings().asked(session.get("join_ask"))
        return jsonify({"ok": True, "paired": False, "number": asked.number if asked else None})
    _paired_now(token)
    _published()
    return jsonify({"ok": True, "paired": True, "next": url_for("player.page")})


def _answer_ask(approve: bool):
    ask_id = text_field(json_object(), "id")
    try:
        if approve:
            pairings().approve(session.get("player_token"), ask_id)
        else:
            pairings().decline(session.get("player_token"), ask_id)
    except PairingRefused as exc:
        return _refused_json(exc)
    _published()
    return jsonify({"ok": True})


@bp.post("/approve")
def approve():
    """A paired device lets the asking device join (its number is the one this device shows)."""
    return _answer_ask(True)


@bp.post("/decline")
def decline():
    """A paired device refuses an ask to join its side; that address waits before asking again."""
    return _answer_ask(False)


@bp.post("/forget")
def forget():
    """This device unpairs itself (a phone handed on, a tablet put away), and with it what it invited."""
    token = session.get("player_token")
    if token is None or not pairings().revoke(token=token):
        return _refused_json(PairingRefused("pairing.not-paired", "this device is not paired", 401))
    session.pop("player_token", None)
    _published()
    return jsonify({"ok": True})

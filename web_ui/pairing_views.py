"""The pairing blueprint: a device opens a side's one-time link (from a QR code on the TV, on a
paired phone, or printed by `rubicon pair SIDE`), confirms, and is bound to that side by its
session cookie; a paired device invites one more, consents to (or declines) a new code asked for
at the table, or unpairs itself; anyone at the TV may ask for a new code for a paired side."""
from __future__ import annotations

import segno
from flask import Blueprint, jsonify, redirect, render_template, request, session, url_for

from rubicon.table.session import ANSWER_TIMEOUT_S, Refresh

from .app_state import pairings, table
from .i18n.localize import localize_refusal
from .i18n.messages import render_refusal
from .pairing import SIDES, PairingRefused, ShownCode

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


def _side() -> str:
    side = pairings().side_of(session.get("player_token"))
    if side is None:
        raise PairingRefused("pairing.not-paired", "this device is not paired", 401)
    return side


@bp.get("/<side>")
def pair(side: str):
    """The page the QR code opens: asks to confirm (a GET never pairs, so a link preview or a
    prefetch cannot use the code up)."""
    if side not in SIDES:
        return _refused_page(PairingRefused("pairing.unknown-side", side, 404))
    if side in pairings().bot_sides:
        return _refused_page(PairingRefused("pairing.bot-side", side, 409))
    return render_template("pair.html", side=side, code=request.args.get("code", ""))


@bp.post("/<side>")
def confirm(side: str):
    """POST /pair/<side>: pair this browser for `side` with the code typed or scanned; the refusal page names what
    went wrong."""
    code = request.form.get("code", "")
    try:
        token = pairings().pair(side, code, request.remote_addr or "?", label=request.user_agent.string)
    except PairingRefused as exc:
        return _refused_page(exc)
    old = session.get("player_token")
    if old:
        pairings().revoke(token=old)    # this browser paired again: its former pairing is no longer anyone's
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang      # pairing starts a new session but keeps the language chosen
    session["player_token"] = token
    session.permanent = True
    # The TV stops showing this side's code, its phones count one more device: published before
    # the answer, so whatever the browser does next sees it.
    table().submit(Refresh()).result(ANSWER_TIMEOUT_S)
    return redirect(url_for("player.page"))


@bp.post("/invite")
def invite():
    """A paired device asks for a code for one more device of its side, shown to it alone."""
    try:
        side, shown = pairings().invite(session.get("player_token"))
    except PairingRefused as exc:
        return _refused_json(exc)
    return jsonify({"ok": True, "side": side, **link_of(side, shown)})


@bp.post("/request/<side>")
def request_code(side: str):
    """Anyone at the TV asks for a new code for a paired side; it is shown once that side consents."""
    try:
        pairings().request_new_code(side)
    except PairingRefused as exc:
        return _refused_json(exc)
    table().submit(Refresh()).result(ANSWER_TIMEOUT_S)
    return jsonify({"ok": True})


@bp.post("/consent")
def consent():
    """A paired device consents to the open request for a new code for its side."""
    try:
        side = _side()
    except PairingRefused as exc:
        return _refused_json(exc)
    if not pairings().consent(side):
        return _refused_json(PairingRefused("pairing.no-request", "no new code was asked for", 409))
    table().submit(Refresh()).result(ANSWER_TIMEOUT_S)
    return jsonify({"ok": True})


@bp.post("/decline")
def decline():
    """POST /pair/decline: this paired browser's side declines the request to pair another device."""
    try:
        side = _side()
    except PairingRefused as exc:
        return _refused_json(exc)
    pairings().decline(side)
    table().submit(Refresh()).result(ANSWER_TIMEOUT_S)
    return jsonify({"ok": True})


@bp.post("/forget")
def forget():
    """This device unpairs itself (a phone handed on, a tablet put away)."""
    token = session.get("player_token")
    if token is None or not pairings().revoke(token=token):
        return _refused_json(PairingRefused("pairing.not-paired", "this device is not paired", 401))
    session.pop("player_token", None)
    table().submit(Refresh()).result(ANSWER_TIMEOUT_S)
    return jsonify({"ok": True})


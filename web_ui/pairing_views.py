"""The pairing blueprint: a phone opens its side's one-time link (from the QR code on the public
view), confirms, and is bound to that side by its session cookie."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, session, url_for

from rubicon.table.session import Refresh

from .app_state import pairings, table
from .i18n.messages import render_refusal
from .pairing import SIDES, PairingRefused

bp = Blueprint("pairing", __name__, url_prefix="/pair")
PAIRING_CODES = {404: "pairing.unknown-side", 403: "pairing.bad-code", 409: "pairing.bot-side",
                 429: "pairing.too-many"}


@bp.get("/<side>")
def pair(side: str):
    """The page the QR code opens: asks to confirm (a GET never pairs, so a link preview or a
    prefetch cannot use the code up)."""
    if side not in SIDES:
        return render_template("error.html", message=render_refusal({"code": "pairing.unknown-side"})), 404
    if side in pairings().bot_sides:
        return render_template("error.html", message=render_refusal({"code": "pairing.bot-side"})), 409
    return render_template("pair.html", side=side, code=request.args.get("code", ""))


@bp.post("/<side>")
def confirm(side: str):
    code = request.form.get("code", "")
    try:
        token = pairings().pair(side, code, request.remote_addr or "?")
    except PairingRefused as exc:
        code = PAIRING_CODES.get(exc.status, "pairing.bad-code")
        return render_template("error.html", message=render_refusal({"code": code})), exc.status
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang      # pairing starts a new session but keeps the language chosen
    session["player_token"] = token
    session.permanent = True
    table().submit(Refresh())   # the public view stops showing this side's code
    return redirect(url_for("player.page"))

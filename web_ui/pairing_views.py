"""The pairing blueprint: a phone opens its side's one-time link (from the QR code on the public
view), confirms, and is bound to that side by its session cookie."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, session, url_for

from rubicon.table.session import Refresh

from .app_state import pairings, table
from .pairing import SIDES, PairingRefused

bp = Blueprint("pairing", __name__, url_prefix="/pair")


@bp.get("/<side>")
def pair(side: str):
    """The page the QR code opens: asks to confirm (a GET never pairs, so a link preview or a
    prefetch cannot use the code up)."""
    if side not in SIDES:
        return render_template("error.html", message=f"unknown side {side!r}"), 404
    return render_template("pair.html", side=side, code=request.args.get("code", ""))


@bp.post("/<side>")
def confirm(side: str):
    code = request.form.get("code", "")
    try:
        token = pairings().pair(side, code, request.remote_addr or "?")
    except PairingRefused as exc:
        return render_template("error.html", message=str(exc)), exc.status
    session.clear()
    session["player_token"] = token
    session.permanent = True
    table().submit(Refresh())   # the public view stops showing this side's code
    return redirect(url_for("player.page"))

"""The phones' and the TV's web app: an application factory with five blueprints.

    app = create_app(session)                     # a started rubicon.table.session.TableSession
    server = web_ui.server.make_server(app, host, port)   # waitress, in the session's process
    serving = threading.Thread(target=server.run)         # its loop on a thread of its own
    serving.start()
    ...
    web_ui.server.stop_server(server, serving)            # once the session has stopped

- `public`: the TV's page (`/`), its state and live stream: public information only.
- `pairing`: a phone opens its side's one-time link (`/pair/<side>?code=...`) and confirms.
- `player`: a paired phone's private page (`/play/`), state, stream and actions.
- `reference`: rules summary and cards (anyone), the phone's own side's blocks (paired only).
- `virtual`: the virtual table (`/virtual/`) when there is no hardware: blocks, dice and panel in a page.

Every state-changing request carries a CSRF token (Flask-WTF) and, when the browser sends an
Origin, it must be this server's. A request naming a Host that is not the Pi's is refused (DNS
rebinding: web_ui/host_check.py); no page may be framed. The session cookie is HttpOnly and
SameSite=Strict, signed with a key kept in the journal's database, so it and the CSRF tokens of
open pages outlast a restart, as the pairings do (web_ui/pairing.py). Each start draws a table
epoch, sent with every state: a page that sees a new epoch takes the restarted server's lower
versions as new. The app talks only to the table session, never to device drivers.
"""
from __future__ import annotations

import secrets
import threading
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError, CSRFProtect
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from rubicon.pairings_store import PairingStore
from rubicon.table.session import TableSession

from . import i18n, pairing_views, player, public, reference
from . import virtual as virtual_views
from .aborts import code_of
from .host_check import HostCheck
from .i18n.messages import render_refusal
from .map_layout import layout as lay_out_the_map
from .map_svg import map_svg
from .pairing import Pairings

GAME_LENGTH = timedelta(days=30)   # a game lasts hours and may be resumed another day


def create_app(session: TableSession, config: dict[str, Any] | None = None, *, virtual: Any = None,
               bot_sides: tuple[str, ...] = (), host_names: tuple[str, ...] = ()) -> Flask:
    """The app serving `session`; `virtual`: a firmware_bridge.virtual_table.VirtualTable when the table
    runs without hardware (its page is then at /virtual/); `bot_sides`: the sides the Pi plays, which
    no browser may pair; `host_names`: names the Pi is reached by besides its addresses, its host
    name, `*.local` and localhost."""
    app = Flask(__name__)
    store = PairingStore(session.journal)
    app.config.update(
        SECRET_KEY=store.web_key(),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="rubicon",
        PERMANENT_SESSION_LIFETIME=GAME_LENGTH,
        WTF_CSRF_TIME_LIMIT=None,          # tokens live as long as the signed session cookie
        WTF_CSRF_SSL_STRICT=False,         # a LAN app on plain HTTP: the Origin check below instead
        MAX_CONTENT_LENGTH=16 * 1024,
    )
    app.config.update(config or {})
    # Every text a person reads goes through `_`: Flask-Babel's gettext, in the reader's language.
    i18n.init_app(app)
    app.jinja_env.globals["map_svg"] = lambda: Markup(map_svg(gettext("the map: blocks per location")))
    threading.Thread(target=lay_out_the_map, name="map-layout", daemon=True).start()   # computed once, early
    app.extensions["rubicon.table"] = session
    pairings = Pairings(store, bot_sides=bot_sides)
    app.extensions["rubicon.pairings"] = pairings
    app.extensions["rubicon.epoch"] = secrets.token_hex(8)
    session.done_hook = pairings.consent      # a side's Done consents to a new code asked for at the table
    hosts = HostCheck(host_names)
    if virtual is not None:
        app.extensions["rubicon.virtual"] = virtual

    @app.before_request
    def own_host_only():      # registered first: before the CSRF check, a forged Host gets its own refusal
        if not hosts.allows(request.host):
            return _error(421, "web.other-host")
        return None

    CSRFProtect(app)
    app.register_blueprint(public.bp)
    app.register_blueprint(pairing_views.bp)
    app.register_blueprint(player.bp)
    app.register_blueprint(reference.bp)
    app.register_blueprint(virtual_views.bp)

    @app.before_request
    def same_origin_only():
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        origin = request.headers.get("Origin")
        if origin and urlsplit(origin).netloc != request.host:
            return _error(403, "web.other-origin")
        return None

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError):
        return _error(400, "web.csrf")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return _error(exc.code or 500, code_of(exc))

    @app.after_request
    def no_caching_of_private_pages(resp):
        resp.headers.setdefault("Cache-Control", "no-store")
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")   # no-referrer makes Origin "null"
        resp.headers.setdefault("Content-Security-Policy",
                                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                                "frame-ancestors 'none'")
        resp.headers.setdefault("X-Frame-Options", "DENY")       # for browsers without frame-ancestors
        return resp

    return app


def _error(status: int, code: str | None = None):
    """An HTTP refusal in the reader's language, its text by code (`http.<status>` unless named)."""
    code = code or f"http.{status}"
    message = render_refusal({"code": code, "rule": None, "params": {}})
    wants_json = request.accept_mimetypes.best == "application/json" or request.is_json or \
        request.path.endswith(("/state", "/act", "/stream", "/move", "/roll", "/press"))
    if wants_json:
        return jsonify({"ok": False, "refusal": {"code": code, "rule": None, "params": {},
                                                  "text": message}}), status
    return render_template("error.html", message=message), status

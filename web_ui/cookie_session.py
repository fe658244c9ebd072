"""The session cookie, signed with no time in it: a paired phone stays paired whatever the Pi's
wall clock does.

Flask's own cookie session signs a timestamp with every cookie and re-signs it on every request;
its age is checked against the wall clock. A Pi without a real-time clock boots with
fake-hwclock's older time after a power cut, NTP then steps it forward, an operator may set it to
1970 by mistake: a cookie signed "in the future" (negative age) or "31 days ago" was refused, the
phone lost its pairing and its page's CSRF token. Here:

- the cookie is the session's JSON signed with HMAC (itsdangerous' untimed serializer, the same
  key and salt as Flask's), so its validity is the signature's alone;
- what gives it a life is the server-side device record (rubicon/pairings_store.py: revoking the
  device ends the cookie's use at its next request, wherever the cookie was copied to);
- it is sent only when the session changed (pairing, language, the CSRF secret first drawn),
  with `Max-Age` and no `Expires`: the browser counts the cookie's life on its own clock, which
  the Pi's clock cannot move (an `Expires` computed from a Pi at 1970 would have the phone drop
  the cookie at once);
- a cookie Flask signed with its time (a phone paired before this version) is still read, its
  time ignored, and sent back without it.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadData, URLSafeSerializer
from werkzeug.http import dump_cookie

COOKIE_MAX_AGE_S = 400 * 86400     # browsers cap a cookie's life at 400 days (RFC 6265bis)


class UntimedCookieSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session without the timestamp, and without a refresh on each request."""

    def get_signing_serializer(self, app: Flask) -> Any:
        """HMAC-signed JSON, no timestamp (Flask's salt, key derivation and digest)."""
        if not app.secret_key:
            return None
        return URLSafeSerializer(app.secret_key, salt=self.salt, serializer=self.serializer,
                                 signer_kwargs={"key_derivation": self.key_derivation,
                                                "digest_method": self.digest_method})

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The session the cookie holds, or a new one (no cookie, a forged or foreign signature)."""
        s = self.get_signing_serializer(app)
        if s is None:
            return None
        val = request.cookies.get(self.get_cookie_name(app))
        if not val:
            return self.session_class()
        try:
            return self.session_class(s.loads(val))
        except BadData:
            pass
        try:
            # A cookie Flask signed with its time (before this version): taken whatever its age, and
            # sent again without the time, so an upgrade unpairs no phone.
            timed = super().get_signing_serializer(app)
            session = self.session_class(timed.loads(val) if timed is not None else {})
        except BadData:
            return self.session_class()
        session.modified = bool(session)
        return session

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Send the cookie when the session changed only, with Max-Age (the browser's clock)."""
        name = self.get_cookie_name(app)
        domain, path = self.get_cookie_domain(app), self.get_cookie_path(app)
        secure, samesite = self.get_cookie_secure(app), self.get_cookie_samesite(app)
        httponly = self.get_cookie_httponly(app)
        if session.accessed:
            response.vary.add("Cookie")
        if not session.modified:
            return
        if not session:
            response.delete_cookie(name, domain=domain, path=path, secure=secure, samesite=samesite,
                                   httponly=httponly)
            return
        response.headers.add("Set-Cookie", dump_cookie(
            name, self.get_signing_serializer(app).dumps(dict(session)), max_age=COOKIE_MAX_AGE_S,
            domain=domain, path=path, secure=secure, samesite=samesite, httponly=httponly, sync_expires=False))

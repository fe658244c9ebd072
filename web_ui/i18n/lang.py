"""Which language a request is answered in.

A browser's choice from the language menu (kept in its Flask session, `session["lang"]`) wins;
otherwise its Accept-Language; otherwise English. Each phone and the TV have their own session
cookie, so each keeps its own setting. `PSEUDO` ("xx") is the pseudo-locale the tests use to find
text that escaped the catalogs: English wrapped in ⟦ ⟧, offered only when the app's config sets
`I18N_PSEUDO`.
"""
from __future__ import annotations

from flask import current_app, g, has_request_context, request, session

LANGUAGES = ("en", "es", "pl", "sv", "ja")
PSEUDO = "xx"
NATIVE_NAMES = {"en": "English", "es": "Español", "pl": "Polski", "sv": "Svenska", "ja": "日本語", PSEUDO: "⟦xx⟧"}
DEFAULT = "en"


def offered() -> tuple[str, ...]:
    """The languages the pages offer (the pseudo-language too when the app is configured for it)."""
    return LANGUAGES + ((PSEUDO,) if current_app.config.get("I18N_PSEUDO") else ())


def lang() -> str:
    """The language of the current request (cached on `g`); English outside a request."""
    if not has_request_context():
        return DEFAULT
    chosen = g.get("rubicon_lang")
    if chosen is None:
        chosen = session.get("lang")
        if chosen not in offered():
            chosen = request.accept_languages.best_match(offered(), default=DEFAULT)
        g.rubicon_lang = chosen
    return chosen


def babel_locale() -> str:
    """The locale babel formats numbers and picks plural rules for (the pseudo-locale is English)."""
    current = lang()
    return DEFAULT if current == PSEUDO else current

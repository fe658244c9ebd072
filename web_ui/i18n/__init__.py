"""The phones and the TV in the five languages of the rulebook (and a pseudo-locale for tests).

    init_app(app)   # Flask-Babel with our catalogs, the language menu, the page's JS catalog

Parts: `lang` (which language a request gets), `catalogs` (the .po files, compiled at start),
`glossary` (each rulebook's own terms, glossary.toml), `messages` (refusals, effects, decisions
and table texts by code), `localize` (adds the reader's texts to a state for the page),
`views` (the language menu's endpoint and the JS catalog).
"""
from __future__ import annotations

from flask import Flask
from flask_babel import Babel

from . import glossary, views
from .catalogs import CatalogDomain
from .lang import LANGUAGES, NATIVE_NAMES, PSEUDO, babel_locale, lang, offered

__all__ = ["init_app", "lang", "LANGUAGES", "NATIVE_NAMES", "PSEUDO"]


def init_app(app: Flask) -> None:
    """Set up the app's languages: Flask-Babel with our catalogs, the language routes, and the helpers the
    templates use."""
    babel = Babel(app, locale_selector=babel_locale)
    babel.domain_instance = CatalogDomain()   # replaces Flask-Babel's cached_property: our catalogs
    app.register_blueprint(views.bp)
    app.jinja_env.globals.update(
        current_lang=lang, languages=lambda: [(c, NATIVE_NAMES.get(c, c)) for c in offered()],
        js_catalog=views.js_catalog, side_name=lambda side: glossary.name("side", side, lang()),
        card_name=lambda card: glossary.name("card", card, lang()), term=lambda key: glossary.term(key, lang()))

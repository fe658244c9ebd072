"""The language menu's endpoint and the catalog a page embeds for its scripts (static/js/, virtual.js).

`POST /lang` (form field `lang`, CSRF-checked like every form) keeps the choice in this
browser's session and goes back to the page it came from. `js_catalog()` is the msgids the page
scripts (static/js/*.js, virtual.js) pass to `t(...)` (read from the scripts themselves with
babel's JavaScript extractor), translated into the page's language, plus the glossary's card,
side and phase names under `card:`, `side:` and `phase:` keys: only the page's language is sent.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from babel.messages.extract import extract_javascript
from flask import Blueprint, abort, redirect, request, session
from flask_babel import get_translations

from . import glossary
from .lang import lang, offered
from .messages import CARD_PHASE_STEPS, PHASES, phase_name

bp = Blueprint("i18n", __name__)
STATIC = Path(__file__).resolve().parents[1] / "static"
# The page scripts: the phone's and the TV's ES modules (static/js/, no build step) and the virtual table's.
SCRIPTS = (*sorted((STATIC / "js").glob("*.js")), STATIC / "virtual.js")


@bp.post("/lang")
def choose():
    """POST /lang: remember the language chosen and go back to the page it was chosen on (only a page of this
    site)."""
    chosen = request.form.get("lang", "")
    if chosen not in offered():
        abort(400, description=f"unknown language {chosen!r}")
    session["lang"] = chosen
    back = request.form.get("next") or request.referrer or "/"
    parts = urlsplit(back)
    # Only a path of this site: the menu is no open redirect.
    target = parts.path if parts.path.startswith("/") and not parts.path.startswith("//") else "/"
    return redirect(target + (f"?{parts.query}" if parts.query else ""), code=303)


@cache
def js_msgids() -> tuple[str, ...]:
    """The strings the page scripts translate: the first argument of every t("...") call."""
    out: list[str] = []
    for script in SCRIPTS:
        with script.open("rb") as f:
            found = extract_javascript(f, {"t": None}, [], {})
            firsts = (m[0] if isinstance(m, tuple | list) else m for _, _, m, _ in found)
            out += [m for m in firsts if isinstance(m, str) and m]
    return tuple(dict.fromkeys(out))


def js_catalog() -> dict[str, str]:
    """The texts the pages' scripts need, in the request's language: their messages and the names of cards, sides
    and phases."""
    t = get_translations()
    lg = lang()
    out = {m: t.ugettext(m) for m in js_msgids()}
    for key in glossary.terms():
        kind, _, name = key.partition(".")
        if kind in ("card", "side", "phase"):
            out[f"{kind}:{name}"] = glossary.term(key, lg)
    for phase in (*PHASES, *CARD_PHASE_STEPS):
        out[f"phase:{phase}"] = phase_name(phase)
    return out

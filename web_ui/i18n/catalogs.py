"""The gettext catalogs: web_ui/translations/<lang>/LC_MESSAGES/messages.po, compiled in memory
when the app starts (no .mo file is written or committed, so none can be stale), plus the
pseudo-locale built from the English catalog.

`load()` -> {lang: Translations}; `CatalogDomain` is the Flask-Babel domain that answers from
them in the request's language (web_ui.i18n.lang).
"""
from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from flask_babel import Domain

from .lang import LANGUAGES, PSEUDO, lang

DIRECTORY = Path(__file__).resolve().parents[1] / "translations"
OPEN, CLOSE = "⟦", "⟧"


def po_path(language: str) -> Path:
    """The .po file of `language` in web_ui/translations."""
    return DIRECTORY / language / "LC_MESSAGES" / "messages.po"


def read_catalog(language: str) -> Catalog:
    """The catalog of `language`, read from its .po file."""
    with po_path(language).open("rb") as f:
        return read_po(f, locale=language)


def pseudo_catalog(english: Catalog) -> Catalog:
    """Every English string wrapped in ⟦ ⟧: text shown unwrapped did not come from a catalog."""
    out = Catalog(locale="en")
    for msg in english:
        if not msg.id:
            continue
        if isinstance(msg.id, tuple | list):
            forms = msg.string if isinstance(msg.string, tuple | list) and all(msg.string) else msg.id
            out.add(msg.id, tuple(f"{OPEN}{s}{CLOSE}" for s in forms))
        else:
            out.add(msg.id, f"{OPEN}{msg.string or msg.id}{CLOSE}")
    return out


def compile_catalog(catalog: Catalog) -> Translations:
    """The translations of `catalog`, compiled in memory (no .mo file is kept in the tree)."""
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf)


@cache
def load() -> dict[str, Translations]:
    """Every language's translations, and the pseudo-language's made from English."""
    catalogs = {language: read_catalog(language) for language in LANGUAGES}
    out = {language: compile_catalog(cat) for language, cat in catalogs.items()}
    out[PSEUDO] = compile_catalog(pseudo_catalog(catalogs["en"]))
    return out


class CatalogDomain(Domain):
    """Answers every gettext of the app from the catalogs of the request's language."""

    def __init__(self) -> None:
        super().__init__()
        self.catalogs = load()

    def get_translations(self):
        """The translations of the request's language (none for an unknown one)."""
        return self.catalogs.get(lang()) or NullTranslations()

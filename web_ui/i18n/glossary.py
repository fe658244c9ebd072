"""The glossary: each language's rulebook terms (web_ui/i18n/glossary.toml), loaded once.

`term(key, lang)` is what the pages print for a term (card and side names, phases, status
words); `match(key, lang)` is the pattern (a regular expression, case ignored) a translation
must match where the language inflects the word (the catalogs' term check);
`section(key, lang)` is the rulebook section of the term in that edition.
"""
from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("glossary.toml")


@cache
def data() -> dict[str, Any]:
    """The whole glossary (glossary.toml): the game's terms in every language, with their rule sections."""
    return tomllib.loads(PATH.read_text(encoding="utf-8"))


def terms() -> dict[str, dict[str, Any]]:
    """Every term of the glossary by key."""
    return data()["terms"]


def languages() -> list[str]:
    """The languages the glossary covers."""
    return list(data()["meta"]["languages"])


PSEUDO = "xx"   # the test pseudo-locale: English, wrapped so it stands out


def term(key: str, lang: str) -> str:
    """The word for term `key` in `lang` (English where the language has none; marked in the pseudo-language)."""
    entry = terms()[key]
    if lang == PSEUDO:
        return f"⟦{entry['en']}⟧"
    return entry.get(lang) or entry["en"]


def match(key: str, lang: str) -> str:
    """A regular expression that finds term `key` in a text of `lang`."""
    entry = terms()[key]
    return entry.get("match", {}).get(lang) or re.escape(term(key, lang))


def section(key: str, lang: str) -> str:
    """The rulebook section of term `key` as `lang`'s rulebook numbers it."""
    entry = terms()[key]
    return entry.get("sections", {}).get(lang) or entry["section"]


def name(kind: str, value: str, lang: str) -> str:
    """A card, side or phase name in `lang` (`kind` "card", "side" or "phase"); a name the
    glossary does not hold (a command card "2/1", a block label) is printed as it is."""
    key = f"{kind}.{value}"
    return term(key, lang) if key in terms() else value


def command_cards() -> list[str]:
    """The command cards' keys, in the glossary's order."""
    return list(data()["commands"]["cards"])

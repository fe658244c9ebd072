"""The glossary (web_ui/i18n/glossary.toml) holds each rulebook's terms with their sections, and
the catalogs use them: wherever an English message says a glossary term, its translation says
that language's term (card names, sides, Levy, Player 1, phases, battle words...)."""
import re

import pytest

from engine import BOARD
from web_ui.i18n import catalogs, glossary
from web_ui.i18n.lang import LANGUAGES

# Words whose English is ambiguous in the messages: "turn" is also to rotate a block, "pass" also
# to go through a location.
AMBIGUOUS = {"game-turn", "pass"}
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def test_every_term_has_every_language_and_a_section():
    assert glossary.languages() == list(LANGUAGES)
    assert len(glossary.terms()) >= 50
    for key, entry in glossary.terms().items():
        for lang in LANGUAGES:
            assert entry.get(lang), (key, lang)
        for section in [entry["section"], *entry.get("sections", {}).values()]:
            assert re.fullmatch(r"[1-8]\.\d{1,2}", section), (key, section)
        for lang, pattern in entry.get("match", {}).items():
            assert lang in LANGUAGES and re.search(pattern, entry[lang], re.I) or lang == "en", (key, lang)


def test_the_27_cards_are_named():
    events = {c.name for c in BOARD.cards if c.event}
    commands = {c.name for c in BOARD.cards if not c.event}
    assert len(events) == 7 and all(f"card.{name}" in glossary.terms() for name in events)
    assert commands == set(glossary.command_cards())
    assert sum(glossary.data()["commands"]["counts"]) == 20
    assert glossary.term("card.Jupiter", "pl") == "Jowisz" and glossary.term("card.Mars", "es") == "Marte"
    assert glossary.name("card", "3/1", "ja") == "3/1"


def test_editions_that_number_differently_are_noted():
    assert glossary.section("navis-to-port", "sv") == "8.3" and glossary.section("navis-to-port", "pl") == "8.2"
    assert glossary.section("levy", "ja") == "2.2"


def _strip(text: str) -> str:
    return PLACEHOLDER.sub(" ", text)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_use_the_rulebook_terms(lang):
    cat = catalogs.read_catalog(lang)
    checked = 0
    problems = []
    for key, entry in glossary.terms().items():
        if key in AMBIGUOUS:
            continue
        english = re.compile(r"\b" + (entry.get("match", {}).get("en") or re.escape(entry["en"])), re.I)
        wanted = re.compile(glossary.match(key, lang), re.I)
        for msg in cat:
            if not msg.id:
                continue
            ids = [msg.id] if isinstance(msg.id, str) else list(msg.id)
            forms = [msg.string] if isinstance(msg.string, str) else list(msg.string)
            if any(english.search(_strip(i)) for i in ids):
                checked += 1
                problems += [(key, msg.id, f) for f in forms if not wanted.search(_strip(f))]
    assert checked > 150
    assert not problems, problems[:10]

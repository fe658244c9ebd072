"""Every code the engine and the table speak has its message: refusal codes (docs/refusals*.md and
the table's), effect kinds, decision kinds, the table's instructions; each renders in every
language with its params, the v1.01 rule number, and nothing of the engine's English."""
import re
from pathlib import Path

import pytest
from flask import Flask

from engine import KINDS
from web_ui.i18n import init_app
from web_ui.i18n import messages as m
from web_ui.i18n.lang import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]


def doc_codes() -> set[str]:
    text = "".join((ROOT / "docs" / name).read_text(encoding="utf-8") for name in ("refusals.md", "refusals-battle.md"))
    codes = set(re.findall(r"^\| `([a-z0-9.*<>-]+)`", text, re.M))
    codes |= set(re.findall(r"`((?:undo|save|table|web|http|dice)\.[a-z0-9<>-]+)`", text))
    codes |= {"battle.not-legal"}
    return codes


def source_codes(folder: str, pattern: str) -> set[str]:
    return {c for path in (ROOT / folder).glob("*.py") for c in re.findall(pattern, path.read_text(encoding="utf-8"))}


def test_every_documented_refusal_code_has_a_message():
    codes = doc_codes()
    assert len(codes) > 150
    missing = sorted(c for c in codes if m.refusal_message(c.replace("*", "x").replace("<status>", "404")) is None)
    assert not missing


def test_every_refusal_code_raised_by_the_table_has_a_message():
    codes = source_codes("rubicon/table", r'code="((?:table|dice)\.[a-z-]+)"') | \
        source_codes("rubicon/table", r'"((?:table|dice)\.[a-z-]+)"')
    assert {"table.in-hand", "dice.tray-down", "dice.wrong-count"} <= codes
    instructions = {"table.put-back", "table.remove", "table.place", "table.move", "table.silent-reader",
                    "table.move-back", "table.set-down", "table.right-pick", "table.wrong-pick", "table.other-pick"}
    assert instructions <= set(m.TABLE)
    missing = sorted(c for c in codes - instructions if c not in m.REFUSALS)
    assert not missing


def test_every_effect_kind_and_decision_kind_has_a_message():
    kinds = source_codes("engine", r'Effect\("([a-z_.]+)"') | source_codes("engine", r'kind = "([a-z_.]+)" if')
    kinds |= {"card.chosen"}
    assert len(kinds) >= 20
    assert kinds <= set(m.EFFECTS), sorted(kinds - set(m.EFFECTS))
    assert set(KINDS) == set(m.DECISIONS)
    board = {"block.moved", "block.placed", "block.strength", "block.eliminated", "block.to_pool", "block.returned",
             "block.side", "block.off_map", "battle.begun", "battle.round", "battle.ended"}
    assert board <= set(m.INSTRUCTIONS)


@pytest.fixture
def app():
    app = Flask(__name__)
    app.config.update(SECRET_KEY="test", I18N_PSEUDO=True)
    init_app(app)
    return app


PARAMS = {"block": "Legio 8", "location": "Genua", "named": "Roma", "side": "Caesar", "actor": "Pompeius",
          "card": "Jupiter", "event": "Mars", "from": "Genua", "to": "Roma", "at": "Roma", "limit": 2, "count": 5,
          "turn": 3, "status": "vacant", "need": 3, "hits": 2, "strength": 3, "strongest": 4, "round": 2,
          "destination": "Narbo", "origin": "Narbo", "sea": "Mare Internum", "port": "Genua", "city": "Ravenna",
          "number": 1234, "mp": 2, "lp": 3, "used": 2, "pinned": 2, "phase": "command", "code": "x",
          "destinations": ["Roma", "Narbo"], "cards": {"Caesar": "Mars", "Pompeius": "Vulcan"}, "option": "Legio 8",
          "uid": "04a1", "reader": 7, "place": "Caesar levy pool", "year": 706, "dice": 3, "faces": [1, 4, 6],
          "Caesar": "Mars", "Pompeius": "2/1", "attacker": "Caesar", "winner": "Pompeius", "strength_from": 3,
          "strength_to": 2, "via": "phone", "source": "tray", "by": "Caesar", "value": "x", "rolled": 2,
          "field": "to", "lines": 139, "aside": "damaged-20261126-142300", "device": "readers",
          "path": "/dev/spidev0.0", "group": "spi", "error": "x", "wiring": "hardware/", "model": "x",
          "what": "Done", "reason": "table.in-hand", "other": "Pompeius", "positions": [2, 3]}


@pytest.mark.parametrize("lang", LANGUAGES + ("xx",))
def test_every_message_renders_in_every_language(app, lang):
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert m.lang() == lang
        texts = [m.render_refusal({"code": code, "rule": "6.1", "params": PARAMS}) for code in m.REFUSALS]
        texts += [m.render_effect({"kind": kind, "params": PARAMS, **extra}) or "" for kind in m.EFFECTS
                  for extra in ({}, {"redacted": True})]
        texts += [m.render_instruction({"kind": kind, "params": PARAMS}) or "" for kind in m.INSTRUCTIONS]
        texts += [m.render_decision({"actor": "Caesar", "kind": kind, "rule": rule, "params": PARAMS})
                  for kind, rule in KINDS.items()]
        texts += [m.render_table_item({"code": code, "params": PARAMS}, step=True) for code in m.TABLE]
        for text in texts:
            assert "%(" not in text and "…" not in text.replace("Connecting…", ""), text
        assert all("6.1" in t for t in texts[:len(m.REFUSALS)])
        if lang == "xx":
            assert all(t.startswith("⟦") for t in texts if t)


def test_params_are_printed_in_the_readers_words(app):
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        text = m.render_refusal({"code": "vulcan.not-enemy-city", "rule": "2.1",
                                 "params": {"location": "Roma", "status": "vacant"}})
        assert text == "Vulcan: celem musi być wrogie miasto; Roma jest pusty (zasada 2.1)"
        assert "Jowisz" in m.render_refusal({"code": "event.not-played", "rule": "2.1",
                                             "params": {"event": "Jupiter", "side": "Caesar", "card": "3/1"}})
        assert m.render_decision({"actor": "Pompeius", "kind": "discard", "rule": "2.1", "params": {}}) == \
            "Pompejusz: odrzuca jedną kartę (2.1)"
        assert m.render_table_item({"code": "table.remove", "params": {"count": 3, "side": "Caesar",
                                   "from": "Genua", "to": "Caesar levy pool"}}, step=True) == \
            "zdejmij 3 bloczki gracza Cezar z Genua; połóż je w Pula Zaciągu gracza Cezar"
    with app.test_request_context(headers={"Accept-Language": "de, en;q=0.5"}):
        assert m.render_refusal({"code": "game.over", "rule": "1.2", "params": {}}) == "the game is over (rule 1.2)"
    with app.test_request_context(headers={"Accept-Language": "es"}):
        # numbers with the language's grouping (babel's format_decimal)
        assert "1234" not in m.render_refusal({"code": "id.no-card", "rule": None, "params": {"number": 1234}})
        assert m.render_refusal({"code": "no.such-code", "rule": None, "params": {}}) == "rechazado (no.such-code)"
    with app.test_request_context(headers={"Accept-Language": "sv"}):
        assert "1\xa0234" in m.render_refusal({"code": "id.no-card", "rule": None, "params": {"number": 1234}})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_boards_instructions_after_a_hit_are_words_not_codes(app, lang):
    """The dice desk's instructions (a block turned, eliminated, sent to the pool after a hit)
    are effects' kinds: the waiting line says them as instructions, named or blind, never as
    "refused (block.strength)"."""
    named = {"block": "Legio 8", "at": "Roma", "from": "Roma", "to": "Narbo", "side": "Caesar",
             "strength_from": 3, "strength_to": 2, "strength": 2, "revealed": True, "round": 2}
    blind = {k: v for k, v in named.items() if k != "block"}
    with app.test_request_context(headers={"Accept-Language": lang}):
        for kind in m.INSTRUCTIONS:
            for params in (named, blind):
                said = m.render_table_item({"code": kind, "params": params}, step=True)
                assert "(" + kind + ")" not in said and "%(" not in said, (kind, said)
        if lang == "en":
            turned = m.render_table_item({"code": "block.strength", "params": named}, step=True)
            assert turned == "turn Legio 8 in Roma to II"
            assert m.render_table_item({"code": "block.strength", "params": blind}, step=True) == \
                "turn a block of Caesar in Roma"

"""No raw code and no placeholder reaches a page: every refusal, effect,
decision, instruction and table message, in every language, rendered through the real path
(web_ui/i18n/localize.py, as the pages get them) is translated, complete and filled.

Two sources of params, both realistic:
- harvested: what the producers really send, from bot-free random games (engine refusals of
  illegal candidates, the log as each viewer saw it, the decisions each viewer reads) and from
  table sessions driven by sensor events (instructions, messages, questions, the waiting line,
  the Pi's blocks handled blind);
- per message: every message of web_ui/i18n/messages.py rendered with each of its own
  placeholders filled by a realistic value for that name (a new placeholder without one fails).

A text fails when it holds a placeholder ("%(x)s", "{x}", "…" for a missing param), a code
("block.strength", "table.x-y"), the generic "refused (code)", or, in the pseudo-locale, words
that came from no catalog (the engine's English)."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask

from engine import game_rng, play_game
from tests.engine.api_checks_explain import PHASE_LINES, _variants
from tests.table.physical_rig import Rig, record_lines
from web_ui.i18n import init_app
from web_ui.i18n import messages as m
from web_ui.i18n.lang import LANGUAGES
from web_ui.i18n.localize import localize, localize_refusal

ALL = LANGUAGES + ("xx",)
PREFIXES = ("table", "block", "battle", "move", "levy", "card", "cards", "dice", "web", "http", "pairing", "virtual",
            "storage", "device", "journal", "undo", "save", "notation", "command", "turn", "phase", "event", "jupiter",
            "vulcan", "main", "step", "winter", "id", "action", "game", "year", "vp")
CODE = re.compile(r"\b(?:" + "|".join(PREFIXES) + r")\.[a-z][a-z_-]*\b")
PLACEHOLDER = re.compile(r"%\(\w+\)s|%s|\{\w*\}|…")
NAME = re.compile(r"%\((\w+)\)s")

# A realistic value for every placeholder name of the catalog: what the producers send.
REALISTIC: dict[str, Any] = {
    "block": "Legio 8", "location": "Genua", "named": "Roma", "side": "Caesar", "actor": "Pompeius",
    "card": "Jupiter", "event": "Mars", "from": "Genua", "to": "Roma", "at": "Roma", "limit": 2, "count": 3,
    "turn": 3, "status": "vacant", "need": 3, "hits": 2, "strength": 3, "strongest": ["Legio 8", "Legio 12"],
    "round": 2, "destination": "Narbo", "origin": "Narbo", "sea": "Mare Internum", "port": "Genua",
    "city": "Ravenna", "number": 1234, "mp": 2, "lp": 3, "used": 2, "pinned": 2, "phase": "command",
    "destinations": ["Roma", "Narbo"], "cards": {"Caesar": "Mars", "Pompeius": "Vulcan"}, "option": "Genua-Roma",
    "uid": "04A1B2C3", "reader": 7, "place": "Caesar levy pool", "year": 706, "dice": 3, "faces": [1, 4, 6],
    "Caesar": "Mars", "Pompeius": "2/1", "attacker": "Caesar", "winner": "Pompeius", "strength_from": 3,
    "strength_to": 2, "via": "phone", "source": "tray", "by": "Caesar", "value": "tray", "field": "to",
    "lines": 139, "aside": "damaged-20261126-142300", "device": "readers", "path": "/dev/spidev0.0",
    "group": "spi", "error": "Errno 13", "wiring": "hardware/WIRING.md", "what": "Done", "reason": "table.in-hand",
    "other": "Pompeius", "positions": [2], "instruction": "place Legio 8 in Genua",
    "first": "Caesar: discards one card", "next": "Pompeius: discards one card", "code": "x", "name": "Equitatus 1",
}


@pytest.fixture(scope="module")
def app():
    app = Flask(__name__)
    app.config.update(SECRET_KEY="test", I18N_PSEUDO=True)
    init_app(app)
    return app


def texts_of(state: dict[str, Any]) -> list[str]:
    """Every text the page gets from a localized state."""
    out = [d["text"] for d in state.get("pending") or ()]
    for entry in state.get("log") or ():
        out += entry["said"] + entry["board"]
    table = state.get("table") or {}
    for key in ("instructions", "messages"):
        out += [i["text"] for i in table.get(key) or ()]
    if table.get("ask"):
        out.append(table["ask"]["prompt"])
    if "waiting_text" in table:
        out.append(table["waiting_text"])
    return out


def names_in(text: str) -> str:
    """`text` without what the catalogs do not translate: place and block names, sides, cards,
    numbers (the glossary's names are checked by tests/i18n/test_glossary.py)."""
    for _ in range(6):
        text = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
    return text


PRINTED = re.compile(r"(?:[CP] )?(?:Legio|Equitatus|Auxilia|Navis|Ballista|Elephant|Sagittarii)(?: \d+)?|"
                     r"Caesar|Pompeius|Antonius|Octavian|Scipio|Brutus|Cleopatra|Pompey")


def assert_clean(text: str, lang: str, where: object) -> None:
    assert text and text.strip(), where
    assert not PLACEHOLDER.search(text), (lang, text, where)
    assert not CODE.search(text), (lang, text, where)
    if lang == "xx":
        assert text.startswith("⟦"), (text, where)
        rest = PRINTED.sub(" ", names_in(text))
        # What is left: names of places as printed, numbers, punctuation; no English of the engine.
        words = [w for w in re.findall(r"[A-Za-z]{3,}", rest) if w[0].islower()]
        assert not words, (text, words, where)


# --------------------------------------------------------------------------- harvested, engine
def harvest_games(games: int = 5) -> tuple[list[dict], list[dict]]:
    """(refusals as the engine gives them, localizable states per viewer) from random games."""
    refusals: dict[str, list[dict]] = {}
    states: list[dict] = []
    for i in range(games):
        rng = random.Random(f"raw-codes/{i}")

        def after(game, action, rng=rng):
            if rng.randrange(5):
                return
            legal = game.legal_actions()
            pool = [v for a in rng.sample(legal, min(6, len(legal))) for v in _variants(a, rng)]
            for c in pool + rng.sample(PHASE_LINES, 5):
                r = game.explain(c)
                if r is not None and len(refusals.setdefault(r.code, [])) < 3:
                    refusals[r.code].append(r.to_json())
            for viewer in (None, "Caesar", "Pompeius"):
                states.append({"pending": [d.for_viewer(viewer).to_json() for d in game.pending()], "log": []})

        game, _ = play_game(game_rng(17, i), after=after)
        for viewer in (None, "Caesar", "Pompeius"):
            states.append({"pending": [], "log": list(game.history_for(viewer, since=0))})
    return [r for rs in refusals.values() for r in rs], states


@pytest.fixture(scope="module")
def harvested():
    return harvest_games()


def test_the_harvest_covers_the_engines_codes(harvested):
    refusals, states = harvested
    codes = {r["code"] for r in refusals}
    assert len(codes) > 60, sorted(codes)
    kinds = {e["kind"] for s in states for entry in s["log"] for e in entry.get("effects") or ()}
    assert {"block.moved", "dice.rolled", "block.strength", "battle.begun", "cards.revealed"} <= kinds
    # Every code the engine really sends has its own message (not the generic "refused (code)").
    assert not sorted(c for c in codes if m.refusal_message(c) is None)


@pytest.mark.parametrize("lang", ALL)
def test_engine_refusals_effects_and_decisions_as_harvested(app, harvested, lang):
    refusals, states = harvested
    with app.test_request_context(headers={"Accept-Language": lang}):
        for refusal in refusals:
            said = localize_refusal(refusal)
            assert said is not None
            assert_clean(said["text"], lang, refusal)
        for state in states:
            for text in texts_of(localize(state)):
                assert_clean(text, lang, state)


# --------------------------------------------------------------------------- harvested, table
def table_states(tmp_path) -> list[dict]:
    """Every viewer's localizable state after each step of sessions driven by sensor events."""
    out: list[dict] = []
    opening = record_lines("first_turn_705.txt", upto="Caesar moves")

    def keep(rig):
        snap = rig.session.snapshot()
        for viewer in (None, "Caesar", "Pompeius"):
            part = snap.for_viewer(viewer)
            out.append({"pending": part["pending"], "log": part["log"][-3:], "table": part["table"],
                        "result": part["result"], "problem": part["problem"]})

    rig = Rig(tmp_path / "one.sqlite3")
    try:
        keep(rig)                                   # nothing sensed: the whole set-up to place
        rig.act(*opening)
        rig.set_board(skip=("Genua",))
        keep(rig)
        genua = rig.readers.index_of("Genua")
        rig.play(f'diagnostic reader_silent "reader {genua} (Genua) does not answer"')
        keep(rig)
        rig.play(f'diagnostic reader_back "reader {genua} (Genua) answers"')
        rig.play('place Genua "C Antonius"\nplace Genua "C Legio 8"\nplace Genua "C Legio 12"')
        for script in ('lift Genua "C Legio 8"', 'place Asculum "C Legio 8"'):
            rig.play(script)
            keep(rig)
        rig.session.answer("Caesar", "nonsense")
        rig.session.answer("Pompeius", "Genua-Roma-Asculum")
        keep(rig)
        for script in ('lift Asculum "C Legio 8"', 'place Neapolis "C Legio 8"', 'lift Neapolis "C Legio 8"',
                       'lift Neapolis "P Legio 1"', 'place Roma "P Legio 1"', 'place "Mare Internum" 04A1B2C3'):
            rig.play(script)
            keep(rig)
        rig.session.done("Caesar")
        rig.session.done("Pompeius")
        keep(rig)
        rig.play('place Genua "C Legio 8"')
        rig.session.confirm("Caesar")
        keep(rig)
        rig.session.confirm("Pompeius")
        keep(rig)
        rig.play('lift "Mare Internum" 04A1B2C3\nlift Genua "C Legio 12"')
        rig.session.done("Caesar")                  # a block in hand: told to Pompeius without its name
        keep(rig)
    finally:
        rig.stop()
    bot = Rig(tmp_path / "bot.sqlite3")
    try:
        bot.table.automated.add("Caesar")
        bot.act(*opening)
        bot.set_board()
        bot.act("Caesar moves Legio 8 Genua-Roma")
        for script in ("", 'lift Genua "C Legio 12"', 'place Genua "C Legio 12"', 'lift Genua "C Legio 8"',
                       'place Roma "C Legio 8"'):
            if script:
                bot.play(script)
            keep(bot)
    finally:
        bot.stop()
    return out


@pytest.fixture(scope="module")
def table_harvest(tmp_path_factory):
    return table_states(tmp_path_factory.mktemp("raw-codes"))


def test_the_table_harvest_covers_its_codes(table_harvest):
    codes = {i["code"] for s in table_harvest for key in ("instructions", "messages")
             for i in (s["table"] or {}).get(key) or ()}
    assert {"table.place", "table.move", "table.move-back", "table.wrong-pick", "table.right-pick", "table.in-hand",
            "table.silent-reader", "table.confirmed", "table.unknown-option"} <= codes, codes
    assert any((s["table"] or {}).get("ask") for s in table_harvest)


@pytest.mark.parametrize("lang", ALL)
def test_table_instructions_messages_and_waiting_lines_as_harvested(app, table_harvest, lang):
    with app.test_request_context(headers={"Accept-Language": lang}):
        for state in table_harvest:
            for text in texts_of(localize(state)):
                assert_clean(text, lang, state)


# --------------------------------------------------------------------------- every message
def placeholders(msg: m.Msg) -> set[str]:
    parts = (msg[0], msg[1]) if isinstance(msg, tuple) else (msg,)
    return {n for p in parts for n in NAME.findall(p)} - {"num", "who"}


def params_for(msg: m.Msg) -> dict[str, Any]:
    names = placeholders(msg) | ({msg[2]} if isinstance(msg, tuple) else set())
    missing = sorted(n for n in names if n not in REALISTIC)
    assert not missing, f"no realistic value for {missing} (add one to REALISTIC)"
    return {n: REALISTIC[n] for n in names}


def every_item() -> list[tuple[str, dict[str, Any]]]:
    """(kind, item) for every message of the catalog, with its own params."""
    out: list[tuple[str, dict[str, Any]]] = []
    for code, msg in m.REFUSALS.items():
        out.append(("refusal", {"code": code, "rule": "6.1", "params": params_for(msg)}))
    for kind, pair in m.EFFECTS.items():
        for visible, msg in zip((True, False), pair or (), strict=False):
            out.append(("effect", {"kind": kind, "params": params_for(msg), "redacted": not visible}))
    for kind, (named, blind) in m.INSTRUCTIONS.items():
        out.append(("step", {"code": kind, "params": params_for(named)}))
        out.append(("step", {"code": kind, "params": params_for(blind)}))
    for code, msg in m.TABLE.items():
        params = {k: v for k, v in params_for(msg).items() if k != "block"}
        for who in ({"block": "Legio 8"}, {"count": 1, "side": "Pompeius"}, {"count": 3, "side": "Caesar"},
                    {"count": 1, "side": "Caesar", "positions": [2]}, {"block": "P Equitatus 1"}):
            out.append(("step", {"code": code, "params": {**params, **who}}))
    for kind, msg in m.DECISIONS.items():
        out.append(("decision", {"actor": "Caesar", "kind": kind, "rule": "6.1", "params": params_for(msg)}))
    for kind, msg in m.ASK.items():
        out.append(("ask", {"kind": kind, "params": params_for(msg)}))
    return out


def render(kind: str, item: dict[str, Any]) -> str | None:
    if kind == "refusal":
        return m.render_refusal(item)
    if kind == "effect":
        return m.render_effect(item)
    if kind == "step":
        return m.render_table_item(item, step=True)
    if kind == "decision":
        return m.render_decision(item)
    return m.render_ask(item)


@pytest.mark.parametrize("lang", ALL)
def test_every_message_with_its_own_params_in_every_language(app, lang):
    items = every_item()
    assert len(items) > 300
    with app.test_request_context(headers={"Accept-Language": lang}):
        for kind, item in items:
            text = render(kind, item)
            if text is None:         # an effect that says nothing (vp.changed without a change)
                continue
            assert_clean(text, lang, item)

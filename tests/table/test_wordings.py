"""The table's words as players read them: a refused Done
told to the other side names the reason, not "… is in hand"; confirming the board as sensed says
who accepted it and who must still; a question asks "by which way?" or "at which strength?";
another side's block is named by its printed name and side, never "P Equitatus 1"; one hit is
"1 hit". Rendered through web_ui/i18n in every language."""
from pathlib import Path

import pytest
from flask import Flask

from firmware_bridge.board.reader_map import ReaderMap
from web_ui.i18n import init_app
from web_ui.i18n import messages as m
from web_ui.i18n.lang import LANGUAGES

from .physical_rig import Rig, record_lines

OPENING = record_lines("first_turn_705.txt", upto="Caesar moves")

WITH_POOLS = ReaderMap.load(Path(__file__).parents[1] / "rfid" / "readers_with_pools.toml")


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path / "journal.sqlite3")
    r.act(*OPENING)
    r.set_board()
    yield r
    r.stop()


@pytest.fixture(scope="module")
def app():
    app = Flask(__name__)
    app.config.update(SECRET_KEY="test")
    init_app(app)
    return app


def said(app, lang, item, step=False):
    with app.test_request_context(headers={"Accept-Language": lang}):
        return m.render_table_item(item, step=step)


def test_a_refused_done_is_told_to_its_side_alone_with_the_block_named(rig, app):
    rig.play('lift Genua "C Legio 8"')
    assert rig.session.done("Caesar").refusal["code"] == "table.in-hand"
    mine = rig.part("Caesar")["messages"][0]
    assert said(app, "en", mine) == "Legio 8 is in hand: set it down first"
    # The other phone and the TV hear the buzzer only: no message, so nothing of the block.
    assert not [m for m in rig.part("Pompeius")["messages"] if m["code"].startswith("table.")]
    assert not [m for m in rig.part("public")["messages"] if m["code"].startswith("table.")]
    for lang in LANGUAGES:
        text = said(app, lang, mine)
        assert "…" not in text and "%(" not in text and "table." not in text, (lang, text)


def test_confirming_the_board_as_sensed_says_who_accepted_and_who_must_still(rig, app):
    rig.play('lift Genua "C Legio 8"\nplace Lugdunum "C Legio 8"')
    rig.session.done("Caesar")              # a placement: Done takes it; now a difference to override
    rig.play('lift Lugdunum "C Legio 8"')
    rig.play('place Genua "C Legio 8"')     # Legio 8 back where it came from: the game has it in Lugdunum
    assert rig.part("public")["instructions"]
    assert rig.session.confirm("Caesar").ok
    for viewer in ("public", "Caesar", "Pompeius"):
        msg = rig.part(viewer)["messages"][0]
        assert msg["code"] == "table.confirm-waiting"
        assert said(app, "en", msg) == "Caesar accepts the board as sensed: Pompeius must confirm too"
    assert rig.session.confirm("Pompeius").ok
    msg = rig.part("public")["messages"][0]
    assert msg["code"] == "table.confirmed"
    assert said(app, "es", msg) == "el tablero se aceptó tal como se detecta: el juego continúa"
    assert rig.part("public")["instructions"] == []


def test_against_the_pi_the_players_confirmation_is_enough(rig):
    rig.table.automated.add("Pompeius")
    rig.play('lift Neapolis "P Legio 1"\nplace Roma "P Legio 1"')
    assert rig.part("public")["instructions"]
    assert rig.session.confirm("Caesar").ok
    assert rig.part("public")["messages"][0]["code"] == "table.confirmed"
    assert rig.part("public")["instructions"] == []


def test_a_question_asks_by_which_way(tmp_path, app):
    # One reader per location (on the shipped map Asculum shares Roma's antenna: a question of place).
    rig = Rig(tmp_path / "paths.sqlite3", readers=WITH_POOLS)
    rig.act(*OPENING)
    rig.set_board()
    try:
        rig.play('lift Genua "C Legio 8"\nplace Asculum "C Legio 8"')
        ask = rig.part("Caesar")["ask"]
        assert ask["kind"] == "path" and ask["strengths"] is None
        with app.test_request_context(headers={"Accept-Language": "en"}):
            assert m.render_ask(ask) == "Legio 8 set in Asculum: by which way?"
    finally:
        rig.stop()


def test_a_levy_asks_at_which_strength_with_the_numerals_as_answers(app):
    with app.test_request_context(headers={"Accept-Language": "en"}):
        ask = {"kind": "strength", "params": {"block": "Auxilia 1", "place": "Massilia"}}
        assert m.render_ask(ask) == "Auxilia 1 levied in Massilia: at which strength?"
    with app.test_request_context(headers={"Accept-Language": "ja"}):
        assert "%(" not in m.render_ask(ask) and "Auxilia 1" in m.render_ask(ask)


def test_a_levy_question_at_the_table_is_by_strength(tmp_path):
    # A block lifted from a levy pool: on a board whose pools have readers (the shipped one has none).
    rig = Rig(tmp_path / "journal.sqlite3",
              readers=WITH_POOLS)
    try:
        rig.act(*record_lines("first_turn_705.txt", upto="Pompeius moves"))
        rig.set_board()
        rig.play('lift "Pompeius levy pool" "P Legio 38"\nplace Alexandria "P Legio 38"')
        ask = rig.part("Pompeius")["ask"]
        assert ask["kind"] == "strength"
        assert ask["strengths"][:2] == ["I", "II"]
        assert ask["options"][:2] == ["Legio 38 in Alexandria at I", "Legio 38 in Alexandria at II"]
    finally:
        rig.stop()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_another_sides_block_is_named_by_its_name_and_side_and_one_hit_is_singular(app, lang):
    with app.test_request_context(headers={"Accept-Language": lang}):
        text = m.render_effect({"kind": "dice.rolled", "params": {"block": "P Equitatus 1", "side": "Pompeius",
                                                                  "faces": [1, 4, 6], "hits": 1}})
        assert "P Equitatus" not in text and "Equitatus 1" in text, text
        if lang == "en":
            assert text == "Equitatus 1 (Pompeius) rolls 1 4 6: 1 hit"
            assert m.render_effect({"kind": "dice.rolled", "params": {"block": "Legio 8", "faces": [5, 6],
                                                                      "hits": 2}}) == "Legio 8 rolls 5 6: 2 hits"

"""Actions and decisions said from data (web_ui/i18n/actions.py): every action type the engine
writes, in full and redacted, every option button and prompt title, and the waiting line's roll
with where it is made, render in every language with no placeholder left, from the engine's own
data (real records), never from notation."""
from pathlib import Path

import pytest
from flask import Flask

from engine import KINDS, TYPES, replay
from web_ui.i18n import init_app
from web_ui.i18n import messages as m
from web_ui.i18n.actions import OPTIONS, render_action, render_action_line, render_option, render_title
from web_ui.i18n.lang import LANGUAGES

RECORDS = sorted(p for p in (Path(__file__).resolve().parents[1] / "records").glob("*.txt")
                 if not p.name.startswith("bad_"))


@pytest.fixture(scope="module")
def entries():
    out = []
    for path in RECORDS:
        game = replay(path.read_text(), path.name)
        for viewer in ("Caesar", "Pompeius", None):
            out += [e["action"] for e in game.history_for(viewer)]
    return out


@pytest.fixture
def app():
    app = Flask(__name__)
    app.config.update(SECRET_KEY="test", I18N_PSEUDO=True)
    init_app(app)
    return app


@pytest.mark.parametrize("lang", LANGUAGES + ("xx",))
def test_every_action_full_and_redacted_renders_in_every_language(app, entries, lang):
    assert {d["type"] for d in entries} >= set(TYPES) - {"take-back"}
    assert any(d.get("redacted") for d in entries)
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert all(render_action(d) not in (d["type"], "") for d in entries)     # no type said raw
        texts = [render_action_line(d) for d in entries]
        texts += [render_option(d) for d in entries if d["type"] in OPTIONS and not d.get("redacted")]
        texts += [render_title(kind) for kind in m.DECISION_TITLES]
        for text in texts:
            assert text and "%(" not in text and "…" not in text, text
        if lang == "xx":
            assert all(t.startswith("⟦") for t in texts)


def test_a_redacted_line_names_no_block_and_the_full_one_does(app):
    with app.test_request_context(headers={"Accept-Language": "es"}):
        full = {"type": "move", "actor": "Caesar", "params": {"block": "Legio 8", "key": "C Legio 8",
                                                              "path": ["Genua", "Roma"]}}
        blind = {"type": "move", "actor": "Caesar", "params": {"path": ["Genua", "Roma"]}, "redacted": True}
        assert render_action_line(full) == "César: mueve Legio 8 Genua – Roma"
        assert render_action_line(blind) == "César: mueve un bloque Genua – Roma"
        assert render_action({"type": "discard", "actor": "Pompeius", "params": {}, "redacted": True}) == \
            "descarta una carta"


def test_the_waiting_line_says_where_the_dice_are_rolled(app):
    dice = {"actor": "chance", "kind": "dice", "rule": KINDS["dice"], "params": {"dice": 2, "block": "C Antonius"}}
    with app.test_request_context(headers={"Accept-Language": "en"}):
        line = m.render_waiting({"pending": [dice]}, {"instructions": [], "waiting": {"dice": "tray"}})
        assert line.endswith(", on the tray") and "2 dice for Antonius (Caesar)" in line
        line = m.render_waiting({"pending": [dice]}, {"instructions": [], "waiting": {"dice": "phone"}})
        assert line.endswith(", on the phone")


def test_every_decision_a_player_answers_has_its_title_beside_its_line():
    chance = {"deal", "dice", "jupiter-pick"}        # decisions of the table, never a player's prompt
    assert set(m.DECISION_TITLES) == set(KINDS) - chance and set(m.DECISIONS) == set(KINDS)

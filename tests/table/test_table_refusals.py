"""The table's own refusals (a vote nobody may cast, a resume of the game in play, a request from
no side) are `TableRefusal`s: under the application's root `RubiconError`, and still the engine's
`IllegalAction`, so `except IllegalAction` callers and the pages reading code and params see the
same refusal as before."""
import ast
from pathlib import Path

import pytest

from engine import IllegalAction
from rubicon.errors import RubiconError, TableRefusal
from rubicon.journal import Journal
from rubicon.table import votes
from rubicon.table.resume import resumable

ROOT = Path(__file__).resolve().parents[2]


def test_the_application_builds_no_refusal_of_the_engines_own_class():
    made = []
    for path in sorted((ROOT / "rubicon").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "IllegalAction":
                made.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not made, f"raise TableRefusal (rubicon.errors) for the table's own refusals: {made}"


def test_a_vote_refused_is_a_table_refusal_caught_as_either_root():
    with pytest.raises(TableRefusal) as caught:
        votes.cast(None, "Pompeius", True, voters=("Caesar",))
    exc = caught.value
    assert isinstance(exc, RubiconError) and isinstance(exc, IllegalAction) and isinstance(exc, ValueError)
    assert exc.to_json() == {"rule": None, "code": "table.new-game-not-yours", "params": {"side": "Pompeius"},
                             "message": "Pompeius is played by the Pi here: a new game is for the players to agree on",
                             "text": "Pompeius is played by the Pi here: a new game is for the players to agree on"}
    with pytest.raises(IllegalAction, match="no new game is offered"):   # an engine-minded caller still catches it
        votes.cast(None, "Caesar", False, voters=("Caesar", "Pompeius"))


def test_a_resume_refused_keeps_its_code_and_params(tmp_path):
    refusal = resumable(Journal(tmp_path / "journal.sqlite3"), 7, current=7)
    assert isinstance(refusal, TableRefusal)
    assert (refusal.code, refusal.params) == ("table.resume-current", {"number": 7})


def test_a_request_from_no_side_is_refused_with_the_same_json(session):
    outcome = session.act("Brutus", "Caesar discards 3/1")
    assert outcome.refusal == {"rule": None, "code": "table.unknown-source", "params": {"source": "Brutus"},
                               "message": "unknown source 'Brutus'", "text": "unknown source 'Brutus'"}

"""`rubicon replay` of a record with battles and winters, `rubicon selfplay --json`, and the
notation of the battle and winter actions."""
import json
from pathlib import Path

import pytest

from engine.actions import parse_action
from engine.board import BOARD
from engine.errors import ParseError
from engine.notation import replay
from rubicon.cli import main

RECORD = Path(__file__).resolve().parent.parent / "records" / "battle_winter_selfplay_99_23.txt"


def test_replay_of_a_record_with_battles_and_winters(capsys):
    assert main(["replay", str(RECORD), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["phase"] == "over"
    text = RECORD.read_text()
    for verb in ("fights", "rolls", "takes the hit on", "retreats", "regroups", "winters", "disbands",
                 "ends disbanding"):
        assert verb in text, verb
    game = replay(text, RECORD.name)
    assert game.result()["winner"] == "Caesar"


@pytest.mark.parametrize("record, upto, battle, player1, acting", [
    ("events_705.txt", 46, {"location": "Roma", "round": 1, "attacker": "Caesar", "defender": "Pompeius",
                            "reserves": {"Caesar": ["C Legio 8", "C Legio 12"], "Pompeius": []}, "firing": None},
     "Pompeius", ["Caesar"]),
    ("battle_first_turn_705.txt", 64, {"location": "Tarraco", "round": 1, "attacker": "Caesar",
                                       "defender": "Pompeius", "firing": None,
                                       "reserves": {"Caesar": [], "Pompeius": ["P Legio 2"]}},
     "Caesar", ["Pompeius"]),
])
def test_replay_json_shows_the_battle_being_fought(tmp_path, capsys, record, upto, battle, player1, acting):
    part = tmp_path / "part.txt"
    part.write_text("\n".join((RECORD.parent / record).read_text().split("\n")[:upto]) + "\n")
    assert main(["replay", str(part), "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert (s["phase"], s["battle"], s["player1"], s["current_players"]) == ("battle", battle, player1, acting)


def test_replay_reports_an_illegal_battle_line(tmp_path, capsys):
    lines = RECORD.read_text().splitlines()
    n = next(i for i, l in enumerate(lines) if l.startswith("Chance rolls"))
    lines[n] = "Chance rolls 1 1 1 1 1 1 1 1"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines[:n + 1]) + "\n")
    assert main(["replay", str(bad)]) == 1
    assert f"bad.txt:{n + 1}: 7.4" in capsys.readouterr().err


def test_selfplay_json_fields(capsys):
    assert main(["selfplay", "--games", "3", "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for field in ("games", "completed", "results", "actions", "elapsed_s", "games_per_s", "actions_per_s"):
        assert field in out
    assert out["games"] == out["completed"] == 3
    assert sum(out["results"].values()) == 3 and set(out["results"]) == {"Caesar", "Pompeius", "draw"}
    again = main(["selfplay", "--games", "3", "--seed", "1", "--json"])
    second = json.loads(capsys.readouterr().out)
    assert again == 0 and (second["results"], second["actions"]) == (out["results"], out["actions"])


def test_selfplay_refuses_a_negative_count(capsys):
    assert main(["selfplay", "--games", "-1"]) == 2
    assert "--games" in capsys.readouterr().err


@pytest.mark.parametrize("line", [
    "Caesar fights Tarraco", "Caesar fights Neapolis with Mars", "Pompeius fires Legio 5",
    "Pompeius passes Cleopatra", "Caesar takes the hit on Legio 7", "Caesar retreats Legio 7 to Narbo",
    "Caesar retreats Legio 7 by sea to Massilia", "Caesar retreats Legio 7 nowhere",
    "Caesar retreats P Legio 3 to Roma", "Chance rolls 1 4 6", "Caesar regroups Legio 7 to Narbo",
    "Caesar ends regroup", "Caesar winters Navis 2 in Ravenna", "Pompeius disbands Legio 1",
    "Pompeius ends disbanding",
])
def test_notation_round_trip(line):
    assert str(parse_action(line)) == line


@pytest.mark.parametrize("line", ["Caesar rolls 1 2", "Chance rolls 7", "Chance fires Legio 7",
                                  "Caesar fires Legio 99", "Caesar retreats Legio 7 to Atlantis"])
def test_bad_battle_lines_are_parse_errors(line):
    with pytest.raises(ParseError):
        parse_action(line)


def test_replay_of_the_first_turn_with_both_battles(capsys):
    record = RECORD.parent / "battle_first_turn_705.txt"
    assert main(["replay", str(record)]) == 0
    game = replay(record.read_text(), record.name)
    st = game.state
    assert (st.turn, st.phase) == (2, "card")
    where = {k: BOARD.loc_names[st.loc[BOARD.block(k)]] for k in
             ("P Pompeius", "P Legio 1", "C Legio 7", "C Legio 9", "P Legio 2", "C Antonius")}
    assert where == {"P Pompeius": "Neapolis", "P Legio 1": "Neapolis", "C Legio 7": "Narbo",
                     "C Legio 9": "Narbo", "P Legio 2": "Tarraco", "C Antonius": "Roma"}
    assert [st.steps[BOARD.block(k)] for k in ("C Legio 8", "C Legio 12", "P Pompeius", "P Legio 1")] == [1, 1, 2, 2]

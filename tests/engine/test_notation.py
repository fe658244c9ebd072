"""Game records and `rubicon replay`: the example records (good and bad), options in the
header, comments, and a full random game that replays exactly from its record."""
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.actions import parse_action
from engine.notation import RecordError, read_record, replay, write_record
from engine.selfplay import play_game
from engine.summary import summary
from rubicon.cli import main

RECORDS = Path(__file__).resolve().parents[1] / "records"

BAD = {
    "bad_block_moved.txt": "14: 6.1 a block moves once per game turn: Legio 8 has already moved",
    "bad_unknown_location.txt": "13: unknown location 'Rom'",
    "bad_malformed_line.txt": "13: not an action of the notation: 'Caesar marches on Rome'",
    "bad_vacant_levy.txt": "13: 6.4 new blocks and steps are raised only in a friendly city",
}


def test_good_record_replays():
    g = replay((RECORDS / "first_turn_705.txt").read_text(encoding="utf-8"))
    assert g.state.phase == "battle" and g.state.options == {"winter_order": "v1.01"}
    assert len(g.history) == 21


@pytest.mark.parametrize("name,expected", sorted(BAD.items()))
def test_bad_records_name_file_line_and_reason(name, expected):
    path = RECORDS / name
    with pytest.raises(RecordError) as info:
        replay(path.read_text(encoding="utf-8"), str(path))
    assert str(info.value).startswith(f"{path}:{expected}")


def test_rubicon_replay_exit_codes_and_messages(capsys):
    assert main(["replay", str(RECORDS / "first_turn_705.txt")]) == 0
    assert "21 actions, all legal" in capsys.readouterr().out
    for name, expected in BAD.items():
        assert main(["replay", str(RECORDS / name)]) == 1
        assert capsys.readouterr().err.strip().startswith(f"{RECORDS / name}:{expected}")
    assert main(["replay", str(RECORDS / "no_such_file.txt")]) == 2


def test_rubicon_replay_json_summary(capsys):
    assert main(["replay", "--json", str(RECORDS / "first_turn_705.txt")]) == 0
    s = json.loads(capsys.readouterr().out)
    assert (s["year"], s["turn"], s["phase"]) == (705, 1, "battle")
    assert s["vp"] == {"Caesar": 1, "Pompeius": 6}
    assert s["blocks"]["C Legio 17"] == {"side": "Caesar", "location": "Roma", "strength": 1}
    assert s["blocks"]["P Brutus"]["location"] == "pool" and len(s["blocks"]) == 63


def test_console_script_runs_replay():
    r = subprocess.run([sys.executable, "-m", "rubicon", "replay", str(RECORDS / "bad_vacant_levy.txt")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and ":13: 6.4" in r.stderr


def test_header_options_and_comments():
    rec = read_record("# c\nOption winter_order: first-edition  # the English web text order\n\n"
                      "Chance deals Caesar: 4/1 3/2 3/2 3/1 3/1 3/1; Pompeius: 2/3 2/3 2/3 2/3 2/2 2/2 # deal\n")
    assert rec.options == {"winter_order": "first-edition"}
    assert rec.actions == [(4, "Chance deals Caesar: 4/1 3/2 3/2 3/1 3/1 3/1; Pompeius: 2/3 2/3 2/3 2/3 2/2 2/2")]
    g = replay("Option winter_order: first-edition\nChance deals Caesar: 4/1 3/2 3/2 3/1 3/1 3/1; "
               "Pompeius: 2/3 2/3 2/3 2/3 2/2 2/2\n")
    assert g.state.options["winter_order"] == "first-edition" and g.state.phase == "discard"


@pytest.mark.parametrize("text,reason", [
    ("Option winter_order: v9\n", "1: option winter_order is one of"),
    ("Option colour: red\n", "1: unknown rules option 'colour'"),
    ("Option winter_order\n", "1: an option line reads 'Option NAME: VALUE'"),
    ("Chance deals Caesar: 4/1 3/2 3/2 3/1 3/1 3/1; Pompeius: 2/3 2/3 2/3 2/3 2/2 2/2\n"
     "Option winter_order: v1.01\n", "2: rules options belong in the header"),
    ("Caesar plays 4/1\n", "1: 2.1 cards are played in the card phase"),
])
def test_bad_headers_and_lines(text, reason):
    with pytest.raises(RecordError, match=f"^rec:{reason}"):
        replay(text, "rec")


def test_a_full_random_game_replays_exactly_from_its_record():
    game, actions = play_game(random.Random(11))
    text = write_record(game, comment="random game, seed 11")
    again = replay(text)
    assert again.state.to_json() == game.state.to_json() and again.is_over()
    for a in actions:
        assert parse_action(str(a)) == a


@pytest.mark.parametrize("line,canonical", [
    ("caesar MOVES legio 13 ravenna - rome", "Caesar moves Legio 13 Ravenna-Roma"),
    ("Pompey levies Legio 32 Athens", "Pompeius levies Legio 32 in Athenae"),
    ("Pompeius levies Legio 32 at Athenae", "Pompeius levies Legio 32 in Athenae"),
    ("Pompeius moves Legio 2 Nova Carthago–Tarraco", "Pompeius moves Legio 2 Carthago Nova-Tarraco"),
    ("Caesar moves C Auxilia 1 Massila-Genua", "Caesar moves Auxilia 1 Massilia-Genua"),
    ("Caesar sends P Auxilia 1 to Rome", "Caesar sends P Auxilia 1 to Roma"),
    ("Chance picks cleopatra", "Chance picks Cleopatra"),
    ("Caesar adds step to Legio 13", "Caesar adds a step to Legio 13"),
    ("Chance deals caesar: apollo 4/1 3/2 2/3 2/3 1/2; pompey: mars 3/1 2/2 2/2 2/1 1/3",
     "Chance deals Caesar: Apollo 4/1 3/2 2/3 2/3 1/2; Pompeius: Mars 3/1 2/2 2/2 2/1 1/3"),
])
def test_lines_are_read_leniently_and_written_canonically(line, canonical):
    a = parse_action(line)
    assert str(a) == canonical and parse_action(canonical) == a


def test_events_record_replays_to_the_annotated_outcome():
    text = (RECORDS / "events_705.txt").read_text(encoding="utf-8")
    turn3 = replay(text[:text.index("Caesar adds a step to Legio 7")])
    assert summary(turn3)["blocks"]["C Legio 7"]["strength"] == 2                          # Vulcan (Apollo)
    g = replay(text)
    s = summary(g)
    assert (s["year"], s["turn"], s["phase"]) == (705, 5, "winter")
    blocks = s["blocks"]
    assert blocks["P Legio 5"] == {"side": "Caesar", "location": "Narbo", "strength": 2}   # Jupiter, Vulcan
    assert blocks["C Legio 11"]["location"] == "Carthago Nova"                           # amphibious
    assert blocks["C Legio 14"]["location"] == "Cenabum"                                 # Mercury, 3 steps
    assert blocks["P Elephant"] == {"side": "Pompeius", "location": "Utica", "strength": 2}
    assert s["vp"] == {"Caesar": 3, "Pompeius": 6}
    assert [r["Pompeius_counts_as"] for r in g.view(None)["revealed"]][2] == "Vulcan"     # Apollo

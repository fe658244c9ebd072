"""`rubicon selfplay --caesar LEVEL --pompeius LEVEL`: plays, prints the score with its confidence
interval, writes records that replay to the results it reports; refuses unknown levels."""
import json

import pytest

from rubicon.cli import main


def test_selfplay_between_levels_prints_the_score_with_a_confidence_interval(capsys):
    assert main(["selfplay", "--caesar", "easy", "--pompeius", "random", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "2/2 games completed" in out
    assert "Caesar (easy) scores 1.000 (95% confidence interval " in out


def test_selfplay_json_with_swapped_sides_and_records(tmp_path, capsys):
    folder = tmp_path / "games"
    assert main(["selfplay", "--caesar", "easy", "--pompeius", "random", "--swap", "--games", "2", "--json",
                 "--records", str(folder)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["levels"] == {"Caesar": "easy", "Pompeius": "random"} and summary["swap"] is True
    assert summary["score_as"].keys() == {"Caesar", "Pompeius"}
    lo, hi = summary["ci95"]
    assert 0 <= lo <= summary["score"] <= hi <= 1
    assert set(summary["decision_ms"]) == {"easy", "random"}
    winners = []
    for f in sorted(folder.iterdir()):
        assert main(["replay", str(f), "--json"]) == 0
        winners.append(json.loads(capsys.readouterr().out)["result"]["winner"])
    assert winners == ["Caesar", "Pompeius"]   # easy wins as Caesar, then as Pompeius


def test_random_against_random_is_todays_selfplay(capsys):
    from engine import run
    assert main(["selfplay", "--games", "2", "--seed", "4", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["results"] == run(2, 4)["results"]
    assert summary["levels"] == {"Caesar": "random", "Pompeius": "random"}


def test_an_unknown_level_is_refused(capsys):
    with pytest.raises(SystemExit) as done:
        main(["selfplay", "--caesar", "grandmaster"])
    assert done.value.code == 2
    assert "invalid choice: 'grandmaster'" in capsys.readouterr().err


def test_the_command_offers_exactly_the_bots_levels():
    from rubicon.bot.levels import DEFAULT_LEVEL, LEVELS
    from rubicon.cli.selfplay import LEVEL_NAMES
    assert tuple(LEVELS) == LEVEL_NAMES and DEFAULT_LEVEL in LEVELS


def test_rubicon_run_offers_exactly_the_bots_levels():
    from rubicon.bot.levels import DEFAULT_LEVEL, LEVELS
    from rubicon.cli.run import BOT_LEVELS
    assert tuple(LEVELS) == BOT_LEVELS and DEFAULT_LEVEL in LEVELS

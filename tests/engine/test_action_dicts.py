"""Actions as data (engine/action_dicts.py): every type is written by the engine's own games, the
data of an entry a viewer sees in full says what its notation line says, and a redacted entry's
data carries only what its redacted line names."""
import random
from pathlib import Path

from engine.action_dicts import TYPES, action_data
from engine.actions import parse_action
from engine.game import Game
from engine.notation import replay
from engine.selfplay import play_game

RECORDS = sorted(p for p in (Path(__file__).resolve().parents[1] / "records").glob("*.txt")
                 if not p.name.startswith("bad_"))

REDACTED_PARAMS = {"path", "location", "count", "own"}


def test_the_data_of_every_entry_agrees_with_its_line_and_a_redacted_one_names_no_block_or_card():
    seen_types = set()
    games = [replay(p.read_text(), p.name) for p in RECORDS]
    for seed in range(6):
        games.append(Game())
        play_game(random.Random(seed), game=games[-1], effects=True)
    for game in games:
        for viewer in ("Caesar", "Pompeius", None):
            for entry in game.history_for(viewer):
                data = entry["action"]
                seen_types.add(data["type"])
                assert data["actor"] == entry["actor"]
                if data.get("redacted"):
                    assert set(data["params"]) <= REDACTED_PARAMS, entry
                else:
                    assert data == action_data(parse_action(entry["text"])), entry
    assert seen_types >= set(TYPES) - {"take-back"}, set(TYPES) - seen_types

"""[RULING-APOLLO] Player 1 is decided on the cards as they count after Apollo copied (the
Apollo card's text); cancellation still on the cards as played. Each example of the issue is a
record in tests/records/ replayed by `rubicon replay`, then its views after the reveal."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.notation import replay
from rubicon.cli import main

RECORDS = Path(__file__).resolve().parent.parent / "records"

# record, Player 1 of turn 2 (None: cancelled), what each card of turn 2 counts as, who acts
# when the record ends
EXAMPLES = [
    ("apollo_copy_3_1_against_4_1.txt", "Pompeius", ("3/1", "4/1"), "Caesar"),
    ("apollo_copy_3_1_against_2_2.txt", "Pompeius", ("2/2", "3/1"), "Caesar"),
    ("apollo_copies_mars.txt", "Caesar", ("Mars", "4/1"), "Pompeius"),
    ("apollo_against_event_cancels.txt", None, ("3/1", "Mars"), "Caesar"),
]


def _until_turn_2_reveal(text: str) -> str:
    """The record up to the second card played in turn 2 (the reveal)."""
    lines = text.splitlines()
    plays = [i for i, line in enumerate(lines) if " plays " in line]
    return "\n".join(lines[:plays[3] + 1]) + "\n"


@pytest.mark.parametrize("name,player1,counts_as,next_actor", EXAMPLES)
def test_rubicon_replay_accepts_the_record(name, player1, counts_as, next_actor, capsys):
    assert main(["replay", str(RECORDS / name)]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().split("; next: ")[1].startswith(next_actor + ";"), out


@pytest.mark.parametrize("name,player1,counts_as,next_actor", EXAMPLES)
def test_every_view_names_player_1_after_the_reveal(name, player1, counts_as, next_actor):
    game = replay(_until_turn_2_reveal((RECORDS / name).read_text()), name)
    for viewer in ("Caesar", "Pompeius", None):
        v = game.view(viewer)
        turn2 = v["revealed"][1]
        assert "Apollo" in (turn2["Caesar"], turn2["Pompeius"])
        assert (turn2["Caesar_counts_as"], turn2["Pompeius_counts_as"]) == counts_as
        assert turn2["cancelled"] is (player1 is None)
        if player1 is None:
            assert v["player1"] is None and v["turn"] == 3 and v["phase"] == "card"
        else:
            assert v["player1"] == player1 and v["command"]["side"] == player1 and v["turn"] == 2
    if player1 is not None:
        assert game.current_players() == [player1]
        player2 = "Caesar" if player1 == "Pompeius" else "Pompeius"
        refusal = game.explain(f"{player2} ends command")
        assert (refusal.code, refusal.rule) == ("turn.not-yours", "6.0"), refusal


def test_apollo_copying_a_command_card_commands_with_it():
    lines = (RECORDS / "apollo_copy_3_1_against_2_2.txt").read_text().splitlines()
    assert lines[-1] == "Pompeius ends command"
    game = replay("\n".join(lines[:-1]) + "\n", "x")   # before Pompeius ends his command
    cmd = game.view("Pompeius")["command"]
    assert (cmd["card"], cmd["mp"], cmd["mp_used"], cmd["lp"], cmd["lp_used"]) == ("3/1", 3, 3, 1, 1)

"""A new game from the table: offered by one side, started once every human side agreed (the Pi's
side has no say), withdrawn or declined by either; the old game stays in the journal and a
finished one is named so its record stays downloadable."""
import pytest

from engine import SIDES

from .driver import play


def test_an_offer_waits_for_the_other_side_then_starts_a_new_game(session):
    play(session, 6)
    old = session.snapshot()
    assert old.lines > 1
    offered = session.vote_new_game("Caesar", True)
    assert offered.ok
    snap = session.snapshot()
    assert snap.game_id == old.game_id and snap.lines == old.lines         # nothing else changed
    assert snap.notes["new_game"] == {"agreed": ["Caesar"], "waiting": ["Pompeius"]}
    assert snap.for_viewer(None)["notes"]["new_game"] == {"agreed": ["Caesar"], "waiting": ["Pompeius"]}
    assert session.vote_new_game("Caesar", True).ok                         # asking twice changes nothing
    assert session.snapshot().notes["new_game"]["waiting"] == ["Pompeius"]
    assert session.vote_new_game("Pompeius", True).ok
    new = session.snapshot()
    assert new.game_id != old.game_id and new.lines == 1                    # dealt, waiting for discards
    assert "new_game" not in new.notes and "previous_game" not in new.notes  # the old one was unfinished
    assert len(session.journal.lines(old.game_id)[1]) == old.lines          # the old game stays whole
    assert session.journal.current_game() == new.game_id


@pytest.mark.parametrize("who", ["Caesar", "Pompeius"])
def test_either_side_withdraws_or_declines_and_the_game_goes_on(session, who):
    before = session.snapshot()
    assert session.vote_new_game("Caesar", True).ok
    assert session.vote_new_game(who, False).ok
    after = session.snapshot()
    assert "new_game" not in after.notes
    assert after.game_id == before.game_id and after.lines == before.lines
    refused = session.vote_new_game(who, False)
    assert refused.refusal["code"] == "table.no-new-game-offer"


def test_against_the_pi_the_human_alone_decides_and_the_pis_side_has_no_say(session):
    before = session.snapshot()
    refused = session.vote_new_game("Pompeius", True, voters=("Caesar",))
    assert refused.refusal["code"] == "table.new-game-not-yours"
    assert refused.refusal["params"] == {"side": "Pompeius"}
    assert session.snapshot().version == before.version
    assert session.vote_new_game("Caesar", True, voters=("Caesar",)).ok
    assert session.snapshot().game_id != before.game_id


@pytest.mark.parametrize("source", ["chance", "Brutus", ""])
def test_a_forged_voter_is_refused_and_changes_nothing(session, source):
    before = session.snapshot()
    outcome = session.vote_new_game(source, True)
    assert outcome.refusal["code"] == "table.unknown-source"
    assert session.snapshot().version == before.version


def test_a_finished_game_is_named_after_the_new_game_starts(session):
    play(session, 6000)
    finished = session.snapshot()
    assert finished.result is not None
    assert session.vote_new_game("Pompeius", True).ok and session.vote_new_game("Caesar", True).ok
    new = session.snapshot()
    assert new.notes == {"previous_game": {"game_id": finished.game_id}}
    assert len(session.journal.lines(finished.game_id)[1]) == finished.lines


def test_an_unfinished_game_is_taken_up_again_once_both_agree_and_goes_on_where_it_stood(session):
    from rubicon.table.resume import unfinished
    play(session, 6)
    old = session.snapshot()
    assert session.vote_new_game("Caesar", True).ok and session.vote_new_game("Pompeius", True).ok
    new = session.snapshot()
    assert [g.game_id for g in unfinished(session.journal, new.game_id)] == [old.game_id]
    assert session.vote_new_game("Pompeius", True, game=old.game_id).ok
    assert session.snapshot().notes["new_game"] == {"agreed": ["Pompeius"], "waiting": ["Caesar"],
                                                    "game": old.game_id}
    assert session.snapshot().game_id == new.game_id                  # nothing until the other agrees
    assert session.vote_new_game("Caesar", True, game=old.game_id).ok
    back = session.snapshot()
    assert back.game_id == old.game_id and back.lines == old.lines
    assert back.side_views() == old.side_views()     # the same position, the same hands
    assert [back.side(s).legal for s in SIDES] == [old.side(s).legal for s in SIDES]
    assert session.journal.current_game() == old.game_id
    assert [g.game_id for g in unfinished(session.journal, back.game_id)] == [new.game_id]


def test_taking_up_the_game_played_now_or_an_unknown_one_is_refused_and_changes_nothing(session):
    before = session.snapshot()
    for game, code in ((before.game_id, "table.resume-current"), (99, "table.resume-unknown")):
        refused = session.vote_new_game("Caesar", True, game=game)
        assert refused.refusal["code"] == code
        assert session.snapshot().version == before.version


def test_an_offer_of_another_game_replaces_the_standing_one(session):
    play(session, 4)
    first = session.snapshot().game_id
    assert session.vote_new_game("Caesar", True).ok and session.vote_new_game("Pompeius", True).ok
    assert session.vote_new_game("Caesar", True).ok                      # a new game offered...
    assert session.vote_new_game("Pompeius", True, game=first).ok         # ...Pompeius offers the old one
    assert session.snapshot().notes["new_game"]["agreed"] == ["Pompeius"]
    assert session.snapshot().game_id != first

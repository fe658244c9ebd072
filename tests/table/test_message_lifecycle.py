"""Messages with a lifecycle: each refusal or notice of the table is shown to
the viewers it concerns (the side that caused it; everyone only for what the whole room sees) and
goes away when what it asks for is done, when a newer one of the same topic supersedes it, or when
the game moves on; a snapshot carries the live ones only, each with its id, cause and condition."""
import re

from firmware_bridge.events import DeviceDown, DeviceUp, PanelPressed
from rubicon.table.feedback import Facts, MessageBoard, message

from .physical_rig import Rig
from .test_physical import CAESAR_HIDDEN, OPENING, assert_no_leak

DEAL = OPENING[:1]        # the deal: both sides discard on their phones at once


def codes(rig, viewer):
    return [m["code"] for m in rig.part(viewer)["messages"]]


def press_done(rig, side):
    return rig.session.sense(PanelPressed("panel", side=side, button="done"))


def command_rig(tmp_path):
    tmp_path.mkdir(parents=True, exist_ok=True)
    rig = Rig(tmp_path / "j.sqlite3")
    rig.act(*OPENING)
    rig.set_board()
    return rig


def test_nothing_to_confirm_is_said_to_that_side_alone_and_ends_when_the_game_moves_on(tmp_path):
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.act(*DEAL)
        rig.set_board()
        refused = press_done(rig, "Caesar")
        assert refused.refusal["code"] == "table.done-not-yours"
        (said,) = rig.part("Caesar")["messages"]
        assert said["id"] == refused.message and said["cause"] == "Caesar" and said["clears"] == "play"
        assert "nothing to confirm with Done" in said["text"]
        assert codes(rig, "Pompeius") == [] and codes(rig, "public") == []     # not on the other phone nor the TV
        rig.act("Pompeius discards 2/1")           # the game moves on: what was said of the deal is over
        assert codes(rig, "Caesar") == []
    finally:
        rig.stop()


def test_a_block_in_hand_is_said_until_it_is_set_down_without_a_commit(tmp_path):
    rig = command_rig(tmp_path)
    try:
        rig.play('lift Genua "C Legio 8"')
        refused = press_done(rig, "Caesar")
        assert refused.refusal["code"] == "table.in-hand"
        said = rig.part("Caesar")["messages"][0]
        assert said["clears"] == "set-down" and said["params"] == {"block": "Legio 8"}
        assert codes(rig, "Pompeius") == [] and codes(rig, "public") == []
        assert_no_leak(rig, hidden=CAESAR_HIDDEN)
        lines = rig.session.snapshot().lines
        rig.play('place Genua "C Legio 8"')        # set down (where it was): resolved, nothing applied
        assert rig.session.snapshot().lines == lines
        assert codes(rig, "Caesar") == []
    finally:
        rig.stop()


def test_a_newer_refusal_of_the_same_side_supersedes_the_older(tmp_path):
    rig = command_rig(tmp_path)
    try:
        rig.play('lift Genua "C Legio 8"')
        first = press_done(rig, "Caesar")
        rig.play('place Genua "C Legio 8"\nlift Neapolis "P Legio 1"\nplace Roma "P Legio 1"')
        second = press_done(rig, "Caesar")
        assert second.refusal["code"] == "table.board-not-right" and second.message != first.message
        assert codes(rig, "Caesar") == ["table.board-not-right"]
        assert codes(rig, "Pompeius") == ["table.not-your-turn"]      # his block, moved out of turn: his alone
        rig.play('lift Roma "P Legio 1"\nplace Neapolis "P Legio 1"')
        assert codes(rig, "Caesar") == [] and codes(rig, "Pompeius") == []   # put back: both resolved
    finally:
        rig.stop()


def test_a_stray_tag_is_public_until_it_is_taken_off(tmp_path):
    rig = command_rig(tmp_path)
    try:
        rig.play("place Genua 0BADBEEF")
        for viewer in ("public", "Caesar", "Pompeius"):
            assert codes(rig, viewer) == ["table.unknown-tag"]
        ids = {rig.part(v)["messages"][0]["id"] for v in ("public", "Caesar", "Pompeius")}
        assert len(ids) == 1                     # one message, one id, on every page
        rig.play("lift Genua 0BADBEEF")
        for viewer in ("public", "Caesar", "Pompeius"):
            assert codes(rig, viewer) == []
    finally:
        rig.stop()


def test_an_accepted_done_ends_that_sides_earlier_refusals(tmp_path):
    rig = command_rig(tmp_path)
    try:
        assert press_done(rig, "Pompeius").refusal["code"] == "table.done-not-yours"
        assert codes(rig, "Pompeius") == ["table.done-not-yours"]
        rig.play('lift Genua "C Legio 8"\nplace Lugdunum "C Legio 8"')
        assert press_done(rig, "Caesar").ok
        for viewer in ("public", "Caesar", "Pompeius"):
            assert codes(rig, viewer) == []
    finally:
        rig.stop()


def test_the_tray_gone_is_said_through_play_until_it_is_back(tmp_path):
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        tray = "dice@/dev/ttyACM0"
        rig.session.sense(DeviceUp(tray))
        rig.session.sense(DeviceDown(tray, reason="unplugged"))
        assert codes(rig, "public") == ["dice.tray-down"]
        rig.act(*DEAL, "Caesar discards 1/2")     # the game moves on: the tray is still gone
        assert codes(rig, "public") == ["dice.tray-down"]
        rig.session.sense(DeviceUp(tray))
        assert codes(rig, "public") == ["dice.tray-up"]    # back: said once, in place of the other
        rig.act("Pompeius discards 2/1")
        assert codes(rig, "public") == []
    finally:
        rig.stop()


def test_the_board_settles_by_condition_topic_and_position():
    board = MessageBoard()
    home = board.post(message("table.misplaced", "x"), audience=("Pompeius",), cause="Pompeius",
                      clears="block-home", subject=12, topic=("block", 12))
    board.settle(Facts(position=1, away=frozenset({12})))
    assert [m["id"] for m in board.live("Pompeius")] == [home] and board.live("Caesar") == []
    again = board.post(message("table.misplaced", "y"), audience=("Pompeius",), cause="Pompeius",
                       clears="block-home", subject=12, topic=("block", 12))
    assert [m["id"] for m in board.live("Pompeius")] == [again]          # the same topic: superseded
    board.settle(Facts(position=1, away=frozenset()))
    assert board.live("Pompeius") == []                                  # back home
    board.post(message("dice.tray-down", "z"), audience="public", cause="dice", clears="tray-up", lasting=True)
    board.post(message("dice.not-asked", "w"), audience="public", cause="dice")
    board.settle(Facts(position=1))
    assert len(board.live("public")) == 2
    board.settle(Facts(position=2))        # the game moved on: only the lasting one stays
    assert [m["code"] for m in board.live("Caesar")] == ["dice.tray-down"]
    board.settle(Facts(position=2, tray_up=True))
    assert board.live("public") == []


def test_the_other_side_and_the_tv_cannot_tell_a_refused_placement_from_a_legal_one(tmp_path):
    """Security: Pompeius's and the TV's table parts are the same whether Caesar's block was set
    down where the rules allow it or not: his message is his alone, and the ids of the messages
    they do see (a stray tag, next) are drawn at random, so no gap in a count tells of his."""
    seen, ids = [], []
    for n, where in enumerate(("Roma", "Neapolis")):          # Genua-Roma is legal, Genua-Neapolis is not
        rig = command_rig(tmp_path / str(n))
        try:
            rig.play(f'lift Genua "C Legio 8"\nplace {where} "C Legio 8"\nplace Massilia 0BADBEEF')
            # Caesar reads the stray tag, and the refusal of his placement when it is refused.
            assert len(codes(rig, "Caesar")) == (2 if where == "Neapolis" else 1)
            snap = rig.session.snapshot()
            parts = [snap.side("Pompeius").table, snap.public.table]
            ids.append({m["id"] for p in parts for m in p["messages"]})
            for p in parts:
                p["messages"] = [{**m, "id": "?"} for m in p["messages"]]
            seen.append((snap.version, parts))
        finally:
            rig.stop()
    assert seen[0] == seen[1]
    assert all(len(i) == 1 for i in ids) and ids[0] != ids[1]
    assert all(re.fullmatch(r"m[0-9a-f]{12}", i) for found in ids for i in found)


def test_one_sides_confirmation_of_the_board_is_said_until_the_board_is_right(tmp_path):
    rig = Rig(tmp_path / "j.sqlite3")
    try:
        rig.act(*OPENING)
        rig.set_board(skip=("Genua",))              # a reader cannot see Genua's blocks
        assert rig.session.confirm("Caesar").ok
        assert "table.confirm-waiting" in codes(rig, "public")
        said = next(m for m in rig.part("Pompeius")["messages"] if m["code"] == "table.confirm-waiting")
        assert said["clears"] == "board-right"
        rig.play('place Genua "C Antonius"\nplace Genua "C Legio 8"\nplace Genua "C Legio 12"')   # the board is right
        for viewer in ("public", "Caesar", "Pompeius"):
            assert "table.confirm-waiting" not in codes(rig, viewer)
    finally:
        rig.stop()

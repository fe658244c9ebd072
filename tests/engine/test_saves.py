"""A saved game is its record (`Game.save` / `Game.load`, engine/saves.py): positions of random
games in every phase load back as themselves; a forged save is refused with a `CorruptSave`
naming the line, field or structure that is wrong, or loads only as the legal game its lines
spell; the checkpoint is a cross-check, never loaded; records split lines only at LF or CRLF."""
from __future__ import annotations

import copy
import json

import pytest

from engine.actions import Move
from engine.board import BOARD
from engine.errors import CorruptSave, IllegalAction
from engine.game import Game
from engine.notation import read_record, replay, write_record
from engine.saves import MAX_LINE_CHARS, MAX_LINES, SAVE_FORMAT
from engine.selfplay import game_rng, play_game

from .api_checks_saves import check_save_roundtrip
from .helpers import command_game


@pytest.fixture(scope="module")
def met() -> dict[str, list[Game]]:
    """Positions met in 6 random games from the set-up (copies), by what the tests need."""
    found: dict[str, list[Game]] = {}
    count = [0]

    def keep(name: str, game: Game) -> None:
        if len(found.setdefault(name, [])) < 12:
            found[name].append(game.copy())

    def after(game: Game, action) -> None:
        st = game.state
        count[0] += 1
        if count[0] % 9 == 0 or st.phase in ("winter", "over"):
            keep(st.phase, game)
        if st.phase == "battle" and st.turn >= 2:
            keep("battle after turn 1", game)
        cmd = st.cmd
        if st.phase == "command" and not game.is_chance_node():
            if cmd.log and cmd.event is None:
                keep(f"command with a take-back point in {st.year}", game)
            if cmd.mp == 1 and cmd.event is None and not cmd.log:
                keep("command on a 1-MP card", game)
    for i in range(6):
        play_game(game_rng(11, i), after=after)
    return found


def _save_of(game: Game) -> dict:
    return json.loads(json.dumps(game.save()))


# --------------------------------------------------------------------------- round trips
def test_positions_in_every_phase_load_back_as_themselves(met):
    phases = ("deal", "discard", "card", "command", "battle", "winter", "over")
    assert all(met.get(p) for p in phases), sorted(met)
    for phase in phases:
        for game in met[phase][:3]:
            check_save_roundtrip(game)


def test_a_save_holds_the_options_the_lines_and_a_checkpoint(met):
    game = met["command"][0]
    data = game.save()
    assert data == {"format": SAVE_FORMAT, "options": {"winter_order": "v1.01"}, "lines": game.history,
                    "checkpoint": json.loads(json.dumps(game.state.to_json()))}
    assert "checkpoint" not in game.save(checkpoint=False)
    assert Game.from_json(game.to_json()).state.to_json() == game.state.to_json()   # the old names


def test_the_first_edition_winter_option_survives_the_save():
    game, _ = play_game(game_rng(3, 0), {"winter_order": "first-edition"})
    again = check_save_roundtrip(game)
    assert again.state.options == {"winter_order": "first-edition"} and again.is_over()


def test_a_position_built_by_hand_has_no_record_to_save():
    g = command_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"]})
    for write in (g.save, g.save_text, g.to_json, lambda: write_record(g)):
        with pytest.raises(ValueError, match="not played from the 705 set-up"):
            write()
    assert g.copy().from_setup is False


# --------------------------------------------------------------------------- take-back point
def test_take_back_restores_exactly_and_leaves_its_point_untouched(met):
    game = met["command on a 1-MP card"][0].copy()
    start = game.state.to_json()
    point = game.state.cmd.snapshot
    moves = [a for a in game.legal_actions() if isinstance(a, Move)]
    side = game.current_players()[0]
    other = game.copy()
    for move in moves[:3]:
        game.apply(move)
        game.apply(f"{side} takes back")
        assert game.state.to_json() == start
    assert game.state.cmd.snapshot is point and point.cmd.snapshot is None
    other.apply(moves[0])
    assert other.state.cmd.snapshot is point   # copies share the untouched point
    assert game.state.to_json() == start


# --------------------------------------------------------------------------- forged checkpoints
def _forged(game: Game, forge) -> dict:
    data = _save_of(game)
    Game.load(copy.deepcopy(data))   # the honest save loads
    forge(data["checkpoint"])
    return data


def _refused_at(data: dict, field: str) -> CorruptSave:
    with pytest.raises(CorruptSave, match="the checkpoint is not the position its lines reach") as info:
        Game.load(data)
    assert info.value.code == "save.checkpoint" and info.value.field == field, info.value
    return info.value


def test_a_battle_save_with_its_turn_forged_is_refused_naming_the_turn(met):
    game = met["battle after turn 1"][0]
    turn = game.state.turn
    data = _forged(game, lambda c: c.update(turn=turn - 1))
    exc = _refused_at(data, "turn")
    assert f"turn is {turn - 1} in the checkpoint, {turn} by the lines" in str(exc)
    del data["checkpoint"]   # without it, the lines load as the legal game they spell
    assert Game.load(data).state.turn == turn


def test_another_years_take_back_point_is_refused(met):
    later = met["command with a take-back point in 706"][0]
    earlier = met["command with a take-back point in 705"][0]
    data = _forged(later, lambda c: c["cmd"].update(snapshot=earlier.state.to_json()["cmd"]["snapshot"]))
    _refused_at(data, "cmd.snapshot.year")
    del data["checkpoint"]
    game = Game.load(data)
    game.apply(f"{game.current_players()[0]} takes back")
    assert game.state.year == 706 and game.state.phase == "command"


def test_mp_forged_to_ten_on_a_one_mp_card_is_refused(met):
    game = met["command on a 1-MP card"][0]
    assert BOARD.cards[game.state.cmd.card].move == 1
    _refused_at(_forged(game, lambda c: c["cmd"].update(mp=10)), "cmd.mp")


def test_a_second_activation_on_a_one_mp_card_is_an_illegal_line(met):
    game = met["command on a 1-MP card"][0].copy()
    moves = [a for a in game.legal_actions() if isinstance(a, Move)]
    first = moves[0]
    second = next(m for m in moves if m.path[0] != first.path[0] and m.block != first.block)
    game.apply(first)
    data = game.save(checkpoint=False)
    data["lines"].append(str(second))
    with pytest.raises(CorruptSave) as info:
        Game.load(data)
    exc = info.value
    assert exc.code == "save.line" and exc.line == len(data["lines"])
    assert isinstance(exc.error, IllegalAction) and exc.error.rule.startswith("6")
    assert f"line {exc.line} of the save is refused: 6" in str(exc)


def test_a_contradicting_player_1_is_refused(met):
    game = met["command"][0]
    _refused_at(_forged(game, lambda c: c.update(player1=1 - c["player1"])), "player1")


def test_a_forged_result_is_refused_and_no_line_follows_the_end(met):
    game = met["over"][0]
    _refused_at(_forged(game, lambda c: c["result"].update(vp=[99, 0])), "result.vp[0]")
    data = _save_of(game)
    data["lines"].append("Caesar discards 2/1")
    with pytest.raises(CorruptSave, match="the game is over") as info:
        Game.load(data)
    assert info.value.line == len(data["lines"])


def test_a_checkpoint_with_a_field_added_or_missing_is_refused(met):
    game = met["winter"][0]
    _refused_at(_forged(game, lambda c: c.update(cheat=True)), "cheat")
    _refused_at(_forged(game, lambda c: c["ext"].pop("winter")), "ext.winter")
    _refused_at(_forged(game, lambda c: c["blocks"].append([0, 0, 1, False])), "blocks[63]")
    _refused_at(_forged(game, lambda c: c["blocks"][5].__setitem__(3, 0)), "blocks[5][3]")   # 0 is not false


# --------------------------------------------------------------------------- malformed saves
def _deep(depth: int = 100_000):
    x: list = []
    for _ in range(depth):
        x = [x]
    return x


HUGE = 10 ** 10_000   # str() of it raises ValueError
DEAL = "Chance deals Caesar: Jupiter 4/1 3/2 2/3 2/2 1/2; Pompeius: Apollo Mars 3/1 2/3 2/1 1/3"


def _honest() -> dict:
    return {"format": SAVE_FORMAT, "options": {}, "lines": [DEAL]}


MALFORMED = {
    # name: (how the honest save is spoilt, what the refusal says)
    "a list": (lambda d: [d], "a save is a JSON object, not a list of 1 entries"),
    "text": (lambda d: json.dumps(d), "a save is a JSON object, not '{"),
    "None": (lambda d: None, "a save is a JSON object, not None"),
    "a huge number": (lambda d: HUGE, "not a 33220-bit number"),
    "no lines": (lambda d: d.pop("lines") and d, "the save lacks lines"),
    "unknown field": (lambda d: d.update(cheat=1) or d, "unknown fields 'cheat'"),
    "another format": (lambda d: d.update(format="rubicon-save/9") or d, "format must be 'rubicon-save/1'"),
    "format a huge number": (lambda d: d.update(format=HUGE) or d, "format must be"),
    "options a list": (lambda d: d.update(options=[]) or d, "options must be a JSON object"),
    "unknown option": (lambda d: d.update(options={"dice": "loaded"}) or d, "unknown rules option 'dice'"),
    "option value a number": (lambda d: d.update(options={"winter_order": HUGE}) or d,
                              "winter_order is one of v1.01, first-edition, not a 33220-bit number"),
    "option value deep": (lambda d: d.update(options={"winter_order": _deep()}) or d, "winter_order is one of"),
    "lines text": (lambda d: d.update(lines="Caesar ends command") or d, "lines must be a list"),
    "a line a number": (lambda d: d["lines"].append(HUGE) or d, "line 2 must be a notation line"),
    "a line deep": (lambda d: d["lines"].append(_deep()) or d, "line 2 must be a notation line"),
    "a line None": (lambda d: d["lines"].append(None) or d, "line 2 must be a notation line"),
    "too many lines": (lambda d: d.update(lines=d["lines"] * (MAX_LINES + 1)) or d, "a save holds at most"),
    "a line too long": (lambda d: d["lines"].append("Caesar discards " + "x" * MAX_LINE_CHARS) or d,
                        f"a line has at most {MAX_LINE_CHARS}"),
    "two lines in one": (lambda d: d["lines"].append("Caesar discards 2/1\nPompeius discards 1/1") or d,
                         "line 2 holds a line break"),
    "checkpoint a list": (lambda d: d.update(checkpoint=[]) or d, "checkpoint must be a JSON object"),
    "checkpoint deep": (lambda d: d.update(checkpoint={"blocks": _deep()}) or d, "the checkpoint is not"),
    "checkpoint a huge turn": (lambda d: d.update(checkpoint={"turn": HUGE}) or d, "the checkpoint is not"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_save_is_a_corrupt_save_not_a_crash(name):
    Game.load(_honest())
    spoil, message = MALFORMED[name]
    with pytest.raises(CorruptSave) as info:
        Game.load(spoil(_honest()))
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)   # old callers catch ValueError
    json.dumps(info.value.to_json())


def test_a_checkpoint_naming_the_first_difference_never_prints_a_huge_number():
    data = _honest()
    data["checkpoint"] = dict(Game.load(_honest()).state.to_json(), year=HUGE)
    with pytest.raises(CorruptSave, match="year is a 33220-bit number in the checkpoint, 705 by the lines"):
        Game.load(data)


def test_an_unreadable_line_is_refused_with_its_parse_error():
    data = _honest()
    data["lines"].append("Caesar flies to Roma")
    with pytest.raises(CorruptSave) as info:
        Game.load(data)
    assert info.value.line == 2 and info.value.error.code == "notation.unknown-verb"
    assert info.value.to_json()["error"]["code"] == "notation.unknown-verb"


# --------------------------------------------------------------------------- record lines
def _record(sep: str) -> str:
    return sep.join(["# a record", "Option winter_order: v1.01", DEAL, "Caesar discards 1/2",
                     "Pompeius discards 2/1  # the end"]) + sep


def test_records_split_only_at_lf_or_crlf():
    assert replay(_record("\r\n")).history == replay(_record("\n")).history
    assert len(replay(_record("\n")).history) == 3
    for brk in ("\x0c", "\u2028", "\x0b", "\x1c", "\x85", "\u2029"):
        text = _record("\n").replace("# a record", f"# a record{brk}Caesar discards 2/2")
        record = read_record(text)   # the break is inside the comment: no action line appears
        assert [n for n, _ in record.actions] == [3, 4, 5], repr(brk)
        assert len(replay(text).history) == 3


def test_a_lone_carriage_return_is_not_a_line_break():
    text = _record("\n").replace("Caesar discards 1/2", "Caesar discards 1/2 # x\rPompeius discards 1/3")
    record = read_record(text)
    assert [line for _, line in record.actions][1] == "Caesar discards 1/2"
    assert len(record.actions) == 3

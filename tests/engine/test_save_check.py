"""Loading a saved game (`GameState.from_json`): every position of random games in every phase
loads back as itself; a forged or corrupt save, each with one field wrong, is refused with a
`CorruptSave` naming what is wrong."""
import copy
import json

import pytest

from engine.board import BOARD
from engine.errors import CorruptSave
from engine.game import Game
from engine.selfplay import game_rng, play_game
from engine.state import GameState

from .helpers import B


def _text(data) -> str:
    return json.dumps(data, sort_keys=True)


@pytest.fixture(scope="module")
def saves() -> dict[str, list[dict]]:
    """Saves of positions met in random games, by phase (every 5th action of 6 games)."""
    by_phase: dict[str, list[dict]] = {}
    count = [0]

    def keep(game, action):
        count[0] += 1
        phase = game.state.phase
        if count[0] % 5 == 0 or phase in ("winter", "over"):
            by_phase.setdefault(phase, []).append(game.to_json())
    for i in range(6):
        play_game(game_rng(11, i), after=keep)
    return by_phase


def test_hundreds_of_random_positions_in_every_phase_load_back_as_themselves(saves):
    assert set(saves) == {"deal", "discard", "card", "command", "battle", "winter", "over"}
    total = 0
    for phase, datas in saves.items():
        for data in datas[::3] if phase in ("winter", "over") else datas:
            again = GameState.from_json(json.loads(_text(data)))
            assert _text(again.to_json()) == _text(data)
            total += 1
    assert total >= 300


def _battle_save() -> dict:
    from tests.engine_battle.helpers import battle_game
    g = battle_game({"Roma": ["C Legio 7", "C Legio 8"], "Neapolis": ["P Legio 1"]},
                    ["Legio 7 Roma-Neapolis", "Legio 8 Roma-Neapolis"])
    g.apply("Caesar fights Neapolis")
    return g.to_json()


def _command_save() -> dict:
    from .helpers import command_game
    g = command_game({"Roma": ["C Legio 7"], "Neapolis": ["P Legio 1"]})
    g.apply("Caesar moves Legio 7 Roma-Neapolis")
    return g.to_json()


def _block(data, key):
    return data["blocks"][B(key)]


FORGERIES = {
    # name: (which save, how it is forged, what the message says)
    "year out of range": ("battle", lambda d: d.update(year=712), r"year must be a whole number 705\.\.709"),
    "turn out of range": ("battle", lambda d: d.update(turn=0), r"turn must be a whole number 1\.\.5"),
    "year as text": ("battle", lambda d: d.update(year="705"), "year must be a whole number"),
    "unknown phase": ("battle", lambda d: d.update(phase="siege"), "unknown phase 'siege'"),
    "a block too few": ("battle", lambda d: d["blocks"].pop(), "blocks must have 63 entries"),
    "location off the board": ("battle", lambda d: _block(d, "C Legio 7").__setitem__(0, 76),
                               r"C Legio 7\) location must be a whole number -3\.\.75"),
    "steps above the maximum": ("battle", lambda d: _block(d, "C Legio 7").__setitem__(2, 5),
                                r"C Legio 7\) steps must be a whole number 1\.\.3"),
    "steps zero": ("battle", lambda d: _block(d, "C Legio 7").__setitem__(2, 0), "steps must be"),
    "owner 2": ("battle", lambda d: _block(d, "C Legio 7").__setitem__(1, 2), r"C Legio 7\) side must be"),
    "moved as text": ("battle", lambda d: _block(d, "C Legio 7").__setitem__(3, "yes"), "moved must be true or false"),
    "legion dead": ("battle", lambda d: _block(d, "C Legio 9").__setitem__(0, -3), "dead but only leaders die"),
    "pool block on the other side": ("battle", lambda d: _block(d, "C Legio 9").__setitem__(1, 1),
                                     "off the map but not on its printed side"),
    "legion at sea": ("battle", lambda d: _block(d, "C Legio 8").__setitem__(0, BOARD.location("Mare Tyrrhenum")),
                      "land block at sea"),
    "card kind unknown": ("battle", lambda d: d["hands"][0].append(99), r"hands\[0\]\[\d\] must be a whole number"),
    "an eighth card of a kind": ("battle", lambda d: d["hands"][0].extend([BOARD.card("Apollo")] * 2),
                                 "cards Apollo are in play; the deck has 1"),
    "a hand too big": ("battle", lambda d: d["hands"][1].append(BOARD.card("Mars")), "in the battle phase that must be 6"),
    "revealed too long": ("battle", lambda d: d["revealed"].extend([d["revealed"][0]] * 5), "a year has 5"),
    "battle without Player 1": ("battle", lambda d: d.update(player1=None), "the battle phase has a Player 1"),
    "battle without its data": ("battle", lambda d: d["ext"].pop("battle"), r"ext\.battle\) is missing"),
    "fight round 5": ("battle", lambda d: d["ext"]["battle"]["fight"].update(round=5), r"fight\.round must be"),
    "fight defender": ("battle", lambda d: d["ext"]["battle"]["fight"].update(defender=0), "fight.defender"),
    "fight at another place": ("battle", lambda d: d["ext"]["battle"]["fight"].update(loc=BOARD.location("Roma")),
                               "a battle is fought in Roma, where the two sides do not both stand"),
    "firing block elsewhere": ("battle", lambda d: d["ext"]["battle"]["fight"].update(firing=B("C Legio 9")),
                               r"fight\.firing: C Legio 9 is not in the battle"),
    "command state in the battle": ("battle", lambda d: d.update(cmd=_command_save()["cmd"]),
                                    "command state must be present in the command phase and only there"),
    "winter without its data": ("battle", lambda d: d.update(phase="winter", ext={}, battles=[], player1=None,
                                                             turn=5), r"ext\.winter\) is missing"),
    "over without a result": ("battle", lambda d: d.update(phase="over", battles=[]),
                             "a finished game has a result"),
    "result before the end": ("battle", lambda d: d.update(result={"winner": 0, "reason": "x", "vp": [1, 2]}),
                              "a finished game has a result"),
    "road use on no road": ("command", lambda d: d["road_use"].update({"999": 1}), "road_use edge must be"),
    "command without its state": ("command", lambda d: d.update(cmd=None), "command state must be present"),
    "command overspent": ("command", lambda d: d["cmd"].update(mp_used=9), "spends more points than its card gives"),
    "command unknown field": ("command", lambda d: d["cmd"].update(cheat=True), "unknown fields cheat"),
    "main attack not used": ("command", lambda d: d["battles"][0].update(main_edge=0), "main attack is not one of"),
    "two attacks on one place": ("command", lambda d: d["battles"].append(dict(d["battles"][0])), "two attacks recorded"),
    "corrupt take-back point": ("command", lambda d: d["cmd"]["snapshot"].update(turn=9),
                                r"cmd\.snapshot \(the take-back point\) is not a Rubicon game state: turn must be"),
    "not an object": ("command", lambda d: d.clear(), "the save lacks options, year"),
    "bad rules option": ("command", lambda d: d.update(options={"winter_order": "never"}), "winter_order must be one of"),
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_a_forged_save_is_refused_naming_what_is_wrong(name):
    which, forge, message = FORGERIES[name]
    data = copy.deepcopy(_battle_save() if which == "battle" else _command_save())
    GameState.from_json(copy.deepcopy(data))   # the honest save loads
    forge(data)
    with pytest.raises(CorruptSave, match=message):
        Game.from_json(data)


def test_a_waiting_declaration_for_no_battle_is_refused():
    from tests.engine_battle.test_main_attack_declaration import tarraco_picked
    data = tarraco_picked().to_json()
    GameState.from_json(copy.deepcopy(data))
    data["ext"]["battle"]["declaring"]["loc"] = BOARD.location("Roma")
    with pytest.raises(CorruptSave, match="declaring names a battle that was not recorded"):
        GameState.from_json(data)


def test_corrupt_save_is_a_value_error_for_old_callers():
    with pytest.raises(ValueError, match="not a Rubicon game state"):
        GameState.from_json([])

"""The bot is an application layer: the engine never imports it, and what the bot decides from
(an InfoState) holds plain data and actions, never the game or its state."""
import ast
from pathlib import Path

from engine import Action, Game, GameState
from rubicon.bot.info import InfoState, Memory, information_state
from tests.bot.helpers import positions

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_never_imports_the_bot():
    for f in sorted((ROOT / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            assert not any(n.split(".")[0] == "rubicon" for n in names), f.name


def _walk(x):
    yield x
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _walk(k)
            yield from _walk(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _walk(v)


def test_an_information_state_holds_no_game():
    for game, side in positions(("easy", "random"), seed=6, every=9, limit=20):
        info = information_state(game, side, Memory(side))
        assert isinstance(info, InfoState)
        for part in _walk([info.side, info.view, info.legal, info.seen]):
            assert not isinstance(part, (Game, GameState))
            assert part is None or isinstance(part, (str, int, float, bool, dict, list, tuple, Action))
        assert info.view["side"] == ("Caesar", "Pompeius")[side]

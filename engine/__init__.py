"""Rubicon's rules engine for Julius Caesar: game data, state, legal actions, views, records.

The front door: code outside `engine/` imports only this package (an import-linter contract
and tests/test_engine_front_door.py check it).

    from engine import Game, Side, parse_action, sample_chance
    g = Game()
    g.apply(sample_chance(g, rng))             # the deal: chance actions are explicit
    g.legal_actions(Side.CAESAR)               # his actions now (take_back=True adds TakeBack)
    g.apply("Caesar discards 2/1")             # an action or its notation line
    g.effects_at(-1)                           # what it changed, named on demand
    g.outcome()                                # None, or Outcome(winner, code, year, vp, reason)

Errors are all `EngineError`s (each also its builtin: `IllegalAction` and `ParseError` are
`ValueError`s, `UnknownName` a `LookupError`, `DeadEnd` a `RuntimeError`). Pure Python: never
imports Flask, serial or GPIO code. docs/engine-design.md describes the modules.
"""
from .action_dicts import TYPES, action_data
from .actions import (
    ACTIONS,
    Action,
    AddStep,
    ChooseBattle,
    Deal,
    DeclareMain,
    Disband,
    Discard,
    EndCommand,
    EndDisband,
    EndRegroup,
    Fire,
    Hit,
    InvokeJupiter,
    InvokeVulcan,
    JupiterPick,
    JupiterSend,
    Levy,
    Move,
    NavisToPort,
    Pass,
    Play,
    Regroup,
    Retreat,
    Roll,
    TakeBack,
    card_name,
    line_of,
    loc_name,
    parse_action,
)
from .battle_fight import new_fight
from .board import (
    BOARD,
    CAESAR,
    CHANCE,
    CHANCE_NAME,
    CLEOPATRA,
    MAJOR,
    MINOR,
    POMPEIUS,
    SEA,
    SIDES,
    STRAIT,
    Side,
    actor_name,
    parse_actor,
    side_index,
)
from .card_phase import playable
from .effects import Effect, Effects, instruction, revealed_blocks
from .endpoints import ATTACK, MAIN, REINFORCE, RESERVE, RESPONSE, MoveOption, describe
from .errors import AmbiguousName, CorruptSave, EngineError, IllegalAction, ParseError, UnknownName
from .game import Game, sample_chance
from .notation import Record, RecordError, read_record, replay, replay_lines, write_record
from .pending import KINDS, Decision
from .saves import MAX_LINE_CHARS, MAX_LINES, SAVE_FORMAT
from .selfplay import MAX_ACTIONS, DeadEnd, game_rng, play_game, run
from .state import (
    BATTLE,
    CARD,
    COMMAND,
    DEAD,
    DEAL,
    DEFAULT_OPTIONS,
    DISCARD,
    ELIMINATED,
    FIRST_YEAR,
    LAST_YEAR,
    OPTION_CHOICES,
    OVER,
    PHASES,
    POOL,
    WINTER,
    Battle,
    CommandState,
    GameState,
    Phase,
)
from .summary import result_line
from .summary import summary as game_summary  # not `summary`: that is the module's name
from .victory import Outcome

__all__ = [
    # the game
    "Game", "sample_chance", "Outcome", "game_summary", "result_line",
    # actions and their notation
    "Action", "ACTIONS", "parse_action", "Deal", "Discard", "Play", "Move", "DeclareMain", "Levy", "AddStep",
    "EndCommand", "TakeBack", "InvokeJupiter", "JupiterPick", "JupiterSend", "InvokeVulcan", "ChooseBattle",
    "Fire", "Pass", "Hit", "Disband", "Regroup", "NavisToPort", "EndRegroup", "EndDisband", "Retreat", "Roll",
    "card_name", "loc_name", "line_of", "action_data", "TYPES",
    # errors
    "EngineError", "IllegalAction", "ParseError", "CorruptSave", "RecordError", "UnknownName", "AmbiguousName",
    "DeadEnd",
    # sides, phases, places, game data
    "Side", "SIDES", "CAESAR", "POMPEIUS", "CLEOPATRA", "CHANCE", "CHANCE_NAME", "actor_name", "parse_actor",
    "side_index",
    "Phase", "PHASES", "DEAL", "DISCARD", "CARD", "COMMAND", "BATTLE", "WINTER", "OVER",
    "POOL", "ELIMINATED", "DEAD", "FIRST_YEAR", "LAST_YEAR", "DEFAULT_OPTIONS", "OPTION_CHOICES",
    "BOARD", "MAJOR", "MINOR", "STRAIT", "SEA",
    # what the table reads: decisions, effects, moves by endpoints
    "Decision", "KINDS", "Effect", "Effects", "instruction", "revealed_blocks",
    "MoveOption", "describe", "ATTACK", "REINFORCE", "RESPONSE", "MAIN", "RESERVE",
    # records and saves
    "Record", "read_record", "replay", "replay_lines", "write_record", "SAVE_FORMAT", "MAX_LINES", "MAX_LINE_CHARS",
    # positions built by hand (the bot's determinization, tests)
    "GameState", "CommandState", "Battle", "new_fight", "playable",
    # random self-play
    "play_game", "game_rng", "run", "MAX_ACTIONS",
]

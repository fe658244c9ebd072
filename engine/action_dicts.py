"""Actions as data: each action's type and params, JSON-safe, for whoever shows an action without
reading its notation (the phones' prompts and logs, the bot's explained moves).

    action_data(parse_action("Caesar moves Legio 8 Genua-Roma"))
    -> {"type": "move", "actor": "Caesar",
        "params": {"block": "Legio 8", "key": "C Legio 8", "path": ["Genua", "Roma"]}}

Params name things as the notation does: a block by its label as its actor names it (`block`,
the printed name for his own) and its key (`key`, "C Legio 8"), locations and cards by name.
This is the full action: what a viewer who may not see it reads is `engine.history`'s redacted
form of a log entry. `TYPES` lists every type.
"""
from __future__ import annotations

from typing import Any

from .actions import (
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
    loc_name,
)
from .board import BOARD, actor_name

# The type of each action class (a stable word: the web app's messages are keyed by it).
TYPE_OF: dict[type, str] = {
    Deal: "deal", Discard: "discard", Play: "play", Move: "move", DeclareMain: "declare-main", Levy: "levy",
    AddStep: "add-step", EndCommand: "end-command", TakeBack: "take-back", InvokeJupiter: "invoke-jupiter",
    JupiterPick: "jupiter-pick", JupiterSend: "jupiter-send", InvokeVulcan: "invoke-vulcan",
    ChooseBattle: "choose-battle", Fire: "fire", Pass: "pass", Hit: "hit", Disband: "disband", Regroup: "regroup",
    NavisToPort: "winter", EndRegroup: "end-regroup", EndDisband: "end-disband", Retreat: "retreat", Roll: "roll",
}
TYPES = tuple(TYPE_OF.values())


def block_params(block: int, actor: int) -> dict[str, str]:
    """A block as the actor's action names it: its label and its key."""
    return {"block": BOARD.block_label(block, actor), "key": BOARD.blocks[block].key}


def action_params(a: Action) -> dict[str, Any]:
    """The params of action `a` (see the module docstring)."""
    x: Any = a
    if isinstance(a, Deal):
        return {"Caesar": [card_name(c) for c in a.caesar], "Pompeius": [card_name(c) for c in a.pompeius]}
    if isinstance(a, (Discard, Play)):
        return {"card": card_name(x.card)}
    if isinstance(a, Move):
        return {**block_params(a.block, a.actor), "path": [loc_name(p) for p in a.path]}
    if isinstance(a, DeclareMain):
        return {"location": loc_name(a.loc), "origin": loc_name(a.origin)}
    if isinstance(a, (Levy, JupiterSend, Regroup, NavisToPort)):
        return {**block_params(x.block, x.actor), "location": loc_name(x.loc)}
    if isinstance(a, (AddStep, Fire, Pass, Hit, Disband)):
        return block_params(x.block, x.actor)
    if isinstance(a, JupiterPick):
        return block_params(a.block, a.actor)
    if isinstance(a, (InvokeJupiter, InvokeVulcan)):
        return {"location": loc_name(x.loc)}
    if isinstance(a, ChooseBattle):
        return {"location": loc_name(a.loc), "card": a.surprise}
    if isinstance(a, Retreat):
        return {**block_params(a.block, a.actor), "location": None if a.loc is None else loc_name(a.loc),
                "by_sea": a.by_sea}
    if isinstance(a, Roll):
        return {"faces": list(a.faces)}
    return {}


def action_data(a: Action) -> dict[str, Any]:
    """{"type", "actor", "params"} of action `a`."""
    return {"type": TYPE_OF[type(a)], "actor": actor_name(a.actor), "params": action_params(a)}

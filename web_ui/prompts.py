"""Every decision as a prompt: the phone's side of `Game.pending()`.

Turns one side's pending decisions (the snapshot's `pending`, each with its `options`: exactly
that side's legal lines now) into data a page renders as big buttons without parsing notation:
moves as block → destination → path, battle turns as one row per block (fire, pass, retreat
to ...), the Done / take-back lines apart, and every other option with its verb and its block
or place. Only the options given are ever offered, so a prompt can offer nothing illegal; the
texts a person reads are composed by the page (through its `t()`), from these fields.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine import (
    BOARD,
    Action,
    AddStep,
    ChooseBattle,
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
    JupiterSend,
    Levy,
    Move,
    NavisToPort,
    Pass,
    Play,
    Regroup,
    Retreat,
    TakeBack,
    card_name,
    loc_name,
    parse_action,
)

DONE = (EndCommand, EndRegroup, EndDisband)


@lru_cache(maxsize=2048)
def _parsed(line: str) -> Action:
    """Parsing is the cost of a prompt (~80 µs a line, 150-200 lines in a command) and the same
    lines stay legal move after move: actions are immutable, so each line is parsed once."""
    return parse_action(line)


def _block(b: int, actor: int) -> str:
    return BOARD.block_label(b, actor)


def _choice(action: Action, line: str) -> dict[str, Any]:
    """One non-move option: `verb` (a stable word the page translates), the block and/or place."""
    a: Any = action
    out: dict[str, Any] = {"line": line}
    if isinstance(action, (Discard, Play)):
        out.update(verb="discard" if isinstance(action, Discard) else "play", card=card_name(a.card))
    elif isinstance(action, (Levy, JupiterSend, Regroup, NavisToPort)):
        verb = {Levy: "levy", JupiterSend: "send", Regroup: "regroup", NavisToPort: "winter"}[type(action)]
        out.update(verb=verb, block=_block(a.block, a.actor), place=loc_name(a.loc))
    elif isinstance(action, (AddStep, Hit, Disband)):
        verb = {AddStep: "step", Hit: "hit", Disband: "disband"}[type(action)]
        out.update(verb=verb, block=_block(a.block, a.actor))
    elif isinstance(action, (InvokeJupiter, InvokeVulcan)):
        out.update(verb="jupiter" if isinstance(action, InvokeJupiter) else "vulcan", place=loc_name(a.loc))
    elif isinstance(action, ChooseBattle):
        out.update(verb="fight", place=loc_name(a.loc), card=a.surprise)
    elif isinstance(action, DeclareMain):
        out.update(verb="main", place=loc_name(a.loc), origin=loc_name(a.origin))
    else:
        out.update(verb="other", text=line.split(" ", 1)[1])
    return out


def _battle_rows(params: dict[str, Any], parsed: list[tuple[Action, str]]) -> list[dict[str, Any]]:
    """One row per block that may act at this letter: its strength and its fire/pass/retreat lines."""
    rows: dict[int, dict[str, Any]] = {}
    if not parsed:
        return []
    strength = {b["block"]: b.get("strength") for b in params.get("blocks", []) if isinstance(b, dict)}
    for action, line in parsed:
        a: Any = action
        row = rows.setdefault(a.block, {"block": _block(a.block, a.actor),
                                        "strength": strength.get(BOARD.blocks[a.block].key),
                                        "fire": None, "pass": None, "retreat": []})
        if isinstance(action, Fire):
            row["fire"] = line
        elif isinstance(action, Pass):
            row["pass"] = line
        elif isinstance(action, Retreat):
            row["retreat"].append({"line": line, "place": None if a.loc is None else loc_name(a.loc),
                                   "by_sea": a.by_sea})
    return list(rows.values())


def _moves(parsed: list[tuple[Action, str]]) -> list[dict[str, Any]]:
    """Moves as a tree: block (where it stands) → destination → the paths that lead there."""
    blocks: dict[int, dict[str, Any]] = {}
    for action, line in parsed:
        assert isinstance(action, Move)
        entry = blocks.setdefault(action.block, {"block": _block(action.block, action.actor),
                                                 "from": loc_name(action.path[0]), "to": {}})
        dest = loc_name(action.path[-1])
        entry["to"].setdefault(dest, []).append({"line": line, "via": [loc_name(x) for x in action.path[1:-1]]})
    return [{**e, "to": [{"place": d, "paths": p} for d, p in e["to"].items()]} for e in blocks.values()]


def prompt(decision: dict[str, Any]) -> dict[str, Any]:
    """The prompt for one of the viewer's own decisions (with its options)."""
    parsed = [(_parsed(line), line) for line in decision.get("options", [])]
    out: dict[str, Any] = {"kind": decision["kind"], "rule": decision["rule"], "params": decision["params"],
                           "done": None, "take_back": None, "moves": [], "rows": [], "choices": []}
    moves: list[tuple[Action, str]] = []
    battle: list[tuple[Action, str]] = []
    rest: list[dict[str, Any]] = []
    for action, line in parsed:
        if isinstance(action, DONE):
            out["done"] = line
        elif isinstance(action, TakeBack):
            out["take_back"] = line
        elif isinstance(action, Move):
            moves.append((action, line))
        elif isinstance(action, (Fire, Pass, Retreat)):
            battle.append((action, line))
        else:
            rest.append(_choice(action, line))
    out["moves"] = _moves(moves)
    out["rows"] = _battle_rows(decision["params"], battle)
    out["choices"] = rest
    return out


def prompts(pending: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """The prompts of `side`'s own decisions now (the other side's and chance's have no options
    for this viewer and are shown by `table.waiting` / the status line instead)."""
    return [prompt(d) for d in pending if d.get("actor") == side and d.get("options")]

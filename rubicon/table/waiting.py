"""The waiting line: what the game waits for and from whom, always present, so waiting is
never mistaken for a freeze ("Caesar: move or press Done", "the board: place Legio 8 in Genua").

Owns the English text per decision kind (engine.pending), built only from what the viewer may
see: the public params of the decisions, and the viewer's own instructions.
"""
from __future__ import annotations

from typing import Any

KIND_TEXT = {
    "deal": "deal the cards", "discard": "discard a card on the phone", "play": "play a card on the phone",
    "command": "move blocks, then press Done", "jupiter-target": "pick Jupiter's city on the phone",
    "jupiter-pick": "lift one enemy block blind for Jupiter", "jupiter-send": "set the defecting block in a city",
    "vulcan-city": "pick Vulcan's city on the phone", "choose-battle": "pick the next battle on the phone",
    "main-attack": "declare the main attack on the phone", "battle-turn": "fire, pass or retreat",
    "dice": "roll the dice", "take-hit": "pick the block that takes the hit on the phone",
    "regroup": "regroup blocks, then press Done", "navis-to-port": "take each navis at sea to a port",
    "supply": "disband blocks out of supply", "disband": "disband blocks or press Done",
}


def decision_text(decision: dict[str, Any]) -> str:
    """One decision (as a viewer sees it, `Decision.to_json()`) as "who: what"."""
    kind, params = decision["kind"], decision["params"]
    if decision["actor"] == "Chance":
        if kind == "dice":
            return f"the dice tray: roll {params.get('dice', '')} dice for {params.get('side', '')} in " \
                   f"{params.get('location', '')}".replace("  ", " ")
        if kind == "jupiter-pick":
            return f"{params.get('player', '')}: lift one {params.get('side', '')} block blind in " \
                   f"{params.get('location', '')}"
        return f"chance: {KIND_TEXT.get(kind, kind)}"
    return f"{decision['actor']}: {KIND_TEXT.get(kind, kind)}"


def result_text(result: dict[str, Any]) -> str:
    """A finished game's result (`Game.result()`: winner None is the rules' draw) with its
    reason (which carries the VP), e.g. "a draw (winter 60: Caesar 8 VP, Pompeius 8 VP, Rome
    vacant: draw)"; without a reason, the VP."""
    winner = result.get("winner")
    text = f"{winner} wins" if winner else "a draw"
    reason = result.get("reason")
    if not reason and result.get("vp"):
        reason = ", ".join(f"{side} {points} VP" for side, points in result["vp"].items())
    return f"{text} ({reason})" if reason else text


def waiting_line(decisions: list[dict[str, Any]], *, result: dict[str, Any] | None = None,
                 problem: str | None = None, board: str | None = None, ask: str | None = None) -> str:
    """The line for one viewer. `board`: the current instruction, when the board must be put
    right first; `ask`: who must answer a question on the phone."""
    if problem:
        return f"no game: {problem}"
    if result is not None:
        return f"the game is over: {result_text(result)}"
    parts = []
    if board:
        parts.append(f"the board: {board}")
    if ask:
        parts.append(f"{ask}: answer the question on the phone")
    parts.extend(decision_text(d) for d in decisions)
    return "; then ".join(parts) if parts else "nothing"

"""Explained moves: what the bot did in one turn, as the rules let its opponent see it.

Built from the PUBLIC log (`Game.history_for(None)`, which the engine already redacts: a moved
block is "a block", a levy names the place, a card is "a card" until both are revealed) and the
public view (which battles the bot's side attacks, the cards revealed this game turn). Nothing
the bot alone knows is read here, so nothing hidden can reach the explanation.

    explain_turn(entries, side, public_view) -> {"side", "year", "turn", "items", "lines", "text"}

`items` is what a page shows, each in the reader's language (web_ui/i18n/localize.py, render_bot_item):
{"kind": "card", "card"}, {"kind": "move", "path": [places], "attacks": place or None},
{"kind": "levy", "places": [[place, count], ...]}, {"kind": "line", "action": the entry's public
action data, "line": its public log line}. Everything is read from the entries' `action` data
(engine/action_dicts.py, redacted by the engine for the public), never from their notation.
`lines` and `text` say the same in English, for logs and the command line.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

ADJECTIVE = {"Caesar": "Caesarian", "Pompeius": "Pompeian"}
# Closing a step says nothing the turn's other items do not.
SILENT = frozenset({"end-command", "end-regroup"})


def explain_turn(entries: list[dict[str, Any]], side: str, public_view: dict[str, Any]) -> dict[str, Any]:
    """The summary of `side`'s actions among `entries` (public log entries of one bot turn)."""
    items: list[dict[str, Any]] = []
    levies: Counter[str] = Counter()
    attacked = {b["location"] for b in public_view.get("battles", ()) if b.get("attacker") == side}
    for e in entries:
        action = e.get("action") or {}
        if e.get("actor") != side or action.get("type") in SILENT:
            continue
        params = action.get("params") or {}
        if action.get("type") == "move":
            stops = list(params["path"])
            items.append({"kind": "move", "path": stops, "attacks": stops[-1] if stops[-1] in attacked else None})
        elif action.get("type") == "levy":
            levies[params["location"]] += 1
        else:
            items.append({"kind": "line", "action": action, "line": str(e.get("text", ""))})
    if levies:
        items.append({"kind": "levy", "places": [[loc, n] for loc, n in levies.items()]})
    card = _card_played(side, public_view)
    if card and not any(i["kind"] == "line" and i["action"].get("type") == "play" for i in items):
        items.insert(0, {"kind": "card", "card": card})
    lines = [_english(i, side) for i in items]
    text = f"{side} (the Pi): " + ("; ".join(lines) if lines else "nothing to do")
    return {"side": side, "year": public_view.get("year"), "turn": public_view.get("turn"),
            "items": items, "lines": lines, "text": text}


def _english(item: dict[str, Any], side: str) -> str:
    kind = item["kind"]
    if kind == "card":
        return f"played {item['card']} this turn"
    if kind == "move":
        line = f"a {ADJECTIVE[side]} block {' → '.join(item['path'])}"
        return line + (f" (attacks {item['attacks']})" if item["attacks"] else "")
    if kind == "levy":
        total = sum(n for _, n in item["places"])
        where = ", ".join(f"{loc} {n}" if n > 1 else loc for loc, n in item["places"])
        return f"levies {total} block{'s' if total > 1 else ''}: {where}"
    return _strip_actor(item["line"], side)


def _strip_actor(text: str, side: str) -> str:
    return text[len(side) + 1:] if text.startswith(side + " ") else text


def _card_played(side: str, view: dict[str, Any]) -> str | None:
    """The card `side` played this game turn, once both cards are revealed (public then)."""
    turn = view.get("turn")
    for r in view.get("revealed", ()):
        if r.get("turn") == turn and r.get(side):
            return str(r[side])
    return None

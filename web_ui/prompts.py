"""Every decision as a prompt: the phone's side of `Game.pending()`.

Turns one side's pending decisions (the snapshot's `pending`, each with its `options`: exactly
that side's legal actions now, as data: {"line", "type", "actor", "params"}, rubicon/table/session.py)
into data a page renders as big buttons: moves as block → destination → path, battle turns as one
row per block (fire, pass, retreat to ...), the Done / take-back lines apart, and every other
option with its type and params. Nothing here reads notation: the `line` of an option is only
carried, to be sent back as the player's answer. Only the options given are ever offered, so a
prompt can offer nothing illegal; the texts a person reads are made by web_ui/i18n (`text` of a
choice, added by `localize_prompts`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

DONE = ("end-command", "end-regroup", "end-disband")
BATTLE = ("fire", "pass", "retreat")


def _battle_rows(params: dict[str, Any], options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per block that may act at this letter: its strength and its fire/pass/retreat lines."""
    rows: dict[str, dict[str, Any]] = {}
    if not options:       # `blocks` is a count, not a list, in a decision that is not a battle turn
        return []
    strength = {b["block"]: b.get("strength") for b in params.get("blocks", []) if isinstance(b, dict)}
    for option in options:
        p = option["params"]
        row = rows.setdefault(p["key"], {"block": p["block"], "strength": strength.get(p["key"]),
                                         "fire": None, "pass": None, "retreat": []})
        if option["type"] == "retreat":
            row["retreat"].append({"line": option["line"], "place": p["location"], "by_sea": p["by_sea"]})
        else:
            row[option["type"]] = option["line"]
    return list(rows.values())


def _moves(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Moves as a tree: block (where it stands) → destination → the paths that lead there."""
    blocks: dict[str, dict[str, Any]] = {}
    for option in options:
        p = option["params"]
        path = p["path"]
        if path[-1] == path[0]:
            continue    # out and back to where it stands: spends a move to change nothing
        entry = blocks.setdefault(p["key"], {"block": p["block"], "from": path[0], "to": {}})
        entry["to"].setdefault(path[-1], []).append({"line": option["line"], "via": path[1:-1]})
    return [{**e, "to": [{"place": d, "paths": p} for d, p in e["to"].items()]} for e in blocks.values()]


def _choice(option: dict[str, Any]) -> dict[str, Any]:
    """One other option: its type, params and line (the page's button says `text`, made by web_ui/i18n)."""
    return {"line": option["line"], "type": option["type"], "params": dict(option["params"])}


# Where each type of option goes in a prompt: a handler taking (prompt, option).
def _set(key: str) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    def put(out: dict[str, Any], option: dict[str, Any]) -> None:
        out[key] = option["line"]
    return put


def _collect(key: str) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    def add(out: dict[str, Any], option: dict[str, Any]) -> None:
        out.setdefault(key, []).append(option)
    return add


PLACE: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    **{t: _set("done") for t in DONE}, "take-back": _set("take_back"), "move": _collect("_moves"),
    **{t: _collect("_battle") for t in BATTLE},
}


def prompt(decision: dict[str, Any]) -> dict[str, Any]:
    """The prompt for one of the viewer's own decisions (with its options)."""
    out: dict[str, Any] = {"kind": decision["kind"], "rule": decision["rule"], "params": decision["params"],
                           "done": None, "take_back": None, "moves": [], "rows": [], "choices": []}
    for option in decision.get("options", []):
        PLACE.get(option["type"], lambda o, x: o["choices"].append(_choice(x)))(out, option)
    out["moves"] = _moves(out.pop("_moves", []))
    out["rows"] = _battle_rows(decision["params"], out.pop("_battle", []))
    return out


def prompts(pending: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """The prompts of `side`'s own decisions now (the other side's and chance's have no options
    for this viewer and are shown by the waiting line instead)."""
    return [prompt(d) for d in pending if d.get("actor") == side and d.get("options")]

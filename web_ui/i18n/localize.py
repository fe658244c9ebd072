"""A viewer's state with the texts of the reader's language added, built per request.

`localize(state)` returns a copy of a `Snapshot.for_viewer` dict (plus whatever the blueprint
added) where each pending decision has `text`, each log entry `line_text` (its action, from the
entry's data as this viewer saw it), `said` (its effects in words) and `board` (what to do on the
board), the table part's instructions and messages their `text` by code, its placements (what
Done would apply) `text`, the bot's explained items `text`, and a refusal its `text`;
`localize_prompts(prompts)` adds the title, the buttons' and the context's texts of a phone's
prompts. Nothing is added that the state did not already carry: the texts are built from the
params this viewer may see.
"""
from __future__ import annotations

from typing import Any

from . import glossary
from .actions import render_action, render_action_line, render_option, render_title
from .lang import lang
from .messages import (
    N_,
    gettext,
    render_ask,
    render_decision,
    render_dice,
    render_effect,
    render_instruction,
    render_refusal,
    render_table_item,
    render_waiting,
)

# The bot's explained moves (what the Pi did in its last turn, from the public log).
BOT_CARD = N_("played %(card)s this turn")
BOT_MOVE = N_("a block %(path)s")
BOT_ATTACK = N_("a block %(path)s, attacking %(place)s")
BOT_LEVY = N_("levies: %(places)s")


def localize(state: dict[str, Any]) -> dict[str, Any]:
    """A snapshot for the page, with a text in the request's language beside every decision, log entry, instruction
    and message."""
    out = dict(state)
    out["pending"] = [{**d, "text": render_decision(d)} for d in state.get("pending") or ()]
    out["log"] = [_entry(e) for e in state.get("log") or ()]
    table = state.get("table")
    if isinstance(table, dict):
        out["table"] = localize_table(table)
        out["table"]["waiting_text"] = render_waiting(out, table)
    notes = state.get("notes")
    if isinstance(notes, dict) and isinstance(notes.get("bot"), dict):
        bot = notes["bot"]
        out["notes"] = {**notes, "bot": {**bot, "items": [{**i, "text": render_bot_item(i)}
                                                          for i in bot.get("items") or ()]}}
    return out


# Effects that only say again what their action's line says (the log would read "Caesar: levies a
# block in Massilia — Caesar levies a block in Massilia"): (action type, effect kind) -> whether only
# its blind form restates it (the owner's form adds the strength, or the place it left).
RESTATED = {("discard", "card.discarded"): False, ("play", "card.chosen"): False, ("move", "block.moved"): False,
            ("regroup", "block.moved"): False, ("retreat", "block.moved"): False, ("levy", "block.placed"): True,
            ("disband", "block.to_pool"): True}


def _restates(action: Any, effect: dict[str, Any]) -> bool:
    if not isinstance(action, dict):
        return False
    blind_only = RESTATED.get((str(action.get("type")), str(effect.get("kind"))))
    return blind_only is not None and (not blind_only or bool(effect.get("redacted")))


def _entry(entry: dict[str, Any]) -> dict[str, Any]:
    effects = entry.get("effects") or ()
    said = [t for t in (render_effect(e) for e in effects if not _restates(entry.get("action"), e)) if t]
    board = [t for t in (render_instruction(e) for e in effects) if t]
    line = render_action_line(entry["action"]) if isinstance(entry.get("action"), dict) else entry.get("text", "")
    return {**entry, "line_text": line, "said": said, "board": board}


def render_bot_item(item: dict[str, Any]) -> str:
    """One of the bot's explained moves (rubicon/table/bot_explain.py), from its public data."""
    kind = item.get("kind")
    if kind == "card":
        return gettext(BOT_CARD, card=glossary.name("card", str(item.get("card")), lang()))
    if kind == "move":
        path = " → ".join(item.get("path") or ())
        return (gettext(BOT_ATTACK, path=path, place=item["attacks"]) if item.get("attacks")
                else gettext(BOT_MOVE, path=path))
    if kind == "levy":
        places = ", ".join(p if n == 1 else f"{p} ×{n}" for p, n in item.get("places") or ())
        return gettext(BOT_LEVY, places=places)
    return render_action(item["action"]) if isinstance(item.get("action"), dict) else ""


def localize_prompts(prompts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A phone's prompts (web_ui/prompts.py) with their texts: `title`, each choice's `text`, and
    the command's last action as `params.last_text`."""
    out = []
    for p in prompts:
        params = dict(p.get("params") or {})
        if isinstance(params.get("last_action"), dict):
            params["last_text"] = render_action(params["last_action"])
        out.append({**p, "params": params, "title": render_title(p.get("kind", ""), params),
                    "choices": [{**c, "text": render_option(c)} for c in p.get("choices") or ()]})
    return out


def localize_table(table: dict[str, Any]) -> dict[str, Any]:
    """The table part of a snapshot with its instructions and messages given texts in the request's language."""
    out = dict(table)
    for key in ("instructions", "messages"):
        items = table.get(key)
        if isinstance(items, list):
            out[key] = [{**i, "text": render_table_item(i, step=key == "instructions")} if isinstance(i, dict)
                        else i for i in items]
    if isinstance(table.get("placements"), list):
        out["placements"] = [{**p, "text": render_action_line(p)} if isinstance(p, dict) else p
                             for p in table["placements"]]
    if isinstance(table.get("ask"), dict):
        out["ask"] = {**table["ask"], "prompt": render_ask(table["ask"])}
    if isinstance(table.get("dice"), dict):
        out["dice"] = {**table["dice"], **render_dice(table["dice"])}
    return out


def localize_refusal(refusal: dict[str, Any] | None) -> dict[str, Any] | None:
    """A refusal with its text in the request's language (None stays None)."""
    if refusal is None:
        return None
    return {**refusal, "text": render_refusal(refusal)}

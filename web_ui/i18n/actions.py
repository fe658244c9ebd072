"""Actions and decisions in the reader's words, from data: the one place their texts are made.

The snapshots carry every action as data ({"type", "actor", "params"}, engine/action_dicts.py; a
log entry's `action` redacted by the engine for its viewer, `"redacted": true`) and every decision
by kind; this module owns the gettext message of each and fills it (web_ui/i18n/messages.py's
params rendering: cards, sides and places in the reader's words):

    render_action(data)          -> "moves Legio 8 Genua – Roma"       (a log line, without its actor)
    render_action_line(data)     -> "Caesar: moves Legio 8 Genua – Roma"
    render_option(option)        -> "Levy Legio 8 in Roma"             (a button of the actor's prompt)
    render_title(kind)           -> "Your command"                     (the actor's own prompt)

Decisions are said in web_ui/i18n/messages.py, beside each other: `DECISIONS` (the waiting line,
as anyone sees them) and `DECISION_TITLES` (the title of the actor's own prompt); no page script
and no module of the table keeps a text of its own for an action or a decision.
"""
from __future__ import annotations

from typing import Any

from .glossary import name
from .lang import lang
from .messages import DECISION_TITLES, N_, Msg, _render, gettext

# Per type: (the full action, what a viewer who may not see its hidden part reads).
ACTIONS: dict[str, tuple[Msg, Msg]] = {
    "deal": (N_("deals the cards"), N_("deals the cards")),
    "discard": (N_("discards %(card)s"), N_("discards a card")),
    "play": (N_("plays %(card)s"), N_("plays a card")),
    "move": (N_("moves %(block)s %(path)s"), N_("moves a block %(path)s")),
    "declare-main": (N_("declares main attack on %(location)s from %(origin)s"),) * 2,
    "levy": (N_("levies %(block)s in %(location)s"), N_("levies a block in %(location)s")),
    "add-step": (N_("adds a step to %(block)s"), N_("adds a step to a block in %(location)s")),
    "end-command": (N_("ends command"),) * 2,
    "take-back": (N_("takes back"),) * 2,
    "invoke-jupiter": (N_("invokes Jupiter on %(location)s"),) * 2,
    "invoke-vulcan": (N_("invokes Vulcan on %(location)s"),) * 2,
    "jupiter-pick": (N_("picks %(block)s"), N_("picks a block in %(location)s")),
    "jupiter-send": (N_("sends %(block)s to %(location)s"),) * 2,
    "choose-battle": (N_("fights %(location)s"),) * 2,
    "fire": (N_("fires %(block)s"),) * 2,
    "pass": (N_("passes %(block)s"),) * 2,
    "hit": (N_("takes the hit on %(block)s"),) * 2,
    "disband": (N_("disbands %(block)s"), N_("disbands a block in %(location)s")),
    "regroup": (N_("regroups %(block)s to %(location)s"), N_("regroups a block to %(location)s")),
    "winter": (N_("winters %(block)s in %(location)s"), N_("winters a block in %(location)s")),
    "end-regroup": (N_("ends regroup"),) * 2,
    "end-disband": (N_("ends disbanding"),) * 2,
    "retreat": (N_("retreats %(block)s to %(location)s"), N_("retreats a block to %(location)s")),
    "roll": (N_("rolls %(faces)s"),) * 2,
}
FIGHTS_WITH = N_("fights %(location)s with %(card)s")
RETREAT_BY_SEA = N_("retreats %(block)s by sea to %(location)s")
RETREAT_NOWHERE = (N_("retreats %(block)s nowhere"), N_("retreats a block"))
ACTION_LINE = N_("%(actor)s: %(action)s")
CHANCE_ACTOR = N_("the table")

# The buttons of a player's own prompt, per option type (moves, battle rows and Done are laid out
# by the page itself).
OPTIONS: dict[str, Msg] = {
    "discard": N_("Discard %(card)s"), "play": N_("Play %(card)s"), "levy": N_("Levy %(block)s in %(place)s"),
    "add-step": N_("Add a step to %(block)s"), "invoke-jupiter": N_("Jupiter on %(place)s"),
    "invoke-vulcan": N_("Vulcan on %(place)s"), "jupiter-send": N_("Send %(block)s to %(place)s"),
    "choose-battle": N_("Fight in %(place)s"), "declare-main": N_("Main attack on %(place)s from %(origin)s"),
    "hit": N_("Hit %(block)s"), "regroup": N_("Regroup %(block)s to %(place)s"),
    "winter": N_("%(block)s to port in %(place)s"), "disband": N_("Disband %(block)s"),
}
FIGHT_WITH_OPTION = N_("Fight in %(place)s with %(card)s")

PATH_JOIN = " – "


def _params(data: dict[str, Any]) -> dict[str, Any]:
    params = dict(data.get("params") or {})
    if isinstance(params.get("path"), list):
        params["path"] = PATH_JOIN.join(params["path"])
    return params


def render_action(data: dict[str, Any]) -> str:
    """One action (engine.action_dicts, or a log entry's redacted form) without its actor."""
    kind = data.get("type", "")
    redacted = bool(data.get("redacted"))
    params = _params(data)
    msg: Msg | None
    if kind == "choose-battle" and params.get("card"):
        msg = FIGHTS_WITH
    elif kind == "retreat" and params.get("location") is None:
        msg = RETREAT_NOWHERE[redacted]
    elif kind == "retreat" and params.get("by_sea") and not redacted:
        msg = RETREAT_BY_SEA
    else:
        pair = ACTIONS.get(kind)
        msg = None if pair is None else pair[redacted]
    return _render(msg, params) if msg is not None else kind


def render_action_line(data: dict[str, Any]) -> str:
    """One action with its actor, as the log says it: "Caesar: moves Legio 8 Genua – Roma"."""
    actor = data.get("actor") or ""
    who = gettext(CHANCE_ACTOR) if actor == "Chance" else name("side", actor, lang())
    return gettext(ACTION_LINE, actor=who, action=render_action(data))


def render_option(option: dict[str, Any]) -> str:
    """The button of one option of a player's own prompt ({"type", "params"})."""
    kind = option.get("type", "")
    params = _params(option)
    params["place"] = params.get("location")
    if kind == "choose-battle" and params.get("card"):
        return _render(FIGHT_WITH_OPTION, params)
    msg = OPTIONS.get(kind)
    return _render(msg, params) if msg is not None else render_action(option)


# Jupiter played where no enemy city is next to a friendly one: no city to offer.
JUPITER_NO_TARGET = N_("Jupiter: no enemy city is next to a friendly one, so no block can defect")


def render_title(kind: str, params: dict[str, Any] | None = None) -> str:
    """The title of a decision of `kind` in the request's language (its kind in words when it has none)."""
    if kind == "jupiter-target" and params is not None and not params.get("targets"):
        return _render(JUPITER_NO_TARGET, {})
    msg = DECISION_TITLES.get(kind)
    return _render(msg, {}) if msg is not None else kind.replace("-", " ")


def all_msgids() -> list[Msg]:
    """Every message of this module (the completeness tests and the catalog check)."""
    out: list[Msg] = [FIGHTS_WITH, RETREAT_BY_SEA, *RETREAT_NOWHERE, ACTION_LINE, CHANCE_ACTOR, FIGHT_WITH_OPTION,
                      JUPITER_NO_TARGET]
    for pair in ACTIONS.values():
        out += pair
    return out + list(OPTIONS.values())

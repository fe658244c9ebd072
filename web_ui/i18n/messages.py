"""Refusals, effects, decisions and the table's instructions, rendered by code in the reader's
language.

The engine and the table session speak in stable codes with JSON-safe params (docs/refusals.md,
docs/refusals-battle.md, engine/effects.py, engine/pending.py); this module owns the one
gettext message per code, with named placeholders, and fills it from the params:

    render_refusal({"code", "rule", "params"})   -> "… (rule 6.1)"  (the v1.01 section)
    render_effect({"kind", "params", "redacted"?}) -> a log line, or None (nothing to say)
    render_instruction(effect)                     -> what to do on the board, or None
    render_decision({"actor", "kind", "rule", "params"}) -> "Caesar: plays a card (2.1)"
    render_table_item({"code", "params"})          -> a table instruction or message

Params are printed in the reader's words: card, side and phase names and location status from
the glossary, numbers with babel's format_decimal, strengths as the blocks' Roman numerals.
Place names and block labels stay as printed. The English of the engine (`message`, `text`)
is never shown: an unknown code falls back to a generic message that names the code.
Must run inside a request (Flask-Babel picks the language); `lang()` names it.
"""
from __future__ import annotations

from typing import Any

from flask_babel import format_decimal, get_translations

from . import glossary
from .lang import lang

# A message is a msgid, or (singular, plural, the param that counts).
Msg = str | tuple[str, str, str]


def N_(text: str) -> str:
    """Marks a msgid for extraction (pybabel -k N_); translated when rendered."""
    return text


def P_(singular: str, plural: str, count: str) -> tuple[str, str, str]:
    """Marks a plural msgid for extraction (pybabel -k P_:1,2)."""
    return (singular, plural, count)


# --------------------------------------------------------------------------- refusals by code
REFUSALS: dict[str, Msg] = {
    # any phase
    "action.malformed": N_("this action names something that does not exist"),
    "game.unknown-side": N_("there is no side %(side)s"),
    "game.over": N_("the game is over"),
    "notation": N_("this line is not an action of the notation"),
    "id.no-block": N_("there is no block number %(number)s"),
    "id.no-location": N_("there is no location number %(number)s"),
    "id.no-card": N_("there is no card number %(number)s"),
    # whose turn, which phase
    "turn.not-yours": N_("it is not your turn: Player 1 commands first, then Player 2"),
    "command.ended": N_("your command phase of turn %(turn)s has ended"),
    "command.take-back-off": N_("taking back is off in this game"),
    "command.nothing-to-take-back": N_("%(actor)s has nothing to take back in this command phase"),
    "turn.chance-due": N_("wait: the cards are dealt or a block is picked first"),
    "turn.chance-not-due": N_("no dice and no draw are due now"),
    "turn.not-chance": N_("this is a player's action, not chance's"),
    "turn.cancelled": N_("turn %(turn)s was cancelled: both players played event cards (%(cards)s)"),
    "phase.wrong-action": N_("this is not an action of the %(phase)s"),
    # card phase
    "card.not-a-player": N_("only Caesar and Pompeius hold, discard and play cards"),
    "card.deal-not-due": N_("the cards are dealt at the start of a year"),
    "card.deal-size": N_("each player is dealt 6 cards, %(side)s got %(count)s"),
    "card.deal-deck": N_("the deck holds no more %(card)s"),
    "card.wrong-phase": N_("each player discards once after the deal, then plays one card each turn"),
    "card.already-discarded": N_("you have already discarded this year"),
    "card.already-played": N_("you have already chosen your card for turn %(turn)s"),
    "card.not-in-hand": N_("%(card)s is not in your hand"),
    "card.apollo-first-turn": N_("Apollo copies the card of the previous turn: not on the first turn of a year"),
    # movement
    "move.path-too-short": N_("a move names where the block starts and at least one more location"),
    "move.not-own-block": N_("%(block)s is not your block"),
    "move.off-map": N_("%(block)s is not on the map"),
    "move.already-moved": N_("%(block)s has already moved this turn"),
    "move.after-levy": N_("levies come after all moves: no move after a levy"),
    "move.card-gives-none": N_("the %(card)s card gives no move"),
    "move.not-at-start": N_("%(block)s stands in %(location)s, not in %(named)s"),
    "move.repeats-location": N_("a move may not pass the same location twice"),
    "move.too-far": N_("%(block)s may move at most %(limit)s locations"),
    "move.not-adjacent": N_("%(from)s and %(to)s are not adjacent"),
    "move.navis-by-road": N_("navis move only across sea borders, not along the road %(from)s–%(to)s"),
    "move.no-mp-left": N_("no MP left to move from %(location)s: the %(card)s card gives %(mp)s MP"),
    "move.navis-must-stay": N_("one navis must stay in %(sea)s until the end of the command phase"),
    "move.must-stop": N_("blocks entering %(location)s must stop there: it is %(status)s"),
    "move.attack-too-far": N_("blocks attack or reinforce only from an adjacent location"),
    "move.road-limit": N_("road limit: the road %(from)s–%(to)s already carries %(used)s blocks (limit %(limit)s)"),
    "move.event-not-amphibious": N_("the group move of %(event)s cannot be amphibious"),
    "move.amphibious-shape": N_("an amphibious move goes from a port, across seas, to a port"),
    "move.amphibious-not-first": N_("amphibious moves come before any other move"),
    "move.amphibious-not-port": N_("amphibious moves start in a port: %(location)s is not one"),
    "move.amphibious-sea": N_("amphibious moves cross only friendly seas: %(sea)s is %(status)s"),
    "move.amphibious-enemy-port": N_("amphibious moves never end in an enemy or contested port (%(location)s)"),
    "move.amphibious-no-mp": N_("an amphibious move costs 1 MP per block: no MP left"),
    "move.pinned-road": N_("unpinned blocks may not leave %(location)s by the road the attacker used"),
    "move.pinned": N_("pinning: %(pinned)s blocks in %(location)s are pinned and may not leave"),
    "main.not-attacking": N_("%(side)s is not attacking %(location)s"),
    "main.not-entered": N_("%(side)s did not enter %(location)s from %(origin)s"),
    "main.already": N_("the road from %(origin)s is already the main attack on %(location)s"),
    "main.none-left": N_("no block of %(side)s that entered %(location)s from %(origin)s is still there"),
    # events
    "event.land-blocks-only": N_("%(event)s: only land blocks move; %(block)s is a navis"),
    "event.navis-only": N_("%(event)s: only navis move; %(block)s is not a navis"),
    "event.no-navis": N_("%(event)s: navis do not move in this group move"),
    "event.not-played": N_("%(event)s is an event card you did not play"),
    "event.already-invoked": N_("%(event)s has already been invoked this turn"),
    "jupiter.no-enemy": N_("Jupiter: %(location)s holds no enemy block"),
    "jupiter.not-adjacent": N_("Jupiter: %(location)s is not adjacent to a friendly city"),
    "jupiter.pick-elsewhere": N_("Jupiter: the block is picked among the enemy blocks in %(location)s"),
    "jupiter.send-first": N_("Jupiter: first send the defecting block %(block)s to an adjacent friendly city"),
    "jupiter.nothing-to-send": N_("Jupiter: no defecting block is waiting"),
    "jupiter.wrong-block": N_("Jupiter: the defecting block is %(block)s"),
    "jupiter.bad-destination": N_("Jupiter: the block goes to a friendly city adjacent to %(origin)s"),
    "vulcan.not-enemy-city": N_("Vulcan: the target must be an enemy city; %(location)s is %(status)s"),
    # levies
    "levy.not-own-pool": N_("%(block)s is not in your levy pool"),
    "levy.eliminated-this-year": N_("%(block)s was eliminated this year: it can be levied next year"),
    "levy.dead-leader": N_("%(block)s is dead: leaders are eliminated for good"),
    "levy.on-map": N_("%(block)s is on the map, not in the levy pool"),
    "levy.leader-not-available": N_("%(block)s is available only once another leader of yours is dead"),
    "levy.card-gives-none": N_("the %(card)s card gives no LP"),
    "levy.no-lp-left": N_("no LP left: the card gives %(lp)s"),
    "levy.at-sea": N_("blocks and steps are levied in cities, not at sea"),
    "levy.not-friendly-city": N_("levies only in a friendly city: %(location)s is %(status)s"),
    "levy.not-major-port": N_("navis are levied in a friendly major port; %(location)s is not one"),
    "levy.not-named-city": N_("%(block)s is levied only in %(city)s"),
    "step.not-own-block": N_("%(block)s is not your block"),
    "step.off-map": N_("steps are added to blocks on the map; %(block)s is not there"),
    "step.full-strength": N_("%(block)s is already at full strength"),
    "step.navis-at-sea": N_("steps are added to navis in port, never at sea"),
    # picking a battle
    "battle.pick-first": N_("Player 1 first picks the next battle"),
    "battle.not-player-1": N_("Player 1 picks the order of the battles"),
    "battle.not-contested": N_("no battle is to be fought in %(location)s"),
    "battle.no-surprise": N_("you did not play %(card)s this turn"),
    "battle.surprise-used": N_("your %(card)s has already been used in a battle this turn"),
    "battle.surprise-misfit": N_("%(card)s does not apply to the battle in %(location)s"),
    "battle.declare-main-first": N_("first declare the main attack on %(location)s"),
    "battle.main-fixed": N_("the battle in %(location)s has begun: its main attack is fixed"),
    "battle.declare-not-now": N_("the main attack on %(location)s is declared when its battle is picked"),
    "main": N_("this road cannot be the main attack"),
    # a battle being fought
    "battle.not-now": N_("this is not an action of the battle in %(location)s"),
    "battle.not-your-block": N_("%(block)s is not your block"),
    "battle.not-in-battle": N_("%(block)s is not in the battle of %(location)s"),
    "battle.reserve-round-1": N_("%(block)s is a reserve: reserves take no part in round 1"),
    "battle.already-acted": N_("%(block)s has had its battle turn in round %(round)s"),
    "battle.not-your-turn": N_("it is not the battle turn of %(block)s"),
    "battle.must-retreat": N_("in round 4 attacking blocks must retreat: %(block)s cannot fire or pass"),
    "battle.dice-due": N_("wait: the dice are rolled first"),
    "battle.no-dice-due": N_("no block is waiting for its dice"),
    "battle.dice-count": P_("the firing block rolls %(num)s die", "the firing block rolls %(num)s dice", "need"),
    "battle.dice-faces": N_("a die shows 1 to 6"),
    "battle.hits-pending": P_("first %(side)s takes %(num)s hit", "first %(side)s takes %(num)s hits", "hits"),
    "battle.not-your-hit": N_("these hits fall on %(side)s's blocks: their owner chooses"),
    "battle.not-strongest": N_("each hit falls on the strongest block: %(block)s is %(strength)s, "
                               "the strongest are %(strongest)s"),
    "battle.no-hits-pending": N_("no hits are waiting to be taken"),
    "battle.not-legal": N_("this is not a legal battle action now"),
    # retreats
    "battle.no-retreat-round-1": N_("no block retreats in round 1"),
    "battle.can-retreat": N_("%(block)s can retreat (to %(destinations)s)"),
    "battle.retreat-not-required": N_("%(block)s need not retreat"),
    "battle.retreat-not-adjacent": N_("no road leads to %(destination)s"),
    "battle.retreat-enemy": N_("blocks never retreat to an enemy or contested location: %(destination)s"),
    "battle.retreat-limit": N_("road limit: the road to %(destination)s has carried %(limit)s retreating blocks"),
    "battle.retreat-attacker-road": N_("attacking blocks retreat to a vacant city only by a road they used to attack"),
    "battle.retreat-defender-road": N_("defending blocks never retreat along a road the attacker used"),
    "battle.sea-retreat-used": N_("one block per round may retreat by sea"),
    "battle.sea-retreat-not-on-sea": N_("a retreat by sea crosses one adjacent sea to a port on that sea"),
    "battle.sea-retreat-port": N_("the port of a retreat by sea must be friendly: %(destination)s"),
    "battle.sea-retreat-no-sea": N_("a retreat by sea needs a friendly sea"),
    "battle.navis-by-sea": N_("a navis retreats along a sea border, not 'by sea'"),
    "battle.navis-retreat-not-adjacent": N_("a navis retreats to an adjacent sea or a port on the same sea"),
    "battle.navis-retreat-origin": N_("attacking navis retreat to a vacant sea or port only where they came from"),
    "battle.navis-retreat-vacant-port": N_("defending navis retreat to a friendly port, not to vacant %(destination)s"),
    "battle.navis-retreat-attacker-sea": N_("defending navis never retreat to a vacant sea the attacker came from"),
    # after the battle
    "battle.no-regroup-yet": N_("only the victor regroups, once the battle of %(location)s has ended"),
    "battle.over": N_("the battle of %(location)s is over"),
    "battle.not-victor": N_("only the victor of %(location)s regroups"),
    "battle.regroup-not-adjacent": N_("%(destination)s is not adjacent"),
    "battle.regroup-enemy": N_("blocks regroup only to a friendly or vacant location"),
    "battle.regroup-limit": N_("road limit: the road to %(destination)s has carried %(limit)s regrouping blocks"),
    # winter
    "winter.not-a-winter-action": N_("this is not a winter action"),
    "winter.not-under-way": N_("no winter step is under way"),
    "winter.not-your-turn": N_("wait: Caesar decides first in each winter step"),
    "winter.no-block-left": N_("%(side)s has no block left to disband"),
    "winter.wrong-step": N_("this is not part of the current winter step"),
    "winter.not-your-block": N_("%(block)s is not your block"),
    "winter.not-on-map": N_("%(block)s is not on the map"),
    "winter.cleopatra": N_("Cleopatra cannot be disbanded: each winter she goes home to Alexandria"),
    "winter.navis-not-at-sea": N_("only navis at sea go to port in winter"),
    "winter.navis-port": N_("%(block)s goes to a friendly port on %(sea)s: %(port)s is not one"),
    "winter.supply": N_("%(location)s supplies %(limit)s blocks: %(block)s need not be disbanded"),
    # undo, saves, the table, the web app
    "undo.nothing": N_("nothing has been played yet"),
    "undo.barrier": N_("this cannot be taken back: something hidden was revealed or dice were rolled since"),
    "undo.other-side": N_("you can take back only your own actions"),
    "save": N_("this saved game cannot be loaded"),
    "table.not-your-action": N_("this phone may act only for its own side"),
    "table.unknown-source": N_("unknown source"),
    "table.no-game": N_("no game is running at the table"),
    "table.stopped": N_("the table is stopping"),
    "table.new-game-not-yours": N_("the Pi plays %(side)s here: a new game is for the players to agree on"),
    "table.no-new-game-offer": N_("no new game is offered"),
    "table.resume-current": N_("game %(number)s is the game being played"),
    "table.resume-unknown": N_("the journal has no game %(number)s that can be taken up again"),
    "table.resume-over": N_("game %(number)s is over: its record can be downloaded"),
    # the journal's disk (rubicon/journal.py: StorageError), told to every viewer until a write goes through
    "storage.full": N_("the disk holding the game's journal is full: nothing was saved and nothing changed; play "
                       "goes on by itself once the owner frees some space"),
    "storage.read-only": N_("the game's journal is on a read-only disk: nothing was saved and nothing changed; "
                            "play goes on by itself once the owner makes it writable"),
    "storage.permission": N_("the table may not write the game's journal (permission denied): nothing was saved "
                             "and nothing changed; the owner must give it write access"),
    "storage.missing": N_("the folder of the game's journal is missing: nothing was saved and nothing changed; "
                          "the owner must create it again"),
    "storage.io": N_("the disk holding the game's journal reports an error: nothing was saved and nothing "
                     "changed; the owner should check the disk or SD card"),
    "storage.damaged": N_("the game's journal was damaged while in use: nothing was saved and nothing changed; "
                          "the owner must restart the table, which recovers the longest verified record"),
    "journal.recovered": N_("the game's journal was damaged: the longest verified record was resumed "
                            "(%(lines)s actions); the damaged files are kept in %(aside)s"),
    "journal.recovered-nothing": N_("the game's journal was damaged and nothing of it could be verified: a new "
                                    "journal was started; the damaged files are kept in %(aside)s"),
    "journal.no-fault": N_("there is no such report of the journal to dismiss (already read?)"),
    "web.no-line": N_("the request names no action (field 'line')"),
    "web.no-option": N_("the request names no answer (field 'option')"),
    "web.no-fault": N_("the request names no report to dismiss (field 'fault': its number)"),
    "web.no-agree": N_("the request does not say whether you agree (field 'agree': true or false)"),
    "web.record-too-early": N_("the record can be downloaded once the game is over"),
    "web.csrf": N_("refused: the page's security token (CSRF) is missing or stale: reload the page and try again"),
    "web.other-origin": N_("refused: this request comes from another site"),
    "web.live-busy": N_("the table has as many live views open as it serves: try again in a moment"),
    "pairing.unknown-side": N_("there is no such side"),
    "web.other-host": N_("refused: this address is not the table's (open the table by its own address or name)"),
    "pairing.bad-code": N_("this pairing code is not valid (it works once and expires): scan the code the table "
                           "shows now, or ask a device of your side for one"),
    "pairing.not-paired": N_("this device is not paired with a side"),
    "pairing.no-ask": N_("this ask to join is no longer open (it was answered, declined or it expired)"),
    "pairing.nobody-to-ask": N_("no device is paired with this side yet: scan the code on the table's screen, or "
                                "the one `rubicon pair SIDE` prints on the Pi"),
    "pairing.ask-later": N_("the last ask from this device was declined: wait a while before asking again"),
    "pairing.ask-busy": N_("an ask to join is open already: wait for its answer"),
    "web.slow-down": N_("too many requests from this device: wait a moment and try again"),
    "pairing.bot-side": N_("the Pi plays this side: no phone may pair with it (its hand and blocks stay hidden)"),
    "pairing.too-many": N_("too many wrong pairing codes from this device: wait a minute and scan the code again"),
    "http.400": N_("refused: reload the page and try again"),
    "http.401": N_("this phone is not paired: scan the pairing code the table shows"),
    "http.403": N_("refused: this request comes from another site"),
    "http.404": N_("there is no such page"),
    "http.409": N_("refused"),
    "http.413": N_("the request is too large"),
    "http.429": N_("too many requests: wait a moment"),
}
# The web app's own refusals (web_ui/aborts.py: `refuse(status, code, English)`), by code.
REFUSALS.update({
    "virtual.no-table": N_("this table has real readers and a tray: there is no virtual table"),
    "virtual.not-paired": N_("pair this browser with a side (the pairing link the table shows) to touch the "
                             "virtual table"),
    "web.not-json": N_("the request must be a JSON object"),
    "virtual.set-out-now": N_("the blocks are set out all at once only for a new game, before its first command"),
    "virtual.bad-field": N_("the virtual table cannot take this request's %(field)s: reload the page and try again"),
    "virtual.not-your-block": N_("this browser handles its own side's blocks only, and those the table tells it to "
                                 "handle: that block is not one of them"),
})


REFUSAL_FALLBACK = N_("refused (%(code)s)")
WITH_RULE = N_("%(text)s (rule %(rule)s)")

# Codes documented as families: each member falls back to its family's message.
FAMILIES = ("notation", "save", "main", "http", "table")

# --------------------------------------------------------------------------- effects (the log)
GAME_OVER = N_("game over: %(winner)s wins")
# Per kind: (message when the params are visible, message when redacted), or None: not logged.
EFFECTS: dict[str, tuple[Msg, Msg] | None] = {
    "cards.dealt": (P_("%(side)s is dealt %(num)s card", "%(side)s is dealt %(num)s cards", "count"),
                    P_("%(side)s is dealt %(num)s card", "%(side)s is dealt %(num)s cards", "count")),
    "card.discarded": (N_("%(side)s discards %(card)s"), N_("%(side)s discards a card")),
    "card.chosen": (N_("%(side)s chooses %(card)s"), N_("%(side)s chooses a card")),
    "cards.revealed": (N_("turn %(turn)s: Caesar %(Caesar)s, Pompeius %(Pompeius)s"),
                       N_("turn %(turn)s: the cards are revealed")),
    "jupiter.picked": (N_("Jupiter picks %(block)s in %(at)s"), N_("Jupiter picks a block of %(side)s in %(at)s")),
    "battle.main_attack": (N_("%(side)s: main attack on %(at)s from %(from)s"),
                           N_("%(side)s: main attack on %(at)s from %(from)s")),
    "block.side": (N_("%(block)s in %(at)s now fights for %(to)s"), N_("a block in %(at)s changes side")),
    "block.moved": (N_("%(block)s moves from %(from)s to %(to)s"),
                    N_("a block of %(side)s moves from %(from)s to %(to)s")),
    "block.placed": (N_("%(block)s is levied in %(to)s at %(strength)s"),
                     N_("%(side)s levies a block in %(to)s")),
    "block.eliminated": (N_("%(block)s is eliminated in %(from)s"), N_("%(block)s is eliminated in %(from)s")),
    "block.to_pool": (N_("%(block)s goes from %(from)s back to the levy pool"),
                      N_("a block of %(side)s goes from %(from)s back to the levy pool")),
    "block.returned": (N_("%(block)s can be levied again"), N_("%(block)s can be levied again")),
    "block.off_map": (N_("%(block)s leaves the map"), N_("a block of %(side)s leaves the map")),
    "block.strength": (N_("%(block)s in %(at)s: strength %(strength_from)s → %(strength_to)s"),
                       N_("a block of %(side)s in %(at)s changes strength")),
    "dice.rolled": (P_("%(block)s rolls %(faces)s: %(num)s hit", "%(block)s rolls %(faces)s: %(num)s hits", "hits"),
                    P_("%(block)s rolls %(faces)s: %(num)s hit", "%(block)s rolls %(faces)s: %(num)s hits", "hits")),
    "battle.ended": (N_("the battle in %(at)s is over: %(winner)s wins"),
                     N_("the battle in %(at)s is over: %(winner)s wins")),
    "battle.disrupted": (N_("disruption in %(at)s: the reserves of %(side)s lose a step"),
                         N_("disruption in %(at)s: the reserves of %(side)s lose a step")),
    "battle.round": (N_("round %(round)s in %(at)s"), N_("round %(round)s in %(at)s")),
    "battle.begun": (N_("battle in %(at)s: %(attacker)s attacks"), N_("battle in %(at)s: %(attacker)s attacks")),
    "year.changed": (N_("year %(to)s begins"), N_("year %(to)s begins")),
    "turn.changed": (N_("turn %(turn)s of %(year)s"), N_("turn %(turn)s of %(year)s")),
    "phase.changed": (N_("now: %(to)s"), N_("now: %(to)s")),
    "vp.changed": (N_("VP: Caesar %(Caesar)s, Pompeius %(Pompeius)s"),
                   N_("VP: Caesar %(Caesar)s, Pompeius %(Pompeius)s")),
    "game.over": (GAME_OVER, GAME_OVER),
}
DRAW = N_("nobody (a draw)")

# --------------------------------------------------------------------------- instructions (the board)
INSTRUCTIONS: dict[str, tuple[Msg, Msg]] = {
    "block.moved": (N_("move %(block)s from %(from)s to %(to)s"),
                    N_("move a block of %(side)s from %(from)s to %(to)s")),
    "block.placed": (N_("put %(block)s from the levy pool in %(to)s at %(strength)s"),
                     N_("put a block of %(side)s from the levy pool in %(to)s")),
    "block.strength": (N_("turn %(block)s in %(at)s to %(strength_to)s"), N_("turn a block of %(side)s in %(at)s")),
    "block.eliminated": (N_("remove %(block)s from %(from)s; put it in the levy pool face up"),
                         N_("remove %(block)s from %(from)s; put it in the levy pool face up")),
    "block.dead": (N_("remove %(block)s from %(from)s: a dead leader, a trophy for the enemy"),
                   N_("remove %(block)s from %(from)s: a dead leader, a trophy for the enemy")),
    "block.to_pool": (N_("remove %(block)s from %(from)s; put it in the levy pool standing"),
                      N_("remove a block of %(side)s from %(from)s; put it in the levy pool standing")),
    "block.returned": (N_("stand %(block)s up in the levy pool"), N_("stand %(block)s up in the levy pool")),
    "block.side": (N_("turn %(block)s in %(at)s to face %(to)s"), N_("turn a block in %(at)s to face the other side")),
    "block.off_map": (N_("take %(block)s off the map"), N_("take a block of %(side)s off the map")),
    "battle.begun": (N_("battle in %(at)s: tip its blocks forward (reserves stay standing)"),
                     N_("battle in %(at)s: tip its blocks forward (reserves stay standing)")),
    "battle.round": (N_("round %(round)s in %(at)s: tip the reserves forward"),
                     N_("round %(round)s in %(at)s: tip the reserves forward")),
    "battle.ended": (N_("the battle in %(at)s is over: stand its blocks up"),
                     N_("the battle in %(at)s is over: stand its blocks up")),
}

# --------------------------------------------------------------------------- decisions (pending)
DECISIONS: dict[str, Msg] = {
    "deal": N_("the cards of year %(year)s are dealt"),
    "discard": N_("discards one card"),
    "play": N_("plays a card for turn %(turn)s"),
    "command": N_("commands: move, levy or press Done"),
    "jupiter-target": N_("Jupiter: picks an enemy block's city"),
    "jupiter-pick": N_("Jupiter: a block is picked blind in %(location)s"),
    "jupiter-send": N_("Jupiter: sends the defector to a friendly city"),
    "vulcan-city": N_("Vulcan: picks an enemy city"),
    "choose-battle": N_("picks the next battle"),
    "main-attack": N_("declares the main attack on %(location)s"),
    "battle-turn": N_("battle turn in %(location)s, round %(round)s"),
    "dice": P_("rolls %(num)s die for %(block)s", "rolls %(num)s dice for %(block)s", "dice"),
    "take-hit": N_("takes a hit in %(location)s"),
    "regroup": N_("regroups after the battle of %(location)s"),
    "navis-to-port": N_("winter: each navis at sea goes to a friendly port"),
    "supply": N_("winter supply: disbands blocks beyond a city's limit"),
    "disband": N_("winter: may disband blocks"),
}
# The title of a player's own prompt, per decision kind (what DECISIONS says of it to everyone).
DECISION_TITLES: dict[str, Msg] = {
    "discard": N_("Discard one card for the year"), "play": N_("Play a card for this turn"),
    "command": N_("Your command"), "jupiter-target": N_("Jupiter: pick a city"),
    "jupiter-send": N_("Jupiter: send the defector"), "vulcan-city": N_("Vulcan: pick a city"),
    "choose-battle": N_("Pick the next battle"), "main-attack": N_("Main attack"), "battle-turn": N_("Battle turn"),
    "take-hit": N_("Which block takes the hit?"), "regroup": N_("Regroup"), "navis-to-port": N_("Navis to port"),
    "supply": N_("Supply: disband blocks"), "disband": N_("Disband blocks (optional)"),
}
DECISION_LINE = N_("%(actor)s: %(what)s (%(rule)s)")
CHANCE = N_("the table")

# --------------------------------------------------------------------------- the table (table.*)
# What to do on the board (rubicon/table/reconcile.py), one at a time; `who` is the block's label,
# or the blocks of a side counted when the reader may not know them by name.
TABLE: dict[str, Msg] = {
    "table.put-back": N_("put %(who)s back in %(to)s"),
    "table.set-down": N_("set %(who)s down in %(to)s"),
    # A block of the Pi's lifted blind (docs/bot.md): the one it moved, or not.
    "table.right-pick": N_("that one: set it down in %(to)s"),
    "table.wrong-pick": N_("not that one: put it back in %(to)s, at the right end of its row"),
    # Lifted for a later step than the one asked: never read as "yes, that one".
    "table.other-pick": N_("not the block asked for, but it too must go: set it down in %(to)s"),
    "table.silent-reader": N_("the reader of %(at)s does not answer: check %(who)s there by hand, "
                              "then both players confirm"),
    "table.remove": P_("remove %(who)s from %(from)s; put it in %(to)s",
                       "remove %(who)s from %(from)s; put them in %(to)s", "count"),
    "table.place": N_("place %(who)s in %(to)s"),
    "table.place-from": P_("take %(who)s from %(from)s and place it in %(to)s",
                           "take %(who)s from %(from)s and place them in %(to)s", "count"),
    "table.move": N_("move %(who)s from %(from)s to %(to)s"),
    "table.move-back": N_("put %(who)s back in %(to)s (from %(from)s)"),
    "table.unknown-tag": N_("take the tag %(uid)s that names no block off %(at)s"),
    "table.no-reader": N_("take the block off reader %(reader)s: no location of the map is there"),
}
WHO = P_("a block of %(side)s", "%(num)s blocks of %(side)s", "count")
# The Pi's blocks counted: their places in its row there, left to right (docs/bot.md).
WHO_AT = P_("%(who)s (no. %(positions)s from the left)", "%(who)s (nos. %(positions)s from the left)", "count")
# A block of the other side named to a viewer (revealed): its printed name and its side.
BLOCK_OF_SIDE = N_("%(name)s (%(side)s)")
# Notices and refusals of the physical table (rubicon/table/physical.py, placements.py).
REFUSALS.update({
    "table.done-not-yours": N_("%(side)s has nothing to confirm with Done now"),
    "table.board-not-right": N_("put the board right first"),
    "table.placement-refused": N_("this placement is not allowed: put that block back first"),
    "table.in-hand": N_("%(block)s is in hand: set it down first"),
    "table.ask-open": N_("answer the question on the phone first"),
    "table.nothing-to-confirm": N_("nothing to confirm: set blocks down first"),
    "table.stale-answer": N_("there is no question for you now"),
    "table.unknown-option": N_("%(option)s is not one of the options"),
    "table.nothing-to-override": N_("the board matches: there is nothing to confirm"),
    "table.no-table": N_("no physical table is attached"),
    "table.placement-off-map": N_("%(block)s cannot be set on %(place)s now"),
    "table.placement-illegal": N_("%(block)s cannot go to %(place)s now"),
    "table.not-your-turn": N_("%(block)s may not move now: put it back in %(to)s"),
    "table.misplaced": N_("%(block)s does not belong in %(at)s: put it back in %(to)s"),
    "table.unknown-tag": N_("the tag %(uid)s on %(at)s names no block of the game"),
    "table.no-reader": N_("a tag (%(uid)s) was set where no reader of the map is"),
    "table.tap-nothing": N_("%(block)s: nothing to do with it now"),   # the one-reader build (one_reader.py)
    "table.refused": N_("the table refused this"),
    "table.confirm-waiting": N_("%(side)s accepts the board as sensed: %(other)s must confirm too"),
    "table.confirmed": N_("the board was accepted as sensed: play goes on"),
    "table": N_("the table refused this"),
})
# The dice (rubicon/table/dice.py): refusals, and notices everyone reads.
REFUSALS.update({
    "dice.not-asked": N_("no dice are asked for now: this roll is not taken"),
    "dice.wrong-count": P_("%(block)s rolls %(num)s die: roll again", "%(block)s rolls %(num)s dice: roll again",
                           "count"),
    "dice.crooked": N_("a die is not flat: roll the dice again"),
    "dice.source": N_("the dice come from %(source)s now, not from %(via)s"),
    "dice.not-your-roll": N_("only %(by)s rolls the dice for this block"),
    "dice.faces": N_("typed dice are 1 to 4 numbers from 1 to 6"),
    "dice.tray-down": N_("the dice tray is not connected: roll on the phone or type the faces"),
    "dice.tray-up": N_("the dice tray is connected"),
    "dice.source-set": N_("%(by)s sets where the dice come from: %(source)s"),
    "table.option": N_("this is not a value of that table option: %(value)s"),
    "table.event-ignored": N_("a sensor event the table does not use yet"),
})
# A device the table cannot open (rubicon/table/device_checks.py): what to check, shown to everyone.
REFUSALS.update({
    "device.spi-off": N_("%(device)s: %(path)s is missing: enable SPI (dtparam=spi=on in /boot/firmware/config.txt) "
                         "and reboot"),
    "device.not-permitted": N_("%(device)s: no permission to open %(path)s: add the user to the group %(group)s"),
    "device.serial-absent": N_("%(device)s: %(path)s is missing: check the USB cable and the udev name "
                               "(99-rubicon.rules)"),
    "device.gpio-workdir": N_("%(device)s: lgpio cannot create its pipe in %(path)s: set LG_WD to a writable "
                              "directory"),
    "device.not-a-pi": N_("%(device)s: this computer is not a Raspberry Pi: the table runs without it"),
    "device.no-gpio": N_("%(device)s: there is no GPIO chip (%(path)s): check the kernel and the service's "
                         "DeviceAllow"),
    "device.no-answer": N_("%(device)s: no reader answers on %(path)s: check the cable, the 3.3 V supply and the "
                           "reset line (%(wiring)s)"),
    "device.failed": N_("%(device)s cannot be opened (%(error)s): check the cable and the wiring (%(wiring)s)"),
})
DEVICE_NAMES = {"dice": N_("the dice tray"), "board": N_("the board scanner"), "readers": N_("the RFID readers"),
                "panel": N_("the panel")}
DICE_SOURCES = {"tray": N_("the dice tray"), "phone": N_("the phone"), "typed": N_("faces typed on the phone")}
ASK: dict[str, str] = {"placement": N_("which block did you mean?"),
                       "tap": N_("%(block)s tapped: set it down where it goes, then choose here what it did"),
                       "path": N_("%(block)s set in %(place)s: by which way?"),
                       "strength": N_("%(block)s levied in %(place)s: at which strength?"),
                       "zone": N_("%(block)s set on %(place)s: which did you mean?")}
ASK_FALLBACK = N_("answer the question on the phone")
BOARD_FIRST = N_("the board: %(instruction)s")
THEN = N_("%(first)s; then %(next)s")
NOTHING = N_("nothing")
DICE_VIA = {"tray": N_("%(decision)s, on the tray"), "phone": N_("%(decision)s, on the phone")}
# The roll the game waits for, said on every page (rubicon/table/dice.py `table_part`): by where it is
# rolled, and whether the reader rolls it (his phone then has the Roll button) or watches.
DICE_ROLL: dict[tuple[str, bool], Msg] = {
    ("tray", True): P_("Roll %(num)s die in the tray for %(block)s", "Roll %(num)s dice in the tray for %(block)s",
                       "count"),
    ("tray", False): P_("%(by)s rolls %(num)s die in the tray for %(block)s",
                        "%(by)s rolls %(num)s dice in the tray for %(block)s", "count"),
    ("phone", True): P_("Roll %(num)s die for %(block)s: press Roll on this phone",
                        "Roll %(num)s dice for %(block)s: press Roll on this phone", "count"),
    ("phone", False): P_("%(by)s rolls %(num)s die for %(block)s on the phone",
                         "%(by)s rolls %(num)s dice for %(block)s on the phone", "count"),
}
ROLL_BUTTON = P_("Roll %(num)s die", "Roll %(num)s dice", "count")
# The dice source "typed" (table option): real dice rolled by hand, their faces typed on the phone.
DICE_TYPED = P_("Roll %(num)s die for %(block)s by hand and type its face here",
                "Roll %(num)s dice for %(block)s by hand and type their faces here", "count")
PLACES = {"levy pool": N_("the levy pool of %(side)s"), "eliminated": N_("the eliminated blocks of %(side)s")}

PHASES: dict[str, str] = {"over": N_("game over")}
# The deal and the discard are the start of a year's first Card Phase (rules 2.1): said by its one name.
CARD_PHASE_STEPS = ("deal", "discard")
STATUS = ("friendly", "enemy", "vacant", "contested")
ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")

_SIDE_KEYS = {"side", "actor", "winner", "victor", "attacker", "player", "from_side", "to_side", "by"}
_CARD_KEYS = {"card", "event", "apollo_copies", "Caesar", "Pompeius", "surprise_event"}
_STRENGTH_KEYS = {"strength", "strength_from", "strength_to", "strongest"}
_PLACE_KEYS = {"to", "from", "at", "place", "location"}
_BLOCK_KEYS = {"block", "option"}
_PRINTED_SIDE = {"C": "Caesar", "P": "Pompeius"}


def block_name(text: str) -> str:
    """A block as the reader names it: the notation's key of the other side's block ("P Equitatus
    1") as its printed name and its side; any other label as printed."""
    prefix, _, name = text.partition(" ")
    if prefix in _PRINTED_SIDE and name:
        return gettext(BLOCK_OF_SIDE, name=name, side=glossary.name("side", _PRINTED_SIDE[prefix], lang()))
    return text


class _Params(dict):
    """Format params: a placeholder a message names but the params lack prints as '…'."""

    def __missing__(self, key: str) -> str:
        return "…"


def _one(key: str, value: Any) -> str:
    lg = lang()
    if value is None:
        return gettext(DRAW) if key == "winner" else "–"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        if key in _STRENGTH_KEYS and 0 <= value < len(ROMAN):
            return ROMAN[value]
        return format_decimal(value)
    if isinstance(value, list):
        return ", ".join(_one(key, v) for v in value) if key != "faces" else " ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{glossary.name('side', k, lg)} {_one(key if key in _CARD_KEYS else 'card', v)}"
                         for k, v in value.items())
    text = str(value)
    if key in _SIDE_KEYS or (key == "to" and text in ("Caesar", "Pompeius")):
        return glossary.name("side", text, lg)
    if key in _CARD_KEYS:
        return glossary.name("card", text, lg)
    if key == "status" and text in STATUS:
        return glossary.term(text, lg)
    if key == "phase":
        return phase_name(text)
    if key in _PLACE_KEYS:
        return place_name(text)
    if key in _BLOCK_KEYS:
        return block_name(text)
    if key == "device" and text in DEVICE_NAMES:
        return gettext(DEVICE_NAMES[text])
    if key in ("source", "via") and text in DICE_SOURCES:
        return gettext(DICE_SOURCES[text])
    return text


def place_name(text: str) -> str:
    """A place of the table: a location (as printed), or a side's levy pool or eliminated area
    ("Caesar levy pool" in the table session's words)."""
    side, _, area = text.partition(" ")
    if side in ("Caesar", "Pompeius") and area in PLACES:
        return gettext(PLACES[area], side=glossary.name("side", side, lang()))
    return text


def params_for(params: dict[str, Any] | None) -> _Params:
    """A refusal's or effect's parameters as a message is filled with: names of blocks, places and sides in the
    request's language."""
    return _Params({k: _one(k, v) for k, v in (params or {}).items()})


def gettext(msg: str, **params: Any) -> str:
    """The translation of `msg`, filled from `params` (a missing one prints as '…')."""
    text = get_translations().ugettext(msg)
    return text % _Params(params) if "%" in text else text


def _render(msg: Msg, params: dict[str, Any] | None) -> str:
    p = params_for(params)
    if isinstance(msg, tuple):
        singular, plural, count = msg
        n = (params or {}).get(count)
        num = n if isinstance(n, int) and not isinstance(n, bool) else len(n) if isinstance(n, list) else 0
        p["num"] = format_decimal(num)
        return get_translations().ungettext(singular, plural, num) % p
    text = get_translations().ugettext(msg)
    return text % p if "%" in text else text


def phase_name(phase: str) -> str:
    """The name of `phase` in the request's language (the code itself for an unknown phase)."""
    if phase in CARD_PHASE_STEPS:
        phase = "card"
    if f"phase.{phase}" in glossary.terms():
        return glossary.term(f"phase.{phase}", lang())
    return gettext(PHASES[phase]) if phase in PHASES else phase


def refusal_message(code: str | None) -> Msg | None:
    """The message for refusal `code`, or its family's general one, or None for a code we have no words for."""
    code = code or ""
    if code in REFUSALS:
        return REFUSALS[code]
    family = code.split(".", 1)[0]
    return REFUSALS.get(family) if family in FAMILIES else None


def render_refusal(refusal: dict[str, Any]) -> str:
    """The refusal's text in the request's language, with its rule."""
    code = refusal.get("code") or ""
    msg = refusal_message(code)
    text = _render(msg, refusal.get("params")) if msg else gettext(REFUSAL_FALLBACK, code=code)
    rule = refusal.get("rule")
    return gettext(WITH_RULE, text=text, rule=rule) if rule else text


def _visible(effect: dict[str, Any]) -> bool:
    return not effect.get("redacted")


def render_effect(effect: dict[str, Any]) -> str | None:
    """The log text of an effect in the request's language, or None for an effect the log does not show."""
    pair = EFFECTS.get(effect.get("kind", ""))
    if pair is None:
        return None
    params = dict(effect.get("params") or {})
    kind = effect["kind"]
    if kind == "phase.changed":
        if phase_name(str(params.get("from"))) == phase_name(str(params.get("to"))):
            return None          # the discard done: still the Card Phase, nothing new to say
        params["to"] = phase_name(str(params.get("to")))
    if kind == "vp.changed":
        to = params.get("to")
        params = dict(to) if isinstance(to, dict) else {}
        if not params:
            return None
    if kind == "cards.revealed" and params.get("cancelled"):
        params = {"turn": params.get("turn"), "cards": {s: params.get(s) for s in ("Caesar", "Pompeius")}}
        return _render(REFUSALS["turn.cancelled"], params)
    if kind == "game.over":
        params = {"winner": params.get("winner")}
    return _render(pair[0] if _visible(effect) else pair[1], params)


def render_instruction(effect: dict[str, Any]) -> str | None:
    """What a player must do on the board after an effect, in the request's language, or None if nothing."""
    kind = effect.get("kind", "")
    params = effect.get("params") or {}
    if kind == "block.eliminated" and params.get("to") == "dead":
        kind = "block.dead"
    if kind == "battle.round" and not params.get("revealed"):
        return None
    pair = INSTRUCTIONS.get(kind)
    if pair is None:
        return None
    return _render(pair[0] if _visible(effect) else pair[1], params)


def render_decision(decision: dict[str, Any]) -> str:
    """A pending decision as a line: who decides, what, and the rule."""
    kind = decision.get("kind", "")
    msg = DECISIONS.get(kind)
    what = _render(msg, decision.get("params")) if msg else kind
    actor = decision.get("actor") or ""
    who = gettext(CHANCE) if actor == "Chance" else glossary.name("side", actor, lang())
    return gettext(DECISION_LINE, actor=who, what=what, rule=decision.get("rule") or "–")


def render_table_item(item: dict[str, Any], step: bool = False) -> str:
    """A table instruction (`step`: one of `table.*` of reconcile, `who` built from `block`, or
    from `count` and `side`) or a table message (a refusal or notice, by code)."""
    code = item.get("code") or ""
    params = dict(item.get("params") or {})
    if step and code == "table.place" and params.get("from"):
        code = "table.place-from"
    if step and code not in TABLE and code in INSTRUCTIONS:
        # What to do on the board after a hit (rubicon/table/dice.py): an effect's instruction, the
        # block named to the viewer who may know it, else the blind form.
        said = render_instruction({"kind": code, "params": params, "redacted": "block" not in params})
        # A step the log would not repeat (a round with nothing revealed) is still a step to take.
        return said if said is not None else _render(INSTRUCTIONS[code][0 if "block" in params else 1], params)
    msg = TABLE.get(code) if step else refusal_message(code)
    if step:
        params.setdefault("count", 1)    # one block named: "put it"; several counted: "put them"
    if msg is None:
        return gettext(REFUSAL_FALLBACK, code=code)
    if "block" in params:
        params["who"] = block_name(str(params["block"]))
        if step and params.get("positions"):     # a revealed block of the Pi's: where it stands in its row
            params["who"] = _render(WHO_AT, {"count": 1, "who": params["who"], "positions": params["positions"]})
    elif step:
        params["who"] = _render(WHO, {"count": params.get("count", 1), "side": params.get("side")})
        if params.get("positions"):
            params["who"] = _render(WHO_AT, {"count": params.get("count", 1), "who": params["who"],
                                             "positions": params["positions"]})
    text = _render(msg, params)
    rule = item.get("rule")
    return gettext(WITH_RULE, text=text, rule=rule) if rule else text


def render_ask(ask: dict[str, Any]) -> str:
    """The question of the table to a player, in the request's language."""
    msg = ASK.get(ask.get("kind") or "")
    if msg and ask.get("kind") == "tap":   # the block read on the one reader, named to its owner alone
        return gettext(msg, block=str(ask.get("block") or ""))
    return _render(msg, ask.get("params")) if msg else gettext(ASK_FALLBACK)


def render_dice(dice: dict[str, Any]) -> dict[str, Any]:
    """The roll asked (`table.dice`) in the reader's words: `text` (who rolls how many dice for which
    block, where) and, for the side that rolls on his phone, `button` (the Roll button's label), or
    `typed` (true: he rolls real dice by hand and types their faces)."""
    via = "tray" if dice.get("via") == "tray" else "phone"
    mine = bool(dice.get("mine"))
    block = dice.get("block") or _render(WHO, {"count": 1, "side": dice.get("by")})
    params = {"count": dice.get("count", 1), "by": dice.get("by"), "block": block}
    sources = dice.get("sources") or ["phone"]
    if mine and via == "phone" and "phone" not in sources and "typed" in sources:
        return {"text": _render(DICE_TYPED, params), "typed": True}
    out: dict[str, Any] = {"text": _render(DICE_ROLL[via, mine], params)}
    if mine and via == "phone":
        out["button"] = _render(ROLL_BUTTON, params)
    return out


def render_waiting(state: dict[str, Any], table: dict[str, Any]) -> str:
    """The table's waiting line in the reader's words: the board first, an open question, then
    the decisions the game waits for, a roll with where it is made (`table.waiting.dice`); the
    one place the waiting line is made (the table part carries its data only)."""
    result = state.get("result")
    if state.get("problem"):
        return _render(REFUSALS["table.no-game"], {})
    if result:
        winner = result.get("winner")
        return _render(GAME_OVER, {"winner": winner}) if winner else gettext(DRAW)
    parts = []
    steps = table.get("instructions") or []
    if steps and isinstance(steps[0], dict):
        parts.append(gettext(BOARD_FIRST, instruction=render_table_item(steps[0], step=True)))
    if table.get("ask"):
        parts.append(render_ask(table["ask"]))
    waiting = table.get("waiting")
    via = waiting.get("dice") if isinstance(waiting, dict) else None
    dice = table.get("dice")
    for d in state.get("pending") or ():
        if d.get("kind") == "dice" and isinstance(dice, dict):   # the same words as the banner's
            parts.append(render_dice(dice)["text"])
            continue
        said = render_decision(d)
        parts.append(gettext(DICE_VIA[via], decision=said) if d.get("kind") == "dice" and via in DICE_VIA else said)
    if not parts:
        return gettext(NOTHING)
    line = parts[0]
    for nxt in parts[1:]:
        line = gettext(THEN, first=line, next=nxt)
    return line


def all_msgids() -> list[Msg]:
    """Every message of this module (the completeness tests and the catalog check)."""
    out: list[Msg] = [REFUSAL_FALLBACK, WITH_RULE, DRAW, DECISION_LINE, CHANCE]
    out += REFUSALS.values()
    for pair in list(EFFECTS.values()) + list(INSTRUCTIONS.values()):
        if pair:
            out += pair
    out += DECISIONS.values()
    out += DECISION_TITLES.values()
    out += TABLE.values()
    out += PHASES.values()
    out += ASK.values()
    out += [*DICE_ROLL.values(), ROLL_BUTTON, DICE_TYPED]
    out += [WHO, WHO_AT, BLOCK_OF_SIDE, ASK_FALLBACK, BOARD_FIRST, THEN, NOTHING, *DICE_VIA.values(), *PLACES.values(),
            *DICE_SOURCES.values()]
    return out

"""The reference pages: a rules summary and the 27 cards (public), and the blocks of the phone's
own side (private: a paired phone only). Static game data from the engine's facts files; every
text a person reads is in the templates, wrapped in `_()` for the catalogs."""
from __future__ import annotations

from flask import Blueprint, render_template

from engine import BOARD

from .player import paired_side, require_side

bp = Blueprint("reference", __name__, url_prefix="/reference")

TYPE_ORDER = ("leader", "legion", "equitatus", "elephant", "auxilia", "ballista", "navis", "cleopatra")


def cards() -> list[dict]:
    """The deck as kinds: name, event or move/levy, and how many of it (27 in all)."""
    return [{"name": c.name, "event": c.event, "move": c.move, "levy": c.levy, "count": c.count}
            for c in BOARD.cards]


def blocks_of(side: str) -> list[dict]:
    """Every block printed on `side` (Cleopatra with Pompeius, whom she starts with), as printed."""
    index = 0 if side == "Caesar" else 1
    out = []
    for b in BOARD.blocks:
        if b.side != index:
            continue
        out.append({"name": b.name, "type": b.type, "max_strength": b.max_steps * b.strength_per_step,
                    "initiative": b.initiative, "initiative_attacking": b.initiative_attacking,
                    "firepower": b.firepower,
                    "levy_city": None if b.levy_city is None else BOARD.loc_names[b.levy_city]})
    out.sort(key=lambda x: (TYPE_ORDER.index(x["type"]) if x["type"] in TYPE_ORDER else 99, x["name"]))
    return out


@bp.get("/rules")
def rules():
    """GET /reference/rules: the rules summary with the rulebook sections."""
    return render_template("ref_rules.html", side=paired_side())


@bp.get("/cards")
def card_list():
    """GET /reference/cards: every card of the deck and how many there are."""
    deck = cards()
    return render_template("ref_cards.html", cards=deck, total=sum(c["count"] for c in deck), side=paired_side())


@bp.get("/blocks")
def blocks():
    """GET /reference/blocks: the paired side's own blocks (401 for an unpaired browser)."""
    side = require_side()
    return render_template("ref_blocks.html", side=side, blocks=blocks_of(side))

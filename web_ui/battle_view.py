"""The battle as it is fought, laid out by initiative for the phones and the TV.

Built from what the viewer already may see: the view's `fight` (the revealed blocks with their
strength, reserve counts, the firing block) and the viewer's log (every die rolled since the
battle began, from its `dice.rolled` effects). Blocks stand in columns A B C D by the initiative
they fight with (a ballista's differs in attack and defence), defender and attacker apart;
reserves are counts, except that the owner's phone lists his own. A die's block is named only
while it is still revealed in this battle (one that retreated stands hidden again, 7.6).
"""
from __future__ import annotations

from typing import Any

from engine import BOARD, SIDES

from .i18n.messages import block_name

LETTERS = ("A", "B", "C", "D")


_BY_KEY = {b.key: b for b in BOARD.blocks}


def _letter(key: str, attacking: bool) -> str:
    info = _BY_KEY[key]
    return info.initiative_attacking if attacking else info.initiative


def _dice(log: list[dict[str, Any]], location: str, shown: set[str]) -> list[dict[str, Any]]:
    """The dice rolled since this battle began (within the log the viewer holds), oldest first."""
    start = None
    for i in range(len(log) - 1, -1, -1):
        if any(e.get("kind") == "battle.begun" and e.get("params", {}).get("at") == location
               for e in log[i].get("effects", [])):
            start = i
            break
    if start is None:
        return []
    out, rnd = [], 1
    for entry in log[start:]:
        for e in entry.get("effects", []):
            p = e.get("params", {})
            if e.get("kind") == "dice.rolled":
                key = p.get("block")
                info = _BY_KEY.get(key) if isinstance(key, str) else None
                named = key if isinstance(key, str) and key in shown else None
                # `name`: the block as a person reads it ("Equitatus 1 (Pompeius)"), never the notation's key.
                out.append({"round": rnd, "side": p.get("side"), "faces": list(p.get("faces", [])),
                            "hits": p.get("hits"), "block": named, "name": block_name(named) if named else None,
                            "hits_on": info.firepower if info and key in shown else None})
            elif e.get("kind") == "battle.round" and isinstance(p, dict) and "round" in p:
                rnd = p["round"]
    return out


def layout(view: dict[str, Any], log: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The battle under way as this viewer may see it, or None outside a battle."""
    fight = view.get("fight")
    if not fight:
        return None
    attacker = fight["attacker"]
    defender = SIDES[1 - SIDES.index(attacker)]
    columns: dict[str, dict[str, list[dict[str, Any]]]] = {x: {"defender": [], "attacker": []} for x in LETTERS}
    shown: set[str] = set()
    for side, blocks in fight["revealed"].items():
        role = "attacker" if side == attacker else "defender"
        for b in blocks:
            key = b["block"]
            shown.add(key)
            info = _BY_KEY[key]
            columns[_letter(key, role == "attacker")][role].append(
                {"block": key, "name": BOARD.block_label(info.id, SIDES.index(side)), "side": side,
                 "strength": b["strength"], "firepower": info.firepower, "firing": key == fight.get("firing")})
    own_reserves = [{"block": b["block"], "strength": b["strength"],
                     "name": BOARD.block_label(_BY_KEY[b["block"]].id, SIDES.index(view["side"]))}
                    for b in view.get("own_blocks", [])
                    if b.get("reserve") and b.get("location") == fight["location"]]
    return {"location": fight["location"], "round": fight["round"], "attacker": attacker, "defender": defender,
            "columns": [{"letter": x, **columns[x]} for x in LETTERS],
            "reserves": fight["reserves"], "own_reserves": own_reserves,
            "firing": fight.get("firing"), "pending_hits": fight.get("pending_hits", 0),
            "dice": _dice(log, fight["location"], shown)}

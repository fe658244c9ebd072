"""The final-state summary `rubicon replay --json` prints: year, turn, phase, Player 1, who acts
now, VP per side, the result, the battle being fought (round, attacker, reserves still to
arrive) and every block's location and strength (a referee's view: it shows everything)."""
from __future__ import annotations

from .battle import current_fight
from .board import BOARD, SIDES
from .state import OFF_MAP_NAMES


def summary(game) -> dict:
    """A finished or unfinished game in short, as JSON-safe data: year, turn, phase, Player 1, who acts, result,
    VP, the battle being fought, every block."""
    st = game.state
    blocks = {}
    for b, info in enumerate(BOARD.blocks):
        loc = st.loc[b]
        blocks[info.key] = {
            "side": SIDES[st.owner[b]],
            "location": BOARD.loc_names[loc] if loc >= 0 else OFF_MAP_NAMES[loc],
            "strength": st.strength(b) if loc >= 0 else None,
        }
    return {"year": st.year, "turn": st.turn, "phase": st.phase,
            "player1": None if st.player1 is None else SIDES[st.player1],
            "current_players": game.current_players(),
            "vp": {SIDES[s]: st.vp(s) for s in (0, 1)},
            "result": game.result(), "battle": battle_summary(game), "blocks": blocks}


def battle_summary(game) -> dict | None:
    """The battle being fought (None between battles and once its regroup has begun)."""
    st = game.state
    fight = current_fight(st)
    if fight is None or fight.d["over"]:
        return None
    d = fight.d
    return {"location": BOARD.loc_names[d["loc"]], "round": d["round"],
            "attacker": SIDES[d["attacker"]], "defender": SIDES[d["defender"]],
            "reserves": {SIDES[s]: [BOARD.blocks[b].key for b in fight.blocks(s) if b in d["reserves"]]
                         for s in (0, 1)},
            "firing": None if d["firing"] is None else BOARD.blocks[d["firing"]].key}


def result_line(game) -> str:
    """'Caesar wins (winter 707: Caesar 10 VP, Pompeius 6 VP)' or 'a draw (...)'."""
    r = game.result()
    verdict = "a draw" if r["winner"] is None else f"{r['winner']} wins"
    return f"{verdict} ({r['reason']})"

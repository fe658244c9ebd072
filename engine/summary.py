"""The final-state summary `rubicon replay --json` prints: year, turn, phase, VP per side and
every block's location and strength (a referee's view: it shows everything)."""
from __future__ import annotations

from .board import BOARD, SIDES
from .state import OFF_MAP_NAMES


def summary(game) -> dict:
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
            "vp": {SIDES[s]: st.vp(s) for s in (0, 1)},
            "result": game.result(), "blocks": blocks}

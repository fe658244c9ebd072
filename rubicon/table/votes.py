"""The new-game vote: a side offers a new game (or taking up an unfinished one of the journal
again), the other accepts or declines; the game starts once every human side agreed (the Pi's side
has no say), and the old one stays in the journal. The offer is public (every viewer sees who
asked). No I/O: the session's owner carries it out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import actor_name, parse_actor

from ..errors import TableRefusal


@dataclass(frozen=True)
class VoteResult:
    """What one vote does: `starts` a new game now, or leave `offer` as the open offer (None: no
    offer any more)."""
    starts: bool = False
    offer: dict[str, Any] | None = None


def cast(offer: dict[str, Any] | None, source: str, agree: bool, voters: tuple[str, ...],
         game: int | None = None) -> VoteResult:
    """`source`'s vote on the open `offer` (None: none yet) for a new game, or for taking up `game`
    again; TableRefusal if he may not vote or declines what nobody offered, UnknownName for no
    side at all. An offer of another game than the open one replaces it."""
    side = actor_name(parse_actor(source, allow_chance=False))
    allowed = {actor_name(parse_actor(v, allow_chance=False)) for v in voters}
    if side not in allowed:
        raise TableRefusal(f"{side} is played by the Pi here: a new game is for the players to agree on",
                           code="table.new-game-not-yours", params={"side": side})
    if not agree:
        if offer is None:
            raise TableRefusal("no new game is offered", code="table.no-new-game-offer")
        return VoteResult(offer=None)
    if offer is not None and offer.get("game") != game:
        offer = None       # another game offered: the standing offer gives way to it
    agreed = sorted(set(offer["agreed"] if offer else ()) | {side})
    if allowed <= set(agreed):
        return VoteResult(starts=True)
    return VoteResult(offer={"agreed": agreed, "waiting": sorted(allowed - set(agreed)),
                             **({"game": game} if game is not None else {})})

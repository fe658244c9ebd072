"""Reconciliation: the engine's board against the sensed board, as instructions to put it right.

Owns where the engine says each block belongs, in the reader map's place names (a map location,
"Caesar levy pool", "Pompeius eliminated"), the differences between that and the sensed board,
and the instructions that mend them, one at a time, each as {"code", "params", "text"}. A block
is named only to a viewer allowed to know it (its owner, or everyone while the rules reveal it);
anyone else reads counts per location ("place 3 Caesar blocks in Ravenna"). Used for the 705
set-up, a resume after a power cut, a loaded game, an undo, and the blocks the engine removed
(hits, Vulcan, supply, disbanding).

The Pi's blocks (an automated side) are handled blind by the human (docs/bot.md): a counted
instruction for them names their positions in the row of that side's blocks at the place, left to
right in the order they were set down ("no. 2 from the left"), which the player saw happen and
which says nothing of what the blocks are; a lifted block of the Pi's is told apart as the right
pick ("that one: set it down in Roma") or a wrong one ("not that one: put it back").
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine import BOARD, DEAD, ELIMINATED, POOL, SIDES, GameState, revealed_blocks

from .sensed_board import SensedBoard

# The order instructions are given in: a block in hand first, then what leaves the map, then moves.
_ORDER = {"table.right-pick": 0, "table.other-pick": 0, "table.wrong-pick": 0, "table.put-back": 0,
          "table.set-down": 0, "table.remove": 1,
          "table.move": 2, "table.move-back": 2, "table.place": 3, "table.silent-reader": 4}


def pool_place(side: int) -> str:
    """The name of `side`'s levy pool as a place on the sensed board."""
    return f"{SIDES[side]} levy pool"


def eliminated_place(side: int) -> str:
    """The name of `side`'s eliminated area as a place on the sensed board."""
    return f"{SIDES[side]} eliminated"


def expected_place(state: GameState, block: int) -> tuple[str | None, frozenset[str | None]]:
    """Where `block` belongs: the place an instruction names, and every place that counts as
    right (a block eliminated this year may lie in its pool or eliminated area; a dead leader,
    a trophy, anywhere off the map or nowhere sensed)."""
    loc, printed = state.loc[block], BOARD.blocks[block].side
    if loc >= 0:
        name = BOARD.loc_names[loc]
        return name, frozenset({name})
    if loc == POOL:
        return pool_place(printed), frozenset({pool_place(printed)})
    if loc == ELIMINATED:
        return pool_place(printed), frozenset({pool_place(printed), eliminated_place(printed)})
    assert loc == DEAD
    return eliminated_place(printed), frozenset({None, *(f(s) for s in (0, 1) for f in (pool_place, eliminated_place))})


def block_of_key(key: str) -> int:
    """The engine's index of the block named `key`."""
    return BOARD.block(key)


def on_map(place: str | None) -> bool:
    """Whether `place` is a map location (not a pool, an eliminated area, nor nowhere)."""
    if place is None:
        return False
    try:
        BOARD.location(place)
    except LookupError:
        return False
    return True


@dataclass(frozen=True)
class Difference:
    """One block not where the engine says. `have`: where it is sensed (None: nowhere);
    `in_hand`: lifted and not set down (`held_from`: the place it was lifted from); `silent`: its
    place's reader does not answer."""
    block: int
    want: str | None
    have: str | None
    in_hand: bool = False
    silent: bool = False
    held_from: str | None = None
    zone: tuple[str, ...] = ()      # `have` is a shared sensing zone: all its locations (the block is on one)
    held_zone: tuple[str, ...] = ()  # in hand: every location it may have been lifted from (`held_from`'s zone)

    @property
    def key(self) -> tuple[int, str | None, str | None]:
        """The difference as a comparable tuple: the block, where the game wants it, where the board has it."""
        return (self.block, self.want, self.have)


def differences(state: GameState, sensed: SensedBoard) -> list[Difference]:
    """Every block whose sensed place is not one the engine accepts. A board without pool readers
    accepts a block of the levy pool or the eliminated area wherever it is off the map (in hand, on the
    table beside it): the readers cannot see it there, the engine knows it is there."""
    out = []
    for b, info in enumerate(BOARD.blocks):
        want, ok = expected_place(state, b)
        have = sensed.where(info.key)
        lifted = info.key in sensed.in_hand
        # On a shared sensing zone a block stands on one of its locations: where the game has it, if
        # that is one of them (a block that did not move stays where it is).
        if not lifted and any(p in ok for p in sensed.zone(have)):
            continue
        if have is None and not lifted and None in ok:
            continue
        if have is None and want is not None and not on_map(want) and not sensed.senses(want):
            continue    # off the map where no reader senses (no pool readers): the engine knows it is there
        silent = have is None and not lifted and want in sensed.silent
        zone = sensed.zone(have)
        held = sensed.in_hand.get(info.key) if lifted else None
        out.append(Difference(b, want, have, lifted, silent, held, zone if len(zone) > 1 else (),
                              sensed.zone(held) if held is not None else ()))
    return out


def _named_to(state: GameState, block: int, viewer: int | None, revealed: set[int]) -> bool:
    return block in revealed or (viewer is not None and state.owner[block] == viewer)


def instruction_of(diff: Difference, blind: bool = False, back: bool = False,
                   stood: str | None = None) -> tuple[str, dict[str, Any]]:
    """The code and place params that mend one difference (`blind`: a block of the Pi's, handled
    without its owner's eyes: a lifted one is told the right or a wrong pick; `back`: it stood
    where it belongs before it was carried off, so it goes "back"; `stood`: the location of its
    shared zone the block stands on, when the table knows it)."""
    code, params = _instruction_of(diff, blind, back)
    if diff.zone and "from" in params:
        # The place the map shows when the table knows it (it stood where the game had it), else
        # the shared zone named whole: "Asculum/Roma".
        params["from"] = stood if stood in diff.zone else "/".join(diff.zone)
    return code, params


def _instruction_of(diff: Difference, blind: bool, back: bool) -> tuple[str, dict[str, Any]]:
    if diff.in_hand:
        # Lifted from a shared zone where the game has it (its reader senses both): it goes back.
        home = diff.held_from is None or diff.want in (diff.held_zone or (diff.held_from,))
        if blind:
            return ("table.wrong-pick", {"to": diff.want}) if home else ("table.right-pick", {"to": diff.want})
        return ("table.put-back", {"to": diff.want}) if home else ("table.set-down", {"to": diff.want})
    if diff.silent:
        return "table.silent-reader", {"at": diff.want}
    if diff.have is None:
        return "table.place", {"to": diff.want}
    if not on_map(diff.want):
        return "table.remove", {"from": diff.have, "to": diff.want}
    if not on_map(diff.have) and diff.want is not None:
        return "table.place", {"from": diff.have, "to": diff.want}
    return "table.move-back" if back else "table.move", {"from": diff.have, "to": diff.want}


def text_of(code: str, params: dict[str, Any]) -> str:
    """The English text of an instruction (web_ui/i18n translates by code)."""
    who = params.get("block") or (f"{params['count']} {params['side']} blocks" if params.get("count", 1) > 1
                                  else f"a {params['side']} block")
    if params.get("positions"):
        nos = params["positions"]
        who += f" (no{'s' if len(nos) > 1 else ''}. {', '.join(map(str, nos))} from the left)"
    if code == "table.put-back":
        return f"put {who} back in {params['to']}"
    if code == "table.set-down":
        return f"set {who} down in {params['to']}"
    if code == "table.right-pick":
        return f"that one: set it down in {params['to']}"
    if code == "table.other-pick":
        return f"not the block asked for, but it too must go: set it down in {params['to']}"
    if code == "table.wrong-pick":
        return f"not that one: put it back in {params['to']}, at the right end of its row"
    if code == "table.silent-reader":
        return (f"the reader of {params['at']} does not answer: check {who} there by hand, then both players "
                f"confirm")
    if code == "table.remove":
        return f"remove {who} from {params['from']}; put it in the {params['to']}"
    if code == "table.place":
        if params.get("from"):
            return f"take {who} from the {params['from']} and place it in {params['to']}"
        return f"place {who} in {params['to']}"
    if code == "table.move-back":
        return f"put {who} back in {params['to']} (from {params['from']})"
    return f"move {who} from {params['from']} to {params['to']}"


def instructions(state: GameState, diffs: list[Difference], viewer: int | None,
                 rows: Mapping[str, list[int]] | None = None, automated: Collection[int] = (),
                 returning: Collection[int] = (), stood: Mapping[int, str] | None = None,
                 ages: Mapping[int, int] | None = None) -> list[dict[str, Any]]:
    """The instructions `viewer` (0, 1 or None = public) reads for `diffs`, first is current:
    blocks he may know by name, the others counted per place and side. `rows`: per place (the
    location the map shows), the Pi's blocks standing there, left to right (PhysicalTable.rows);
    a counted instruction for some of them names their positions. `automated`: the sides the Pi
    plays; `returning`: the blocks that stood where they belong before they were carried off;
    `stood`: the location of its shared zone each block stands on, where the table knows it;
    `ages`: per block, when its difference first showed: steps of one kind are told oldest first.

    A lifted block of the Pi's that must go elsewhere is the right pick ("yes: that one") only for
    the step the player was reading when he lifted it; for a later step it is told apart
    (`table.other-pick`: "not the block asked for, but it too goes to Roma"), never read as "yes"."""
    steps = _steps(state, diffs, viewer, rows or {}, set(automated), returning, stood or {}, ages or {})
    held = [d for d in diffs if d.in_hand and d.block in _blind_picks(steps)]
    if held:
        # What he read before he lifted: the same board with the lifted blocks where he took them.
        before = [replace(d, in_hand=False, have=d.held_from, zone=d.held_zone if len(d.held_zone) > 1 else ())
                  if d in held else d for d in diffs]
        first = next(iter(_steps(state, before, viewer, rows or {}, set(automated), returning, stood or {},
                                 ages or {})), None)
        asked = set(first[3]) if first is not None else set()
        for step in steps:
            if step[1] == "table.right-pick" and not set(step[3]) & asked:
                step[1] = "table.other-pick"
    return [{"code": code, "params": params, "text": text_of(code, params)} for _, code, params, _ in steps]


def _blind_picks(steps: list[list]) -> set[int]:
    return {b for step in steps if step[1] == "table.right-pick" for b in step[3]}


def _steps(state: GameState, diffs: list[Difference], viewer: int | None, rows: Mapping[str, list[int]],
           blind: set[int], returning: Collection[int], stood: Mapping[int, str],
           ages: Mapping[int, int]) -> list[list]:
    """The instructions as [order, code, params, blocks], the current one first."""
    revealed = revealed_blocks(state)
    named: list[list] = []
    counted: dict[tuple[str, str, tuple], list[int]] = {}
    for d in diffs:
        code, params = instruction_of(d, blind=state.owner[d.block] in blind and not
                                      _named_to(state, d.block, viewer, revealed), back=d.block in returning,
                                      stood=stood.get(d.block))
        side = SIDES[state.owner[d.block]]
        if _named_to(state, d.block, viewer, revealed):
            label = BOARD.block_label(d.block, viewer if viewer is not None else state.owner[d.block])
            params = {**params, "block": label, "side": side}
            row = rows.get(params.get("from") or "")
            if state.owner[d.block] in blind and row and len(row) > 1 and d.block in row:
                # A revealed block of the Pi's: named, and where it stands in its row too, since the
                # board shows the Pi's blocks by their backs (the virtual table draws no label on them).
                params["positions"] = [row.index(d.block) + 1]
            named.append([_ORDER[code], code, params, [d.block]])
        else:
            key = (code, side, tuple(sorted(params.items(), key=lambda kv: kv[0])))
            counted.setdefault(key, []).append(d.block)
    for (code, side, items), blocks in counted.items():
        params = {**dict(items), "side": side, "count": len(blocks)}
        row = rows.get(params.get("from") or "")
        if row and len(row) > len(blocks) and all(b in row for b in blocks):
            params["positions"] = sorted(row.index(b) + 1 for b in blocks)
        named.append([_ORDER[code], code, params, blocks])
    named.sort(key=lambda x: (x[0], min(ages.get(b, 0) for b in x[3])))
    return named

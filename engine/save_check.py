"""Checks a saved game (`GameState.to_json()` form) before `GameState.from_json` builds it.

A save is untrusted input: a forged or corrupt one must be refused with a `CorruptSave` that
names what is wrong, never loaded as a state that crashes later or leaves nobody able to act.
Owns: the structure and type checks of every field, ranges (years, turns, locations, steps,
sides, card kinds), the card counts against the 27-card deck, the consistency of the phase
with its data (Player 1, the command state, the battle and winter data), and the final probe
of a built state (someone can act, the views can be drawn).
"""
from __future__ import annotations

import random
from collections import Counter

from .board import BOARD, SIDES
from .errors import CorruptSave

N_CARDS = len(BOARD.cards)
HAND_SIZE = 6
BLOCK_LOCS = range(-3, BOARD.n_locs)    # DEAD, ELIMINATED, POOL, then the map
STATE_KEYS = ("options", "year", "turn", "phase", "blocks", "hands", "discards", "chosen", "revealed",
              "player1", "cmd", "road_use", "battles", "result")
BATTLE_KEYS = ("loc", "attacker", "main_edge", "entries", "attacker_edges", "defenders_left")
FIGHT_KEYS = ("loc", "attacker", "defender", "surprise", "round", "reserves", "entries", "navis_origins",
              "acted", "firing", "hits", "retreat_use", "sea_retreated", "regroup_use", "winner", "over",
              "regrouping", "disrupted")


def fail(what: str):
    raise CorruptSave(f"not a Rubicon game state: {what}")


def is_int(x, lo: int, hi: int) -> bool:
    """An int (not a bool) in lo..hi."""
    return type(x) is int and lo <= x <= hi


def need_int(x, lo: int, hi: int, what: str) -> int:
    if not is_int(x, lo, hi):
        fail(f"{what} must be a whole number {lo}..{hi}, not {x!r}")
    return x


def need_opt_int(x, lo: int, hi: int, what: str):
    return None if x is None else need_int(x, lo, hi, what)


def need_list(x, what: str, length: int | None = None) -> list:
    if not isinstance(x, list):
        fail(f"{what} must be a list, not {type(x).__name__}")
    if length is not None and len(x) != length:
        fail(f"{what} must have {length} entries, not {len(x)}")
    return x


def need_bool(x, what: str) -> bool:
    if not isinstance(x, bool):
        fail(f"{what} must be true or false, not {x!r}")
    return x


def need_dict(x, what: str, keys=()) -> dict:
    if x is None:
        fail(f"{what} is missing")
    if not isinstance(x, dict):
        fail(f"{what} must be an object, not {type(x).__name__}")
    missing = [k for k in keys if k not in x]
    if missing:
        fail(f"{what} lacks {', '.join(missing)}")
    return x


def side(x, what: str) -> int:
    return need_int(x, 0, 1, what)


def block_id(x, what: str) -> int:
    return need_int(x, 0, BOARD.n_blocks - 1, what)


def loc_id(x, what: str) -> int:
    return need_int(x, 0, BOARD.n_locs - 1, what)


def edge_id(x, what: str) -> int:
    return need_int(x, 0, BOARD.n_edges - 1, what)


def card(x, what: str) -> int:
    return need_int(x, 0, N_CARDS - 1, what)


# --------------------------------------------------------------------------- the save itself
def check_save(d, phases: tuple[str, ...], first_year: int, last_year: int, turns: int) -> None:
    """Everything a state JSON must satisfy before it is built (raises CorruptSave)."""
    need_dict(d, "the save", STATE_KEYS)
    if d["options"] is not None:
        need_dict(d["options"], "options")
    need_int(d["year"], first_year, last_year, "year")
    need_int(d["turn"], 1, turns, "turn")
    phase = d["phase"]
    if phase not in phases:
        fail(f"unknown phase {phase!r} (known: {', '.join(phases)})")
    _check_blocks(d["blocks"])
    _check_cards(d, phase, turns)
    _check_turn_data(d, phase)
    ext = d.get("ext", {})
    need_dict(ext, "ext")
    if phase == "battle":
        _check_battle_phase(d, need_dict(ext.get("battle"), "the battle phase's data (ext.battle)"))
    if phase == "winter":
        w = need_dict(ext.get("winter"), "the winter's data (ext.winter)", ("step", "side", "done"))
        need_int(w["step"], 0, 5, "ext.winter.step")
        side(w["side"], "ext.winter.side")
        for i, x in enumerate(need_list(w["done"], "ext.winter.done", 2)):
            need_bool(x, f"ext.winter.done[{i}]")
    over = phase == "over"
    if over != (d["result"] is not None):
        fail("a finished game has a result and only a finished game has one"
             f" (phase {phase}, result {d['result']!r})")
    if over:
        r = need_dict(d["result"], "result", ("winner", "reason", "vp"))
        need_opt_int(r["winner"], 0, 1, "result.winner")
        if not isinstance(r["reason"], str):
            fail("result.reason must be text")
        for i, v in enumerate(need_list(r["vp"], "result.vp", 2)):
            need_int(v, 0, 99, f"result.vp[{i}]")


def _check_blocks(blocks) -> None:
    need_list(blocks, "blocks", BOARD.n_blocks)
    for b, entry in enumerate(blocks):
        info = BOARD.blocks[b]
        what = f"blocks[{b}] ({info.key})"
        loc, owner, steps, moved = need_list(entry, what, 4)
        need_int(loc, BLOCK_LOCS.start, BLOCK_LOCS.stop - 1, f"{what} location")
        side(owner, f"{what} side")
        need_int(steps, 1, info.max_steps, f"{what} steps")
        need_bool(moved, f"{what} moved")
        if loc < 0:
            if owner != info.side:
                fail(f"{what} is off the map but not on its printed side")
            if loc == -3 and not info.is_leader:
                fail(f"{what} is dead but only leaders die")
            if moved:
                fail(f"{what} is off the map but marked as moved")
        elif BOARD.is_sea[loc] and not info.is_navis:
            fail(f"{what} is a land block at sea ({BOARD.loc_names[loc]})")
        elif info.is_navis and not (BOARD.is_sea[loc] or BOARD.is_port[loc]):
            fail(f"{what} is a navis in {BOARD.loc_names[loc]}, neither a sea nor a port")


def _check_cards(d, phase: str, turns: int) -> None:
    hands = need_list(d["hands"], "hands", 2)
    discards = need_list(d["discards"], "discards", 2)
    chosen = need_list(d["chosen"], "chosen", 2)
    revealed = need_list(d["revealed"], "revealed", None)
    if len(revealed) > turns:
        fail(f"revealed lists {len(revealed)} game turns; a year has {turns}")
    held: Counter = Counter()
    for s in (0, 1):
        for i, c in enumerate(need_list(hands[s], f"hands[{s}]")):
            held[card(c, f"hands[{s}][{i}]")] += 1
        for name, x in (("discards", discards[s]), ("chosen", chosen[s])):
            if x is not None:
                held[card(x, f"{name}[{s}]")] += 1
    for t, r in enumerate(revealed):
        need_list(r, f"revealed[{t}]", 5)
        for i in range(4):
            card(r[i], f"revealed[{t}][{i}]")
        if not isinstance(r[4], (bool, int)):
            fail(f"revealed[{t}] cancelled must be true or false")
        held[r[0]] += 1
        held[r[1]] += 1
    deck = Counter(BOARD.deck)
    for k, n in held.items():
        if n > deck[k]:
            fail(f"{n} cards {BOARD.cards[k].name} are in play; the deck has {deck[k]}")
    for s in (0, 1):
        dealt = len(hands[s]) + (discards[s] is not None) + (chosen[s] is not None) + len(revealed)
        want = 0 if phase == "deal" else HAND_SIZE
        if dealt != want and phase != "over":
            fail(f"side {s} holds, discarded, chose and played {dealt} cards this year; "
                 f"in the {phase} phase that must be {want}")


def _check_turn_data(d, phase: str) -> None:
    p1 = d["player1"]
    if phase in ("command", "battle"):
        side(p1, f"player1 (the {phase} phase has a Player 1)")
    else:
        need_opt_int(p1, 0, 1, "player1")
    road_use = need_dict(d["road_use"], "road_use")
    for e, n in road_use.items():
        if not (isinstance(e, str) and e.isdigit()):
            fail(f"road_use key {e!r} must be an edge number")
        edge_id(int(e), "road_use edge")
        need_int(n, 0, BOARD.n_blocks, f"road_use[{e}]")
    cmd = d["cmd"]
    if (phase == "command") != (cmd is not None):
        fail(f"the command state must be present in the command phase and only there (phase {phase})")
    if cmd is not None:
        _check_cmd(cmd, p1)
    battles = need_list(d["battles"], "battles")
    if battles and phase not in ("command", "battle"):
        fail(f"attack bookkeeping (battles) in the {phase} phase")
    seen = set()
    for i, bt in enumerate(battles):
        what = f"battles[{i}]"
        need_dict(bt, what, BATTLE_KEYS)
        loc = loc_id(bt["loc"], f"{what}.loc")
        if loc in seen:
            fail(f"two attacks recorded in {BOARD.loc_names[loc]}")
        seen.add(loc)
        side(bt["attacker"], f"{what}.attacker")
        edges = [edge_id(e, f"{what}.attacker_edges") for e in need_list(bt["attacker_edges"], f"{what}.attacker_edges")]
        for e in edges:
            if loc not in BOARD.edge_ends[e]:
                fail(f"{what}: attacker edge {e} does not reach {BOARD.loc_names[loc]}")
        if bt["main_edge"] is not None and edge_id(bt["main_edge"], f"{what}.main_edge") not in edges:
            fail(f"{what}: the main attack is not one of the attacker's roads")
        for j, entry in enumerate(need_list(bt["entries"], f"{what}.entries")):
            b, e, s = need_list(entry, f"{what}.entries[{j}]", 3)
            block_id(b, f"{what}.entries[{j}] block")
            side(s, f"{what}.entries[{j}] side")
            if e is not None and loc not in BOARD.edge_ends[edge_id(e, f"{what}.entries[{j}] edge")]:
                fail(f"{what}.entries[{j}]: edge {e} does not reach {BOARD.loc_names[loc]}")
        need_int(bt["defenders_left"], 0, BOARD.n_blocks, f"{what}.defenders_left")


def _check_cmd(cmd, player1) -> None:
    from .state import CommandState  # state imports this module lazily: no cycle
    need_dict(cmd, "cmd", tuple(CommandState.__dataclass_fields__))
    extra = set(cmd) - set(CommandState.__dataclass_fields__)
    if extra:
        fail(f"cmd has unknown fields {', '.join(sorted(extra))}")
    side(cmd["side"], "cmd.side")
    need_opt_int(cmd["card"], 0, N_CARDS - 1, "cmd.card")
    for k in ("mp", "lp", "mp_used", "lp_used"):
        need_int(cmd[k], 0, 10, f"cmd.{k}")
    if cmd["mp_used"] > cmd["mp"] or cmd["lp_used"] > cmd["lp"]:
        fail("cmd spends more points than its card gives")
    if cmd["event"] is not None and cmd["event"] not in {c.name for c in BOARD.cards if c.event}:
        fail(f"cmd.event {cmd['event']!r} is not an event card")
    for k in ("levying", "amphibious_open", "event_done"):
        need_bool(cmd[k], f"cmd.{k}")
    for k in ("activated", "amphibious_seas"):
        for x in need_list(cmd[k], f"cmd.{k}"):
            loc_id(x, f"cmd.{k}")
    need_opt_int(cmd["jupiter_loc"], 0, BOARD.n_locs - 1, "cmd.jupiter_loc")
    need_opt_int(cmd["jupiter_block"], 0, BOARD.n_blocks - 1, "cmd.jupiter_block")
    if not all(isinstance(x, str) for x in need_list(cmd["log"], "cmd.log")):
        fail("cmd.log must list notation lines")
    if cmd["snapshot"] is not None:
        need_dict(cmd["snapshot"], "cmd.snapshot")   # then loaded in full by GameState.from_json


def _check_battle_phase(d, data: dict) -> None:
    need_dict(data, "ext.battle", ("fight", "surprise_used"))
    need_bool(data["surprise_used"], "ext.battle.surprise_used")
    battles = {bt["loc"]: bt for bt in d["battles"]}
    pending = data.get("declaring")
    if pending is not None:
        need_dict(pending, "ext.battle.declaring", ("loc", "surprise"))
        if pending["loc"] not in battles:
            fail("ext.battle.declaring names a battle that was not recorded")
        need_bool(pending["surprise"], "ext.battle.declaring.surprise")
    fight = data["fight"]
    if fight is None:
        return
    if pending is not None:
        fail("a battle is fought while another waits for its main attack")
    f = need_dict(fight, "ext.battle.fight", FIGHT_KEYS)
    loc_id(f["loc"], "fight.loc")
    att = side(f["attacker"], "fight.attacker")
    if f["defender"] != 1 - att:
        fail("fight.defender must be the side that is not the attacker")
    need_int(f["round"], 1, 4, "fight.round")
    need_int(f["hits"], 0, 99, "fight.hits")
    for k in ("surprise", "over", "regrouping"):
        need_bool(f[k], f"fight.{k}")
    for k in ("reserves", "acted", "disrupted"):
        for x in need_list(f[k], f"fight.{k}"):
            block_id(x, f"fight.{k}")
    need_opt_int(f["firing"], 0, BOARD.n_blocks - 1, "fight.firing")
    need_opt_int(f["winner"], 0, 1, "fight.winner")
    for s, locs in enumerate(need_list(f["entries"], "fight.entries", 2)):
        for x in need_list(locs, f"fight.entries[{s}]"):
            loc_id(x, f"fight.entries[{s}]")
    for i, pair in enumerate(need_list(f["navis_origins"], "fight.navis_origins")):
        b, l = need_list(pair, f"fight.navis_origins[{i}]", 2)
        block_id(b, f"fight.navis_origins[{i}]")
        loc_id(l, f"fight.navis_origins[{i}]")
    for k in ("retreat_use", "regroup_use"):
        for s, edges in enumerate(need_list(f[k], f"fight.{k}", 2)):
            for e in need_list(edges, f"fight.{k}[{s}]"):
                edge_id(e, f"fight.{k}[{s}]")
    for x in need_list(f["sea_retreated"], "fight.sea_retreated"):
        side(x, "fight.sea_retreated")
    if not f["over"]:
        here = [(b, owner) for b, (l, owner, _, _) in enumerate(d["blocks"]) if l == f["loc"]]
        if {owner for _, owner in here} != {0, 1}:
            fail(f"a battle is fought in {BOARD.loc_names[f['loc']]}, where the two sides do not both stand")
        if f["firing"] is not None and f["firing"] not in {b for b, _ in here}:
            fail(f"fight.firing: {BOARD.blocks[f['firing']].key} is not in the battle")
    roll = f.get("last_roll")
    if roll is not None:
        b, faces, hits = need_list(roll, "fight.last_roll", 3)
        block_id(b, "fight.last_roll block")
        for x in need_list(faces, "fight.last_roll faces"):
            need_int(x, 1, 6, "fight.last_roll face")
        need_int(hits, 0, len(faces), "fight.last_roll hits")


# --------------------------------------------------------------------------- the built state
def probe(state) -> None:
    """A state built from a checked save must let someone act (or be over) and be viewable:
    any failure here means its parts do not fit together."""
    from .game import Game, sample_chance
    from .state import CHANCE
    game = Game(state=state.copy())
    try:
        for who in (None, 0, 1):
            game.view(who)
        if game.is_over():
            return
        players = game.current_player_ids()
        if not players:
            fail(f"nobody can act in this {state.phase} phase")
        if players == (CHANCE,):
            game.apply(sample_chance(game, random.Random(0)))
            return
        for s in players:
            acts = game.legal_actions(s)
            if not acts:
                fail(f"{SIDES[s]} has no legal action in this {state.phase} phase")
        game.apply(game.legal_actions(players[0])[0])
    except CorruptSave:
        raise
    except Exception as exc:   # the save's parts contradict each other
        fail(f"its {state.phase} phase does not fit together ({type(exc).__name__}: {exc})")

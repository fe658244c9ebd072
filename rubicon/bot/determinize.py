"""One full `GameState` sampled consistently with an `InfoState` (a determinization).

Everything the side knows is copied exactly (its blocks, hand, discard, chosen card, the public
counts per location, moved counts, levy pool sizes, eliminated and dead blocks, revealed cards,
Player 1, the command bookkeeping, road use, attacks). What it does not know is drawn with the
given RNG: which enemy blocks stand where (navis at sea, revealed battle blocks where they are
revealed, blocks seen in earlier battles preferably where they were last seen), their strengths
(a seen block at the strength it was seen), which stand in his levy pool, and his hand, discard
and chosen card from the cards this side has not seen.

Supported at every decision outside a battle being fought (`supported`); battle turns and winter
steps are decided by the heuristic, which needs no determinization.
"""
from __future__ import annotations

import random
from collections import Counter

from engine import BATTLE, BOARD, COMMAND, DEAD, ELIMINATED, POOL, SIDES, Battle, CommandState, GameState, new_fight

KEY = {b.key: b.id for b in BOARD.blocks}
EDGE = {BOARD.edge_name(e): e for e in range(BOARD.n_edges)}
LOC = {n: i for i, n in enumerate(BOARD.loc_names)}
CARD = {c.name: c.id for c in BOARD.cards}
APOLLO = CARD["Apollo"]


SEARCHED = ("Discard", "Play", "Move", "Levy", "AddStep", "EndCommand", "DeclareMain", "ChooseBattle")


def supported(info) -> bool:
    """Can the search play on from a determinization here? At the cards, in the command phase
    and when a battle is picked; not during a fight or its regroup (their turn order is not in
    the view), in the winter (decided by the heuristic), nor mid-way through Jupiter or Vulcan."""
    view = info.view
    if view["phase"] not in ("discard", "card", "command", "battle"):
        return False
    if view["phase"] == BATTLE and view["fight"] is not None:
        return False
    cmd = view.get("command")
    if cmd and cmd["event"] in ("Jupiter", "Vulcan"):
        return False
    return all(type(a).__name__ in SEARCHED for a in info.legal)


def determinize(info, rng: random.Random) -> GameState:
    """A state consistent with `info` (an `InfoState` where `supported(info.view)`)."""
    v, me = info.view, info.side
    opp = 1 - me
    s = GameState(v["options"], empty=True)
    s.year, s.turn, s.phase = v["year"], v["turn"], v["phase"]
    s.player1 = None if v["player1"] is None else SIDES.index(v["player1"])

    # --- blocks --------------------------------------------------------------------------
    known = set()
    for e in v["own_blocks"]:
        b = KEY[e["block"]]
        s.owner[b] = me
        s.steps[b] = e["steps"]
        s.moved[b] = e["moved"]
        s.place(b, LOC[e["location"]])
        known.add(b)
    for key in v["own_levy_pool"]:
        known.add(KEY[key])
    for key in v["eliminated"]:
        s.loc[KEY[key]] = ELIMINATED
        known.add(KEY[key])
    for key in v["dead_leaders"]:
        s.loc[KEY[key]] = DEAD
        known.add(KEY[key])
    hidden = [b for b in range(BOARD.n_blocks) if b not in known]   # the enemy's: on his map or pool
    _place_enemy(s, v, info.seen, opp, hidden, rng)

    # --- cards ---------------------------------------------------------------------------
    s.hands[me] = sorted(CARD[c] for c in v["hand"])
    s.discards[me] = None if v["discard"] is None else CARD[v["discard"]]
    s.chosen[me] = None if v["chosen"] is None else CARD[v["chosen"]]
    s.revealed = [[_card(r["Caesar"]), _card(r["Pompeius"]), _card(r["Caesar_counts_as"]),
                   _card(r["Pompeius_counts_as"]), r["cancelled"]] for r in v["revealed"]]
    if v["phase"] != "deal":
        unseen = Counter(BOARD.deck)
        unseen.subtract(s.hands[me])
        for c in (s.discards[me], s.chosen[me]):
            if c is not None:
                unseen[c] -= 1
        for r in s.revealed:
            unseen[r[0]] -= 1
            unseen[r[1]] -= 1
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        n = v["hand_size"][SIDES[opp]]
        s.hands[opp] = sorted(pool[:n])
        del pool[:n]
        if v["has_discarded"][SIDES[opp]]:
            s.discards[opp] = pool.pop()
        if v["has_chosen"][SIDES[opp]]:
            # Apollo cannot be played on a year's first turn (2.1): he chose something else.
            ok = [i for i, c in enumerate(pool) if c != APOLLO or s.revealed]
            s.chosen[opp] = pool.pop(ok[-1]) if ok else pool.pop()

    # --- command, roads, attacks ---------------------------------------------------------
    c = v["command"]
    if c is not None and s.phase == COMMAND:
        s.cmd = CommandState(side=SIDES.index(c["side"]), card=_card(c["card"]), mp=c["mp"], lp=c["lp"],
                             event=c["event"], mp_used=c["mp_used"], lp_used=c["lp_used"],
                             activated=[LOC[x] for x in c["activated"]], levying=c["levying"],
                             amphibious_open=c.get("amphibious_open", c["mp_used"] == 0),
                             amphibious_seas=[LOC[x] for x in c.get("amphibious_seas", [])],
                             event_done=c["event"] is not None)
    for name, n in v["road_use"].items():
        s.road_use[EDGE[name]] = n
    for bt in v["battles"]:
        s.battles[LOC[bt["location"]]] = _attack(s, bt, me, rng, {e["block"]: e["reserve"] for e in v["own_blocks"]})
    if s.phase == BATTLE:
        declaring = next((LOC[bt["location"]] for bt in v["battles"] if bt["declaring_main_attack"]), None)
        s.ext["battle"] = {"fight": _fight(s, v["fight"], me), "surprise_used": False,
                           "declaring": None if declaring is None else {"loc": declaring, "surprise": False}}
    return s


def _fight(s: GameState, f: dict | None, me: int) -> dict | None:
    """The battle being fought, as far as the view tells (its round, revealed blocks, pending
    hits): enough for the heuristic's judgement, not for playing the battle on (`supported`)."""
    if f is None:
        return None
    loc = LOC[f["location"]]
    attacker = SIDES.index(f["attacker"])
    revealed = {KEY[r["block"]] for side in SIDES for r in f["revealed"].get(side, ())}
    reserves = [b for b in s.at[loc] if b not in revealed]
    d = new_fight(loc, attacker, reserves, ([], []))
    d["round"] = f["round"]
    d["firing"] = None if f["firing"] is None else KEY[f["firing"]]
    d["hits"] = f["pending_hits"]
    return d


def _card(name):
    return None if name is None else CARD[name]


def _place_enemy(s: GameState, v: dict, seen: dict, opp: int, hidden: list[int], rng: random.Random) -> None:
    """Put `hidden` blocks on the enemy's locations (counts and moved counts as public) and the
    rest in his pool. Blocks printed on our side among them are defectors: on his map for sure."""
    wants = []   # (location, how many, how many moved)
    for name, entry in v["locations"].items():
        e = entry.get(SIDES[opp])
        if e:
            wants.append((LOC[name], e["blocks"], e["moved"]))
    forced = {b for b in hidden if BOARD.blocks[b].side != opp}
    fight = v.get("fight")
    revealed_at = {}
    if fight:
        for r in fight["revealed"].get(SIDES[opp], ()):
            revealed_at[KEY[r["block"]]] = (LOC[fight["location"]], r["strength"])
    free = [b for b in hidden if b not in revealed_at]
    rng.shuffle(free)
    # Seas first (only navis fit there), then ports, then cities: the scarce kinds first.
    wants.sort(key=lambda w: (not BOARD.is_sea[w[0]], not BOARD.is_port[w[0]], w[0]))
    placed: dict[int, list[int]] = {}
    for loc, n, _ in wants:
        chosen = [b for b, (l, _st) in revealed_at.items() if l == loc][:n]
        placed[loc] = chosen
    for loc, n, _ in wants:
        chosen = placed[loc]
        need = n - len(chosen)
        if need <= 0:
            continue
        sea = BOARD.is_sea[loc]
        fits = [b for b in free if BOARD.blocks[b].is_navis == sea or (BOARD.blocks[b].is_navis and BOARD.is_port[loc])]
        # Prefer defectors (certainly on his map), then blocks last seen here, then any.
        fits.sort(key=lambda b: (b not in forced, seen.get(BOARD.blocks[b].key, ("",))[0] != BOARD.loc_names[loc]))
        take = fits[:need]
        if len(take) < need:   # not consistent with what we believe: relax the kind
            take += [b for b in free if b not in take][:need - len(take)]
        for b in take:
            free.remove(b)
        chosen.extend(take)
    for loc, _n, moved in wants:
        blocks = placed[loc]
        order = list(blocks)
        rng.shuffle(order)
        for i, b in enumerate(order):
            s.owner[b] = opp
            s.moved[b] = i < moved
            info = BOARD.blocks[b]
            if b in revealed_at:
                s.steps[b] = max(1, revealed_at[b][1] // info.strength_per_step)
            elif info.key in seen:
                s.steps[b] = max(1, min(info.max_steps, seen[info.key][1] // info.strength_per_step))
            else:
                s.steps[b] = rng.randint((info.max_steps + 1) // 2, info.max_steps)
            s.place(b, loc)
    for b in free:   # his levy pool (and any block we could not place)
        s.owner[b] = BOARD.blocks[b].side
        s.loc[b] = POOL


def _attack(s: GameState, bt: dict, me: int, rng: random.Random, own_reserve: dict) -> Battle:
    """Attack bookkeeping consistent with the public counts: main force on the main road, the
    public number of reserves on the attacker's other roads (or, for the defender, any road)."""
    loc = LOC[bt["location"]]
    attacker = SIDES.index(bt["attacker"])
    main = None if bt["main_attack"] is None else EDGE[bt["main_attack"]]
    roads = [EDGE[r] for r in bt["attacker_roads"]]
    others = [e for e in roads if e != main] or roads
    any_road = [e for _, e in BOARD.land_adj[loc]] + [e for _, e in BOARD.sea_adj[loc]]
    entries: list[tuple[int, int | None, int]] = []
    for side in (0, 1):
        blocks = s.blocks_at(loc, side)
        if side == me:
            reserve = [b for b in blocks if own_reserve.get(BOARD.blocks[b].key)]
        else:
            order = list(blocks)
            rng.shuffle(order)
            reserve = order[:bt["reserves"][SIDES[side]]]
        for b in blocks:
            if side == attacker:
                edge = rng.choice(others) if b in reserve and others else main
                entries.append((b, edge, side))
            elif b in reserve:
                entries.append((b, rng.choice(any_road) if any_road else None, side))
    return Battle(loc, attacker, main, entries, roads, 0)

"""The fast heuristic policy (every level but random, with its own weights; the search's
rollout policy) and the evaluation of a position for one side.

Both read a `GameState` that is either a determinization (at the bot's own decision) or a
search copy; neither ever sees the real game. `choose` scores each legal action and takes the
best (a little seeded noise breaks ties and varies play):

* cards: discard the weakest, play a strong card (events valued like a good card);
* command: attack where the moving force outmatches the enemy, take vacant cities, march
  towards the nearest enemy or vacant city, keep a city held, levy and add steps, end when
  nothing is worth doing; Jupiter and Vulcan on the biggest enemy stack;
* battle: the battle with the best odds first; fire, retreat when clearly outmatched, take
  hits and regroup simply; winter: navis to the first port, disband only when forced.
"""
from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass

from engine import (
    BOARD,
    AddStep,
    ChooseBattle,
    DeclareMain,
    Disband,
    Discard,
    EndCommand,
    EndDisband,
    EndRegroup,
    Fire,
    Hit,
    InvokeJupiter,
    InvokeVulcan,
    JupiterSend,
    Levy,
    Move,
    NavisToPort,
    Pass,
    Play,
    Regroup,
    Retreat,
)

CARD_VALUE = {c.id: (c.move + 0.6 * c.levy) for c in BOARD.cards}
EVENT_VALUE = {"Apollo": 3.0, "Jupiter": 3.2, "Mars": 3.0, "Mercury": 2.8, "Neptune": 2.2, "Pluto": 3.0,
               "Vulcan": 3.0}
for _c in BOARD.cards:
    if _c.event:
        CARD_VALUE[_c.id] = EVENT_VALUE.get(_c.name, 2.5)
END_THRESHOLD = 0.35   # a command action must score above this, else the player ends his command
NOISE = 0.25
RETREAT_RATIO = 0.6    # retreat when our force is below this share of the enemy's


LAST_TURN = 5   # six cards dealt, one discarded: five game turns a year
LAST_YEAR = 709


@dataclass(frozen=True)
class Style:
    """The heuristic's weights. `NOVICE` is the easy level, `BASE` the medium one; `TUNED` and
    `TUNED_CAESAR` (hard, and the search's rollouts) were chosen by side-swapped matches against
    `BASE` (docs/bot.md)."""
    end: float = END_THRESHOLD          # a command action must score above this
    noise: float = NOISE                # seeded noise added to command scores
    retreat: float = RETREAT_RATIO      # retreat below this share of the enemy's force
    attack_ratio: float = 1.3           # attack where the joining force outmatches the enemy by this
    attack_weight: float = 2.0
    attack_vp: float = 0.6
    vacant_city: float = 1.2
    vacant_city_vp: float = 0.8
    reinforce: float = 0.25
    march: float = 0.45
    strip: float = 1.0                  # penalty for leaving a held city empty
    strip_vp: float = 0.9
    levy: float = 0.3
    card_noise: float = 1.5
    card_levy: float = 0.6              # a levy point's worth against a move point
    card_order: float = 1.0             # 1: play the strongest card first, -1: the weakest
    last_turn_city: float = 0.0         # extra for a vacant city taken in the year's last turn
    supply: float = 0.0                 # penalty per block beyond the winter supply, late in the year
    desperate: float = 0.0              # attack threshold lowered when the enemy nears 10 VP late in the year
    blunder: float = 0.0                # the share of decisions taken at random (a novice's slips)
    lone_leader: float = 3.0            # penalty for a leader walking alone into an enemy-held place
    reinforcements: float = 0.6         # share of the defender's unmoved neighbours counted as joining him
    joining: float = 0.8                # share of our unmoved neighbours counted as joining our attack
    event_position: bool = True         # value Mars, Neptune, Pluto and Mercury by the attacks on offer


BASE = Style()
# The easy level: the heuristic, but two decisions in five taken at random (a novice's slips:
# a wasted card, a march the wrong way, a battle fought on when it should retreat). Against
# medium (BASE), 200 side-swapped games (seed 2): blunder 0.15 scored 0.42, 0.25 0.315, 0.4
# 0.215, 0.5 0.115; at 0.4 it still beats random in every game (docs/bot.md).
NOVICE = Style(blunder=0.4)
# Side-swapped matches against BASE, 100 games each (bench/bot_tune.py, seed 7): one weight at a
# time moved the score by 0.04 at most but for these two: keeping blocks within the winter supply
# (8.3: a stack beyond 3 + the city's value loses the surplus) and playing the weakest card first
# (the strongest is left for the year's last turns, just before the winter's VP count).
TUNED = Style(supply=1.0, card_order=-1.0)
# Caesar starts 1 VP to 7 and Pompeius wins at 10: Caesar must attack. Caesar-only matches (80
# games, seeds 11 and 12) against BASE: attacking at even odds and ending the command later
# won 0.26 and 0.25 of the games, TUNED's weights 0.16 and 0.125 (docs/bot.md).
TUNED_CAESAR = Style(supply=1.0, card_order=-1.0, attack_ratio=1.0, end=0.15)
# The expert level: hard's weights, attacking a VP city at lower odds when the winter's count
# would lose the game otherwise (the records: Caesar facing Pompeius at 10 VP in a year's last
# turn attacked a VP city in 43 of 94 turns).
EXPERT = Style(supply=1.0, card_order=-1.0, desperate=0.5)
EXPERT_CAESAR = Style(supply=1.0, card_order=-1.0, attack_ratio=1.0, end=0.15, desperate=0.5)


def _land_distances() -> tuple[tuple[int, ...], ...]:
    far = 99
    out = []
    for start in range(BOARD.n_locs):
        dist = [far] * BOARD.n_locs
        if not BOARD.is_sea[start]:
            dist[start] = 0
            todo = deque([start])
            while todo:
                x = todo.popleft()
                for y, _ in BOARD.land_adj[x]:
                    if dist[y] == far:
                        dist[y] = dist[x] + 1
                        todo.append(y)
        out.append(tuple(dist))
    return tuple(out)


DIST = _land_distances()
VP_CITIES = tuple(l for l in range(BOARD.n_locs) if BOARD.vp[l])


def force(s, loc: int, side: int) -> int:
    """The strength `side` has at location `loc`: the steps of its blocks there times each block's strength per
    step."""
    owner, steps = s.owner, s.steps
    return sum(steps[b] * BOARD.blocks[b].strength_per_step for b in s.at[loc] if owner[b] == side)


def choose(s, side: int, legal, rng: random.Random, style: Style = BASE):
    """The heuristic's pick among `legal` (a non-empty list of `side`'s legal actions)."""
    if len(legal) == 1:
        return legal[0]
    if style.blunder and rng.random() < style.blunder:
        return rng.choice(legal)
    first = legal[0]
    if isinstance(first, (Discard, Play)):
        return _card(s, side, legal, rng, style)
    if isinstance(first, (Move, Levy, AddStep, EndCommand, InvokeJupiter, InvokeVulcan, JupiterSend, DeclareMain)):
        return _command(s, side, legal, rng, style)
    if isinstance(first, ChooseBattle):
        return max(legal, key=lambda a: _battle_odds(s, a.loc, side) + (0.5 if a.surprise else 0) + rng.random() * 0.01)
    if isinstance(first, (Fire, Pass, Retreat)):
        return _battle_turn(s, side, legal, rng, style)
    if isinstance(first, (EndRegroup, Regroup)):
        return next((a for a in legal if isinstance(a, EndRegroup)), legal[0])
    if isinstance(first, (EndDisband, Disband)):
        end = next((a for a in legal if isinstance(a, EndDisband)), None)
        if end is not None:
            return end
        return min(legal, key=lambda a: (s.strength(a.block) + (1.5 if _LEADER[a.block] else 0.0), a.block))
    if isinstance(first, Hit):
        return min(legal, key=lambda a: _hit_cost(s, a.block))
    if isinstance(first, NavisToPort):
        return first
    return rng.choice(legal)


_LEADER = tuple(b.is_leader for b in BOARD.blocks)
# Events whose worth is an attack: without an enemy place in reach of a stack of ours they are
# worth a weak card (the records: Mars played with no attack 113 times in 178).
ATTACK_EVENTS = frozenset(c.id for c in BOARD.cards if c.event in ("Mars", "Neptune", "Pluto", "Mercury"))
IDLE_EVENT_VALUE = 1.6


def _hit_cost(s, b: int) -> tuple:
    """Which of the equally strong blocks offered takes a hit (7.4): never a leader while another
    block can (a dead leader is a VP to the enemy), and a block that survives it before one that
    dies."""
    return (_LEADER[b], s.steps[b] <= 1, b == BOARD.cleopatra, b)


def _card_value(card: int, style: Style, s=None, side: int = 0) -> float:
    c = BOARD.cards[card]
    if c.event:
        if style.event_position and s is not None and card in ATTACK_EVENTS and not _attack_in_reach(s, side):
            return IDLE_EVENT_VALUE
        return CARD_VALUE[card]
    if style.card_levy == BASE.card_levy:
        return CARD_VALUE[card]
    return c.move + style.card_levy * c.levy


def _attack_in_reach(s, side: int) -> bool:
    """Whether a stack of ours stands next to (by land or across one sea) an enemy place it could
    attack at fair odds: what Mars, Neptune, Pluto and Mercury are played for."""
    opp = 1 - side
    seen = set()
    for b in s.fielded[side]:
        loc = s.loc[b]
        if loc in seen or BOARD.is_sea[loc] or s.count[loc][opp]:
            continue
        seen.add(loc)
        mine = force(s, loc, side)
        for n in _REACH[loc]:
            if s.count[n][opp] and not s.count[n][side] and mine >= 0.8 * force(s, n, opp):
                return True
    return False


def _card(s, side: int, legal, rng: random.Random, style: Style = BASE):
    scored = [(_card_value(a.card, style, s, side) + rng.random() * style.card_noise, a) for a in legal]
    if isinstance(legal[0], Discard):
        return min(scored, key=lambda x: x[0])[1]
    if style.card_order != 1.0:
        scored = [(_card_value(a.card, style, s, side) * style.card_order + rng.random() * style.card_noise, a)
                  for a in legal]
    return max(scored, key=lambda x: x[0])[1]


def _targets(s, side: int) -> list[int]:
    return [l for l in VP_CITIES if not s.friendly(l, side)]


def _nearest(targets: list[int], loc: int) -> int:
    row = DIST[loc]
    return min((row[t] for t in targets), default=99)


class _Ctx:
    """What one command decision reads of a state, each worked out once: the decision scores
    ~100 moves that ask the same few places the same questions (a search's rollouts are
    mostly this)."""

    __slots__ = ("s", "side", "targets", "_force", "_near", "_threat", "_reserve", "behind")

    def __init__(self, s, side: int):
        self.s, self.side = s, side
        self.targets = _targets(s, side)
        self._force: dict = {}
        self._near: dict = {}
        self._threat: dict = {}
        self._reserve: dict = {}
        self.behind: bool | None = None

    def force(self, loc: int, side: int) -> int:
        k = loc * 2 + side
        v = self._force.get(k)
        if v is None:
            v = self._force[k] = force(self.s, loc, side)
        return v

    def near(self, loc: int) -> int:
        v = self._near.get(loc)
        if v is None:
            v = self._near[loc] = _nearest(self.targets, loc)
        return v

    def threat(self, loc: int) -> int:
        v = self._threat.get(loc)
        if v is None:
            opp, side = 1 - self.side, self.side
            count = self.s.count
            worst = 0
            for n, _ in BOARD.land_adj[loc]:
                if count[n][opp] and not count[n][side]:
                    worst = max(worst, self.force(n, opp))
            v = self._threat[loc] = worst - self.force(loc, side)
        return v

    def reserve(self, loc: int, side: int) -> int:
        k = loc * 2 + side
        v = self._reserve.get(k)
        if v is None:
            v = self._reserve[k] = _reserve_force(self.s, loc, side)
        return v

    def behind_at_winter(self) -> bool:
        if self.behind is None:
            self.behind = _behind_at_winter(self.s, self.side)
        return self.behind


def choose_sampled(states: list, side: int, legal, rng: random.Random, style: Style = BASE):
    """`choose` with a command decision scored over several determinizations (the mean score):
    the odds of an attack over many draws of the enemy's hidden strengths, not one."""
    first = legal[0]
    if len(states) == 1 or len(legal) == 1 or not isinstance(
            first, (Move, Levy, AddStep, EndCommand, InvokeJupiter, InvokeVulcan, JupiterSend, DeclareMain)):
        return choose(states[0], side, legal, rng, style)
    if style.blunder and rng.random() < style.blunder:
        return rng.choice(legal)
    return _command(states, side, legal, rng, style)


def _command(s, side: int, legal, rng: random.Random, style: Style = BASE):
    opp = 1 - side
    states = s if isinstance(s, list) else [s]
    ctxs = [_Ctx(x, side) for x in states]
    k = len(states)
    best, best_score = None, -math.inf
    end = None
    for a in legal:
        if isinstance(a, EndCommand):
            end = a
            continue
        if k == 1:
            score = _command_score(states[0], side, opp, a, ctxs[0], style)
        else:
            score = sum(_command_score(x, side, opp, a, t, style) for x, t in zip(states, ctxs, strict=True)) / k
        score += rng.random() * style.noise
        if score > best_score:
            best, best_score = a, score
    if end is not None and (best is None or best_score < style.end):
        return end
    return best


def _command_score(s, side: int, opp: int, a, ctx: _Ctx, style: Style = BASE) -> float:
    if isinstance(a, Move):
        return _move_score(s, side, opp, a, ctx, style)
    # A levy ends movement (6.4): levies and steps score just above ending, so every move
    # worth making comes first and the levy points are spent last.
    if isinstance(a, Levy):
        if BOARD.blocks[a.block].is_navis:
            return style.end + 0.05
        return style.end + style.levy + 0.1 * (ctx.near(a.loc) <= 2) + 0.2 * (ctx.threat(a.loc) > 0) \
            - _over_supply(s, a.loc, side, style)
    if isinstance(a, AddStep):
        b = a.block
        return style.end + 0.2 if s.steps[b] < BOARD.blocks[b].max_steps else 0.0
    if isinstance(a, InvokeJupiter):
        return 2.0 + s.count[a.loc][opp]
    if isinstance(a, InvokeVulcan):
        return 1.0 + s.count[a.loc][opp] - 2 * s.count[a.loc][side]
    if isinstance(a, DeclareMain):
        return -1e9   # the first road stays the main attack: re-declaring could go on forever
    return 1.0   # JupiterSend: any destination


def _move_score(s, side: int, opp: int, a, ctx: _Ctx, style: Style = BASE) -> float:
    b, dst = a.block, a.path[-1]
    src = s.loc[b]
    mine = s.strength(b)
    score = 0.0
    if BOARD.blocks[b].is_navis:
        return 0.2 if s.count[dst][opp] == 0 else 0.2 + (mine + ctx.force(dst, side) - ctx.force(dst, opp)) * 0.2
    if s.count[dst][opp]:
        # The force that can join this attack: ours already there and our unmoved blocks next door.
        ours = ctx.force(dst, side) + style.joining * ctx.reserve(dst, side) + (0 if src in _ADJ[dst] else mine)
        theirs: float = ctx.force(dst, opp)
        if style.reinforcements and s.player1 == side:   # he commands after us: his neighbours may join
            theirs += style.reinforcements * ctx.reserve(dst, opp)
        theirs = theirs or 1
        if style.lone_leader and _LEADER[b] and not s.count[dst][side]:
            score -= style.lone_leader   # a leader alone in front: dies at the first hit, a VP to him
        ratio = ours / theirs
        need = style.attack_ratio
        if style.desperate and BOARD.vp[dst] and s.turn >= LAST_TURN - 1 and ctx.behind_at_winter():
            need -= style.desperate   # his win at the winter is worse than a lost battle
        score += (ratio - need) * style.attack_weight + \
            (BOARD.vp[dst] * style.attack_vp if ratio > need else 0.0)
    elif BOARD.vp[dst] and s.count[dst][side] == 0:
        score += style.vacant_city + style.vacant_city_vp * BOARD.vp[dst]
        if style.last_turn_city and s.turn >= LAST_TURN:
            score += style.last_turn_city * BOARD.vp[dst]
    elif BOARD.vp[dst] and (threat := ctx.threat(dst)) > 0:   # reinforce a threatened city
        score += style.reinforce * BOARD.vp[dst] * min(threat, mine)
    elif not BOARD.is_sea[src] and not BOARD.is_sea[dst]:
        score += style.march * (ctx.near(src) - ctx.near(dst))
    if style.supply and not BOARD.is_sea[dst]:
        score -= _over_supply(s, dst, side, style)
    if BOARD.vp[src] and not s.count[src][opp]:
        if s.count[src][side] == 1:
            score -= style.strip + style.strip_vp * BOARD.vp[src]
        elif ctx.threat(src) + mine > 0:
            score -= 0.2 * BOARD.vp[src] * min(mine, ctx.threat(src) + mine)
    return score


def _behind_at_winter(s, side: int) -> bool:
    """Whether the coming winter's VP count loses the game for `side` as things stand: the enemy
    at 9 or more (10 wins), or the last year's count with `side` not ahead (1.2)."""
    mine, his = s.vp(side), s.vp(1 - side)
    return his >= 9 or (s.year >= LAST_YEAR and his >= mine)


def _over_supply(s, loc: int, side: int, style: Style) -> float:
    """Winter supply (8.3): a land place feeds 3 + its value blocks; one more is disbanded."""
    if not style.supply:
        return 0.0
    extra = s.count[loc][side] + 1 - (3 + BOARD.vp[loc])
    return style.supply * extra * s.turn / LAST_TURN if extra > 0 else 0.0


_ADJ = tuple(frozenset(n for n, _ in BOARD.land_adj[l]) for l in range(BOARD.n_locs))
# Land neighbours and the ports one sea away (an amphibious attack, or Neptune's).
_REACH = tuple(_ADJ[l] | frozenset(p for sea in BOARD.port_seas[l] for p in BOARD.sea_ports[sea] if p != l)
               for l in range(BOARD.n_locs))


def _reserve_force(s, loc: int, side: int) -> int:
    total = 0
    for n in _ADJ[loc]:
        if s.count[n][side] and not s.count[n][1 - side]:
            total += sum(s.strength(b) for b in s.at[n] if s.owner[b] == side and not s.moved[b])
    return total


def _battle_odds(s, loc: int, side: int) -> float:
    ours, theirs = force(s, loc, side), force(s, loc, 1 - side)
    return ours / (theirs or 1)


def _battle_turn(s, side: int, legal, rng: random.Random, style: Style = BASE):
    fight = (s.ext.get("battle") or {}).get("fight")
    retreats = [a for a in legal if isinstance(a, Retreat)]
    fires = [a for a in legal if isinstance(a, Fire)]
    if retreats and fight is not None:
        loc = fight["loc"]
        ours, theirs = force(s, loc, side), force(s, loc, 1 - side)
        b = retreats[0].block
        # A leader at I dies at the next hit on him (a VP to the enemy): he does not stay to
        # fire unless we are clearly winning there.
        weak_leader = style.lone_leader and _LEADER[b] and s.steps[b] <= 1 and ours < 2 * theirs
        if ours < style.retreat * theirs or not fires or weak_leader:
            go = [a for a in retreats if a.loc is not None and s.friendly(a.loc, side)] or \
                 [a for a in retreats if a.loc is not None] or retreats
            return go[0]
    if fires:
        return fires[0]
    return next((a for a in legal if isinstance(a, Pass)), legal[0])


def evaluate(s, side: int) -> float:
    """How good `s` looks for `side`, in [0, 1] (1: won). VP, strength on the map, and the
    cities being fought for, shared by strength."""
    r = s.result
    if r is not None:
        w = r["winner"]
        return 0.5 if w is None else (1.0 if w == side else 0.0)
    opp = 1 - side
    x = float(s.vp(side) - s.vp(opp))
    mat = 0
    owner, steps, loc = s.owner, s.steps, s.loc
    for b in range(BOARD.n_blocks):
        if loc[b] >= 0:
            st = steps[b] * BOARD.blocks[b].strength_per_step
            mat += st if owner[b] == side else -st
    x += 0.12 * mat
    for l in s.contested_locations():
        if BOARD.vp[l]:
            ours, theirs = force(s, l, side), force(s, l, opp)
            x += BOARD.vp[l] * (ours - theirs) / (ours + theirs)
    return 1.0 / (1.0 + math.exp(-x / 3.0))


def ranked(s, side: int, legal, rng: random.Random, style: Style = BASE) -> list:
    """`legal` best first by the heuristic's own scores (the search widens from the top)."""
    first = legal[0]
    if isinstance(first, (Discard, Play)):
        rev = isinstance(first, Discard)
        return sorted(legal, key=lambda a: _card_value(a.card, style) * (1 if rev else -1))
    if isinstance(first, (Move, Levy, AddStep, EndCommand, InvokeJupiter, InvokeVulcan, JupiterSend)):
        opp, ctx = 1 - side, _Ctx(s, side)
        scored = [(-_command_score(s, side, opp, a, ctx, style) - rng.random() * style.noise
                   if not isinstance(a, EndCommand) else -style.end, i, a) for i, a in enumerate(legal)]
        return [a for _, _, a in sorted(scored)]
    pick = choose(s, side, legal, rng, style)
    return [pick] + [a for a in legal if a != pick]

"""Rules audit of the card and command phases (2.1, 6.x, events): one test per discrepancy
found, each citing the rule, plus a property test that every refused action of these phases
names its rule and leaves the state exactly as it was."""
import json
import random
import re

import pytest

from engine.actions import (
    AddStep,
    Deal,
    DeclareMain,
    Discard,
    EndCommand,
    InvokeJupiter,
    InvokeVulcan,
    JupiterPick,
    JupiterSend,
    Levy,
    Move,
    Play,
    TakeBack,
)
from engine.board import BOARD
from engine.errors import IllegalAction
from engine.game import sample_chance
from engine.movement import move_error
from engine.notation import RecordError, replay
from engine.state import CARD, CHANCE, COMMAND, DISCARD

from .helpers import command_game, deal, position, refused, year_begun
from .test_random_play import play

# --- 2.1: only the two players hold, discard and play cards ------------------------------------

@pytest.mark.parametrize("actor", [CHANCE, -1, 3])
def test_only_caesar_and_pompeius_play_cards(actor):
    g = year_begun(["Apollo"], ["Mars"], ("2/1", "2/1"))
    card = g.state.hands[1][0]          # a card Pompeius holds: actor -1 must not pass for him
    refused(g, Play(actor, card), "2.1 only Caesar and Pompeius|malformed action")


@pytest.mark.parametrize("actor", [CHANCE, -1, 3])
def test_only_caesar_and_pompeius_discard(actor):
    g = position({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]})
    deal(g, ["Apollo"], ["Mars"])
    refused(g, Discard(actor, g.state.hands[1][0]), "2.1 only Caesar and Pompeius|malformed action")


# --- 6.0 / Jupiter: Chance only supplies the blind pick ----------------------------------------

def test_chance_cannot_end_the_jupiter_players_command_while_the_pick_is_due():
    g = command_game({"Genua": ["C Legio 12"], "Roma": ["P Legio 1"]}, "Jupiter", "2/2")
    g.apply("Caesar invokes Jupiter on Roma")
    assert g.current_players() == ["Chance"]
    refused(g, EndCommand(CHANCE), "Chance")


# --- property: a refused action names its rule and changes nothing ------------------------------

def _random_action(rng: random.Random, st):
    """Any action of the card or command phase, fields drawn from the plausible (a block's
    neighbours, its own side) and from the absurd (other actors, ids out of range)."""
    actor = rng.choice([0, 1, 0, 1, CHANCE, -1])
    nb, nl, nc = BOARD.n_blocks, BOARD.n_locs, len(BOARD.cards)
    b = rng.randrange(nb) if rng.random() < 0.9 else rng.choice([-1, nb])
    l, l2 = (rng.randrange(nl) if rng.random() < 0.9 else rng.choice([-1, nl]) for _ in range(2))
    c = rng.randrange(nc) if rng.random() < 0.9 else rng.choice([-1, nc])
    if 0 <= b < nb and st.loc[b] >= 0 and rng.random() < 0.8:
        path = [st.loc[b]]
        for _ in range(rng.randint(1, 4)):
            path.append(rng.choice(BOARD.neighbours[path[-1]]))
        path = tuple(path)
    else:
        path = tuple(rng.randrange(nl) for _ in range(rng.randint(0, 3)))
    hand = lambda: tuple(rng.randrange(nc) for _ in range(6))   # noqa: E731
    return rng.choice([
        lambda: Move(actor, b, path), lambda: Levy(actor, b, l), lambda: AddStep(actor, b),
        lambda: DeclareMain(actor, l, l2), lambda: EndCommand(actor), lambda: TakeBack(actor),
        lambda: InvokeJupiter(actor, l), lambda: JupiterPick(b), lambda: JupiterSend(actor, b, l),
        lambda: InvokeVulcan(actor, l), lambda: Play(actor, c), lambda: Discard(actor, c),
        lambda: Deal(hand(), hand())])()


# A refusal starts with its rule: a section number, the event card, or what is malformed (ids
# out of range are no rule). Take-back is the engine's own, not a rule.
NAMES_ITS_RULE = re.compile(r"^(\d+\.\d+ |(Apollo|Jupiter|Mars|Mercury|Neptune|Pluto|Vulcan)\b|the \S+ card gives no "
                            r"move|no (block|location|card) number|malformed action|\w+ has nothing to take back)")


def _amphibious(a) -> bool:
    return isinstance(a, Move) and not BOARD.blocks[a.block].is_navis and BOARD.is_sea[a.path[1]]


def _refusals_name_a_rule_and_change_nothing(g, rng) -> None:
    st = g.state
    if st.phase not in (DISCARD, CARD, COMMAND):
        return
    listed = {str(a) for a in g.legal_actions(take_back=True)}
    moves = [a for a in g.legal_actions() if isinstance(a, Move)]
    before = json.dumps(g.state.to_json(), sort_keys=True)
    for _ in range(6):
        a = _random_action(rng, st)
        c = g.copy()
        try:
            c.apply(a)
        except IllegalAction as e:
            assert NAMES_ITS_RULE.match(str(e)), (repr(a), str(e))
            assert json.dumps(c.state.to_json(), sort_keys=True) == before, (repr(a), str(e))
            continue
        # accepted: a player's action must have been listed (the listing gives one amphibious
        # route per destination port, so other routes to a listed port are fine)
        if isinstance(a, (Deal, JupiterPick)):
            continue
        if _amphibious(a):   # listed: a route to that port crossing no sea that a does not
            assert any(_amphibious(m) and (m.block, m.path[-1]) == (a.block, a.path[-1])
                       and set(m.path[1:-1]) <= set(a.path[1:-1]) for m in moves), str(a)
        else:
            assert str(a) in listed, str(a)


@pytest.mark.parametrize("seed", range(3))
def test_refused_card_and_command_actions_change_nothing(seed):
    play(7000 + seed, 600, on_state=_refusals_name_a_rule_and_change_nothing, aggressive=seed != 0)


# --- records (docs/notation.md): one value per option, UTF-8 with or without its signature ------

def test_a_header_that_sets_an_option_twice_is_refused():
    text = "Option winter_order: v1.01\nOption winter_order: first-edition\n"
    with pytest.raises(RecordError, match="<record>:2: rules option winter_order is already set to 'v1.01'"):
        replay(text)


def test_a_record_saved_with_the_utf8_signature_replays():
    deal_line = "Chance deals Caesar: 4/1 3/2 3/2 3/1 3/1 3/1; Pompeius: 2/3 2/3 2/3 2/3 2/2 2/2\n"
    g = replay("\ufeff# a record saved by a Windows editor\n" + deal_line)
    assert g.state.phase == DISCARD and g.history == [deal_line.strip()]


# --- 2.1: the deal and Apollo ------------------------------------------------------------------

def test_a_deal_given_as_lists_is_checked_like_any_deal():
    g = position({"Massilia": ["C Legio 11"], "Utica": ["P Legio 39"]})
    c = BOARD.card
    refused(g, Deal([c("4/1")] * 6, [c("3/1")] * 6), "2.1 the deck holds only 1 4/1")
    g.apply(Deal([c("4/1"), c("3/2"), c("3/2"), c("3/1"), c("3/1"), c("3/1")],
                 [c("2/3"), c("2/3"), c("2/3"), c("2/3"), c("2/2"), c("2/2")]))
    assert g.state.phase == DISCARD


def test_apollo_on_the_first_turn_is_refused_naming_rule_2_1():
    g = year_begun(["Apollo"], ["Mars"], ("2/1", "2/1"))
    refused(g, "Caesar plays Apollo", r"^2\.1 Apollo copies the opponent's card of the previous turn")


# --- 6.3: the amphibious route decides which seas must keep a navis ----------------------------

def test_a_path_too_long_is_refused_naming_rule_6_1_or_6_2():
    g = command_game({"Massilia": ["C Legio 11", "C Navis 1"], "Alexandria": ["P Legio 38"]})
    refused(g, "Caesar moves Legio 11 Massilia-Genua-Roma-Neapolis", r"^6\.1 blocks move one or two locations")
    refused(g, "Caesar moves Navis 1 Massilia-Mare Hispanum-Mare Tyrrhenum-Mare Internum",
            r"^6\.2 navis move one or two seas")


def test_every_amphibious_route_with_its_own_seas_is_listed():
    """6.3: one navis must stay in each sea crossed until the command phase ends, so the route
    is the player's choice: Genua to Utica by Mare Hispanum binds Navis 1, by Mare Tyrrhenum
    binds Navis 2. Both must be offered (a route crossing more seas than another to the same
    port binds more navis for the same MP: it need not be listed, and is still accepted)."""
    g = command_game({"Genua": ["C Legio 12"], "Mare Hispanum": ["C Navis 1"],
                      "Mare Tyrrhenum": ["C Navis 2"], "Alexandria": ["P Legio 38"]}, "3/1", "1/2")
    to_utica = {str(a) for a in g.legal_actions()
                if isinstance(a, Move) and a.block == BOARD.block("C Legio 12")
                and a.path[-1] == BOARD.location("Utica")}
    assert to_utica == {"Caesar moves Legio 12 Genua-Mare Hispanum-Utica",
                        "Caesar moves Legio 12 Genua-Mare Tyrrhenum-Utica"}
    g.apply("Caesar moves Legio 12 Genua-Mare Tyrrhenum-Utica")
    g.apply("Caesar moves Navis 1 Mare Hispanum-Massilia")     # Mare Hispanum was not crossed
    refused(g, "Caesar moves Navis 2 Mare Tyrrhenum-Roma", "6.3 one navis must stay in Mare Tyrrhenum")


# --- property over random positions: every event card, blocks anywhere, battles and pins ---------

EVENT_CARDS = ["Mars", "Neptune", "Mercury", "Pluto", "Jupiter", "Vulcan"]
COMMAND_CARDS = ["4/1", "3/2", "3/1", "2/3", "2/2", "2/1", "1/3", "1/2"]


def _random_position(rng: random.Random):
    """A command phase of turn 1 over a random map: each block on the map with chance 0.6 (land
    blocks in 14 random cities, navis at sea or in ports), one side per location, random
    strength; random cards (one of them possibly an event)."""
    cities = [l for l in range(BOARD.n_locs) if BOARD.is_city[l]]
    navis_places = [l for l in range(BOARD.n_locs) if BOARD.is_sea[l] or BOARD.is_port[l]]
    region = rng.sample(cities, 14)
    placed: dict[str, list[str]] = {}
    for info in BOARD.blocks:
        if rng.random() < 0.6:
            loc = rng.choice(navis_places if info.is_navis else region)
            placed.setdefault(BOARD.loc_names[loc], []).append(info.key)
    side_of = lambda key: BOARD.blocks[BOARD.block(key)].side   # noqa: E731
    for loc, keys in placed.items():
        keep = rng.choice(sorted({side_of(k) for k in keys}))
        placed[loc] = [k for k in keys if side_of(k) == keep]
    steps = {k: rng.randint(1, BOARD.blocks[BOARD.block(k)].max_steps) for ks in placed.values() for k in ks}
    cards = [rng.choice(EVENT_CARDS + COMMAND_CARDS * 2), rng.choice(COMMAND_CARDS)]
    if cards[0] == cards[1] and cards[0] in ("4/1", "1/3"):   # one of each in the deck
        cards[1] = "2/2"
    rng.shuffle(cards)
    return command_game(placed, cards[0], cards[1], steps=steps)


def _listed_moves_are_the_accepted_ones(g) -> None:
    st = g.state
    side = st.cmd.side
    listed = {a for a in g.legal_actions() if isinstance(a, Move)}
    for b in range(BOARD.n_blocks):
        if st.owner[b] != side or st.loc[b] < 0:
            continue
        adj = BOARD.sea_adj if BOARD.blocks[b].is_navis else BOARD.land_adj
        paths = [(st.loc[b],)]
        while paths:
            p = paths.pop()
            for n, _ in adj[p[-1]]:   # every path, revisits included (the Mercury ruling)
                q = p + (n,)
                assert (move_error(st, side, b, q) is None) == (Move(side, b, q) in listed), \
                    (str(Move(side, b, q)), move_error(st, side, b, q))
                if len(q) < 4:
                    paths.append(q)


@pytest.mark.parametrize("chunk", range(3))
def test_random_positions_list_exactly_the_legal_moves_and_refusals_change_nothing(chunk):
    for seed in range(chunk * 25, chunk * 25 + 25):
        rng = random.Random(seed)
        g = _random_position(rng)
        for _ in range(40):
            if g.state.phase != COMMAND:
                break
            if g.is_chance_node():
                g.apply(sample_chance(g, rng))
                continue
            _refusals_name_a_rule_and_change_nothing(g, rng)
            _listed_moves_are_the_accepted_ones(g)
            acts = [a for a in g.legal_actions() if not isinstance(a, TakeBack)]
            attacks = [a for a in acts if isinstance(a, Move) and g.state.count[a.path[-1]][1 - a.actor]]
            if attacks and rng.random() < 0.6:
                g.apply(rng.choice(attacks))
            else:   # ending the command comes late: moves and levies first
                moving = [a for a in acts if not isinstance(a, EndCommand)]
                g.apply(rng.choice(moving if moving and rng.random() < 0.8 else acts))

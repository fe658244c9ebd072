"""Every decision as a prompt, the battle layout, the reference pages and the record download,
through the Flask test client."""
import random

from engine import BOARD, Game, Move, parse_action
from web_ui.battle_view import layout
from web_ui.prompts import prompts

from .conftest import pair, play_until


def offered_of(legal) -> list[str]:
    """The legal lines a phone offers: all but a move out and back to where the block stands."""
    def back(line):
        action = parse_action(line)
        return isinstance(action, Move) and action.path[0] == action.path[-1]
    return [line for line in legal if not back(line)]


def lines_of(prompt: dict) -> list[str]:
    out = [c["line"] for c in prompt["choices"]]
    out += [p["line"] for m in prompt["moves"] for d in m["to"] for p in d["paths"]]
    for r in prompt["rows"]:
        out += [x for x in (r["fire"], r["pass"]) if x] + [x["line"] for x in r["retreat"]]
    return out + [x for x in (prompt["done"], prompt["take_back"]) if x]


def test_the_prompts_offer_exactly_the_legal_lines_at_every_decision(table):
    kinds = set()
    rng = random.Random(5)
    for _ in range(700):
        snap = table.snapshot()
        if snap.result is not None:
            break
        for side in ("Caesar", "Pompeius"):
            mine = prompts(list(snap.side(side).pending), side)
            offered = [line for p in mine for line in lines_of(p)]
            legal = [o["line"] for o in snap.side(side).options()]
            assert sorted(offered) == sorted(offered_of(legal)), (side, [p["kind"] for p in mine])
            kinds |= {p["kind"] for p in mine}
        side = next(s for s in snap.waiting_for if s != "Chance")
        legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
        assert table.act(side, rng.choice(legal)).ok
    assert {"discard", "play", "command", "battle-turn"} <= kinds


def test_a_move_is_offered_as_block_then_destination_then_path(app, table):
    assert play_until(table, lambda s: any(d["kind"] == "command" for p in s.sides.values() for d in p.pending))
    snap = table.snapshot()
    side = next(s for s in ("Caesar", "Pompeius") if any(d["kind"] == "command" for d in snap.side(s).pending))
    state = pair(app, side).get("/play/state").get_json()
    command = next(p for p in state["prompts"] if p["kind"] == "command")
    assert command["done"] == f"{side} ends command"
    moves = [line for line in offered_of(state["legal"]) if " moves " in line]
    assert sum(len(d["paths"]) for m in command["moves"] for d in m["to"]) == len(moves)
    several = [(m, d) for m in command["moves"] for d in m["to"] if len(d["paths"]) > 1]
    for m, d in several[:3]:
        for p in d["paths"]:
            assert p["line"] == f"{side} moves {m['block']} " + "-".join([m["from"], *p["via"], d["place"]])


def test_a_battle_turn_is_one_row_per_block_and_the_layout_has_every_die(app, table):
    def battle_turn_after_a_roll(s):
        fight = s.public.view.get("fight")
        return fight and fight["last_roll"] and any(d["kind"] == "battle-turn" for d in s.public.pending)
    assert play_until(table, battle_turn_after_a_roll, seed=4)
    snap = table.snapshot()
    side = next(d["actor"] for d in snap.public.pending if d["kind"] == "battle-turn")
    state = pair(app, side).get("/play/state").get_json()
    turn = next(p for p in state["prompts"] if p["kind"] == "battle-turn")
    assert turn["rows"] and all(r["fire"] or r["pass"] or r["retreat"] for r in turn["rows"])
    public = app.test_client().get("/state").get_json()
    battle = public["battle"]
    fight = snap.public.view["fight"]
    assert battle["location"] == fight["location"] and [c["letter"] for c in battle["columns"]] == list("ABCD")
    placed = {b["block"]: c["letter"] for c in battle["columns"] for role in ("attacker", "defender") for b in c[role]}
    revealed = {b["block"] for blocks in fight["revealed"].values() for b in blocks}
    assert set(placed) == revealed
    for key, letter in placed.items():
        info = next(b for b in BOARD.blocks if b.key == key)
        attacking = any(b["block"] == key for b in fight["revealed"][fight["attacker"]])
        assert letter == (info.initiative_attacking if attacking else info.initiative)
    assert battle["dice"] and battle["dice"][-1]["faces"] == fight["last_roll"]["faces"]
    assert all(r["block"] is None or r["block"] in revealed for r in battle["dice"])


def test_outside_a_battle_there_is_no_layout():
    assert layout({"fight": None}, []) is None


def test_the_reference_pages(app):
    anyone = app.test_client()
    rules = anyone.get("/reference/rules")
    assert rules.status_code == 200 and "Rules summary" in rules.get_data(as_text=True)
    cards = anyone.get("/reference/cards").get_data(as_text=True)
    assert "27 cards" in cards and all(f">{c.name}</th>" in cards for c in BOARD.cards)
    assert "defects" in cards and "Surprise attack" in cards
    assert anyone.get("/reference/blocks").status_code == 401
    page = pair(app, "Pompeius").get("/reference/blocks").get_data(as_text=True)
    assert ">Pompeius</th>" in page and ">Cleopatra</th>" in page and ">Antonius</th>" not in page
    assert "Utica" in page          # a legion's levy city


def test_the_record_is_refused_until_the_game_is_over_then_downloads(app, table):
    public = app.test_client()
    for path in ("/record.json", "/record.txt"):
        resp = public.get(path)
        assert resp.status_code == 404 and "once the game is over" in resp.get_data(as_text=True)
    assert public.get("/state").get_json()["final"] is None
    assert play_until(table, lambda s: s.result is not None, seed=1, steps=4000)
    snap = table.snapshot()
    saved = public.get("/record.json")
    assert saved.status_code == 200 and "attachment" in saved.headers["Content-Disposition"]
    game = Game.load(saved.get_json())
    assert game.result() == snap.result
    text = public.get("/record.txt").get_data(as_text=True)
    assert text.count("\n") >= snap.lines and "Chance deals" in text
    final = public.get("/state").get_json()["final"]
    assert {b["block"] for b in final["Pompeius"]} == {b["block"] for b in snap.side("Pompeius").view["own_blocks"]}

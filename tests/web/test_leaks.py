"""Hidden information is a security property: at every phase reached in random games (and a
sample of the steps within), every endpoint fetched as the public, as Caesar and as Pompeius
carries nothing the rules hide from that viewer: the other side's hand, discard and chosen card,
the identity of its unrevealed blocks, its levy pool. That includes the prompts and the battle
layout in the state, the reference pages (which never depend on the game) and the record
download (refused until the game is over; then everything is revealed). On a table with the
virtual board: the virtual table's state as each viewer reads it, the table's instructions and
messages, and a probe of the other side's blocks (refused alike, nothing moves)."""
import json
import random
import re

from firmware_bridge.virtual_table import layout_from_views

from .conftest import csrf_of, pair

GAMES = int(__import__("os").environ.get("LEAK_GAMES", 20))
STEPS = 2000
# Sampled to keep 20 games near a minute: a share of the changes of (year, turn, phase), the
# first battle step of each battle phase, and a share of all the other steps.
CHANGES = 0.3
SAMPLE = 0.02
REFERENCE = ("/reference/rules", "/reference/cards", "/reference/blocks")


def hidden_from(table, viewer: str | None) -> set[str]:
    """Block keys the viewer may not see now: every block on the map of the other side(s) that
    the battle under way has not revealed."""
    snap = table.snapshot()
    public = snap.public.view
    revealed = set()
    if public.get("fight"):
        for blocks in public["fight"]["revealed"].values():
            revealed |= {b["block"] for b in blocks}
    if viewer is not None:
        # Jupiter: the player touched the picked block and sends it on; it is his to see (2.1).
        revealed |= {d["params"]["block"] for d in snap.for_viewer(viewer)["pending"]
                     if d["kind"] == "jupiter-send" and d["actor"] == viewer}
    out = set()
    for side in ("Caesar", "Pompeius"):
        if side == viewer:
            continue
        for b in snap.side(side).view["own_blocks"]:
            if b["block"] not in revealed:
                out.add(b["block"])
    return out


def page_text(client, path) -> tuple[int, str]:
    resp = client.get(path)
    # The CSRF tokens (the page's meta and the language menu's form) differ per request by design.
    text = re.sub(r'<meta name="csrf-token"[^>]*>', "", resp.get_data(as_text=True))
    return resp.status_code, re.sub(r'name="csrf_token" value="[^"]*"', "", text)


def check_pages(table, clients, reference) -> None:
    """The reference pages are the same at every phase sampled (so they carry nothing of the game), and
    the record is refused until the game is over."""
    over = table.snapshot().result is not None
    for viewer, client in clients.items():
        for path in REFERENCE:
            assert page_text(client, path) == reference[viewer, path], (viewer, path)
        for path in ("/record.json", "/record.txt"):
            status, text = page_text(client, path)
            if over:
                assert status == 200 and "deals" in text
            else:
                assert status == 404 and "deals" not in text and "discards" not in text


def check(app, table, clients) -> None:
    snap = table.snapshot()
    if snap.result is not None:
        # Game over: everything is revealed (the TV lists every block); the record is public.
        final = clients[None].get("/state").get_json()["final"]
        assert {b["block"] for b in final["Caesar"]} == {b["block"] for b in snap.side("Caesar").view["own_blocks"]}
        return
    for viewer, client, path in [(None, clients[None], "/state"), ("Caesar", clients["Caesar"], "/play/state"),
                                 ("Pompeius", clients["Pompeius"], "/play/state")]:
        body = client.get(path).get_json()
        assert body.get("final") is None
        # The log names blocks as they were when each entry was written (a block eliminated face
        # up, later levied again, stays named in its old entry); each entry's secrecy at the
        # moment it is written is the engine's own test (tests/engine/test_history.py).
        text = json.dumps({k: v for k, v in body.items() if k != "log"})
        leaked = {k for k in hidden_from(table, viewer) if f'"{k}"' in text}
        assert not leaked, f"{viewer or 'public'} sees {leaked} in {snap.public.view['phase']}"
        view = body["view"]
        if viewer is None:
            assert not {"hand", "discard", "chosen", "own_blocks", "own_levy_pool"} & set(view)
            assert "legal" not in body
        else:
            other = "Pompeius" if viewer == "Caesar" else "Caesar"
            assert view == snap.side(viewer).view
            assert all(line.startswith(viewer + " ") for line in body["legal"])
            other_pool = set(snap.side(other).view["own_levy_pool"])
            assert not other_pool & set(view["own_levy_pool"])


def test_no_endpoint_leaks_hidden_information_at_any_phase(app, table):
    clients = {None: app.test_client(), "Caesar": pair(app, "Caesar"), "Pompeius": pair(app, "Pompeius")}
    reference = {(viewer, path): page_text(client, path) for viewer, client in clients.items() for path in REFERENCE}
    assert reference[None, "/reference/blocks"][0] == 401 and reference["Caesar", "/reference/blocks"][0] == 200
    phases, battles, overs = set(), 0, 0
    for game in range(GAMES):
        rng = random.Random(game)
        seen = None
        for _ in range(STEPS):
            snap = table.snapshot()
            phases.add(snap.public.view["phase"])
            where = (snap.public.view["year"], snap.public.view["turn"], snap.public.view["phase"])
            fighting = snap.public.view.get("fight") is not None
            changed = where != seen
            if (changed and (rng.random() < CHANGES or (fighting and not battles))) or rng.random() < SAMPLE:
                if seen is None or (where[0] != seen[0] and rng.random() < CHANGES):
                    check_pages(table, clients, reference)
                check(app, table, clients)
                battles += fighting
            seen = where
            if snap.result is not None:
                check_pages(table, clients, reference)
                overs += 1
                break
            side = next(s for s in snap.waiting_for if s != "Chance")
            legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
            assert table.act(side, rng.choice(legal)).ok
        table.new_game()
    assert {"discard", "card", "command", "battle"} <= phases
    assert battles and overs


def hidden_keys(table, viewer: str | None) -> set[str]:
    """`hidden_from`, and the other side's levy pool but for the blocks eliminated face-up this year."""
    snap = table.snapshot()
    out = hidden_from(table, viewer)
    face_up = set(snap.public.view.get("eliminated", []))
    for side in ("Caesar", "Pompeius"):
        if side != viewer:
            out |= set(snap.side(side).view["own_levy_pool"]) - face_up
    return out


def check_virtual(table, virtual, clients, rng) -> None:
    """The virtual table's state as each viewer reads it: labels of its own side only, no hidden
    block named anywhere (instructions and messages included); and a probe of the other side's
    blocks gets one answer whichever block, and moves nothing."""
    for viewer, client in clients.items():
        body = client.get("/virtual/state").get_json()
        assert all(("label" in b) == (viewer is not None and b["side"] == viewer) for b in body["blocks"]), viewer
        text = json.dumps({k: v for k, v in body.items() if k != "blocks"})
        leaked = {k for k in hidden_keys(table, viewer) if re.search(rf"\b{re.escape(k)}\b", text)}
        assert not leaked, f"{viewer or 'public'} reads {leaked} in {table.snapshot().public.view['phase']}"
        if viewer is None:
            continue
        other = [b["token"] for b in body["blocks"] if b["side"] != viewer]
        token = csrf_of(client, "/virtual/")
        before = {b: virtual.where(b) for b in virtual.catalog.blocks}
        answers = {client.post("/virtual/move", json={"token": t, "to": rng.choice(["Roma", "hand", "Alexandria"])},
                               headers={"X-CSRFToken": token}).get_data() for t in rng.sample(other, 4)}
        assert len(answers) == 1 and b"virtual.not-your-block" in answers.pop(), viewer
        assert {b: virtual.where(b) for b in virtual.catalog.blocks} == before


def test_the_virtual_table_leaks_nothing_at_any_phase(played):
    """The crawl on a table with the virtual board: the phones play (so the board lags behind the
    game and the table names what to put right), the board is laid out as the game stands at
    some of the checks; every viewer's /state, /play/state and /virtual/state are checked."""
    table, virtual, app = played
    clients = {None: app.test_client(), "Caesar": pair(app, "Caesar"), "Pompeius": pair(app, "Pompeius")}
    phases, checks = set(), 0
    for game in range(max(1, GAMES // 5)):
        rng = random.Random(1000 + game)
        seen = None
        for _ in range(STEPS):
            snap = table.snapshot()
            phases.add(snap.public.view["phase"])
            where = (snap.public.view["year"], snap.public.view["turn"], snap.public.view["phase"])
            if (where != seen and rng.random() < CHANGES) or rng.random() < SAMPLE:
                if rng.random() < 0.5:
                    virtual.arrange(layout_from_views(snap.side_views(), virtual.catalog))
                check(app, table, {None: clients[None], "Caesar": clients["Caesar"], "Pompeius": clients["Pompeius"]})
                check_virtual(table, virtual, clients, rng)
                checks += 1
            seen = where
            if snap.result is not None:
                break
            side = next(s for s in snap.waiting_for if s != "Chance")
            legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
            assert table.act(side, rng.choice(legal)).ok
        table.new_game()
    assert {"command", "battle"} <= phases and checks > 20

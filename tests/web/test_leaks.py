"""Hidden information is a security property: at every phase reached in random games, every
endpoint fetched as the public, as Caesar and as Pompeius carries nothing the rules hide from
that viewer: the other side's hand, discard and chosen card, the identity of its unrevealed
blocks, its levy pool."""
import json
import random

from .conftest import pair

GAMES = 6
STEPS = 2000


def hidden_from(table, viewer: str | None) -> set[str]:
    """Block keys the viewer may not see now: every block on the map of the other side(s) that
    the battle under way has not revealed."""
    snap = table.snapshot()
    public = snap.public
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
        for b in snap.private[side]["own_blocks"]:
            if b["block"] not in revealed:
                out.add(b["block"])
    return out


def check(app, table, clients) -> None:
    snap = table.snapshot()
    for viewer, client, path in [(None, clients[None], "/state"), ("Caesar", clients["Caesar"], "/play/state"),
                                 ("Pompeius", clients["Pompeius"], "/play/state")]:
        body = client.get(path).get_json()
        # The log names blocks as they were when each entry was written (a block eliminated face
        # up, later levied again, stays named in its old entry); each entry's secrecy at the
        # moment it is written is the engine's own test (tests/engine/test_history.py).
        text = json.dumps({k: v for k, v in body.items() if k != "log"})
        leaked = {k for k in hidden_from(table, viewer) if f'"{k}"' in text}
        assert not leaked, f"{viewer or 'public'} sees {leaked} in {snap.public['phase']}"
        view = body["view"]
        if viewer is None:
            assert not {"hand", "discard", "chosen", "own_blocks", "own_levy_pool"} & set(view)
            assert "legal" not in body
        else:
            other = "Pompeius" if viewer == "Caesar" else "Caesar"
            assert view == snap.private[viewer]
            assert all(line.startswith(viewer + " ") for line in body["legal"])
            other_pool = set(snap.private[other]["own_levy_pool"])
            assert not other_pool & set(view["own_levy_pool"])


def test_no_endpoint_leaks_hidden_information_at_any_phase(app, table):
    clients = {None: app.test_client(), "Caesar": pair(app, "Caesar"), "Pompeius": pair(app, "Pompeius")}
    phases = set()
    for game in range(GAMES):
        rng = random.Random(game)
        for _ in range(STEPS):
            snap = table.snapshot()
            phases.add(snap.public["phase"])
            check(app, table, clients)
            if snap.result is not None:
                break
            side = next(s for s in snap.waiting_for if s != "chance")
            legal = [x for x in snap.legal[side] if not x.endswith("takes back")]
            assert table.act(side, rng.choice(legal)).ok
        table.new_game()
    assert {"discard", "card", "command", "battle"} <= phases

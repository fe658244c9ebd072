"""A new game from the phones: offered on one, accepted on the other (or alone against the Pi),
announced on the TV; the finished game's record stays downloadable, an unfinished one's only as
the TV showed it (never the hands); the unfinished games are listed to be taken up again."""
import json

from web_ui import create_app

from .conftest import csrf_of, pair, play_until


def vote(client, agree):
    return client.post("/play/new-game", json={"agree": agree}, headers={"X-CSRFToken": csrf_of(client, "/play/")})


def test_both_phones_agree_and_the_tv_shows_the_offer(app, table):
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    old = table.snapshot().game_id
    assert vote(caesar, True).status_code == 200
    tv = app.test_client().get("/state").get_json()
    assert tv["notes"]["new_game"] == {"agreed": ["Caesar"], "waiting": ["Pompeius"]}
    assert pompeius.get("/play/state").get_json()["notes"]["new_game"]["agreed"] == ["Caesar"]
    assert table.snapshot().game_id == old
    assert vote(pompeius, True).status_code == 200
    assert table.snapshot().game_id != old
    assert "new_game" not in app.test_client().get("/state").get_json()["notes"]


def test_a_decline_ends_the_offer(app, table):
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    old = table.snapshot().game_id
    vote(caesar, True)
    assert vote(pompeius, False).status_code == 200
    assert "new_game" not in table.snapshot().notes and table.snapshot().game_id == old
    again = vote(pompeius, False)
    assert again.status_code == 409 and again.get_json()["refusal"]["code"] == "table.no-new-game-offer"


def game_state(table):
    snap = table.snapshot()
    return snap.game_id, snap.lines, snap.notes


def test_bad_votes_are_refused_with_a_code_and_change_nothing(app, table):
    caesar = pair(app, "Caesar")
    before = game_state(table)
    for body, code in (({}, "web.no-agree"), ({"agree": "yes"}, "web.no-agree"), ({"agree": 1}, "web.no-agree"),
                       ([], "web.not-json"), (None, "web.not-json"), ("[" * 3000 + "]" * 3000, "web.not-json")):
        data = body if isinstance(body, str) else json.dumps(body)
        resp = caesar.post("/play/new-game", data=data, content_type="application/json",
                           headers={"X-CSRFToken": csrf_of(caesar, "/play/")})
        assert resp.status_code == 400 and resp.get_json()["refusal"]["code"] == code, body
    stranger = app.test_client()
    assert stranger.post("/play/new-game", json={"agree": True},
                         headers={"X-CSRFToken": csrf_of(stranger)}).status_code == 401
    assert game_state(table) == before     # (the version may move: pairing publishes a refresh of its own)


def test_against_the_pi_the_one_human_starts_it(table):
    app = create_app(table, {"TESTING": True}, bot_sides=("Pompeius",))
    old = table.snapshot().game_id
    assert vote(pair(app, "Caesar"), True).status_code == 200
    assert table.snapshot().game_id != old


def test_the_finished_games_record_stays_downloadable_and_no_unfinished_one_is(app, table):
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    public = app.test_client()
    unfinished = table.snapshot().game_id
    vote(caesar, True), vote(pompeius, True)
    said = public.get(f"/record/{unfinished}.txt")       # what the table showed: not the hands
    assert said.status_code == 200 and f"game {unfinished}, unfinished" in said.get_data(as_text=True)
    assert play_until(table, lambda s: s.result is not None, seed=1, steps=4000)
    finished = table.snapshot()
    vote(pompeius, True), vote(caesar, True)
    tv = public.get("/state").get_json()
    assert tv["notes"]["previous_game"] == {"game_id": finished.game_id}
    text = public.get(f"/record/{finished.game_id}.txt")
    assert text.status_code == 200 and len(text.get_data(as_text=True).splitlines()) >= finished.lines
    assert public.get(f"/record/{finished.game_id}.json").get_json()["lines"]
    current = table.snapshot().game_id
    for path in (f"/record/{current}.txt", f"/record/{current}.json", "/record/999.txt", f"/record/{unfinished}.json"):
        resp = public.get(path)
        assert resp.status_code == 404, path


def test_an_unfinished_games_public_record_tells_nothing_hidden_and_it_is_listed(app, table):
    from engine import BOARD
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    assert play_until(table, lambda s: s.lines > 12, seed=2)
    old = table.snapshot()
    hands = {c for side in ("Caesar", "Pompeius") for c in old.side(side).view.get("hand", [])}
    vote(caesar, True), vote(pompeius, True)
    text = app.test_client().get(f"/record/{old.game_id}.txt").get_data(as_text=True)
    assert len(text.splitlines()) >= old.lines
    played = " ".join(old.public.view.get("played_cards", []) or [])
    assert not [c for c in hands if c not in played and f" {c}" in text.replace("\n", " ")], text
    assert " P Legio" not in text and " C Legio" not in text
    listed = caesar.get("/play/games").get_json()["games"]
    assert [g["game"] for g in listed] == [old.game_id] and listed[0]["lines"] == old.lines
    assert app.test_client().get("/play/games").status_code == 401
    assert BOARD    # (the names of blocks are as printed, the keys never)

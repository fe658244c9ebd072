"""A guest on the table's Wi-Fi attacks pairing, through the web app's own
routes (the Flask test client; the same app waitress serves): the tests fail on the code before
this design (commit 3b0066f) and pass now.

1. Presence: no answer to an unpaired browser carries a pairing code, whatever the players do
   at the table (a Done the game has no use for included); an ask to join that was declined is
   not reopened at once, and a refused ask publishes nothing.
2. Revocation evicts: revoking a device revokes the devices it invited and its unused codes, and
   the copy of its cookie; revoking a side shows no code to anyone on the Wi-Fi; `rubicon pair
   --list` says who invited whom.
3. Time-proof: a step of the wall clock (back 5 s and 1 h, forward 31 days, to 1970 and back)
   unpairs no phone and stales no page's CSRF token.

Self-contained (its helpers here, not in conftest) so that it runs unchanged on the old code."""
import re
import time

from rubicon.cli import main as rubicon

SIDES = ("Caesar", "Pompeius")


def csrf(client, path="/") -> str:
    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


def post(client, path, body=None, page="/"):
    return client.post(path, json=body or {}, headers={"X-CSRFToken": csrf(client, page)})


def redeem(app, side, code):
    """A fresh browser opening `code`'s link and confirming: (client, response)."""
    client = app.test_client()
    page = client.get(f"/pair/{side}?code={code}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client, client.post(f"/pair/{side}", data={"code": code, "csrf_token": token})


def pair(app, side):
    """A phone paired with the code the Pi's terminal prints for a waiting side."""
    client, resp = redeem(app, side, app.extensions["rubicon.pairings"].code(side))
    assert resp.status_code == 302
    return client


def invited(device) -> str:
    """The code a paired device's "Pair another device" shows it."""
    return post(device, "/pair/invite", page="/play/").get_json()["link"].split("code=")[1]


def first_event(client, path) -> str:
    """The first snapshot a live stream sends (then the stream is closed)."""
    resp = client.get(path, buffered=False)
    text = ""
    for chunk in resp.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: snapshot" in text:
            break
    resp.close()
    return text


def everything_a_guest_reads(client) -> str:
    """Every page and state an unpaired browser may fetch, and the TV's live stream."""
    paths = ["/", "/state", "/pair/Caesar", "/pair/Pompeius", "/play/", "/play/state", "/reference/rules",
             "/virtual/", "/virtual/state"]
    return "\n".join(client.get(p).get_data(as_text=True) for p in paths) + first_event(client, "/stream")


def test_no_answer_to_a_guest_carries_a_pairing_code_at_a_fresh_start(app):
    pairings = app.extensions["rubicon.pairings"]
    codes = {side: pairings.code(side) for side in SIDES}     # what the Pi's terminal prints
    assert all(codes.values())
    read = everything_a_guest_reads(app.test_client())
    assert not [side for side, code in codes.items() if code in read]
    assert "?code=" not in read


def test_a_guest_cannot_take_over_a_paired_side_by_a_done_of_its_player(app, table):
    caesar, pompeius = pair(app, "Caesar"), pair(app, "Pompeius")
    guest = app.test_client()
    post(guest, "/pair/request/Caesar")            # the request the old table answered on a Done
    for _ in range(3):                             # Caesar presses Done: the game has no use for it
        post(caesar, "/play/done", page="/play/")
        post(pompeius, "/play/done", page="/play/")
    read = everything_a_guest_reads(guest)
    assert "?code=" not in read
    for link in re.findall(r"/pair/(\w+)\?code=([\w-]+)", read):
        assert redeem(app, *link)[1].status_code != 302
    assert guest.get("/play/state").status_code == 401 and table.snapshot().result is None


def test_a_declined_ask_to_join_is_not_reopened_at_once_and_a_refused_one_publishes_nothing(app, table):
    caesar = pair(app, "Caesar")
    guest = app.test_client()
    asked = post(guest, "/pair/ask/Caesar", page="/pair/Caesar").get_json()
    assert asked["ok"] and re.fullmatch(r"\d{6}", asked["number"])
    shown = caesar.get("/play/state").get_json()["pairing"]["asks"]
    assert [a["number"] for a in shown] == [asked["number"]]
    assert post(caesar, "/pair/decline", {"id": shown[0]["id"]}, page="/play/").get_json()["ok"]
    version = table.snapshot().version
    for _ in range(20):                               # the old table let it ask again 228 times in 5 s
        again = post(guest, "/pair/ask/Caesar", page="/pair/Caesar")
        assert again.status_code == 429 and again.get_json()["refusal"]["code"] == "pairing.ask-later"
    assert table.snapshot().version == version        # nothing a player sees changed: nothing published
    assert caesar.get("/play/state").get_json()["pairing"]["asks"] == []
    refused = post(guest, "/pair/ask", page="/pair/Caesar")
    assert refused.status_code == 409 and guest.get("/play/state").status_code == 401


def test_revoking_a_device_revokes_what_it_invited_its_codes_and_its_stolen_cookie(app, tmp_path, capsys):
    pairings = app.extensions["rubicon.pairings"]
    phone = pair(app, "Caesar")
    thief = app.test_client()
    thief.set_cookie("rubicon", phone.get_cookie("rubicon").value)     # a copied cookie
    assert thief.get("/play/state").status_code == 200
    tablet, resp = redeem(app, "Caesar", invited(phone))
    assert resp.status_code == 302
    friend, resp = redeem(app, "Caesar", invited(tablet))
    assert resp.status_code == 302                     # invited by the tablet, which the phone invited
    unused = invited(thief)
    ids = [d.id for d in pairings.devices("Caesar")]
    assert len(ids) == 3
    assert rubicon(["pair", "--revoke-device", str(ids[0]), "--state-dir", str(tmp_path)]) == 0
    for client in (phone, thief, tablet, friend):
        assert client.get("/play/state").status_code == 401
    newcomer, resp = redeem(app, "Caesar", unused)
    assert resp.status_code == 403 and newcomer.get("/play/state").status_code == 401
    assert rubicon(["pair", "--list", "--state-dir", str(tmp_path)]) == 0
    assert "no device is paired" in capsys.readouterr().out


def test_pair_list_says_who_invited_whom(app, tmp_path, capsys):
    phone = pair(app, "Caesar")
    tablet, resp = redeem(app, "Caesar", invited(phone))
    assert resp.status_code == 302
    phone_id, tablet_id = (d.id for d in app.extensions["rubicon.pairings"].devices("Caesar"))
    assert rubicon(["pair", "--list", "--state-dir", str(tmp_path)]) == 0
    listed = capsys.readouterr().out.split(f"{tablet_id:4d}  Caesar")
    assert "invited by the table" in listed[0] and f"invited by device {phone_id}" in listed[1]


def test_revoking_a_side_shows_its_code_to_nobody_on_the_wifi(app, tmp_path):
    caesar = pair(app, "Caesar")
    guest = app.test_client()
    pair(app, "Pompeius")
    assert rubicon(["pair", "Caesar", "--revoke", "--state-dir", str(tmp_path)]) == 0
    assert caesar.get("/play/state").status_code == 401
    read = everything_a_guest_reads(guest)
    assert "?code=" not in read and guest.get("/play/state").status_code == 401


def test_a_wall_clock_step_unpairs_no_phone_and_stales_no_token(app, table, monkeypatch):
    pompeius_code = app.extensions["rubicon.pairings"].code("Pompeius")    # shown before the steps
    client = app.test_client()
    page = client.get(f"/pair/Caesar?code={app.extensions['rubicon.pairings'].code('Caesar')}")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    paired = client.post("/pair/Caesar", data={"code": app.extensions["rubicon.pairings"].code("Caesar"),
                                               "csrf_token": token})
    caesar = client
    token = csrf(caesar, "/play/")
    real = time.time
    for offset in (-5.0, -3600.0, 31 * 86400.0, 0.0, 86400.0 - real(), -real() + 10.0, 0.0):
        monkeypatch.setattr(time, "time", lambda offset=offset: real() + offset)
        assert caesar.get("/play/state").status_code == 200, offset
        assert caesar.get("/play/").status_code == 200, offset            # a page reloaded during the step
        resp = caesar.post("/pair/invite", json={}, headers={"X-CSRFToken": token})   # the token of a page left open
        assert resp.status_code == 200 and resp.get_json()["ok"], offset
        assert "Set-Cookie" not in caesar.get("/play/state").headers     # nothing re-signed per request
    monkeypatch.setattr(time, "time", real)
    assert caesar.get("/play/state").status_code == 200
    _, resp = redeem(app, "Pompeius", pompeius_code)       # a code shown before the steps still pairs
    assert resp.status_code == 302
    # the cookie's life is counted by the browser on its own clock, never from the Pi's
    cookie = paired.headers["Set-Cookie"]
    assert "Max-Age=" in cookie and "Expires=" not in cookie


def test_a_cookie_signed_before_the_upgrade_with_a_time_stays_paired_and_is_sent_again_without(app, monkeypatch):
    from flask.sessions import SecureCookieSessionInterface
    caesar = pair(app, "Caesar")
    with caesar.session_transaction() as s:
        data = dict(s)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() - 40 * 86400)    # signed long ago, or in the future
    old = SecureCookieSessionInterface().get_signing_serializer(app).dumps(data)
    monkeypatch.setattr(time, "time", real)
    phone = app.test_client()
    phone.set_cookie("rubicon", old)
    resp = phone.get("/play/state")
    assert resp.status_code == 200 and "Max-Age=" in resp.headers["Set-Cookie"]
    assert phone.get_cookie("rubicon").value.count(".") == 1            # payload.signature: no time
    assert phone.get("/play/state").status_code == 200

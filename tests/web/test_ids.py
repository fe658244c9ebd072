"""No id makes the web app answer 500: every route with an id in its path, and every
request body with an id or a count, is tried with huge, negative and odd values; and a device's
label is printable text, distinct among its side's devices."""
import re

import pytest

from rubicon.cli import main as rubicon

from .conftest import csrf_of, pair

ODD_INTS = (2**63, 2**64, 10**40, -1, -2**63 - 1, 0)
ODD_VALUES = (*ODD_INTS, "9" * 400, "-1", "", None, [], {}, 1.5e308, True)


def test_every_route_with_an_id_in_its_path_answers_without_a_500(played):
    session, virtual, app = played
    client = app.test_client()
    routes = [rule for rule in app.url_map.iter_rules() if any(
        type(conv).__name__ in ("IntegerConverter", "NumberConverter") for conv in rule._converters.values())]
    assert routes, "the app has routes with a number in their path"
    for rule in routes:
        for value in ODD_INTS:
            path = re.sub(r"<int:\w+>", str(value), rule.rule)
            resp = client.get(path)
            assert resp.status_code < 500, (path, resp.status_code)
            assert resp.status_code in (404, 200), (path, resp.status_code)


def test_every_body_with_an_id_or_a_count_answers_without_a_500(played):
    session, virtual, app = played
    caesar = pair(app, "Caesar")
    posts = {"/pair/approve": "id", "/pair/decline": "id", "/virtual/move": "token", "/virtual/roll": "count",
             "/play/act": "version", "/play/answer": "option", "/virtual/press": "button"}
    for path, field in posts.items():
        token = csrf_of(caesar, "/virtual/")
        for value in ODD_VALUES:
            body = {field: value, "to": value, "line": "x"}
            resp = caesar.post(path, json=body, headers={"X-CSRFToken": token})
            assert resp.status_code < 500, (path, value, resp.status_code)
    resp = caesar.get("/play/state", headers={"Last-Event-ID": "9" * 400})
    assert resp.status_code == 200


@pytest.mark.parametrize("n", [str(2**63), str(10**40), "-1", "-" + str(2**64)])
def test_rubicon_pair_revoke_device_with_an_odd_number_says_so(app, tmp_path, capsys, n):
    assert rubicon(["pair", "--revoke-device", n, "--state-dir", str(tmp_path)]) == 1
    assert "not paired" in capsys.readouterr().out


def test_a_devices_label_is_printable_and_distinct_and_so_is_the_list(app, tmp_path, capsys):
    ua = "Mozilla/5.0 (Linux; Android 14; Pixel 7\u009b\u202e) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"
    pairings = app.extensions["rubicon.pairings"]
    tokens: list[str] = []
    for _ in range(2):
        client = app.test_client()
        code = pairings.code("Caesar") or pairings.invite(tokens[0])[1].code
        page = client.get(f"/pair/Caesar?code={code}", headers={"User-Agent": ua}).get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        resp = client.post("/pair/Caesar", data={"code": code, "csrf_token": token}, headers={"User-Agent": ua})
        assert resp.status_code == 302
        with client.session_transaction() as s:
            tokens.append(s["player_token"])
    labels = [d.label for d in pairings.devices("Caesar")]
    assert labels == ["Pixel 7 (Chrome)", "Pixel 7 (Chrome) #2"]
    bad = "evil\x1b[2J\u009b\u202eX\x85Y\tZ\u2028" * 20
    client = app.test_client()
    code = pairings.code("Pompeius")
    page = client.get(f"/pair/Pompeius?code={code}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    client.post("/pair/Pompeius", data={"code": code, "csrf_token": token}, headers={"User-Agent": bad})
    assert rubicon(["pair", "--list", "--state-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.split("\n")     # a line per device and per inviter, nothing else
    assert lines[-1] == "" and len(lines) == 7 and all(line.isprintable() for line in lines), lines

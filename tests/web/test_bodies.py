"""No input produces a 500: every route of the app, driven with generated
bodies (JSON of any shape and depth, mistyped fields, bytes that are not JSON, forms, huge
bodies) from a paired browser, a stranger and a forger, answers below 500; a refusal carries a
code and changes nothing (the game's lines, the journal, the virtual board; and, unless the
session itself judged the request (409), not even the snapshot's version).

The routes are read from the app's URL map, so a route added later is driven too."""
import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rubicon.table.session import Ping

from .conftest import csrf_of, pair

STREAMS = ("/stream", "/play/stream")        # endless by design: their headers are tested in test_live.py
FIELDS = ("token", "to", "count", "button", "line", "option", "side", "code", "lang", "next", "block")
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8),
                                                                                           inner, max_size=4),
                      max_leaves=12)


def nested(depth: int, opener: str) -> str:
    closer = {"[": "]", '{"a":': "}"}[opener]
    return opener * depth + "1" + closer * depth


def bodies(tokens: list[str]):
    """(content type, raw body) pairs: JSON objects with the routes' field names bound to anything
    (real block tokens and place names among them), any JSON, deep nesting, bytes, forms."""
    field_values = values | st.sampled_from(tokens + ["Roma", "hand", "pool:Pompeius", "done", "Caesar", 2, 0])
    objects = st.dictionaries(st.sampled_from(FIELDS), field_values, max_size=3)
    as_json = (objects | values).map(lambda v: json.dumps(v).encode())
    deep = st.builds(nested, st.integers(min_value=900, max_value=5000), st.sampled_from(["[", '{"a":'])) \
        .map(str.encode)
    raw = st.binary(max_size=64)
    huge = st.integers(min_value=16 * 1024, max_value=64 * 1024).map(lambda n: b'{"line": "' + b"x" * n + b'"}')
    json_types = st.sampled_from(["application/json", "application/json; charset=utf-8"])
    other_types = st.sampled_from(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""])
    return st.tuples(json_types, as_json | deep | raw | huge) | st.tuples(other_types, raw | as_json)


# Unpairs the browser that sends it: driven last (or not by the paired browser), so the routes after
# it are not all answered "not paired" before they read the body.
UNPAIRS = ("POST", "/pair/forget")


def routes(app) -> list[tuple[str, str]]:
    """Every route but the streams, the one that unpairs its sender last."""
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.rule in STREAMS:
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append((method, rule.rule))
    return sorted(out, key=lambda route: route == UNPAIRS)


def fill(rule: str, arg: str) -> str:
    return rule.replace("<side>", quote(arg, safe="")) if "<" in rule else rule


def state_of(session, virtual):
    """The game, its journal and the board, once every intent already queued was carried out (a
    route that succeeded may have queued a refresh that would land during the next request)."""
    session.submit(Ping()).result(30)
    snap = session.snapshot()
    _, journal = session.journal.lines(snap.game_id)
    board = tuple(sorted((b, virtual.where(b)) for b in virtual.catalog.blocks))
    return snap.lines, snap.game_id, tuple(journal), board


@pytest.fixture
def driven(played):
    """Pompeius commands (the card phase played); Caesar's browser, a stranger's and a forger's
    (Caesar's cookie, no CSRF token) with their headers."""
    session, virtual, app = played
    for _ in range(2):
        for side in ("Caesar", "Pompeius"):
            assert session.act(side, session.snapshot().side(side).options()[0]["line"]).ok
    caesar, stranger = pair(app, "Caesar"), app.test_client()
    clients = {"caesar": (caesar, {"X-CSRFToken": csrf_of(caesar, "/play/")}),
               "stranger": (stranger, {"X-CSRFToken": csrf_of(stranger, "/")}),
               "forger": (caesar, {})}
    tokens = [b["token"] for b in caesar.get("/virtual/state").get_json()["blocks"]][:12]
    return session, virtual, app, clients, tokens


def check(resp, before, after, version_before, version_after) -> None:
    assert resp.status_code < 500, resp.get_data(as_text=True)[:500]
    if resp.status_code >= 400:
        assert after == before, resp.get_data(as_text=True)[:300]
        if resp.status_code != 409:          # 409: the session judged it (a refusal message is news)
            assert version_after == version_before
        if resp.is_json:
            assert resp.get_json()["refusal"]["code"]


def test_no_body_makes_any_route_fail(driven):
    session, virtual, app, clients, tokens = driven
    table = routes(app)
    assert ("POST", "/virtual/move") in table and ("POST", "/play/act") in table and ("POST", "/lang") in table

    @SETTINGS
    @given(route=st.sampled_from(table), who=st.sampled_from(sorted(clients)), body=bodies(tokens),
           arg=st.sampled_from(["Caesar", "Pompeius"]) | st.text(max_size=12),
           query=st.dictionaries(st.sampled_from(FIELDS), st.text(max_size=20), max_size=2))
    def drive(route, who, body, arg, query):
        assume(not (who == "caesar" and route == UNPAIRS))
        method, rule = route
        client, headers = clients[who]
        content_type, data = body
        before, version = state_of(session, virtual), session.snapshot().version
        resp = client.open(fill(rule, arg), method=method, data=data, query_string=query,
                           headers={**headers, "Content-Type": content_type} if content_type else headers)
        check(resp, before, state_of(session, virtual), version, session.snapshot().version)

    drive()


def test_every_json_route_refuses_a_deep_body_with_a_code(driven):
    session, virtual, app, clients, _ = driven
    client, headers = clients["caesar"]
    for method, rule in routes(app):
        if method != "POST" or "<" in rule:
            continue
        for opener in ("[", '{"a":'):
            before, version = state_of(session, virtual), session.snapshot().version
            resp = client.post(rule, data=nested(3000, opener), headers={**headers,
                                                                         "Content-Type": "application/json"})
            assert resp.status_code != 401, (rule, "the browser was unpaired before the body was read")
            check(resp, before, state_of(session, virtual), version, session.snapshot().version)

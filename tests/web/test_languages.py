"""The pages in the reader's language (the phone, the TV, pairing, errors and the reference pages):
Accept-Language by default, the language menu kept in the
browser's session (each phone and the TV their own), refusals by code in that language, and the
pseudo-locale: every visible text of every page and every string of the JS catalog comes from
the catalogs (wrapped in ⟦ ⟧), so any English left unwrapped stands out."""
import json
import re
from html.parser import HTMLParser

import pytest

from web_ui import create_app

from .conftest import act, csrf_of, pair


@pytest.fixture
def papp(table):
    return create_app(table, {"TESTING": True, "I18N_PSEUDO": True})


def choose(client, lang, page="/", next_page=None):
    token = csrf_of(client, page)
    return client.post("/lang", data={"lang": lang, "csrf_token": token, "next": next_page or page})


def html_lang(resp) -> str:
    return re.search(r'<html lang="([\w-]+)"', resp.get_data(as_text=True)).group(1)


def test_the_browsers_language_is_the_default_and_the_menu_switches_it(app):
    tv = app.test_client()
    assert html_lang(tv.get("/")) == "en"
    assert html_lang(tv.get("/", headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})) == "pl"
    assert html_lang(tv.get("/", headers={"Accept-Language": "de-DE"})) == "en"
    resp = choose(tv, "ja")
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/")
    page = tv.get("/", headers={"Accept-Language": "pl"})
    assert html_lang(page) == "ja" and "ルビコン — テーブル" in page.get_data(as_text=True)
    other = app.test_client()            # another browser (a phone) keeps its own language
    assert html_lang(other.get("/", headers={"Accept-Language": "sv"})) == "sv"


def test_an_unknown_language_or_a_forged_choice_is_refused(app):
    tv = app.test_client()
    assert choose(tv, "xx").status_code == 400            # the pseudo-locale only when configured
    assert choose(tv, "<script>").status_code == 400
    assert tv.post("/lang", data={"lang": "pl"}).status_code == 400       # no CSRF token
    assert html_lang(tv.get("/")) == "en"
    resp = choose(tv, "es", next_page="//evil.example/")
    assert resp.status_code == 303 and resp.headers["Location"] == "/"     # no open redirect


def test_pairing_keeps_the_language_and_refusals_come_in_it(app):
    client = app.test_client()
    choose(client, "pl")
    code = app.extensions["rubicon.pairings"].code("Caesar")
    page = client.get(f"/pair/Caesar?code={code}").get_data(as_text=True)
    assert "Graj jako Cezar" in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert client.post("/pair/Caesar", data={"code": code, "csrf_token": token}).status_code == 302
    state = client.get("/play/state").get_json()
    assert any(d["text"] == "Cezar: odrzuca jedną kartę (2.1)" for d in state["pending"])
    resp = act(client, "Caesar plays Mars")
    refusal = resp.get_json()["refusal"]
    assert resp.status_code == 409 and refusal["rule"] == "2.1" and refusal["text"].endswith("(zasada 2.1)")
    assert "Caesar" not in refusal["text"]
    wrong = app.test_client()
    resp = wrong.post("/pair/Caesar", data={"code": "guess", "csrf_token": csrf_of(wrong, "/")},
                      headers={"Accept-Language": "es"})
    assert resp.status_code == 403 and "no es válido" in resp.get_data(as_text=True)


def test_the_log_and_decisions_are_in_the_readers_words(app):
    caesar = pair(app, "Caesar")
    state = caesar.get("/play/state", headers={"Accept-Language": "sv"}).get_json()
    said = [s for entry in state["log"] for s in entry["said"]]
    assert "Caesar får 6 kort" in said
    assert state["log"][0]["text"].startswith("Chance deals")      # the record notation stays English


class Texts(HTMLParser):
    """The visible text nodes of a page (not script, style, the map's SVG or the autonyms of the
    language menu, which are each language's own name by design)."""
    SKIP = {"script", "style", "svg"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("meta", "link", "input", "img", "br"):
            return
        # Elements of class "printed" show data as printed on the blocks, cards and map (labels,
        # strengths, ratings, card values, city names): the same in every language.
        printed = "printed" in (dict(attrs).get("class") or "").split()
        skip = tag in self.SKIP or printed or (tag == "button" and dict(attrs).get("name") == "lang")
        self.stack.append((tag, skip or any(s for _, s in self.stack)))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if data.strip() and not any(s for _, s in self.stack):
            self.texts.append(data.strip())


def unwrapped(html: str) -> list[str]:
    parser = Texts()
    parser.feed(html)
    assert parser.texts
    return [t for t in parser.texts if "⟦" not in t and t not in ("…",)]


def test_the_pseudo_locale_wraps_every_visible_text_of_every_page(papp):
    tv = papp.test_client()
    choose(tv, "xx")
    caesar = pair(papp, "Caesar")
    choose(caesar, "xx", "/play/")
    code = papp.extensions["rubicon.pairings"].code("Pompeius")
    stranger = papp.test_client()
    choose(stranger, "xx")
    pages = {"tv": tv.get("/"), "phone": caesar.get("/play/"), "pair": stranger.get(f"/pair/Pompeius?code={code}"),
             "unpaired": stranger.get("/play/"), "error": stranger.get("/pair/Nobody"),
             "not-found": stranger.get("/no/such/page"), "rules": tv.get("/reference/rules"),
             "cards": tv.get("/reference/cards"), "blocks": caesar.get("/reference/blocks"),
             "phone-rules": caesar.get("/reference/rules")}
    for name, resp in pages.items():
        html = resp.get_data(as_text=True)
        assert html_lang(resp) == "xx", name
        assert unwrapped(html) == [], name
    catalog = re.search(r'<script type="application/json" id="i18n">(.*?)</script>',
                        pages["phone"].get_data(as_text=True), re.S).group(1)
    strings = json.loads(catalog)
    assert len(strings) > 60
    assert all(v.startswith("⟦") and v.endswith("⟧") for v in strings.values()), \
        [k for k, v in strings.items() if not v.startswith("⟦")]
    state = caesar.get("/play/state").get_json()
    assert all(d["text"].startswith("⟦") for d in state["pending"])
    assert all(s.startswith("⟦") for e in state["log"] for s in e["said"])


def test_the_page_carries_only_its_languages_catalog(app):
    phone = pair(app, "Caesar")
    sizes = {}
    for lang in ("en", "es", "pl", "sv", "ja"):
        html = phone.get("/play/", headers={"Accept-Language": lang}).get_data(as_text=True)
        catalog = json.loads(re.search(r'id="i18n">(.*?)</script>', html, re.S).group(1))
        sizes[lang] = len(json.dumps(catalog, ensure_ascii=False).encode())
        assert catalog["card:Jupiter"] == {"en": "Jupiter", "es": "Júpiter", "pl": "Jowisz", "sv": "Jupiter",
                                           "ja": "ジュピター"}[lang]
    # The phone's prompts, battle layout and TV texts (about 100 msgids) brought it from ~7 KB to ~10 KB,
    # the new game and the devices of a side to ~12.4 KB; five catalogs would be ~60 KB.
    assert max(sizes.values()) < 14000, sizes


def test_the_reference_pages_speak_the_readers_edition(app):
    """The cards and blocks pages name cards, sides and block types as each rulebook does."""
    reader = app.test_client()
    cards = reader.get("/reference/cards", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert ">Júpiter</th>" in cards and "Marte en el mar" in cards and ">2/1</th>" in cards
    phone = pair(app, "Pompeius")
    blocks = phone.get("/reference/blocks", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Moje bloczki — Pompejusz" in blocks and "Kleopatra" in blocks and "flota" in blocks


def test_the_maps_accessible_name_is_in_the_readers_language(app):
    tv = app.test_client()
    assert 'aria-label="the map: blocks per location"' in tv.get("/").get_data(as_text=True)
    page = tv.get("/", headers={"Accept-Language": "es-ES"}).get_data(as_text=True)
    assert 'aria-label="el mapa: bloques por lugar"' in page and 'aria-label="map"' not in page

"""The catalogs are complete and current: every msgid of the sources is in every language's .po,
translated, with its placeholders intact; plural forms and number formats follow each language."""
import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural

from web_ui.i18n import catalogs
from web_ui.i18n.lang import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "P_": (1, 2), "t": None}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def source_msgids() -> set:
    method_map = [("web_ui/**.py", "python"), ("web_ui/templates/**.html", "jinja2"),
                  ("web_ui/static/**.js", "javascript")]
    found = set()
    for _, _, msgid, _, _ in extract_from_dir(str(ROOT), method_map, keywords=KEYWORDS):
        found.add(msgid if isinstance(msgid, str) else tuple(msgid[:2]) if msgid[1] else msgid[0])
    return {m for m in found if m}


@pytest.fixture(scope="module")
def pos():
    return {lang: catalogs.read_catalog(lang) for lang in LANGUAGES}


def ids(catalog) -> set:
    return {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog if m.id}


def test_every_msgid_of_the_sources_is_in_every_catalog_and_none_is_stale(pos):
    wanted = source_msgids()
    assert len(wanted) > 300
    for lang, cat in pos.items():
        missing, stale = sorted(map(str, wanted - ids(cat))), sorted(map(str, ids(cat) - wanted))
        assert ids(cat) == wanted, (lang, missing[:5], stale[:5])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_msgid_is_translated_with_its_placeholders(pos, lang):
    cat = pos[lang]
    for msg in cat:
        if not msg.id:
            continue
        assert not msg.fuzzy, (lang, msg.id)
        wanted = set(PLACEHOLDER.findall(msg.id if isinstance(msg.id, str) else " ".join(msg.id)))
        forms = msg.string if isinstance(msg.string, tuple | list) else (msg.string,)
        assert len(forms) == (cat.num_plurals if isinstance(msg.id, tuple | list) else 1), (lang, msg.id)
        for form in forms:
            assert form and form.strip(), (lang, msg.id)
            got = set(PLACEHOLDER.findall(form))
            # a plural form may leave the count out only where the language says "one" without it
            assert got == wanted or got == wanted - {"num"}, (lang, msg.id, form)
            assert form.count("%") == len(PLACEHOLDER.findall(form)), (lang, msg.id, form)   # no stray %
    # babel's own checks (python-format, plural count); a language with one form counts with num
    problems = [(m.id, e) for m, errors in cat.check() for e in errors if "'num'" not in str(e)]
    assert not problems, (lang, problems)


def test_plural_forms_follow_each_language():
    """Each catalog's Plural-Forms is the one the locked Babel's CLDR data gives its language, so a
    Babel upgrade that changes a language's forms fails here until `make catalogs` and the
    translators catch up."""
    for lang in LANGUAGES:
        cat = catalogs.read_catalog(lang)
        assert (cat.num_plurals, cat.plural_expr) == (get_plural(lang).num_plurals, get_plural(lang).plural_expr), lang
    assert catalogs.read_catalog("pl").num_plurals == 3 and catalogs.read_catalog("ja").num_plurals == 1


def test_spanish_says_millions_with_de():
    """CLDR's third Spanish form ("many") is for whole millions: "1000000 de dados"."""
    buf = io.BytesIO()
    write_mo(buf, catalogs.read_catalog("es"))
    buf.seek(0)
    es = gettext.GNUTranslations(buf)
    singular, plural = "rolls %(num)s die for %(block)s", "rolls %(num)s dice for %(block)s"
    forms = [es.ngettext(singular, plural, n) for n in (1, 3, 10**6)]
    assert forms == ["tira %(num)s dado por %(block)s", "tira %(num)s dados por %(block)s",
                     "tira %(num)s de dados por %(block)s"]


def test_the_pseudo_locale_wraps_every_string():
    en = catalogs.read_catalog("en")
    pseudo = catalogs.pseudo_catalog(en)
    assert len(list(pseudo)) == len([m for m in en if m.id]) + 1   # + the header
    for msg in pseudo:
        if msg.id:
            forms = msg.string if isinstance(msg.string, tuple) else (msg.string,)
            assert all(f.startswith("⟦") and f.endswith("⟧") for f in forms), msg.id


def test_catalogs_compile_and_translate_at_start():
    loaded = catalogs.load()
    assert set(loaded) == set(LANGUAGES) | {"xx"}
    assert loaded["pl"].ugettext("Levy pool") == "Pula Zaciągu"
    one, many = "rolls %(num)s die for %(block)s", "rolls %(num)s dice for %(block)s"
    assert loaded["ja"].ungettext(one, many, 3) == "%(block)s のためにサイコロを %(num)s 個振ります"
    assert [loaded["pl"].ungettext(one, many, n).split()[2] for n in (1, 3, 5)] == ["kością", "kośćmi", "kośćmi"]
    block, blocks = "a block of %(side)s", "%(num)s blocks of %(side)s"
    assert [loaded["pl"].ungettext(block, blocks, n).split()[1] for n in (1, 3, 5, 22)] == \
        ["gracza", "bloczki", "bloczków", "bloczki"]
    assert loaded["xx"].ugettext("Levy pool") == "⟦Levy pool⟧"


def test_the_js_catalog_holds_every_string_app_js_translates():
    from web_ui.i18n.views import SCRIPTS, js_msgids
    literal = {m for script in SCRIPTS
               for m in re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', script.read_text(encoding="utf-8"))}
    assert len(literal) > 40
    assert literal == set(js_msgids()), literal ^ set(js_msgids())

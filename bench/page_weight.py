"""Page weight per language: the phone's and the TV's HTML (with the embedded JS catalog) and the
catalog's share, against the page as it was before the languages work (no catalog, no menu).

    .venv/bin/python bench/page_weight.py
"""
from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)   # bench/engine.py must not shadow the package

from rubicon.journal import Journal  # noqa: E402
from rubicon.table.session import RandomChance, TableSession  # noqa: E402
from web_ui import create_app  # noqa: E402
from web_ui.i18n.lang import LANGUAGES  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        table = TableSession(Journal(Path(tmp) / "journal.sqlite3"), chance=RandomChance(3))
        table.start()
        try:
            app = create_app(table, {"TESTING": True})
            tv = app.test_client()
            phone = app.test_client()
            code = app.extensions["rubicon.pairings"].code("Caesar")
            page = phone.get(f"/pair/Caesar?code={code}").get_data(as_text=True)
            token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
            phone.post("/pair/Caesar", data={"code": code, "csrf_token": token})
            print(f"{'lang':5} {'phone B':>8} {'catalog B':>9} {'menu B':>7} {'TV B':>7} {'state B':>8}")
            for lang in LANGUAGES:
                headers = {"Accept-Language": lang}
                html = phone.get("/play/", headers=headers).get_data()
                catalog = re.search(rb'<script type="application/json" id="i18n">.*?</script>\n', html, re.S)
                menu = re.search(rb'<details class="lang-menu">.*?</details>\n', html, re.S)
                tv_html = tv.get("/", headers=headers).get_data()
                state = json.dumps(phone.get("/play/state", headers=headers).get_json()).encode()
                print(f"{lang:5} {len(html):8} {len(catalog.group(0)):9} {len(menu.group(0)):7} {len(tv_html):7} "
                      f"{len(state):8}")
        finally:
            table.stop()


if __name__ == "__main__":
    main()

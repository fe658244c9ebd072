"""Benchmark: the weight of the phone's page in each language, every byte it loads, the share of
the embedded JS catalog, and any request that leaves the table's own server (there must be none:
the app works on a LAN with no internet).

    python bench/web_page_weight.py [--chromium /usr/bin/chromium] [--lang es ...]

Serves the app under waitress on a loopback port, pairs a Pixel 7 sized chromium page as Caesar
(Playwright, Debian's chromium), then opens the phone's page cold (empty cache) once per language
(the browser's Accept-Language), waits for the live state, and lists each response (URL, bytes),
the catalog's bytes and the total. The live stream's bytes are not part of the page (they arrive
as the game goes). Goal: <= 150 kB, no external request. Figures printed, never asserted.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from rubicon.journal import Journal  # noqa: E402
from rubicon.table.chance import RandomChance  # noqa: E402
from rubicon.table.session import TableSession  # noqa: E402
from web_ui import create_app  # noqa: E402
from web_ui.i18n.lang import LANGUAGES  # noqa: E402
from web_ui.server import make_server, stop_server  # noqa: E402


def body_size(request) -> int:
    """Bytes of a finished request's response body (the live stream's are not the page's)."""
    response = request.response()
    if response is None or request.url.endswith("/stream") or 300 <= response.status < 400:
        return 0
    return len(response.body())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--lang", nargs="*", default=list(LANGUAGES))
    args = ap.parse_args()
    table = TableSession(Journal(Path(tempfile.mkdtemp()) / "journal.sqlite3"), chance=RandomChance(1))
    table.start()
    app = create_app(table)
    server = make_server(app, host="127.0.0.1", port=0, threads=8)
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()
    base = f"http://127.0.0.1:{server.effective_port}"
    runs: dict[str, tuple[list[tuple[str, int]], int]] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium)
            pairing = browser.new_context(**p.devices["Pixel 7"])
            page = pairing.new_page()
            code = app.extensions["rubicon.pairings"].code("Caesar")
            page.goto(f"{base}/pair/Caesar?code={code}")
            page.locator("main.pair button[type=submit]").tap()
            page.wait_for_selector("#hand li")
            paired = pairing.storage_state()
            pairing.close()
            for lang in args.lang:
                # The phone's page opened cold (empty cache) by the paired phone: every byte it loads.
                rows: list[tuple[str, int]] = []
                context = browser.new_context(**p.devices["Pixel 7"], storage_state=paired,
                                              extra_http_headers={"Accept-Language": lang})
                page = context.new_page()
                page.on("requestfinished", lambda r, rows=rows: rows.append((r.url, body_size(r))))
                page.goto(f"{base}/play/")
                page.wait_for_selector("#hand li")
                page.wait_for_selector("#conn.ok")
                html = page.content()
                catalog = re.search(r'<script type="application/json" id="i18n">.*?</script>', html, re.S)
                runs[lang] = (rows, len(catalog.group(0).encode()) if catalog else 0)
                context.close()
            browser.close()
    finally:
        table.stop()
        stop_server(server, serving)
    print("phone page (a paired phone, cold cache), every response:")
    for lang, (rows, catalog) in runs.items():
        external = [u for u, _ in rows if not u.startswith(base + "/") and not u.startswith("data:")]
        print(f"[{lang}]")
        for url, size in rows:
            print(f"  {size / 1024:7.1f} kB  {url.replace(base, '')}")
        total = sum(s for _, s in rows)
        print(f"  total {total / 1024:.1f} kB (goal <= 150 kB), of it the JS catalog {catalog / 1024:.1f} kB; "
              f"external requests: {len(external)} {external}")


if __name__ == "__main__":
    main()

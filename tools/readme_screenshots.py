"""The README's screenshots of the TV and of a phone's map, taken in Debian's chromium from a game
played to a battle (random legal moves, fixed seeds), each a JPEG under 150 kB:

    python tools/readme_screenshots.py [--out docs/screenshots]

The TV at 1280x720 as the table shows it with a physical board (its instructions and a message
served into the page's state, both phones paired); Caesar's phone at Pixel 7 size, its map
scrolled into view (his blocks labelled, Pompeius's as backs).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from rubicon.journal import Journal  # noqa: E402
from rubicon.table.chance import RandomChance  # noqa: E402
from rubicon.table.session import TableSession  # noqa: E402
from tests.web.conftest import play_until  # noqa: E402
from web_ui import create_app  # noqa: E402
from web_ui.server import make_server, stop_server  # noqa: E402

LIMIT = 150 * 1024


def jpeg(target, path: Path, **kw) -> None:
    """The screenshot of a page or an element at the best quality that stays under LIMIT."""
    for quality in (75, 65, 55, 45, 35):
        target.screenshot(path=str(path), type="jpeg", quality=quality, **kw)
        if path.stat().st_size < LIMIT:
            return
    raise SystemExit(f"{path}: over {LIMIT} bytes even at quality 35")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/screenshots")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    out = Path(args.out)
    table = TableSession(Journal(Path(tempfile.mkdtemp()) / "journal.sqlite3"), chance=RandomChance(3))
    table.start()
    app = create_app(table)
    server = make_server(app, host="127.0.0.1", port=0, threads=8)
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()
    base = f"http://127.0.0.1:{server.effective_port}"
    try:
        assert play_until(table, lambda s: bool(s.public.get("fight")) and len(s.public["revealed"]) >= 3,
                          seed=4, steps=4000)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium)
            tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
            state = tv.request.get(base + "/state").json()
            state["version"] += 1000
            state["pairing"], state["waiting"] = {}, []
            state["table"] = {"waiting_text": (state.get("table") or {}).get("waiting_text"),
                              "instructions": [{"text": "Put Legio 8 back in Ravenna"},
                                               {"text": "Put Navis 1 back in Massilia"}],
                              "messages": [], "dice": None}
            tv.route("**/state", lambda route, _request: route.fulfill(json=state))
            tv.goto(base + "/")
            tv.locator("svg.map g.map-layer .block").first.wait_for(state="attached")
            tv.locator("#banner .instruction").first.wait_for()
            jpeg(tv, out / "tv.jpg")
            phone = browser.new_context(**p.devices["Pixel 7"]).new_page()
            code = app.extensions["rubicon.pairings"].code("Caesar")
            phone.goto(f"{base}/pair/Caesar?code={code}")
            phone.get_by_role("button", name="Pair this device").tap()
            phone.locator("svg.map g.map-layer .block.caesar text").first.wait_for(state="attached")
            box = phone.locator(".map-box")
            box.evaluate("(b) => { b.scrollLeft = 0; }")     # Spain and Gaul: where Caesar's blocks stand
            jpeg(box, out / "phone-map.jpg", scale="device")
            browser.close()
    finally:
        table.stop()
        stop_server(server, serving)
    for name in ("tv.jpg", "phone-map.jpg"):
        print(f"{out / name}: {(out / name).stat().st_size / 1024:.0f} kB")


if __name__ == "__main__":
    main()

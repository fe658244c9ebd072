"""Turns played through the virtual table's page in chromium (the cards and battles on the phones'
path, every command's moves by tapping the page, Done on its panel), with a screenshot after each
command (to $RUBICON_SCREENSHOTS, or a temporary directory); and the page carrying on by itself,
without a reload, through a restart of the table (the live stream's reconnect and the epoch)."""
import os
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine import BOARD, Move
from firmware_bridge.virtual_table import VirtualTable, layout_from_views
from rubicon.journal import Journal
from rubicon.table.chance import RandomChance
from rubicon.table.physical import PhysicalTable
from rubicon.table.session import Refresh, TableSession
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_phones import pair_phone

GUARD_MS = 30_000       # a guard only: the page reconnects within a few seconds


class VirtualRig:
    """`rubicon run` without hardware, in-process: journal, virtual table, session, app and
    waitress on 127.0.0.1:`port`; stopped and started again on the same journal and port."""

    def __init__(self, path, port=0, seed=5, config=None):
        self.journal = Journal(path)
        holder = {}
        self.virtual = VirtualTable(sink=lambda event: holder["session"].sense(event), seed=seed)
        physical = PhysicalTable(self.virtual.reader_map, self.virtual.registry().block_of)
        self.session = holder["session"] = TableSession(self.journal, chance=RandomChance(seed), physical=physical)
        self.session.start()
        self.lay_out()
        self.app = create_app(self.session, config, virtual=self.virtual)
        self.server = make_server(self.app, host="127.0.0.1", port=port, threads=12)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.port = self.server.effective_port
        self.base = f"http://127.0.0.1:{self.port}"

    def lay_out(self):
        """Hands put the board as the game stands (after what the phones played)."""
        self.virtual.arrange(layout_from_views(self.session.snapshot().side_views(), self.virtual.catalog))

    def stop(self):
        self.session.stop()          # first: the open live streams end, so waitress's threads are free
        assert stop_server(self.server, self.thread)
        self.journal.close()


@pytest.fixture
def screenshots(tmp_path_factory):
    path = Path(os.environ.get("RUBICON_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def open_virtual(browser, playwright, rig, side, device="iPad Mini landscape"):
    page = pair_phone(browser, playwright.devices[device], rig.base, rig.app, side)
    page.goto(rig.base + "/virtual/")
    expect(page.locator("#conn")).to_have_text("live")
    return page


def own_loop(reader_map, location):
    """Whether `location` has a reader of its own (not one shared zone's reader with other places)."""
    return len(reader_map.place(reader_map.index_of(location)).locations) == 1


def quiet_move(snap, side, reader_map):
    """A one-step move of `side` into no enemy (no battle to fight), if there is one, from a place with
    its own loop to another: a move the readers see, with no shared zone's "which did you mean?" (a
    move within a zone is no difference the readers see; the zones are other tests' subject)."""
    enemy = "Pompeius" if side == "Caesar" else "Caesar"
    for m in snap.side(side).legal:
        if isinstance(m, Move) and len(m.path) == 2:
            origin, dest = BOARD.loc_names[m.path[0]], BOARD.loc_names[m.path[1]]
            if not (own_loop(reader_map, origin) and own_loop(reader_map, dest)):
                continue
            if enemy not in snap.public.view["locations"].get(dest, {}):
                return m
    return None


def move_on_the_page(page, move):
    name, origin, dest = (BOARD.blocks[move.block].name, BOARD.loc_names[move.path[0]], BOARD.loc_names[move.path[1]])
    page.locator(f'g.loc[data-name="{origin}"] circle.hit').tap()
    page.locator("#here button.vblock", has=page.locator(".name", has_text=name)).first.tap()
    expect(page.locator('.tray.hand button.vblock[aria-pressed="true"]')).to_have_count(1)
    page.locator(f'g.loc[data-name="{dest}"] circle.hit').tap()
    expect(page.locator("#planned")).to_contain_text(f"{origin} → {dest}")


def test_turns_played_through_the_virtual_table(browser, playwright, tmp_path, screenshots):
    rig = VirtualRig(tmp_path / "journal.sqlite3")
    try:
        pages = {side: open_virtual(browser, playwright, rig, side) for side in ("Caesar", "Pompeius")}
        turns, moved, commands = [], 0, 0
        for _ in range(600):
            snap = rig.session.snapshot()
            assert snap.result is None
            turn = (snap.public.view["year"], snap.public.view["turn"])
            if not turns or turns[-1] != turn:
                turns.append(turn)
            if len(turns) > 3:          # the first three turns played: the fourth has begun
                break
            side = next(s for s in snap.waiting_for if s != "Chance")
            decision = snap.side(side).pending[0]
            if decision["kind"] != "command":          # cards, battles and the rest: the phones' path
                legal = [o["line"] for o in snap.side(side).options() if o["type"] != "take-back"]
                assert rig.session.act(side, legal[0]).ok
                rig.lay_out()
                continue
            page, lines = pages[side], snap.lines
            params = decision["params"]
            fresh = params.get("mp_used") == 0 and params.get("mp_left")
            move = quiet_move(snap, side, rig.virtual.reader_map) if fresh else None
            if move is not None:
                move_on_the_page(page, move)
                assert rig.session.snapshot().lines == lines        # drawn, not played
            page.get_by_role("button", name="Done").tap()           # plays the move and ends the command
            expect(page.locator("#planned")).to_be_hidden()
            expect(page.locator("g.vblocks .glyph.provisional")).to_have_count(0)
            assert rig.session.snapshot().lines > lines
            commands += 1
            if move is not None:
                _, journal = rig.journal.lines(rig.session.snapshot().game_id)
                assert str(move) in journal[lines:]
                moved += 1
            page.screenshot(path=str(screenshots / f"play-{turn[0]}-{turn[1]}-{commands}-{side}.png"))
        else:
            pytest.fail("the turns did not end")
        assert moved >= 3 and commands >= 3, (moved, commands)
        for side, page in pages.items():
            page.screenshot(path=str(screenshots / f"play-end-{side}.png"))
            page.context.close()
    finally:
        rig.stop()


def test_the_page_carries_on_through_a_restart_without_a_reload(browser, playwright, tmp_path):
    path = tmp_path / "journal.sqlite3"
    rig = VirtualRig(path)
    again = None
    try:
        page = open_virtual(browser, playwright, rig, "Caesar", "Pixel 7")
        for _ in range(30):       # the old server's versions run well ahead of the new one's
            rig.session.submit(Refresh()).result(10)
        old_version = rig.session.snapshot().version
        page.evaluate("window.beforeRestart = true")    # gone if the page were reloaded
        port = rig.port
        rig.stop()
        rig = None
        expect(page.locator("#conn")).to_have_text("reconnecting…", timeout=GUARD_MS)
        again = VirtualRig(path, port, seed=6)
        expect(page.locator("#conn")).to_have_text("live", timeout=GUARD_MS)
        # The new table's blocks (new tokens) are drawn, though its versions are lower than the old ones.
        token = again.virtual.tokens_at("pool:Caesar")[0]
        expect(page.locator(f'button.vblock[data-token="{token}"]')).to_be_visible(timeout=GUARD_MS)
        assert again.session.snapshot().version < old_version
        assert page.evaluate("window.beforeRestart") is True
        page.locator(f'button.vblock[data-token="{token}"]').tap()
        expect(page.locator(f'.tray.hand button.vblock[data-token="{token}"]')).to_be_visible()
        assert again.virtual.where(again.virtual._block(token)) == "hand"
        page.context.close()
    finally:
        for r in (rig, again):
            if r is not None:
                r.stop()

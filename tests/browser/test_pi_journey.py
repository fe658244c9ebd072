"""A family plays against the Pi through the virtual table: `rubicon run --bot
pompeius` as it is assembled (the virtual board, the Pi's blocks handled blind), served by waitress,
the virtual table in Debian's chromium on a tablet paired from the phone ("Pair another device").

Every block of the Pi's is moved only from what the page shows: the table's instruction in the
status line, the numbers the page draws on the Pi's blocks, and what it says once one is lifted
("that one", "not that one"). The session is never asked anything: the player's own decisions are
tapped on his phone (the first choice offered: a card, Fire, a hit), his command is Done on the
virtual table's panel (he commands nothing, so the Pi wins: a whole game, a battle and its losses
included), the dice are rolled in the virtual tray when the status line asks, and the game ends
when the status line says so. Counted: lifts of the Pi's blocks, wrong tries, blocks of the Pi's
moved or levied. The goal: at most 1.2 lifts per block of the Pi's moved (the old page took about
15 lifts for the Pi's first turn, one levy alone 10).

    pytest tests/browser/test_pi_journey.py -s       # the count printed, and every instruction carried out
"""
import re
import threading
import time

import pytest
from playwright.sync_api import expect

from rubicon.config import Config
from rubicon.journal import Journal
from rubicon.table.assembly import assemble
from rubicon.table.bot_player import BotPlayer
from rubicon.table.chance import SeededChance
from web_ui import create_app
from web_ui.server import make_server, stop_server

from .test_phones import pair_phone

GUARD_S = 60          # a guard only: how long a page may take to show the next step on a loaded machine

PI = "Pompeius"
# The Pi's blocks counted, or one revealed in battle named ("Legio 6 (Pompeius)"): with their places
# in its row when more of the Pi's stand there.
WHO_PI = r"(?:(?:a block|\d+ blocks) of Pompeius|[\w ]+ \(Pompeius\))(?: \(nos?\. (?P<pos>[\d, ]+) from the left\))?"
STEPS = [   # the English instructions of web_ui/i18n/messages.py TABLE, as the page shows them
    ("move", re.compile(rf"^move (?P<who>{WHO_PI}|.+?) from (?P<frm>.+?) to (?P<to>.+)$")),
    ("move", re.compile(rf"^put (?P<who>{WHO_PI}|.+?) back in (?P<to>.+?) \(from (?P<frm>.+)\)$")),
    ("move", re.compile(rf"^take (?P<who>{WHO_PI}|.+?) from (?P<frm>.+?) and place (?:it|them) in (?P<to>.+)$")),
    ("move", re.compile(rf"^remove (?P<who>{WHO_PI}|.+?) from (?P<frm>.+?); put (?:it|them) in (?P<to>.+)$")),
    ("right", re.compile(r"^that one: set it down in (?P<to>.+)$")),
    ("right", re.compile(r"^not the block asked for, but it too must go: set it down in (?P<to>.+)$")),
    ("wrong", re.compile(r"^not that one: put it back in (?P<to>.+), at the right end of its row$")),
    ("held", re.compile(r"^(?:put (?P<who>.+?) back|set (?P<who2>.+?) down) in (?P<to>.+)$")),
]


def place_key(words):
    """The page's place key of a place as the instruction names it."""
    pool = re.fullmatch(r"the levy pool of (\w+)", words)
    gone = re.fullmatch(r"the eliminated blocks of (\w+)", words)
    return f"pool:{pool.group(1)}" if pool else f"eliminated:{gone.group(1)}" if gone else words


class PiTable:
    """`rubicon run --bot pompeius` in-process, its virtual board not yet laid out (a new game)."""

    def __init__(self, path):
        self.journal = Journal(path)
        self.table = assemble(Config(), self.journal, SeededChance(11), virtual=True)
        self.session, self.virtual = self.table.session, self.table.virtual
        self.session.start()
        self.virtual.plug_in()
        self.bot = BotPlayer(self.session, PI, level="medium", seed=3)
        self.session.physical.automated.add(PI)
        self.bot.start()
        self.app = create_app(self.session, virtual=self.virtual, bot_sides=(PI,))
        self.server = make_server(self.app, host="127.0.0.1", port=0, threads=12)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.base = f"http://127.0.0.1:{self.server.effective_port}"

    def stop(self):
        self.bot.stop()
        self.session.stop()
        assert stop_server(self.server, self.thread)
        self.journal.close()


class Hands:
    """The player at the virtual table: what he reads and what his hands do, counted."""

    def __init__(self, page):
        self.page = page
        self.lifts = self.wrong = self.moved = 0
        self.own = 0
        self.other = 0      # right blocks that were not the one the step he read asked for
        self.read: list[str] = []       # every instruction he carried out, in order

    def status(self):
        return self.page.locator("#status").inner_text()

    def step(self):
        """The board's current instruction as the status line says it, or None."""
        text = self.status()
        m = re.search(r"the board: (.+?)(?:; then |$)", text)
        if not m:
            return None
        said = m.group(1)
        if said.startswith("remove ") and "; put it in " not in said:      # "; then" split a removal
            rest = re.search(re.escape(said) + r"; put (?:it|them) in (.+?)(?:; then |$)", text)
            said += "; put it in " + rest.group(1) if rest else ""
        return said

    def show(self, place):
        self.page.locator("#place-pick").select_option(place)
        self.page.locator("#pick-show").click()

    def set_down(self, place):
        self.page.locator("#place-pick").select_option(place)
        self.page.locator("#pick-set").click()
        expect(self.page.locator(".tray.hand button.vblock")).to_have_count(0, timeout=GUARD_S * 1000)

    def tray(self, place):
        return self.page.locator(f'section.tray[data-place="{place}"]' if place.startswith(("pool:", "eliminated:"))
                                 else "#here")

    def lift(self, place, pos=None, name=None):
        """Lift a block at `place`: the Pi's no. `pos` (as drawn on it), or the first of the Pi's, or
        his own block `name`."""
        if not place.startswith(("pool:", "eliminated:")):
            self.show(place)
        tray = self.tray(place)
        if name is not None:
            button = tray.locator("button.vblock", has=self.page.locator(".name", has_text=re.compile(
                rf"^{re.escape(name)}$"))).first
        elif pos is not None:
            button = tray.locator("button.vblock.pompeius", has=self.page.locator(".position", has_text=re.compile(
                rf"^no\. {pos}$"))).first
        else:
            button = tray.locator("button.vblock.pompeius").first
        button.click()
        expect(self.page.locator(".tray.hand button.vblock")).to_have_count(1, timeout=GUARD_S * 1000)

    def put_right(self, said):
        """Carry out one instruction; True when it was about a block of the Pi's."""
        self.read.append(said)
        for kind, pattern in STEPS:
            m = pattern.match(said)
            if m is None:
                continue
            groups = m.groupdict()
            to = place_key(groups["to"])
            if kind == "move":
                frm = place_key(groups["frm"])
                who = groups["who"]
                if re.match(WHO_PI, who):
                    pos = groups.get("pos")
                    self.lift(frm, pos=pos.split(",")[0].strip() if pos else None)
                    self.lifts += 1
                    return True
                self.lift(frm, name=who)
                self.set_down(to)
                self.own += 1
                return False
            if kind == "right":
                self.other += said.startswith("not the block asked for")
                self.set_down(to)
                self.moved += 1
                return True
            if kind == "wrong":
                self.wrong += 1
                self.set_down(to)
                return True
            self.set_down(to)       # a block in hand named to him: his own, or one of the Pi's revealed in battle
            if re.match(WHO_PI, groups["who"] or groups["who2"] or ""):
                self.moved += 1
                return True
            return False
        pytest.fail(f"an instruction the player cannot read: {said!r}")

    def wait_for_step_after(self, said, deadline):
        """Wait until the status line no longer gives the instruction `said` (a guard, not a measure)."""
        while time.monotonic() < deadline and self.step() == said:
            self.page.wait_for_timeout(100)

    def wait_for_change(self, before, deadline):
        while time.monotonic() < deadline:
            if self.status() != before:
                return
            self.page.wait_for_timeout(100)      # polling the page for its next word, a guard below


def phone_decides(phone, tablet) -> bool:
    """The player's own decision on his phone, as a person taps it: the first choice offered (a
    card, a battle's Fire, a hit, a regroup's Done); his command is Done on the virtual table's
    panel (he commands nothing). False when the phone offers nothing."""
    offered = phone.locator("#actions button.choice[data-line]:not(.takeback):not(.dest):not(.levy):not(.levy-city)")
    if offered.count() == 0:
        return False
    if phone.locator('#actions button.done[data-line$="ends command"]').count():
        tablet.get_by_role("button", name="Done").click()
    else:
        offered.first.click()
    return True


def rolls(tablet, status) -> bool:
    """The dice the status line asks for, rolled in the virtual tray (which the table takes whatever
    the line says of where); False when none are asked."""
    asked = re.search(r"rolls (\d) dic?e for ", status)
    if asked is None:
        return False
    tablet.get_by_role("button", name=f"Roll {asked.group(1)}").click()
    return True


def test_a_family_moves_the_pis_blocks_from_the_page_alone(browser, playwright, tmp_path):
    rig = PiTable(tmp_path / "journal.sqlite3")
    try:
        phone = pair_phone(browser, playwright.devices["Pixel 7"], rig.base, rig.app, "Caesar")
        # A tablet paired from the phone ("Pair another device") reaches the virtual table from its page.
        phone.locator("#invite-button").tap()
        invite = phone.locator("#invite .pair-code a").get_attribute("href")
        tablet = browser.new_context(**playwright.devices["iPad Mini landscape"]).new_page()
        tablet.goto(invite if invite.startswith("http") else rig.base + invite)
        tablet.get_by_role("button", name="Pair this device").click()
        tablet.get_by_role("link", name=re.compile("Open the virtual table")).click()
        expect(tablet.locator("#conn")).to_have_text("live")
        hands = Hands(tablet)
        # A new game: every block set out in one step, no instruction left about the board.
        set_out = tablet.locator("#set-out")
        expect(set_out).to_be_visible()
        set_out.click()
        expect(set_out).to_be_hidden()
        expect(tablet.locator("#status")).not_to_contain_text("the board:")
        expect(tablet.locator("#pi-rows")).to_be_visible()
        deadline = time.monotonic() + 8 * 60
        levied = 0
        rule_seen = False
        while time.monotonic() < deadline:
            said = hands.step()
            status = hands.status()
            if said is not None:
                if "from the left" in said and not rule_seen:
                    # The phone says the rule the Pi's rows keep beside the step that counts them.
                    expect(phone.locator("#banner .instruction.rule")).to_contain_text("right end of its row")
                    rule_seen = True
                if hands.put_right(said) and said.startswith("take "):
                    levied += 1
                # As a person would: the next step once this one's words are gone (the status line may
                # change for another reason first, while the readers' report of the lift is on its way).
                hands.wait_for_step_after(said, time.monotonic() + GUARD_S)
                continue
            if status.startswith("game over"):
                break
            if not phone_decides(phone, tablet) and not rolls(tablet, status):
                hands.wait_for_change(status, time.monotonic() + 1)       # the Pi is deciding
            else:
                hands.wait_for_change(status, time.monotonic() + GUARD_S)
        else:
            pytest.fail(f"the game did not end in time: {hands.status()!r}")
        assert not rig.bot.errors
        assert hands.moved >= 3, (hands.moved, hands.lifts)
        per_block = hands.lifts / hands.moved
        print(f"\n{hands.status()}")
        print(f"the Pi's blocks moved or levied: {hands.moved} (levies {levied}), lifts {hands.lifts}, "
              f"wrong tries {hands.wrong}, blocks for a later step {hands.other}, lifts per block {per_block:.2f}; "
              f"the player's own blocks {hands.own}")
        print("\n".join(hands.read))
        assert per_block <= 1.2
        assert rule_seen
        phone.context.close()
        tablet.context.close()
    finally:
        rig.stop()


def test_a_move_made_on_the_phone_reads_the_right_way_round_on_the_virtual_table(browser, playwright, tmp_path):
    """The block stands at its origin, the game has it at its destination: the
    page says to carry it origin → destination (it said "destination → origin, played at Done")."""
    from engine import BOARD, Move

    from .test_virtual_table_play import VirtualRig, open_virtual

    rig = VirtualRig(tmp_path / "journal.sqlite3")
    try:
        move = None
        for _ in range(40):       # the cards on the phones, to the first command with a one-step move
            snap = rig.session.snapshot()
            side = next(s for s in snap.waiting_for if s != "Chance")
            move = next((m for m in snap.side(side).legal
                         if isinstance(m, Move) and len(m.path) == 2), None)
            if move is not None:
                break
            line = next(o["line"] for o in snap.side(side).options() if o["type"] != "take-back")
            assert rig.session.act(side, line).ok
        assert move is not None
        page = open_virtual(browser, playwright, rig, side)
        assert rig.session.act(side, str(move)).ok                 # played on the phone
        origin, dest = BOARD.loc_names[move.path[0]], BOARD.loc_names[move.path[1]]
        away = page.locator("#planned ul.away")
        expect(away).to_contain_text(f"{BOARD.blocks[move.block].name}")
        expect(away).to_contain_text(f"{origin} → {dest}")
        expect(page.locator("#planned")).not_to_contain_text("Not played until Done")
        page.context.close()
    finally:
        rig.stop()

"""The physical table: sensor events become provisional placements, Done makes them actions.

Owns, for the table session's owner thread (no I/O, no threads of its own): the sensed board,
the order in which the acting player set blocks down during his current decision, the answers
his phone gave to "which path?" / "which strength?", the players' override of a mismatch, the
messages and the panel feedback. `evaluate(game)` reads the game and the sensed board and says
which placements are legal (and as which lines), which are refused (the engine's reason), which
need a question answered, and what else on the board must be put right (reconciliation).
Nothing here changes the `Game`: `done` returns the lines the session applies through its own
path (journal first). Conventions: docs/table-trust.md.

    table = PhysicalTable(reader_map, registry.block_of, feedback=panel_feedback(panel))
    table.sense(event, game)            # after every sensor event
    lines = table.done("Caesar", game)  # TableRefusal if the board or a question is not settled
    parts = table.parts(game)           # Snapshot.table (per viewer; "placements": what Done would apply)
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from engine import BOARD, SIDES, Game, IllegalAction, action_data, parse_action, parse_actor

from ..errors import TableRefusal
from . import placements, reconcile
from .feedback import VIEWERS, Facts, Feedback, MessageBoard, from_refusal, message
from .placements import Candidate
from .reconcile import Difference
from .sensed_board import SensedBoard, SensorEventLike

# A refused Done / answer / confirm is said to that side's phone alone (the room hears the buzzer),
# until what it asks for is done (the condition, `feedback.CLEARS`) or the game moves on.
REFUSAL_CLEARS = {
    "table.in-hand": "set-down",
    "table.board-not-right": "board-right",
    "table.placement-refused": "board-right",
    "table.ask-open": "answered",
    "table.nothing-to-confirm": "placed",
}
# Decisions in which a block sent to the levy pool is a placement (a disband).
DISBANDING = ("supply", "disband")


@dataclass
class Planned:
    """One provisional placement of the acting player, judged in the order it was made."""
    block: int
    origin: int
    place: str                          # where it was sensed (a shared zone: its reader's first location)
    candidates: list[Candidate]
    chosen: Candidate | None = None
    refusal: IllegalAction | None = None
    zone: tuple[str, ...] = ()          # the locations it may stand on, when sensed on a shared zone
    legal_in: tuple[str, ...] = ()      # of those, the ones the rules allow (two or more: the phone asks which)

    @property
    def asking(self) -> bool:
        """Whether this placement waits for its mover to say which of several legal readings he meant."""
        return self.refusal is None and self.chosen is None


@dataclass
class Evaluation:
    """What the sensed board means now: the decision being made by placing blocks, the placements planned, the
    lines they make, what to put right, the blocks in hand and stray tags."""
    placing: tuple[str, str, str] | None           # (side, decision kind, rule) decided by placing blocks
    planned: list[Planned] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # what the resolved placements become, in order
    mismatched: list[Difference] = field(default_factory=list)   # to put right (not a placement)
    in_hand: list[int] = field(default_factory=list)             # the acting side's lifted blocks
    strays: list[dict[str, Any]] = field(default_factory=list)   # unknown tags, tags on no known reader

    @property
    def refused(self) -> list[Planned]:
        """The planned placements the rules refuse."""
        return [p for p in self.planned if p.refusal is not None]

    @property
    def asks(self) -> list[Planned]:
        """The planned placements that wait for their mover's choice."""
        return [p for p in self.planned if p.asking]

    @property
    def board_right(self) -> bool:
        """Whether the board matches the game: nothing to put right, nothing refused, no stray tag."""
        return not (self.mismatched or self.refused or self.strays)


class PhysicalTable:
    """The table's side of the session (see the module docstring)."""

    def __init__(self, reader_map: Any, block_of: Callable[[str], str | None], feedback: Feedback | None = None):
        self.sensed = SensedBoard(reader_map, block_of)
        self.feedback = feedback
        self.messages = MessageBoard()    # the session's board (it settles it before each snapshot)
        self.devices: dict[str, str] = {}
        self._order: list[int] = []                       # blocks set down during this decision
        self._order_key: tuple | None = None
        self._choices: dict[tuple[int, str], str] = {}    # (block, place) -> the candidate label chosen
        self._override: set[tuple] = set()                # differences both players accepted
        self._confirmed: dict[str, frozenset] = {}        # side -> the differences he accepted
        # Sides the Pi plays. Their blocks are handled blind by the human: never read as that
        # side's placements, every difference is an instruction ("put a Caesar block back in
        # Roma (from Genua)"); the readers tell which block was lifted, so a wrong one is named
        # by place until it is put back.
        self.automated: set[str] = set()
        self._lit: tuple[str, ...] | None = None          # the sides whose LED says "your turn"
        # The effects' instructions this board carries out by itself (the virtual table draws each
        # block's strength, facing and battle stance from the game: nothing there to turn, tip or
        # stand up), left out of every viewer's steps (rubicon/table/dice.py `merge`).
        self.shown_by_itself: frozenset[str] = frozenset()
        # When each block was last set down (a running count of "set" events): the Pi's blocks at a
        # place stand in a row in that order, each new one at the right end (docs/bot.md).
        self._set_at: dict[str, int] = {}
        self._sets = 0
        self._at: dict[str, str] = {}       # block key -> the place it was last set down on
        self._left: dict[str, str] = {}     # block key -> the place it stood on before that one
        self._in_hand_refused: int | None = None          # the block a refused Done found in hand
        # Block key -> the location of its shared sensing zone it stands on: where the game had it
        # while the zone's reader sensed it (the map shows that location, never "Neapolis/Sipontum").
        self._stood: dict[str, str] = {}
        self._seen: dict[tuple, int] = {}   # a difference (Difference.key) -> when it first showed
        self._tick = 0
        self.facts = Facts()                              # the last `parts` evaluation, for the board

    # --- judging ---------------------------------------------------------------------------
    def _sync_decision(self, game: Game) -> tuple[str, str, str] | None:
        placing = placements.placing(game)
        st = game.state
        key = None if placing is None else (placing[0], placing[1], st.year, st.turn, st.phase)
        if key != self._order_key:
            self._order, self._choices, self._order_key = [], {}, key
        return placing

    def _mine(self, game: Game, placing: tuple[str, str, str] | None, block: int) -> bool:
        """Whether `block` set down is the acting side's placement: his own block, or Jupiter's
        defector he sends. Any other block moved is its owner's doing (put back), never folded
        into the acting side's Done."""
        if placing is None or placing[0] in self.automated:
            return False
        if placing[1] == "jupiter-send" and block == game.state.command.jupiter_block:
            return True
        return game.state.owner[block] == parse_actor(placing[0])

    def evaluate(self, game: Game) -> Evaluation:
        """The placements, refusals, questions and differences as the board stands now."""
        placing = self._sync_decision(game)
        ev = Evaluation(placing)
        state = game.state
        self._note_stood(game)
        provisional = []
        for d in reconcile.differences(state, self.sensed):
            if d.key in self._override:
                continue
            if self._mine(game, placing, d.block):
                if d.in_hand and self._disbanding(placing, d):
                    # No pool reader: lifting his block off the map is how he sends it to the pool.
                    provisional.append(replace(d, have=reconcile.pool_place(BOARD.blocks[d.block].side),
                                               in_hand=False))
                    continue
                if d.in_hand:
                    ev.in_hand.append(d.block)
                    continue
                if d.block in self._order and d.have is not None and d.want is not None:
                    provisional.append(d)
                    continue
            ev.mismatched.append(d)
        for uid, place in sorted(self.sensed.unknown.items()):
            ev.strays.append({"code": "table.unknown-tag", "params": {"uid": uid, "at": place},
                              "text": f"take the tag {uid} that names no block off {place} (or enroll it)"})
        for uid, reader in sorted(self.sensed.off_reader.items()):
            ev.strays.append({"code": "table.no-reader", "params": {"uid": uid, "reader": reader},
                              "text": f"take the block off reader {reader}: no location of the map is there"})
        if placing is None:
            return ev
        side, kind, rule = placing
        provisional.sort(key=lambda d: self._order.index(d.block))
        trial = game.copy()
        for d in provisional:
            assert d.have is not None
            origin = state.loc[d.block]
            zone = self.sensed.zone(d.have)
            # On a shared zone every location it senses is a reading: the rules keep the legal ones, and
            # the phone asks when more than one is (their labels name the location: a path, a levy's city).
            by_place = {loc: placements.candidates(trial, side, kind, d.block, origin, loc) for loc in zone}
            cands = [c for found in by_place.values() for c in found]
            plan = Planned(d.block, origin, d.have, cands, zone=zone if len(zone) > 1 else (),
                           legal_in=tuple(loc for loc, found in by_place.items() if found))
            ev.planned.append(plan)
            if not cands:
                plan.refusal = _zone_refusal(trial, side, kind, rule, d.block, origin, zone)
                continue
            wanted = self._choices.get((d.block, d.have))
            plan.chosen = cands[0] if len(cands) == 1 else next((c for c in cands if c.label == wanted), None)
            for line in (plan.chosen or cands[0]).lines:   # an open question: the first meaning, for what follows
                trial.apply(line)
            if plan.chosen is not None:
                ev.lines.extend(plan.chosen.lines)
        return ev

    def _note_stood(self, game: Game) -> None:
        """Remember, for each block set down on a shared zone where the game has it, that location."""
        for key, place in self.sensed.place_of.items():
            zone = self.sensed.zone(place)
            if len(zone) > 1:
                want = reconcile.expected_place(game.state, reconcile.block_of_key(key))[0]
                if want in zone:
                    # Kept until it is set down anew: a move within the zone is no difference the
                    # readers see, and the block still stands where it was set.
                    self._stood.setdefault(key, want)

    def stood(self) -> dict[int, str]:
        """Block -> the location of its shared zone it stands on, where the table knows it."""
        return {reconcile.block_of_key(k): loc for k, loc in self._stood.items() if k in self.sensed.place_of}

    def _disbanding(self, placing: tuple[str, str, str] | None, d: Difference) -> bool:
        """Whether a lifted block is a disband of the acting side on a board that senses no pool."""
        return (placing is not None and placing[1] in DISBANDING and d.block in self._order
                and not self.sensed.senses(reconcile.pool_place(BOARD.blocks[d.block].side)))

    # --- events ----------------------------------------------------------------------------
    def sense(self, event: SensorEventLike, game: Game | None) -> None:
        """Take one sensor event in; buzz and tell the right side when it breaks a rule."""
        if event.kind in ("device_up", "device_down"):
            self.devices[event.source] = "up" if event.kind == "device_up" else "down"
            return
        placing = None if game is None else self._sync_decision(game)
        change = self.sensed.apply(event)
        if change.kind == "set" and change.block is not None:
            self._sets += 1
            self._set_at[change.block] = self._sets
            self._stood.pop(change.block, None)     # set down anew: where on its zone, the next evaluation says
            if self._at.get(change.block, change.place) != change.place:
                self._left[change.block] = self._at[change.block]
            self._at[change.block] = change.place or ""
        if game is None:
            return
        if change.kind in ("unknown-tag", "no-reader"):
            where = change.place or "a place with no reader"
            msg = message(f"table.{change.kind}", f"the tag {change.uid} on {where} names no block of the game"
                          if change.kind == "unknown-tag" else f"a tag ({change.uid}) was set where no reader of the "
                          f"map is", {"uid": change.uid, "at": where})
            # Public: the tag is on the table for all to see; said until it is taken off.
            self.messages.post(msg, audience="public", cause="board", clears="tag-gone", subject=change.uid,
                               topic=("tag", change.uid))
            for side in self._acting_sides(game):
                self._buzz("illegal", side)
            return
        if (change.kind == "lifted" and change.block is not None and placing is not None
                and placing[1] in DISBANDING):
            block = reconcile.block_of_key(change.block)
            if self._mine(game, placing, block) and block not in self._order:
                self._order.append(block)      # a disband, if no reader senses the pool (evaluate says)
            return
        if change.kind != "set" or change.block is None:
            return
        block = reconcile.block_of_key(change.block)
        zone = self.sensed.zone(change.place)
        if self._mine(game, placing, block) and reconcile.expected_place(game.state, block)[0] not in zone:
            if block not in self._order:
                self._order.append(block)
            self._judge_placement(game, block)
            return
        want, ok = reconcile.expected_place(game.state, block)
        if any(p in ok for p in zone):
            return
        owner = SIDES[game.state.owner[block]]
        if owner in self.automated:
            return      # the Pi's block, handled blind: the instructions say where it goes
        label = BOARD.block_label(block, game.state.owner[block])
        code = "table.not-your-turn" if placing is not None else "table.misplaced"
        why = (f"{label} may not move now ({placing[0]} is acting)" if placing is not None
               else f"{label} does not belong in {change.place}")
        self.messages.post(message(code, f"{why}: put it back in {want}", {"block": label, "at": change.place,
                                                                             "to": want}),
                           audience=(owner,), cause=owner, clears="block-home", subject=block, topic=("block", block))
        self._buzz("illegal", owner)

    def _judge_placement(self, game: Game, block: int) -> None:
        ev = self.evaluate(game)
        plan = next((p for p in ev.planned if p.block == block), None)
        if plan is None or ev.placing is None:
            return
        side = ev.placing[0]
        if plan.refusal is not None:
            self.messages.post(from_refusal(plan.refusal), audience=(side,), cause=side, clears="placement-withdrawn",
                               subject=block, topic=("placement", block))
        # The same beep whatever the verdict: the room hears that the block was read, and only
        # his phone says whether the rules allow it (a verdict on a hidden block tells what it is).
        self._buzz("ok", side)

    def _acting_sides(self, game: Game) -> list[str]:
        sides = [s for s in game.current_players() if s in SIDES]
        return sides or list(SIDES)

    def _buzz(self, kind: str, side: str) -> None:
        if self.feedback is not None:
            self.feedback(kind, side)

    def announce_turn(self, game: Game | None) -> None:
        """Light the LED of each side that must act now (a decision of his, or the dice of his
        firing block), the other off; told to the feedback only when that changes."""
        sides: tuple[str, ...] = ()
        if game is not None and game.result() is None:
            acting = set()
            for d in game.pending():
                if d.actor in SIDES:
                    acting.add(d.actor)
                elif d.kind in ("dice", "jupiter-pick"):
                    who = d.params.get("side" if d.kind == "dice" else "player")
                    if who in SIDES:
                        acting.add(who)
            sides = tuple(s for s in SIDES if s in acting)
        if sides == self._lit:
            return
        self._lit = sides
        if not sides:
            for side in SIDES:
                self._buzz("off", side)
            return
        self._buzz("your_turn", sides[0])       # lights that side, the other off
        for side in sides[1:]:
            self._buzz("your_turn_too", side)   # a simultaneous step: both lit

    def refused(self, side: str, exc: IllegalAction) -> str:
        """A refused Done / answer / confirm: the full reason (it may name his blocks) to `side`'s
        phone alone, until what it asks for is done; and the buzzer. The message's id."""
        clears = REFUSAL_CLEARS.get(exc.code or "", "play")
        subject = {"set-down": self._in_hand_refused, "answered": side, "placed": side}.get(clears)
        said = self.messages.post(from_refusal(exc), audience=(side,), cause=side, clears=clears, subject=subject,
                                  topic=(side, "request"))
        self._buzz("illegal", side)
        return said

    # --- intents ---------------------------------------------------------------------------
    def done(self, side: str, game: Game) -> list[str]:
        """The lines Done applies for `side` now (his placements, then the line ending his
        decision); TableRefusal (nothing changed) when the board or a question is not settled."""
        ev = self.evaluate(game)
        if ev.placing is None or ev.placing[0] != side:
            now = ", ".join(game.current_players()) or "nobody"
            raise TableRefusal(f"{side} has nothing to confirm with Done now (waiting for {now})",
                               code="table.done-not-yours", params={"side": side, "awaited": now})
        if ev.mismatched or ev.strays:
            first = self.instructions(game, ev, side)[0]["text"]
            raise TableRefusal(f"put the board right first: {first}", code="table.board-not-right",
                               params={"instruction": first})
        if ev.refused:
            raise TableRefusal(f"{ev.refused[0].refusal}: put that block back first", code="table.placement-refused",
                               rule=ev.refused[0].refusal.rule if ev.refused[0].refusal else None)
        if ev.in_hand:
            label = BOARD.block_label(ev.in_hand[0], parse_actor(side))
            self._in_hand_refused = ev.in_hand[0]
            raise TableRefusal(f"{label} is in hand: set it down first", code="table.in-hand",
                               params={"block": label})
        if ev.asks:
            raise TableRefusal("answer the question on the phone first", code="table.ask-open")
        lines = list(ev.lines)
        trial = game.copy()
        for line in lines:
            trial.apply(line)
        end = placements.end_line(trial, side)
        if end is not None and ev.placing[1] in ("command", "regroup", "disband", "supply"):
            lines.append(end)
        if not lines:
            raise TableRefusal("nothing to confirm: set blocks down first", code="table.nothing-to-confirm",
                               rule=ev.placing[2])
        return lines

    def accepted(self, side: str) -> None:
        """Done's lines were applied: the placements are the game now."""
        self._order, self._choices = [], {}
        self.messages.taken(side)

    def answer(self, side: str, option: str, game: Game) -> list[str]:
        """`side`'s phone answers the open question; a stale or foreign answer is refused. The
        lines to apply at once: none here (Done applies the placements; the one-reader table's
        answer is the action itself)."""
        ev = self.evaluate(game)
        plan = ev.asks[0] if ev.asks else None
        if plan is None or ev.placing is None or ev.placing[0] != side:
            raise TableRefusal(f"there is no question for {side} now", code="table.stale-answer",
                               params={"option": option})
        labels = [c.label for c in plan.candidates]
        if option not in labels:
            raise TableRefusal(f"{option!r} is not one of the options ({'; '.join(labels)})",
                               code="table.unknown-option", params={"option": option})
        self._choices[(plan.block, plan.place)] = option
        return []

    def confirm(self, side: str, game: Game) -> bool:
        """`side` accepts the board as sensed (a reader that cannot see a block); once both have
        accepted the same differences, play goes on over them. True when the override holds."""
        ev = self.evaluate(game)
        keys = frozenset(d.key for d in ev.mismatched)
        if not keys:
            raise TableRefusal("the board matches: there is nothing to confirm", code="table.nothing-to-override")
        self._confirmed[side] = keys
        other = SIDES[1 - SIDES.index(side)]
        if all(self._confirmed.get(s) == keys for s in SIDES):
            self._override |= keys
            self._confirmed = {}
            said = message("table.confirmed", "both players accepted the board as sensed: play goes on",
                           {"count": len(keys)})
        elif other in self.automated:
            # The Pi takes the board as its player sees it: his word is enough.
            self._override |= keys
            self._confirmed = {}
            said = message("table.confirmed", "the board was accepted as sensed: play goes on", {"count": len(keys)})
        else:
            said = message("table.confirm-waiting", f"{side} accepts the board as sensed: {other} must confirm too",
                           {"side": side, "other": other})
        # Told to everyone (each sees the board); the override holding supersedes the waiting one, and
        # the wait ends with the board put right (nothing is left to confirm).
        waiting = said["code"] == "table.confirm-waiting"
        self.messages.post(said, audience="public", cause=side, topic=("table", "confirm"),
                           clears="board-right" if waiting else "play")
        return said["code"] == "table.confirmed"

    # --- what each viewer reads -------------------------------------------------------------
    def instructions(self, game: Game, ev: Evaluation, viewer: str | None) -> list[dict[str, Any]]:
        """What `viewer` is told to put right. A refused placement is told to the placing side only:
        to anyone else "put a block back" would say the rules refuse that block there, which tells
        what it may be; they see it set down, as at a table without sensors, until it goes back."""
        v = None if viewer in (None, "public") else parse_actor(viewer)
        placer = ev.placing[0] if ev.placing is not None else None
        refused = [Difference(p.block, reconcile.expected_place(game.state, p.block)[0], p.place, zone=p.zone)
                   for p in ev.refused if viewer == placer]
        out = [dict(s) for s in ev.strays]
        diffs = refused + ev.mismatched
        returning = [d.block for d in diffs if self._left.get(BOARD.blocks[d.block].key) == d.want]
        out += reconcile.instructions(game.state, diffs, v, self.rows(game), [SIDES.index(s) for s in self.automated],
                                      returning, self.stood(), self._ages(diffs))
        return out

    def _ages(self, diffs: list[Difference]) -> dict[int, int]:
        """Block -> when its difference first showed (a running count): steps of one kind are told
        oldest first, so the step a player is carrying out stays first while the Pi keeps moving
        (a block in hand keeps the age of the step it was lifted for)."""
        if not diffs:
            self._seen.clear()      # the board is right: nothing is pending
        ages = {}
        for d in diffs:
            key = (d.block, d.want, d.held_from) if d.in_hand else d.key
            if key not in self._seen:
                self._tick += 1
                self._seen[key] = self._tick
            ages[d.block] = self._seen[key]
        return ages

    def rows(self, game: Game) -> dict[str, list[int]]:
        """Per place (the location the map shows, on a shared zone the one it stands on), the blocks
        of the sides the Pi plays standing there, left to right: in the order they were set down
        (the player sets each at the right end of its side's row). Only the order of the player's
        own hands decides a position, never what a block is."""
        auto = {SIDES.index(s) for s in self.automated}
        out: dict[str, list[tuple[int, int]]] = {}
        if not auto:
            return {}
        for key, place in self.sensed.place_of.items():
            block = reconcile.block_of_key(key)
            if game.state.owner[block] in auto:
                place = self._stood.get(key, place) if len(self.sensed.zone(place)) > 1 else place
                out.setdefault(place, []).append((self._set_at.get(key, 0), block))
        return {place: [b for _, b in sorted(row)] for place, row in out.items()}

    def ask(self, ev: Evaluation, viewer: str) -> dict[str, Any] | None:
        """The question for `viewer` if one of his placements can be read several ways: the block, where it was
        set, and the options."""
        plan = ev.asks[0] if ev.asks else None
        if plan is None or ev.placing is None or ev.placing[0] != viewer:
            return None
        label = BOARD.block_label(plan.block, parse_actor(viewer))
        if len(plan.legal_in) > 1:      # set on a shared zone's antenna, legal on more than one of its locations
            where = "/".join(plan.legal_in)
            return {"kind": "zone", "prompt": f"{label} set on {where}: which did you mean?",
                    "params": {"block": label, "place": where}, "options": [c.label for c in plan.candidates],
                    "strengths": None}
        levy = all(c.strength for c in plan.candidates)
        kind = "strength" if levy else "path"
        prompt = f"{label} levied in {plan.place}: at which strength?" if levy else \
            f"{label} set in {plan.place}: by which way?"
        # A levy's options differ by strength alone: the phone shows the numerals (`strengths`).
        return {"kind": kind, "prompt": prompt, "params": {"block": label, "place": plan.place},
                "options": [c.label for c in plan.candidates],
                "strengths": [c.strength for c in plan.candidates] if levy else None}

    def parts(self, game: Game) -> dict[str, dict[str, Any]]:
        """Snapshot.table: per viewer what holds play up (`waiting`: the board's first instruction, his
        open question, where the dice asked come from), instructions, messages, ask, dice, devices."""
        ev = self.evaluate(game)
        left = self._left_after(game, ev)
        self.facts = _facts(ev)
        out: dict[str, dict[str, Any]] = {}
        for viewer in VIEWERS:
            who = None if viewer == "public" else viewer
            steps = self.instructions(game, ev, who)
            # Only the asker hears of his question: that a placement has several meanings (paths,
            # a levy's strengths) tells something of the block.
            asker = ev.placing[0] if ev.asks and ev.placing and ev.placing[0] == viewer else None
            # What holds play up besides the game's decisions (the words: web_ui/i18n, render_waiting).
            waiting = {"board": steps[0] if steps else None, "ask": asker, "dice": None}
            # The lines his Done would apply now, to the acting side alone: the readers cannot tell
            # whose hand set a block down, so he sees every placement before it becomes his move.
            # As data ({"line", "type", "actor", "params"}): the page says them without reading notation.
            planned = ([{"line": line, **action_data(parse_action(line))} for line in ev.lines]
                       if ev.placing is not None and ev.placing[0] == viewer else [])
            out[viewer] = {"waiting": waiting, "instructions": steps, "messages": [],
                           "ask": self.ask(ev, viewer), "placements": planned, "dice": None,
                           "devices": dict(self.devices), "left": left if planned else None}
        return out

    @staticmethod
    def _left_after(game: Game, ev: Evaluation) -> dict[str, int] | None:
        """The acting side's command points left once his placements are played (what his phone
        counts down while blocks stand provisionally on the board), or None when nothing is placed."""
        if ev.placing is None or ev.placing[1] != "command" or not ev.lines:
            return None
        trial = game.copy()
        for line in ev.lines:
            trial.apply(line)
        for d in trial.pending():
            if d.actor == ev.placing[0] and d.kind == "command":
                return {"mp_left": d.params["mp_left"], "lp_left": d.params["lp_left"]}
        return {"mp_left": 0, "lp_left": 0}


def _facts(ev: Evaluation) -> Facts:
    """What the message board's conditions read of one evaluation (the position is the session's)."""
    return Facts(away=frozenset(d.block for d in ev.mismatched) | frozenset(ev.in_hand)
                 | frozenset(p.block for p in ev.refused),
                 refused=frozenset(p.block for p in ev.refused), in_hand=frozenset(ev.in_hand),
                 strays=frozenset(str(s["params"]["uid"]) for s in ev.strays),
                 asking=frozenset({ev.placing[0]}) if ev.asks and ev.placing else frozenset(),
                 placing=frozenset({ev.placing[0]}) if ev.lines and ev.placing else frozenset(),
                 board_right=ev.board_right)


def plain_parts() -> dict[str, dict[str, Any]]:
    """Snapshot.table with no physical table attached: nothing holds play up but the game."""
    return {viewer: {"waiting": {"board": None, "ask": None, "dice": None}, "instructions": [], "messages": [],
                     "ask": None, "placements": [], "left": None, "dice": None, "devices": {}}
            for viewer in VIEWERS}


def _zone_refusal(game: Game, side: str, kind: str, rule: str, block: int, origin: int,
                  zone: tuple[str, ...]) -> IllegalAction:
    """Why `block` may go to none of `zone`'s locations: the engine's reason for one of them, the
    nearest first (a shared zone's other location is usually not even adjacent, which says less)."""
    reasons = [placements.refusal(game, side, kind, rule, block, origin, loc) for loc in zone]
    return next((r for r in reasons if r.code != "move.not-adjacent"), reasons[0])

// A phone's decisions as big buttons: a move as block, then destination, then path; a battle turn as one row per block.
import {$, act, button, card, el, main, num, orBlank, page, t} from "./core.js";
import {waitingLine} from "./status.js";

let picked = null;        // the block chosen in the move prompt: {block, from}
let pickedDest = null;    // its destination when several paths lead there
let pickedLevy = null;    // the block from the levy pool chosen before its city

// The prompts' groups (the buttons' texts are made by the server, web_ui/i18n/actions.py).
const TYPE_GROUP = {
  "levy": t("Levies"), "add-step": t("Add steps"), "invoke-jupiter": t("Events"), "invoke-vulcan": t("Events"),
  "declare-main": t("Main attack"),
};
const DONE_LABEL = {
  "command": t("Done: end my command"), "regroup": t("Done: end regroup"), "disband": t("Done: end disbanding"),
  "jupiter-target": t("Do not use Jupiter"), "vulcan-city": t("Do not use Vulcan"),
};

function rerender() { if (page.state) renderPrompts(page.state); }

function contextLine(p) {
  const q = p.params || {};
  switch (p.kind) {
    case "command":
    case "command": {
      const left = t("Card %(card)s: moves left: %(mp)s, levies left: %(lp)s", {card: card(orBlank(q.card)), mp: num(q.mp_left), lp: num(q.lp_left)});
      return q.last_text ? t("%(left)s · last: %(text)s", {left: left, text: q.last_text}) : left;
    }
    case "battle-turn": {
      const where = t("%(location)s, round %(round)s, initiative %(letter)s", {location: q.location, round: num(q.round), letter: q.letter});
      return q.must_retreat ? t("%(where)s · must retreat", {where: where}) : where;
    }
    case "take-hit": return q.hits === 1
      ? t("one hit from %(by)s: pick among your blocks at strength %(s)s", {by: orBlank(q.firing), s: num(q.strength)})
      : t("%(n)s hits from %(by)s: pick among your blocks at strength %(s)s", {n: num(q.hits), by: orBlank(q.firing), s: num(q.strength)});
    case "regroup": return t("You won in %(location)s: regroup or press Done", {location: q.location});
    case "supply": return (q.cities || []).map((c) => t("%(city)s: %(over)s over the limit", {city: c.city, over: num(c.over)})).join("; ");
    case "jupiter-send": return t("A block from %(location)s defects: where does it go?", {location: q.location});
    default: return "";
  }
}

// Moves: tap a block, then its destination, then the path when several lead there.
function renderMoves(p, box) {
  if (!p.moves.length) return;
  box.append(el("h3", t("Move a block")));
  const current = picked && p.moves.find((m) => m.block === picked.block && m.from === picked.from);
  if (!current) {
    picked = null;
    const row = el("div", undefined, "choices blocks");
    p.moves.forEach((m) => {
      const b = button(t("%(block)s (in %(from)s)", {block: m.block, from: m.from}), null, "choice block");
      b.dataset.block = m.block;
      b.addEventListener("click", () => { picked = {block: m.block, from: m.from}; pickedDest = null; rerender(); });
      row.append(b);
    });
    box.append(row);
    return;
  }
  box.append(el("p", t("%(block)s from %(from)s to:", {block: current.block, from: current.from}), "picked"));
  const dest = pickedDest && current.to.find((d) => d.place === pickedDest);
  const row = el("div", undefined, "choices destinations");
  if (!dest) {
    current.to.forEach((d) => {
      if (d.paths.length === 1) {
        row.append(button(t("to %(place)s", {place: d.place}), d.paths[0].line, "choice dest"));
      } else {
        const b = button(t("to %(place)s …", {place: d.place}), null, "choice dest");
        b.addEventListener("click", () => { pickedDest = d.place; rerender(); });
        row.append(b);
      }
    });
  } else {
    dest.paths.forEach((path) => row.append(button(path.via.length ? t("via %(via)s", {via: path.via.join(" – ")})
      : t("by the direct road"), path.line, "choice path")));
  }
  const back = button(t("Back"), null, "choice back");
  back.addEventListener("click", () => { if (pickedDest) pickedDest = null; else picked = null; rerender(); });
  row.append(back);
  box.append(row);
}

function renderRows(p, box) {
  p.rows.forEach((r) => {
    const row = el("div", undefined, "choices battle-row");
    row.append(el("strong", r.block + (r.strength ? " " + r.strength : ""), "row-block printed"));
    if (r.fire) row.append(button(t("Fire"), r.fire, "choice fire"));
    if (r.pass) row.append(button(t("Pass"), r.pass, "choice pass"));
    r.retreat.forEach((x) => {
      const text = !x.place ? t("Cannot retreat: eliminated")
        : x.by_sea ? t("Retreat by sea to %(place)s", {place: x.place}) : t("Retreat to %(place)s", {place: x.place});
      row.append(button(text, x.line, "choice retreat"));
    });
    box.append(row);
  });
}

// Levies: the block from the pool first, then the city (one tap when only one city is open).
function renderLevies(levies, box) {
  if (!levies.length) return;
  box.append(el("h3", t("Levy a block")));
  const byBlock = {};
  levies.forEach((c) => { (byBlock[c.params.block] = byBlock[c.params.block] || []).push(c); });
  const row = el("div", undefined, "choices levies");
  if (pickedLevy && byBlock[pickedLevy]) {
    box.append(el("p", t("Levy %(block)s in:", {block: pickedLevy}), "picked"));
    byBlock[pickedLevy].forEach((c) => row.append(button(t("in %(place)s", {place: c.params.location}), c.line, "choice levy-city")));
    const back = button(t("Back"), null, "choice back");
    back.addEventListener("click", () => { pickedLevy = null; rerender(); });
    row.append(back);
  } else {
    pickedLevy = null;
    Object.keys(byBlock).forEach((blk) => {
      const only = byBlock[blk].length === 1 ? byBlock[blk][0] : null;
      const b = button(only ? only.text : t("Levy %(block)s …", {block: blk}), only ? only.line : null, "choice levy");
      if (!only) b.addEventListener("click", () => { pickedLevy = blk; rerender(); });
      row.append(b);
    });
  }
  box.append(row);
}

function renderChoices(p, box) {
  const groups = {};
  renderLevies(p.choices.filter((c) => c.type === "levy"), box);
  p.choices.filter((c) => c.type !== "levy").forEach((c) => { const g = TYPE_GROUP[c.type] || ""; (groups[g] = groups[g] || []).push(c); });
  Object.keys(groups).forEach((g) => {
    if (g) box.append(el("h3", g));
    const row = el("div", undefined, "choices");
    groups[g].forEach((c) => row.append(button(c.text, c.line, "choice " + c.type)));
    box.append(row);
  });
}

export function renderPrompts(state) {
  const box = $("actions");
  box.replaceChildren();
  const list = state.prompts || [];
  const dice = (state.table || {}).dice;
  if (dice && dice.mine && !state.result) {
    // This side's block fires: the roll is his to make, here (the Roll button) or in the tray.
    const sec = el("div", undefined, "prompt kind-dice");
    sec.append(el("p", dice.text, "context"));
    if (dice.button && main.dataset.roll) {
      const b = button(dice.button, null, "choice roll big");
      b.addEventListener("click", () => act("", main.dataset.roll, {}));
      sec.append(b);
    } else if (dice.typed && main.dataset.faces) {
      // Real dice rolled by hand (the table option "dice source" is typed): one field per die.
      const row = el("div", undefined, "choices faces");
      const fields = [];
      for (let i = 0; i < dice.count; i++) {
        const f = el("input", undefined, "face");
        f.type = "number"; f.min = "1"; f.max = "6"; f.inputMode = "numeric"; f.required = true;
        f.setAttribute("aria-label", t("Die %(n)s", {n: num(i + 1)}));
        fields.push(f);
        row.append(f);
      }
      const send = button(t("Send the faces"), null, "choice roll big");
      send.addEventListener("click", () => act("", main.dataset.faces, {faces: fields.map((f) => Number(f.value))}));
      row.append(send);
      sec.append(row);
    }
    box.append(sec);
    return;
  }
  if (!list.length) {
    box.append(el("p", state.result ? t("The game is over.") : t("Nothing to do now: %(waiting)s", {waiting: waitingLine(state)}), "idle"));
    return;
  }
  list.forEach((p) => {
    const sec = el("div", undefined, "prompt kind-" + p.kind);
    sec.append(el("h3", t("%(title)s (%(rule)s)", {title: p.title, rule: p.rule}), "prompt-title"));
    const ctx = contextLine(p);
    if (ctx) sec.append(el("p", ctx, "context"));
    renderRows(p, sec);
    renderMoves(p, sec);
    renderChoices(p, sec);
    const end = el("div", undefined, "choices end");
    if (p.take_back) end.append(button(t("Take back my last move"), p.take_back, "choice takeback"));
    if (p.done) end.append(button(DONE_LABEL[p.kind] || t("Done"), p.done, "choice done big"));
    if (p.kind === "command" && Object.keys((state.table || {}).devices || {}).length && main.dataset.done) {
      // At a physical table the blocks set down are the moves: Done turns them into lines.
      const b = button(t("Done: my blocks on the board are my moves"), null, "choice done-board big");
      b.addEventListener("click", () => act("", main.dataset.done, {}));
      end.append(b);
    }
    if (end.childElementCount) sec.append(end);
    box.append(sec);
  });
}

// A new set of prompts forgets the picks made in the old one.
export const promptsPane = {
  slice: (s) => [s.prompts, s.result, (s.table || {}).waiting_text, (s.table || {}).dice, Object.keys((s.table || {}).devices || {}).length],
  render: (s) => { picked = null; pickedDest = null; pickedLevy = null; renderPrompts(s); },
};

// The log as this viewer saw it, and the Pi's last turn explained (texts made by the server).
import {$, el, num, phase, side, t} from "./core.js";

// The log as this viewer saw it, newest first.
export function renderLog(state) {
  const log = $("log");
  if (!log) return;
  log.replaceChildren(...(state.log || []).slice().reverse().map((e) => {
    const said = (e.said || []).join("; ");
    const li = el("li", said ? t("%(action)s — %(effects)s", {action: e.line_text, effects: said}) : e.line_text);
    li.value = e.index + 1;
    return li;
  }));
  wholeLines(log);
}

// Where the log is cut to its box (the TV), only the entries that fit whole are shown: none is
// cut mid-line. Again whenever the box changes size (a battle shown above it, the text size).
let watched = null;
function wholeLines(log) {
  const box = log.parentElement;
  if (watched !== box && typeof ResizeObserver !== "undefined") {
    watched = box;
    new ResizeObserver(() => wholeLines(log)).observe(box);
  }
  [...log.children].forEach((li) => { li.hidden = false; });
  if (getComputedStyle(box).overflowY !== "hidden") return;
  const bottom = box.getBoundingClientRect().bottom;
  let cut = false;
  [...log.children].forEach((li) => {
    cut = cut || li.getBoundingClientRect().bottom > bottom + 0.5;
    li.hidden = cut;
  });
}

// What the Pi did in its last turn (explained moves): rubicon/table/bot_explain.py's
// items, built from the public log only, each said in the reader's language.
// While a search runs, the note "thinking" (rubicon/table/bot_player.py) says how far it got.
export function renderBot(state) {
  const box = $("bot");
  if (!box) return;
  const notes = state.notes || {};
  const note = notes.bot;
  const thinking = notes.thinking;
  box.hidden = !note && !thinking;
  if (box.hidden) return;
  const parts = [];
  if (thinking) {
    const line = el("p", t("%(side)s (the Pi) is thinking (%(phase)s): %(done)s of %(total)s lines of play tried",
      {side: side(thinking.side), phase: phase(thinking.phase), done: num(thinking.done), total: num(thinking.total)}),
    "bot-thinking");
    const bar = el("progress");
    bar.max = thinking.total;
    bar.value = thinking.done;
    line.append(" ", bar);
    parts.push(line);
  }
  if (note) {
    const said = (note.items || []).map((i) => i.text);   // made by the server (web_ui/i18n/localize.py)
    parts.push(el("h2", t("%(side)s (the Pi), its last turn", {side: side(note.side)})),
      said.length ? el("ul", undefined, "bot-items") : el("p", t("nothing to do")));
  }
  box.replaceChildren(...parts);
  const list = box.querySelector("ul");
  if (list && note) (note.items || []).forEach((i) => list.append(el("li", i.text)));
}

export const logPane = {slice: (s) => [s.log], render: renderLog};
export const botPane = {slice: (s) => [(s.notes || {}).bot, (s.notes || {}).thinking], render: renderBot};

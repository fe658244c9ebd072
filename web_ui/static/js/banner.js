// The table's instructions and live messages (what to put right, refusals), and its question.
import {$, act, button, el, main, mode, num, t} from "./core.js";

// The table's instructions (what to put right on the board) and messages (refusals, feedback).
export function renderBanner(state) {
  const box = $("banner");
  if (!box) return;
  box.replaceChildren();
  const tb = state.table || {};
  const ins = tb.instructions || [];
  if (ins.length) {
    box.append(el("p", ins[0].text, "instruction current"));
    if (ins.length > 1) box.append(el("p", t("then %(n)s more", {n: num(ins.length - 1)}), "instruction more"));
    // A block of the Pi's named by its place in its row: the rule that row keeps, said beside it.
    if (ins[0].params && ins[0].params.positions) {
      box.append(el("p", t("The Pi's blocks stand in a row at each place, left to right in the order they were set down: set each one down at the right end of its row."), "instruction rule"));
    }
  }
  // The live messages this viewer is concerned by (rubicon/table/feedback.py): gone once resolved.
  (tb.messages || []).forEach((m) => {
    const p = el("p", m.text, "message bad");   // the text names its rule
    p.dataset.id = m.id || "";
    box.append(p);
    // The journal's fault report: said on every page until a player has read it on his phone.
    if (m.dismiss && mode === "player" && main.dataset.dismiss) {
      const b = button(t("I have read it: dismiss"), null, "choice dismiss");
      b.addEventListener("click", () => act("", main.dataset.dismiss, {fault: m.dismiss}));
      p.append(" ", b);
    }
  });
  // What Done would play now: every block set down counts, whoever's hand it was (the readers
  // cannot tell), so the player sees them all before pressing Done.
  const planned = tb.placements || [];
  if (planned.length) box.append(el("p", t("Done will play: %(lines)s", {lines: planned.map((x) => x.text).join("; ")}), "instruction planned"));
  // The roll asked, in the server's words for this reader: who rolls, where (the tray, a phone).
  if (tb.dice && tb.dice.text) box.append(el("p", tb.dice.text, "instruction dice"));
  if (mode === "player" && ins.length && main.dataset.confirm) {
    const b = button(t("The board is right: confirm it as sensed"), null, "choice confirm");
    b.addEventListener("click", () => act("", main.dataset.confirm, {}));
    box.append(b);
  }
  box.hidden = !box.childElementCount;
}

// A question from the table (e.g. which of two paths). Answered through the ask endpoint when
// the page names one; until then it is shown, its options disabled.
export function renderAsk(state) {
  const box = $("ask");
  if (!box) return;
  box.replaceChildren();
  const ask = (state.table || {}).ask;
  box.hidden = !ask;
  if (!ask) return;
  box.append(el("h2", ask.prompt));
  const row = el("div", undefined, "choices");
  (ask.options || []).forEach((o, i) => {
    // A levy's options differ by strength alone: the numeral is the button (ask.strengths).
    const text = ask.strengths ? ask.strengths[i] : typeof o === "string" ? o : (o.text || o.label || o.line);
    const value = typeof o === "string" ? o : (o.value || o.line || text);
    const b = button(text, null, "choice printed");   // the candidates are block labels, as printed
    if (main.dataset.ask) b.addEventListener("click", () => act(value, main.dataset.ask, {option: value}));
    else b.disabled = true;
    row.append(b);
  });
  box.append(row);
}

export const bannerPane = {slice: (s) => [s.table], render: renderBanner};
export const askPane = {slice: (s) => [(s.table || {}).ask], render: renderAsk};

// The table in words (VP, Player 1, cards revealed, locations) and the map's labels.
import {$, card, el, num, side, t} from "./core.js";

export function renderTable(v) {
  const box = $("table");
  box.replaceChildren();
  if (!v.vp) return;
  box.append(el("p", t("VP: %(caesar)s %(cvp)s · %(pompeius)s %(pvp)s", {caesar: side("Caesar"), cvp: num(v.vp.Caesar),
    pompeius: side("Pompeius"), pvp: num(v.vp.Pompeius)}), "vp"));
  if (v.player1) box.append(el("p", t("Player 1: %(side)s", {side: side(v.player1)})));
  (v.revealed || []).forEach((r) => {
    const p = {turn: num(r.turn), caesar: side("Caesar"), ccard: card(r.Caesar), pompeius: side("Pompeius"), pcard: card(r.Pompeius)};
    box.append(el("p", r.cancelled ? t("Turn %(turn)s: %(caesar)s %(ccard)s, %(pompeius)s %(pcard)s (cancelled)", p)
      : t("Turn %(turn)s: %(caesar)s %(ccard)s, %(pompeius)s %(pcard)s", p), "revealed"));
  });
  if (v.command) {
    const c = v.command;
    box.append(el("p", t("%(side)s commands with %(card)s: moves %(mp)s/%(mpmax)s, levies %(lp)s/%(lpmax)s",
      {side: side(c.side), card: card(c.card), mp: num(c.mp_used), mpmax: num(c.mp), lp: num(c.lp_used), lpmax: num(c.lp)})));
  }
  if ((v.battles || []).length) {
    const bl = el("ul", undefined, "battles");
    v.battles.forEach((b) => bl.append(el("li", t("Battle in %(location)s (attacker %(side)s)", {location: b.location, side: side(b.attacker)}))));
    box.append(bl);
  }
  const list = el("ul", undefined, "locations");
  Object.keys(v.locations || {}).sort().forEach((name) => {
    const entry = v.locations[name];
    const blocks = Object.keys(entry).map((s) => (entry[s].moved
      ? t("%(side)s %(blocks)s (%(moved)s moved)", {side: side(s), blocks: num(entry[s].blocks), moved: num(entry[s].moved)})
      : t("%(side)s %(blocks)s", {side: side(s), blocks: num(entry[s].blocks)}))).join(", ");
    list.append(el("li", t("%(location)s: %(blocks)s", {location: name, blocks: blocks})));
  });
  box.append(list);
}

// Each location's label: blocks per side ("C3 P2"); a phone adds its own blocks' strengths.
export function renderMap(state) {
  const v = state.view || {};
  const own = {};
  (v.own_blocks || []).forEach((b) => { (own[b.location] = own[b.location] || []).push(b.strength); });
  document.querySelectorAll("svg.map g.loc").forEach((g) => {
    const name = g.dataset.name;
    const entry = (v.locations || {})[name] || {};
    const parts = [];
    if (entry.Caesar) parts.push("C" + entry.Caesar.blocks + (entry.Caesar.moved ? "*" : ""));
    if (entry.Pompeius) parts.push("P" + entry.Pompeius.blocks + (entry.Pompeius.moved ? "*" : ""));
    if (own[name]) parts.push("(" + own[name].join(",") + ")");
    g.querySelector(".count").textContent = parts.join(" ");
    g.classList.toggle("held-c", !!entry.Caesar && !entry.Pompeius);
    g.classList.toggle("held-p", !!entry.Pompeius && !entry.Caesar);
    g.classList.toggle("contested", !!entry.Caesar && !!entry.Pompeius);
  });
}

export const tablePane = {slice: (s) => [s.view], render: (s) => renderTable(s.view || {})};
export const mapPane = {slice: (s) => [(s.view || {}).locations, (s.view || {}).own_blocks], render: renderMap};

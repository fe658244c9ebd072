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

// The map's blocks, battles and contested places: SVG drawn by the server for this viewer
// alone (web_ui/map_blocks.py: the other side's blocks only as backs).
export function renderMap(state) {
  const layer = document.querySelector("svg.map g.map-layer");
  if (layer && typeof state.map_layer === "string") layer.innerHTML = state.map_layer;
}

export const tablePane = {slice: (s) => [s.view], render: (s) => renderTable(s.view || {})};
export const mapPane = {slice: (s) => [s.map_layer], render: renderMap};

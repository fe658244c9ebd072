// The battle as it is fought: columns A B C D, defender above attacker, reserves apart, every die.
import {$, el, num, side, t} from "./core.js";

export function renderBattle(state) {
  const box = $("battle");
  if (!box) return;
  box.replaceChildren();
  const b = state.battle;
  box.hidden = !b;
  if (!b) return;
  box.append(el("h2", t("Battle in %(location)s — round %(round)s", {location: b.location, round: num(b.round)})));
  const grid = el("div", undefined, "battle-grid");
  grid.append(el("div", "", "corner"));
  b.columns.forEach((c) => grid.append(el("div", c.letter, "letter printed")));
  [["defender", b.defender], ["attacker", b.attacker]].forEach(([role, who]) => {
    const title = role === "attacker" ? t("Attacker %(side)s", {side: side(who)}) : t("Defender %(side)s", {side: side(who)});
    grid.append(el("div", title, "role side-" + who.toLowerCase()));
    b.columns.forEach((c) => {
      const cell = el("div", undefined, "cell");
      c[role].forEach((x) => {
        const blk = el("div", x.name + " " + x.strength, "blk printed side-" + x.side.toLowerCase() + (x.firing ? " firing" : ""));
        blk.title = t("fires %(n)s dice, hits on %(f)s or less", {n: num(x.strength), f: num(x.firepower)});
        cell.append(blk);
      });
      grid.append(cell);
    });
  });
  box.append(grid);
  const res = b.reserves || {};
  box.append(el("p", t("Reserves: %(caesar)s %(c)s · %(pompeius)s %(p)s", {caesar: side("Caesar"), c: num(res.Caesar || 0),
    pompeius: side("Pompeius"), p: num(res.Pompeius || 0)}), "reserves"));
  if ((b.own_reserves || []).length) {
    box.append(el("p", t("My reserves: %(list)s", {list: b.own_reserves.map((r) => r.name + " " + r.strength).join(", ")}), "reserves own"));
  }
  if (b.pending_hits) box.append(el("p", t("Hits to take: %(n)s", {n: num(b.pending_hits)}), "hits"));
  const dice = el("ol", undefined, "dice-log");
  b.dice.slice().reverse().forEach((r) => {
    const li = el("li");
    li.append(el("span", r.name ? t("Round %(round)s, %(block)s: ", {round: num(r.round), block: r.name})
      : t("Round %(round)s, a block of %(side)s: ", {round: num(r.round), side: side(r.side)})));
    // Each die apart, in the text as on the screen ("5 5", never "55").
    r.faces.forEach((f, i) => {
      if (i) li.append(" ");
      li.append(el("span", String(f), "die printed" + (r.hits_on && f <= r.hits_on ? " hit" : "")));
    });
    li.append(el("span", " — " + t("hits: %(n)s", {n: num(r.hits)})));
    dice.append(li);
  });
  box.append(dice);
}

export const battlePane = {slice: (s) => [s.battle], render: renderBattle};

// The TV's page (web_ui/templates/public.html): the public state, rendered pane by pane.
import {$, downloadLinks, el, main, side, t} from "./core.js";
import {run} from "./page.js";
import {bannerPane} from "./banner.js";
import {battlePane} from "./battle.js";
import {mapPane, tablePane} from "./board.js";
import {botPane, logPane} from "./history.js";
import {newGamePane} from "./newgame.js";
import {pairCode} from "./pairing.js";
import {statusPane} from "./status.js";

// On the table's screen, a code for each side waiting for a device (fetched anew when it expires,
// though the game did not change); on any other TV page, only which sides wait and where their
// codes are (no browser but the table's screen is ever sent one).
let pairingTimer = null;
function renderPairing(state) {
  const p = $("pairing");
  p.replaceChildren();
  const codes = state.pairing || {};
  Object.keys(codes).forEach((name) => p.append(pairCode(name, codes[name], t("Pair %(side)s", {side: side(name)}))));
  if (!state.screen) {
    (state.waiting || []).forEach((name) => p.append(el("p", t("%(side)s waits for a device: its pairing code is on the table's screen and on the Pi's terminal (rubicon pair %(name)s).", {side: side(name), name: name}), "waiting")));
  }
  const left = Object.keys(codes).map((n) => codes[n].expires_in);
  clearTimeout(pairingTimer);
  if (left.length) {
    pairingTimer = setTimeout(() => fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => r.json())
      .then(renderPairing).catch(() => {}), (Math.min(...left) + 1) * 1000);
  }
}

// The end of the game: every block revealed, the record to download.
function renderFinal(state) {
  const fin = $("final");
  fin.replaceChildren();
  fin.hidden = !state.final;
  if (!state.final) return;
  fin.append(el("h2", t("Game over: every block revealed")));
  Object.keys(state.final).forEach((name) => {
    const byLoc = {};
    state.final[name].forEach((b) => { (byLoc[b.location] = byLoc[b.location] || []).push(b); });
    const list = el("ul", undefined, "locations final-" + name.toLowerCase());
    Object.keys(byLoc).sort().forEach((loc) => list.append(el("li", t("%(location)s: %(blocks)s",
      {location: loc, blocks: byLoc[loc].map((b) => b.block + " " + b.strength).join(", ")}))));
    fin.append(el("h3", side(name)), list);
  });
  fin.append(downloadLinks("record"));
}

// The TV's large-text mode: kept in the URL (?large=1) and in localStorage.
function setupLarge() {
  const toggle = $("large");
  if (!toggle) return;
  const url = new URL(window.location.href);
  let on = url.searchParams.has("large") ? url.searchParams.get("large") === "1" : localStorage.getItem("rubicon.large") === "1";
  const apply = () => {
    document.body.classList.toggle("large", on);
    document.documentElement.classList.toggle("large", on);
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = on ? t("Normal text") : t("Large text");
  };
  toggle.addEventListener("click", () => {
    on = !on;
    localStorage.setItem("rubicon.large", on ? "1" : "0");
    url.searchParams.set("large", on ? "1" : "0");
    window.history.replaceState(null, "", url.toString());
    apply();
  });
  apply();
}

setupLarge();
run([
  statusPane, bannerPane, mapPane, logPane, botPane, newGamePane, battlePane, tablePane,
  {slice: (s) => [s.pairing, s.waiting, s.screen], render: renderPairing},
  {slice: (s) => [s.final], render: renderFinal},
]);

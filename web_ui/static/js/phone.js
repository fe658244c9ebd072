// The phone's page (web_ui/templates/player.html): its side's private state, rendered pane by pane.
import {$, act, button, card, el, main, notSent, num, page, post, showMessage, side, t} from "./core.js";
import {run} from "./page.js";
import {askPane, bannerPane} from "./banner.js";
import {battlePane} from "./battle.js";
import {mapPane, tablePane} from "./board.js";
import {botPane, logPane} from "./history.js";
import {newGamePane} from "./newgame.js";
import {pairCode} from "./pairing.js";
import {promptsPane} from "./prompts.js";
import {statusPane} from "./status.js";

// His hand, his chosen card, his blocks and levy pool.
function renderOwn(state) {
  const v = state.view;
  const hand = $("hand");
  hand.replaceChildren(...(v.hand || []).map((c) => el("li", card(c), "card")));
  $("chosen").textContent = v.chosen ? t("Chosen (not yet revealed): %(card)s", {card: card(v.chosen)}) : "";
  const byLoc = {};
  (v.own_blocks || []).forEach((b) => { (byLoc[b.location] = byLoc[b.location] || []).push(b); });
  const blocks = $("blocks");
  blocks.replaceChildren();
  // Beside the map, at a size read at arm's length: each place, its blocks with label and strength.
  Object.keys(byLoc).sort().forEach((loc) => {
    const p = el("p", null, "own-loc");
    p.append(el("strong", loc));
    byLoc[loc].forEach((b) => {
      const chip = el("span", null, "chip" + (b.moved ? " moved" : ""));
      chip.append(el("span", b.block.replace(/^[CP] /, ""), "blabel"), el("span", num(b.strength), "strength"));
      if (b.moved) chip.append(el("span", t("moved this turn"), "moved-note"));
      p.append(chip);
    });
    blocks.append(p);
  });
  $("pool").textContent = (v.own_levy_pool || []).map((k) => k.replace(/^[CP] /, "")).join(", ");
}

// A phone: its side's devices, one more invited from here, the asks to join it (each with the
// number the asking device shows: the player lets it join only if that device shows the same).
function renderDevices(state) {
  const box = $("devices");
  if (!box) return;
  const pairing = state.pairing || {};
  const asks = pairing.asks || [];
  const ask = $("pair-ask");
  ask.replaceChildren();
  ask.hidden = !asks.length;
  asks.forEach((a) => {
    const number = a.number.slice(0, 3) + " " + a.number.slice(3);
    ask.append(el("p", t("A device asks to join your side (%(label)s). It shows the number %(number)s. Let it join only if the device in front of you shows this same number.", {label: a.label, number: number})));
    const yes = button(t("Same number: let it join"), null, "choice approve");
    const no = button(t("No"), null, "choice decline");
    yes.addEventListener("click", () => act("", main.dataset.pairApprove, {id: a.id}));
    no.addEventListener("click", () => act("", main.dataset.pairDecline, {id: a.id}));
    ask.append(yes, no);
  });
  $("device-count").textContent = t("Devices paired with your side: %(n)s", {n: num(pairing.devices || 0)});
  // The code shown works once: a device paired since used it (nothing else pairs without one).
  if (invitedWith !== null && (pairing.devices || 0) > invitedWith) closeInvite();
}

// The invite code shown here: the number of devices when it was shown (null: none shown), and the
// timer that takes it down when it expires.
let invitedWith = null;
let inviteTimer = null;
function closeInvite() {
  invitedWith = null;
  if (inviteTimer) clearTimeout(inviteTimer);
  inviteTimer = null;
  $("invite").replaceChildren();
  $("invite").hidden = true;
}

async function invite() {
  const shown = $("invite");
  try {
    const answer = await post(main.dataset.pairInvite);
    if (!answer.ok) { showMessage(answer.refusal.text, true); return; }
    shown.replaceChildren(pairCode(answer.side, answer, t("Pair another device for %(side)s", {side: side(answer.side)})),
      el("p", t("Scan it with the other device: it works once, for %(n)s minutes.", {n: num(Math.round(answer.expires_in / 60))})));
    shown.hidden = false;
    const state = page.state || {};
    invitedWith = (state.pairing || {}).devices || 0;
    if (inviteTimer) clearTimeout(inviteTimer);
    inviteTimer = setTimeout(closeInvite, answer.expires_in * 1000);
  } catch (e) {
    notSent();
  }
}

async function forget() {
  await act("", main.dataset.pairForget, {});
  window.location.reload();
}

$("invite-button").addEventListener("click", invite);
$("forget-button").addEventListener("click", forget);
const undoButton = $("undo");
undoButton.addEventListener("click", () => act("", undoButton.dataset.url));

run([
  statusPane, bannerPane, askPane, mapPane, logPane, botPane, newGamePane, battlePane,
  {slice: (s) => [s.can_undo], render: (s) => { undoButton.hidden = !s.can_undo; }},
  tablePane,
  {slice: (s) => [s.view.hand, s.view.chosen, s.view.own_blocks, s.view.own_levy_pool], render: renderOwn},
  {slice: (s) => [s.pairing], render: renderDevices},
  promptsPane,
]);

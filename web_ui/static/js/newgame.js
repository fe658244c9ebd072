// A new game, or an unfinished one taken up again: asked on a phone (after a confirmation that
// says the game stays in the journal), accepted on the other (the Pi's side has no say), shown on
// the TV; the previous game's record.

import {$, act, downloadLinks, el, main, mode, num, page, sides, t} from "./core.js";

let confirming = false;   // this phone asked to end the game: the confirmation is open
let listed = null;        // the journal's unfinished games, fetched when the confirmation opens

function vote(box, agree, text, cls, game) {
  const b = el("button", text, cls);
  b.type = "button";
  b.addEventListener("click", async () => {
    confirming = false;
    await act("", $("newgame").dataset.url, game === undefined || game === null ? {agree: agree} : {agree: agree, game: game});
    renderNewGame(page.state);     // the confirmation closes, whether or not the state changed what this pane reads
  });
  return b;
}

function offerText(offer, who) {
  return offer.game ? t("%(who)s offers to take up game %(number)s again (this one stays in the journal)",
    {who: who, number: num(offer.game)})
    : t("%(who)s offers a new game (this one stays in the journal)", {who: who});
}

// The offer standing, at the top of the phone: Accept or Decline (or Withdraw for the one who asked).
function renderOffer(state, offer) {
  const top = $("newgame-ask");
  if (!top) return;
  top.replaceChildren();
  const me = main.dataset.side;
  if (offer && offer.agreed.indexOf(me) >= 0) {
    top.append(el("p", offer.game ? t("You offered to take up game %(number)s again: waiting for %(who)s to accept",
      {number: num(offer.game), who: sides(offer.waiting)})
      : t("You offered a new game: waiting for %(who)s to accept", {who: sides(offer.waiting)})),
    vote(top, false, t("Withdraw the offer"), "big"));
  } else if (offer) {
    top.append(el("p", offerText(offer, sides(offer.agreed))),
      vote(top, true, offer.game ? t("Accept: take up game %(number)s again", {number: num(offer.game)})
        : t("Accept: start a new game"), "big", offer.game), " ", vote(top, false, t("Decline"), "big"));
  }
  top.hidden = !top.childElementCount;
}

async function openConfirm(state) {
  confirming = true;
  listed = null;
  renderNewGame(state);
  try {
    const r = await fetch(main.dataset.games, {credentials: "same-origin"});
    listed = r.ok ? (await r.json()).games : [];
  } catch (e) {
    listed = [];
  }
  if (confirming) renderNewGame(state);
}

// Ending the game asks first, and says what becomes of it (it stays in the journal, and can be
// taken up again from here); the unfinished games of the journal are offered beside a new one.
function renderConfirm(state, box) {
  const alone = (state.voters || []).length <= 1;    // against the Pi: no one else to agree
  const lang = document.documentElement.lang === "xx" ? "en" : document.documentElement.lang;
  box.append(el("h2", t("End this game?")),
    el("p", t("This game stays in the journal: it can be taken up again from this page.")),
    vote(box, true, alone ? t("Yes: start a new game") : t("Yes: offer a new game (the other side must accept)"),
      "big danger"));
  (listed || []).forEach((g) => {
    const when = new Date(g.created * 1000).toLocaleString(lang || "en", {dateStyle: "medium", timeStyle: "short"});
    box.append(el("p", t("Game %(number)s, begun %(when)s — actions so far: %(n)s",
      {number: num(g.game), when: when, n: num(g.lines)}), "game-listed"),
    vote(box, true, alone ? t("Yes: take up game %(number)s again", {number: num(g.game)})
      : t("Yes: offer to take up game %(number)s again", {number: num(g.game)}), "choice", g.game));
  });
  const keep = el("button", t("No, keep playing"), "big");
  keep.type = "button";
  keep.addEventListener("click", () => { confirming = false; renderNewGame(state); });
  box.append(keep);
}

// A new game: offered on a phone, accepted on the other (the Pi's side has no say); the TV says
// who asked and who is awaited. The game being played stays in the journal; a finished one's
// record stays downloadable after the new game started.
export function renderNewGame(state) {
  const box = $("newgame");
  if (!box) return;
  const notes = state.notes || {};
  const offer = notes.new_game;
  const over = !!state.result;
  box.replaceChildren();
  if (mode === "player") {
    renderOffer(state, offer);
    if (offer) confirming = false;
    if (confirming) {
      renderConfirm(state, box);
    } else if (!offer) {
      const b = el("button", over ? t("Start a new game") : t("End this game…"), over ? "big" : "quiet");
      b.type = "button";
      b.addEventListener("click", () => (over ? act("", box.dataset.url, {agree: true}) : openConfirm(state)));
      box.append(b);
    }
  } else if (offer) {
    box.append(el("p", offer.game
      ? t("%(who)s asks to take up game %(number)s again: waiting for %(waiting)s to accept on the phone",
        {who: sides(offer.agreed), number: num(offer.game), waiting: sides(offer.waiting)})
      : t("%(who)s asks for a new game: waiting for %(waiting)s to accept on the phone",
        {who: sides(offer.agreed), waiting: sides(offer.waiting)})));
  } else if (over) {
    box.append(el("p", t("A new game: press “Start a new game” on the phones")));
  }
  if (notes.previous_game) {
    box.append(el("h3", t("The previous game")), downloadLinks("/record/" + notes.previous_game.game_id));
  }
  box.hidden = !box.childElementCount;
}

export const newGamePane = {slice: (s) => [(s.notes || {}).new_game, (s.notes || {}).previous_game, !!s.result,
  s.voters], render: renderNewGame};

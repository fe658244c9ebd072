// A new game: offered and accepted on the phones, shown on the TV; the previous game's record.

import {$, act, downloadLinks, el, main, mode, sides, t} from "./core.js";

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
    const me = main.dataset.side;
    const vote = (agree, text, cls) => {
      const b = el("button", text, cls);
      b.type = "button";
      b.addEventListener("click", () => act("", box.dataset.url, {agree: agree}));
      return b;
    };
    if (offer && offer.agreed.indexOf(me) >= 0) {
      box.append(el("p", t("You offered a new game: waiting for %(who)s to accept", {who: sides(offer.waiting)})),
        vote(false, t("Withdraw the offer"), "big"));
    } else if (offer) {
      box.append(el("p", t("%(who)s offers a new game (this one stays in the journal)", {who: sides(offer.agreed)})),
        vote(true, t("Accept: start a new game"), "big"), " ", vote(false, t("Decline"), "big"));
    } else {
      box.append(vote(true, over ? t("Start a new game") : t("Offer a new game (the other side must accept)"),
        over ? "big" : "quiet"));
    }
  } else if (offer) {
    box.append(el("p", t("%(who)s asks for a new game: waiting for %(waiting)s to accept on the phone",
      {who: sides(offer.agreed), waiting: sides(offer.waiting)})));
  } else if (over) {
    box.append(el("p", t("A new game: press “Start a new game” on the phones")));
  }
  if (notes.previous_game) {
    box.append(el("h3", t("The previous game")), downloadLinks("/record/" + notes.previous_game.game_id));
  }
  box.hidden = !box.childElementCount;
}

export const newGamePane = {slice: (s) => [(s.notes || {}).new_game, (s.notes || {}).previous_game, !!s.result],
  render: renderNewGame};

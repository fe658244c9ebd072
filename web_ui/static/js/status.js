// The header: the year, turn and phase, what the game waits for, the last action (server-made text).
import {$, main, mode, num, phase, side, sides, t} from "./core.js";

// What the game waits for: the table's words in the reader's language (web_ui/i18n/localize.py)
// when it gives them, else from `pending`: "Pompeius: battle turn in Roma, round 1 (7.2)".
export function waitingLine(state) {
  if (state.table && state.table.waiting_text) return state.table.waiting_text;
  const p = state.pending || [];
  if (!p.length) return t("waiting for %(who)s", {who: sides(state.waiting_for || [])});
  return t("waiting for %(who)s", {who: p.map((d) => d.text).join("; ")});
}

export function status(state) {
  const v = state.view || {};
  const parts = [];
  if (v.year) parts.push(t("%(year)s · turn %(turn)s · %(phase)s", {year: v.year, turn: num(v.turn), phase: phase(v.phase)}));
  if (state.result) {
    parts.push(state.result.winner ? t("Game over: %(winner)s wins", {winner: side(state.result.winner)})
      : t("Game over: a draw"));
  } else if (state.problem) {
    parts.push(t("The table cannot go on: %(problem)s", {problem: state.problem}));
  } else {
    parts.push(waitingLine(state));
  }
  // An offer this phone must answer is said first (its Accept is at the top of the page).
  const offer = (state.notes || {}).new_game;
  if (offer && mode === "player" && offer.waiting.indexOf(main.dataset.side) >= 0) {
    parts.unshift(offer.game ? t("%(who)s offers to take up game %(number)s again: accept or decline at the top",
      {who: sides(offer.agreed), number: num(offer.game)})
      : t("%(who)s offers a new game: accept or decline at the top", {who: sides(offer.agreed)}));
  }
  $("status").textContent = parts.join(" — ");
  const log = state.log || [];
  const last = $("last");
  if (last) last.textContent = log.length ? t("Last: %(text)s", {text: log[log.length - 1].line_text}) : "";
}

export const statusPane = {
  slice: (s) => [(s.view || {}).year, (s.view || {}).turn, (s.view || {}).phase, s.result, s.problem,
    s.table && s.table.waiting_text, s.pending, s.waiting_for, (s.log || []).slice(-1), (s.notes || {}).new_game],
  render: status,
};

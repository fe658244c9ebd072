// The page's loop: the state fetched, then the live stream (SSE); each pane re-rendered only when
// the part of the state it reads changed (its `slice`), not every pane on every snapshot.
import {heard, main, page, setConn, settleMessage, t} from "./core.js";
import {follow} from "./stream.js";

// A pane: {slice(state) -> what it reads (compared as JSON), render(state)}.
export function run(panes) {
  const seen = new Map();
  let epoch = null;
  function render(state) {
    heard();        // the table answers: a "Not sent" of before is over
    // A new epoch: the server restarted (a power cut) and counts its versions from the start again.
    if (state.epoch !== epoch) { epoch = state.epoch; page.version = -1; seen.clear(); }
    if (state.version <= page.version) return;
    page.version = state.version;
    page.state = state;
    settleMessage(state.version);
    panes.forEach((pane) => {
      const key = JSON.stringify(pane.slice(state));
      if (seen.get(pane) === key) return;
      seen.set(pane, key);
      pane.render(state);
    });
  }

  const {connect} = follow({state: main.dataset.state, stream: main.dataset.stream}, render, setConn, t);
  fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => r.json()).then(render).finally(connect);
}

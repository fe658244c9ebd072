// The page's loop: the state fetched, then the live stream (SSE); each pane re-rendered only when
// the part of the state it reads changed (its `slice`), not every pane on every snapshot.
import {main, page, setConn, settleMessage, t} from "./core.js";

// A pane: {slice(state) -> what it reads (compared as JSON), render(state)}.
export function run(panes) {
  const seen = new Map();
  let epoch = null;
  function render(state) {
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

  // On an error the page opens a new stream itself instead of the browser's own retry: that retry
  // sends the last version seen, which a restarted server has not reached yet (it would wait for
  // it), and it gives up for good at a refusal. The state is fetched first: a phone that was
  // unpaired meanwhile reloads (and says so), any other answer is rendered, then streamed.
  let retryMs = 1000;
  let retryTimer = null;
  function retry() {
    if (!retryTimer) retryTimer = setTimeout(reconnect, retryMs);
    retryMs = Math.min(retryMs * 2, 8000);
  }
  function reconnect() {
    retryTimer = null;
    fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => {
      if (r.status === 401) { window.location.reload(); return null; }
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then((state) => { if (state) { render(state); connect(); } }).catch(retry);
  }
  function connect() {
    const source = new EventSource(main.dataset.stream);
    source.addEventListener("open", () => { retryMs = 1000; setConn(t("live"), true); });
    source.addEventListener("snapshot", (e) => render(JSON.parse(e.data)));
    source.addEventListener("unpaired", () => { source.close(); window.location.reload(); });
    source.addEventListener("error", () => {
      setConn(t("reconnecting…"), false);
      source.close();
      retry();
    });
  }
  fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => r.json()).then(render).finally(connect);
}

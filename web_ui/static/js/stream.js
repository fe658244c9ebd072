// Following the table's live stream (SSE), for every page that has one: the phones, the TV and the
// virtual table. On an error the page opens a new stream itself instead of the browser's own retry:
// that retry sends the last version seen, which a restarted server has not reached yet (it would
// wait for it), and it gives up for good at a refusal. The state is fetched first (a browser that
// was unpaired meanwhile reloads, and says so), rendered, then streamed; the wait between attempts
// doubles up to 8 s. This module imports nothing: a classic page can use it as well as the modules.

// `urls`: {state, stream}; `render(state)`; `setConn(text, ok)`; `t` the page's catalog lookup;
// `failed()`: what the page says while the table does not answer (optional). Returns
// {reconnect, connect}: fetch-then-stream, or the stream alone.
export function follow(urls, render, setConn, t, failed) {
  let retryMs = 1000;
  let retryTimer = null;
  function retry() {
    if (!retryTimer) retryTimer = setTimeout(reconnect, retryMs);
    retryMs = Math.min(retryMs * 2, 8000);
  }
  function reconnect() {
    retryTimer = null;
    fetch(urls.state, {credentials: "same-origin", headers: {"Accept": "application/json"}}).then((r) => {
      if (r.status === 401) { window.location.reload(); return null; }
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then((state) => { if (state) { render(state); connect(); } }).catch(() => {
      if (failed) failed();
      retry();
    });
  }
  function connect() {
    const source = new EventSource(urls.stream);
    source.addEventListener("open", () => { retryMs = 1000; setConn(t("live"), true); });
    source.addEventListener("snapshot", (e) => render(JSON.parse(e.data)));
    source.addEventListener("unpaired", () => { source.close(); window.location.reload(); });
    source.addEventListener("error", () => {
      setConn(t("reconnecting…"), false);
      source.close();
      retry();
    });
  }
  return {reconnect, connect};
}

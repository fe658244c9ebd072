// What every page module shares: the page's <main> and its data-* URLs, the DOM helpers, the
// catalog's t() (the page embeds its language's catalog: web_ui/i18n/views.py; the texts of game
// data come made by the server, web_ui/i18n), the answer line and the one way to send a request.
export const main = document.querySelector("main");
export const mode = main.dataset.mode;
const csrf = document.querySelector('meta[name="csrf-token"]').content;
export const $ = (id) => document.getElementById(id);
export const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};

const CATALOG = JSON.parse((document.getElementById("i18n") || {}).textContent || "{}");
const LANG = document.documentElement.lang === "xx" ? "en" : (document.documentElement.lang || "en");
export const fill = (text, params) => text.replace(/%\((\w+)\)s/g, (m, k) => (params && k in params ? String(params[k]) : m));
export const t = (key, params) => fill(Object.prototype.hasOwnProperty.call(CATALOG, key) ? CATALOG[key] : key, params);
export const num = (n) => (typeof n === "number" ? new Intl.NumberFormat(LANG).format(n) : String(n));
export const card = (c) => CATALOG["card:" + c] || c;
export const side = (s) => CATALOG["side:" + s] || s;
export const phase = (p) => CATALOG["phase:" + p] || p;
export const sides = (list) => (list.length ? list.map(side).join(", ") : t("nobody"));
// Hide a placeholder-less param: t() leaves a missing one visible as %(name)s.
export const orBlank = (x) => (x === undefined || x === null ? "" : x);

// The page's latest state (page.js keeps it): its version goes with every action sent.
export const page = {version: -1, state: null};

export function setConn(text, ok) {
  const c = $("conn");
  c.textContent = text;
  c.className = "conn " + (ok ? "ok" : "down");
  if (ok) heard();
}

// The answer to this page's own request: said until the table's state moves past the version it
// answered at (a refusal the table keeps as a live message is shown with the others instead). A
// request that never reached the table ("Not sent") is said until the table is heard again: the
// live stream open, or a state received.
let messageUntil = null;
let unheard = false;
export function showMessage(text, bad, version) {
  const m = $("message");
  if (!m) return;
  messageUntil = text && version !== undefined ? version : null;
  unheard = false;
  m.hidden = !text;
  m.textContent = text || "";
  m.className = "message" + (bad ? " bad" : "");
}
export function notSent() {
  showMessage(t("Not sent: the connection to the table is down. Try again."), true);
  unheard = true;
}
export function heard() {
  if (unheard) showMessage("");
}
export function settleMessage(version) {
  if (messageUntil !== null && version > messageUntil) showMessage("");
}

let busy = false;
export async function act(line, url, body) {
  if (busy) return;             // a second tap while the first is on its way is not a second answer
  busy = true;
  try {
    const resp = await fetch(url || main.dataset.act, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
      body: JSON.stringify(body || {line: line, version: page.version}),
    });
    const answer = await resp.json();
    // A refusal the table keeps as a live message (answer.message) is in the banner already.
    showMessage(answer.ok || answer.message ? "" : answer.refusal.text, !answer.ok, answer.version);
    return answer;
  } catch (e) {
    notSent();
    return null;
  } finally {
    busy = false;
  }
}

// A POST of this page's own (pairing invite): the CSRF header, the JSON answer.
export async function post(url) {
  const resp = await fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}, body: "{}"});
  return resp.json();
}

export function button(label, line, cls) {
  const b = el("button", label, cls || "choice");
  b.type = "button";
  if (line) {
    b.dataset.line = line;
    b.addEventListener("click", () => act(line));
  }
  return b;
}

// A game's record as text and as a save: `base` + ".txt" / ".json" (web_ui/public.py).
export function downloadLinks(base) {
  const links = el("p", undefined, "downloads");
  [["txt", t("Download the record (text)")], ["json", t("Download the save (JSON)")]].forEach(([ext, text]) => {
    const a = el("a", text, "big");
    a.href = base + "." + ext;
    a.setAttribute("download", "");
    links.append(a, " ");
  });
  return links;
}

// The virtual table: blocks drawn on the map where they stand; tap a block to lift it and tap a
// location or tray to set it down. Each change goes to the server, which turns it into the sensor
// events the real readers would send. Labels come from the server only for this browser's side.
"use strict";
(function () {
  const main = document.querySelector("main");
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const svg = document.querySelector("svg.map");
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const NS = "http://www.w3.org/2000/svg";
  // Texts through t(): the page embeds its language's catalog (web_ui/i18n/views.py).
  const CATALOG = JSON.parse((document.getElementById("i18n") || {}).textContent || "{}");
  const fill = (text, params) => text.replace(/%\((\w+)\)s/g, (m, k) => (params && k in params ? String(params[k]) : m));
  const t = (key, params) => fill(Object.prototype.hasOwnProperty.call(CATALOG, key) ? CATALOG[key] : key, params);
  const side = (s) => CATALOG["side:" + s] || s;
  const who = (b) => (b.label ? t("%(side)s %(block)s", {side: side(b.side), block: b.label})
    : t("an unnamed block of %(side)s", {side: side(b.side)}));
  let selected = null;
  let last = "";
  let shown = "";

  function message(text, bad) {
    const m = $("message");
    m.hidden = !text;
    m.textContent = text || "";
    m.className = "message" + (bad ? " bad" : "");
  }

  function status(state) {
    const part = state.table;
    const parts = [];
    if (part && part.waiting_text) parts.push(part.waiting_text);
    else if (state.pending && state.pending.length) {
      parts.push(t("waiting for %(who)s", {who: state.pending.map((d) => d.text).join("; ")}));
    }
    // The waiting line names the board's first instruction already when the board holds play up.
    const first = part && part.instructions && part.instructions.length ? part.instructions[0].text : "";
    if (first && !parts.some((p) => p.includes(first))) parts.push(first);
    $("status").textContent = parts.join(" — ") || "…";
    // The table's latest live word to this side (a refused placement, a reader that went silent),
    // the latest first; gone once resolved (rubicon/table/feedback.py), so gone here too.
    const said = part && part.messages && part.messages.length ? part.messages[0].text : "";
    if (said !== shown) { shown = said; message(said, !!said); }
  }

  function blockButton(b) {
    const short = b.label || (b.side === "Caesar" ? "C" : "P");
    const btn = el("button", short, "vblock " + b.side.toLowerCase() + (b.token === selected ? " selected" : "") +
      (b.movable === false ? " fixed" : ""));
    btn.dataset.token = b.token;
    btn.setAttribute("aria-label", t("%(block)s in %(at)s", {block: who(b), at: b.at}));
    return btn;
  }

  function renderMap(blocks) {
    svg.querySelectorAll("g.vblocks").forEach((g) => g.remove());
    const at = {};
    blocks.forEach((b) => { (at[b.at] = at[b.at] || []).push(b); });
    svg.querySelectorAll("g.loc").forEach((g) => {
      const here = at[g.dataset.name] || [];
      const c = g.querySelector("circle");
      const x = +c.getAttribute("cx"), y = +c.getAttribute("cy");
      const group = document.createElementNS(NS, "g");
      group.setAttribute("class", "vblocks");
      here.forEach((b, i) => {
        const r = document.createElementNS(NS, "g");
        // "fixed": a block this browser may not handle (the other side's): the server refuses it.
        r.setAttribute("class", "vblock " + b.side.toLowerCase() + (b.token === selected ? " selected" : "") +
          (b.movable === false ? " fixed" : ""));
        r.dataset.token = b.token;
        const col = i % 4, row = Math.floor(i / 4);
        const bx = x - 62 + col * 32, by = y + 40 + row * 32;
        const rect = document.createElementNS(NS, "rect");
        rect.setAttribute("x", bx); rect.setAttribute("y", by);
        rect.setAttribute("width", 28); rect.setAttribute("height", 28); rect.setAttribute("rx", 4);
        r.append(rect);
        if (b.label) {
          const label = document.createElementNS(NS, "text");
          label.setAttribute("x", bx + 14); label.setAttribute("y", by + 20);
          label.setAttribute("class", "vlabel");
          label.textContent = b.label.replace(/^(Legio|Auxilia|Navis|Equitatus) /, (m, w) => w[0]);
          r.append(label);
        }
        const title = document.createElementNS(NS, "title");
        title.textContent = who(b);
        r.append(title);
        group.append(r);
      });
      g.after(group);
    });
  }

  function renderTrays(state) {
    const box = $("side-trays");
    box.replaceChildren();
    state.places.filter((p) => p.kind === "levy_pool" || p.kind === "eliminated").forEach((p) => {
      const tray = el("div", undefined, "tray");
      tray.dataset.place = p.key;
      tray.append(el("h2", p.kind === "levy_pool" ? t("the levy pool of %(side)s", {side: side(p.side)})
        : t("the eliminated blocks of %(side)s", {side: side(p.side)})));
      tray.append(el("div", undefined, "blocks"));
      box.append(tray);
    });
    document.querySelectorAll(".tray").forEach((tray) => {
      const list = tray.querySelector(".blocks");
      list.replaceChildren();
      state.blocks.filter((b) => b.at === tray.dataset.place).forEach((b) => list.append(blockButton(b)));
    });
  }

  function render(state) {
    const key = JSON.stringify([state.blocks, state.table, state.pending, selected]);
    if (key === last) return;
    last = key;
    status(state);
    renderMap(state.blocks);
    renderTrays(state);
  }

  async function post(url, body) {
    const r = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await r.json().catch(() => ({ ok: false, refusal: { text: t("the table did not answer (%(status)s)", {status: r.status}) } }));
    if (!data.ok) {
      message((data.refusal && data.refusal.text) || "refused", true);
      return null;
    }
    message("");
    return data;
  }

  async function refresh() {
    try {
      const r = await fetch(main.dataset.state, { credentials: "same-origin", headers: { "Accept": "application/json" } });
      if (r.ok) render(await r.json());
    } catch (e) {
      $("status").textContent = t("the table does not answer: is rubicon run still running?");
    }
  }

  async function setDown(place) {
    const token = selected;
    selected = null;
    last = "";
    if (await post(main.dataset.move, { token: token, to: place })) await refresh();
  }

  // Where a block node stands: its tray's place, or the map location its group follows.
  function placeOf(node) {
    const tray = node.closest(".tray");
    if (tray) return tray.dataset.place;
    const group = node.closest("g.vblocks");
    const loc = group && group.previousElementSibling;
    return loc && loc.classList.contains("loc") ? loc.dataset.name : null;
  }

  // Tapping a block on the board lifts it (the readers see it leave) and holds it; tapping a place
  // (a location, a tray, or a block standing there) sets the held block down. Several blocks may be
  // held at once, as at a real table: tap one in hand to choose which goes down next.
  document.addEventListener("click", async (ev) => {
    const block = ev.target.closest("[data-token]");
    if (block) {
      const place = placeOf(block);
      if (place === "hand" || block.dataset.token === selected) {
        selected = block.dataset.token === selected ? null : block.dataset.token;
        last = "";
        refresh();
      } else if (selected) {
        await setDown(place);
      } else if (await post(main.dataset.move, { token: block.dataset.token, to: "hand" })) {
        selected = block.dataset.token;
        last = "";
        refresh();
      }
      return;
    }
    const loc = ev.target.closest("g.loc");
    const tray = ev.target.closest(".tray");
    if (selected && (loc || tray)) { await setDown(loc ? loc.dataset.name : tray.dataset.place); return; }
    const roll = ev.target.closest("button.roll");
    if (roll) {
      const data = await post(main.dataset.roll, { count: +roll.dataset.count });
      if (data) $("faces").textContent = t("Rolled: %(faces)s", {faces: data.faces.join(" ")});
      refresh();
      return;
    }
    const press = ev.target.closest("button.press");
    if (press && await post(main.dataset.press, { button: press.dataset.button })) refresh();
  });

  refresh();
  // The board changes from other browsers too; a light poll keeps this page in step.
  setInterval(refresh, 1500);
})();

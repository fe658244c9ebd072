// Rubicon's phone and TV pages: render the JSON state this viewer may see, live over SSE.
// No library, no external request. Everything shown comes from the server's per-viewer state.
"use strict";
(function () {
  const main = document.querySelector("main");
  const mode = main.dataset.mode;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  let version = -1;
  let busy = false;

  function setConn(text, ok) {
    const c = $("conn");
    c.textContent = text;
    c.className = "conn " + (ok ? "ok" : "down");
  }

  function showMessage(text, bad) {
    const m = $("message");
    if (!m) return;
    m.hidden = !text;
    m.textContent = text || "";
    m.className = "message" + (bad ? " bad" : "");
  }

  // What the game waits for, as this viewer may see it: "Pompeius: battle-turn (7.2)".
  function waitingLine(state) {
    const p = state.pending || [];
    if (!p.length) return "waiting for " + (state.waiting_for.join(" and ") || "nobody");
    return "waiting for " + p.map((d) => d.actor + ": " + d.kind.replace(/-/g, " ") + " (" + d.rule + ")").join("; ");
  }

  function status(state) {
    const v = state.view || {};
    const parts = [];
    if (v.year) parts.push(v.year + " · turn " + v.turn + " · " + v.phase);
    if (state.result) {
      parts.push("Game over: " + (state.result.winner || "draw") + " (" + state.result.reason + ")");
    } else if (state.problem) {
      parts.push(state.problem);
    } else {
      parts.push(waitingLine(state));
    }
    $("status").textContent = parts.join(" — ");
  }

  function renderTable(v) {
    const t = $("table");
    t.replaceChildren();
    if (!v.vp) return;
    t.append(el("p", "VP: Caesar " + v.vp.Caesar + " · Pompeius " + v.vp.Pompeius +
      (v.player1 ? " · Player 1: " + v.player1 : "")));
    (v.revealed || []).forEach((r) => t.append(el("p", "Turn " + r.turn + ": Caesar " + r.Caesar +
      ", Pompeius " + r.Pompeius + (r.cancelled ? " (cancelled)" : ""))));
    if (v.fight) {
      const f = v.fight;
      t.append(el("p", "Battle in " + f.location + ", round " + f.round + " (attacker " + f.attacker + ")", "battle"));
      if (f.last_roll) t.append(el("p", "Dice: " + f.last_roll.faces.join(" ") + " — hits " + f.last_roll.hits));
    }
    const list = el("ul", undefined, "locations");
    Object.keys(v.locations || {}).sort().forEach((name) => {
      const entry = v.locations[name];
      const sides = Object.keys(entry).map((s) => s + " " + entry[s].blocks).join(", ");
      list.append(el("li", name + ": " + sides));
    });
    t.append(list);
  }

  function renderPlayer(state) {
    const v = state.view;
    const hand = $("hand");
    hand.replaceChildren(...(v.hand || []).map((c) => el("li", c, "card")));
    $("chosen").textContent = v.chosen ? "Chosen (not yet revealed): " + v.chosen : "";
    const byLoc = {};
    (v.own_blocks || []).forEach((b) => { (byLoc[b.location] = byLoc[b.location] || []).push(b); });
    const blocks = $("blocks");
    blocks.replaceChildren();
    Object.keys(byLoc).sort().forEach((loc) => {
      const p = el("p");
      p.append(el("strong", loc + ": "));
      p.append(byLoc[loc].map((b) => b.block.replace(/^[CP] /, "") + " " + b.strength).join(", "));
      blocks.append(p);
    });
    $("pool").textContent = (v.own_levy_pool || []).map((k) => k.replace(/^[CP] /, "")).join(", ");
    const actions = $("actions");
    actions.replaceChildren();
    const legal = state.legal || [];
    if (!legal.length) {
      actions.append(el("p", state.result ? "The game is over." : "Nothing to do: waiting for " +
        (state.waiting_for.join(" and ") || "nobody") + "."));
    }
    const groups = {};
    legal.forEach((line) => {
      const verb = line.split(" ")[1];
      (groups[verb] = groups[verb] || []).push(line);
    });
    Object.keys(groups).forEach((verb) => {
      const box = el("div", undefined, "choices");
      groups[verb].forEach((line) => {
        const b = el("button", line.split(" ").slice(1).join(" "), "choice");
        b.type = "button";
        b.dataset.line = line;
        b.addEventListener("click", () => act(line));
        box.append(b);
      });
      actions.append(box);
    });
  }

  function renderPublic(state) {
    const p = $("pairing");
    p.replaceChildren();
    Object.keys(state.pairing || {}).forEach((side) => {
      const box = el("div", undefined, "pair-code");
      box.append(el("h2", "Pair " + side));
      const img = el("img");
      img.src = state.pairing[side].qr;
      img.alt = "QR code to pair " + side;
      box.append(img);
      const a = el("a", state.pairing[side].link);
      a.href = state.pairing[side].link;
      box.append(a);
      p.append(box);
    });
  }

  // Each location's label: blocks per side ("C3 P2"); a phone adds its own blocks' strengths.
  function renderMap(state) {
    const v = state.view || {};
    const own = {};
    (v.own_blocks || []).forEach((b) => { (own[b.location] = own[b.location] || []).push(b.strength); });
    document.querySelectorAll("svg.map g.loc").forEach((g) => {
      const name = g.dataset.name;
      const entry = (v.locations || {})[name] || {};
      const parts = [];
      if (entry.Caesar) parts.push("C" + entry.Caesar.blocks + (entry.Caesar.moved ? "*" : ""));
      if (entry.Pompeius) parts.push("P" + entry.Pompeius.blocks + (entry.Pompeius.moved ? "*" : ""));
      if (own[name]) parts.push("(" + own[name].join(",") + ")");
      g.querySelector(".count").textContent = parts.join(" ");
      g.classList.toggle("held-c", !!entry.Caesar && !entry.Pompeius);
      g.classList.toggle("held-p", !!entry.Pompeius && !entry.Caesar);
      g.classList.toggle("contested", !!entry.Caesar && !!entry.Pompeius);
    });
  }

  function render(state) {
    if (state.version <= version) return;
    version = state.version;
    status(state);
    renderMap(state);
    renderLog(state);
    const undo = $("undo");
    if (undo) undo.hidden = !state.can_undo;
    renderTable(state.view || {});
    if (mode === "player") renderPlayer(state); else renderPublic(state);
  }

  // The log as this viewer saw it, newest first.
  function renderLog(state) {
    const log = $("log");
    if (!log) return;
    log.replaceChildren(...(state.log || []).slice().reverse().map((e) => {
      const li = el("li", e.text);
      li.value = e.index + 1;
      return li;
    }));
  }

  async function act(line, url) {
    if (busy) return;             // a second tap while the first is on its way is not a second answer
    busy = true;
    try {
      const resp = await fetch(url || main.dataset.act, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
        body: JSON.stringify({line: line, version: version}),
      });
      const body = await resp.json();
      showMessage(body.ok ? "" : body.refusal.text, !body.ok);
    } catch (e) {
      showMessage("Not sent: the connection to the table is down. Try again.", true);
    } finally {
      busy = false;
    }
  }

  function connect() {
    const source = new EventSource(main.dataset.stream);
    source.addEventListener("open", () => setConn("live", true));
    source.addEventListener("snapshot", (e) => render(JSON.parse(e.data)));
    source.addEventListener("unpaired", () => { source.close(); window.location.reload(); });
    source.addEventListener("error", () => setConn("reconnecting…", false));
  }

  const undoButton = $("undo");
  if (undoButton) undoButton.addEventListener("click", () => act("", undoButton.dataset.url));

  fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => r.json()).then(render)
    .finally(connect);
})();

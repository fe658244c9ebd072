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
  // Every text shown goes through t(): the page embeds its language's catalog (web_ui/i18n/views.py).
  const CATALOG = JSON.parse((document.getElementById("i18n") || {}).textContent || "{}");
  const LANG = document.documentElement.lang === "xx" ? "en" : (document.documentElement.lang || "en");
  const fill = (text, params) => text.replace(/%\((\w+)\)s/g, (m, k) => (params && k in params ? String(params[k]) : m));
  const t = (key, params) => fill(Object.prototype.hasOwnProperty.call(CATALOG, key) ? CATALOG[key] : key, params);
  const num = (n) => (typeof n === "number" ? new Intl.NumberFormat(LANG).format(n) : String(n));
  const card = (c) => CATALOG["card:" + c] || c;
  const side = (s) => CATALOG["side:" + s] || s;
  const phase = (p) => CATALOG["phase:" + p] || p;
  const sides = (list) => (list.length ? list.map(side).join(", ") : t("nobody"));

  // A legal action's line (notation, English: the record's language) as this reader's button label.
  const B = "((?:[CP] )?[A-Z][a-z]+(?: \\d+)?)";
  const ACTIONS = [
    [/^discards (.+)$/, t("discards %(card)s"), ["card"]],
    [/^plays (.+)$/, t("plays %(card)s"), ["card"]],
    [new RegExp("^moves " + B + " (.+)$"), t("moves %(block)s %(path)s"), ["block", "path"]],
    [/^declares main attack on (.+) from (.+)$/, t("declares main attack on %(location)s from %(origin)s"), ["location", "origin"]],
    [new RegExp("^levies " + B + " in (.+)$"), t("levies %(block)s in %(location)s"), ["block", "location"]],
    [/^adds a step to (.+)$/, t("adds a step to %(block)s"), ["block"]],
    [/^ends command$/, t("ends command"), []],
    [/^takes back$/, t("takes back"), []],
    [/^invokes (\w+) on (.+)$/, t("invokes %(card)s on %(location)s"), ["card", "location"]],
    [new RegExp("^sends " + B + " to (.+)$"), t("sends %(block)s to %(location)s"), ["block", "location"]],
    [/^fights (.+) with (\w+)$/, t("fights %(location)s with %(card)s"), ["location", "card"]],
    [/^fights (.+)$/, t("fights %(location)s"), ["location"]],
    [/^fires (.+)$/, t("fires %(block)s"), ["block"]],
    [/^passes (.+)$/, t("passes %(block)s"), ["block"]],
    [/^takes the hit on (.+)$/, t("takes the hit on %(block)s"), ["block"]],
    [new RegExp("^retreats " + B + " nowhere$"), t("retreats %(block)s nowhere"), ["block"]],
    [new RegExp("^retreats " + B + " by sea to (.+)$"), t("retreats %(block)s by sea to %(location)s"), ["block", "location"]],
    [new RegExp("^retreats " + B + " to (.+)$"), t("retreats %(block)s to %(location)s"), ["block", "location"]],
    [new RegExp("^regroups " + B + " to (.+)$"), t("regroups %(block)s to %(location)s"), ["block", "location"]],
    [/^ends regroup$/, t("ends regroup"), []],
    [new RegExp("^winters " + B + " in (.+)$"), t("winters %(block)s in %(location)s"), ["block", "location"]],
    [/^disbands (.+)$/, t("disbands %(block)s"), ["block"]],
    [/^ends disbanding$/, t("ends disbanding"), []],
    [/^deals .+$/, t("deals the cards"), []],
    [/^rolls (.+)$/, t("rolls %(dice)s"), ["dice"]],
    [/^picks (.+)$/, t("picks %(block)s"), ["block"]],
  ];
  function label(rest) {
    for (const [re, template, names] of ACTIONS) {
      const m = re.exec(rest);
      if (!m) continue;
      const params = {};
      names.forEach((n, i) => { params[n] = n === "card" ? card(m[i + 1].charAt(0).toUpperCase() + m[i + 1].slice(1)) : m[i + 1]; });
      return fill(template, params);
    }
    return rest;
  }
  // "Caesar plays 2/1" -> "César: juega 2/1" (the actor as the reader names him).
  function describe(line) {
    const i = line.indexOf(" ");
    if (i < 0) return line;
    const actor = line.slice(0, i);
    const who = actor === "Chance" ? t("the table") : side(actor);
    return t("%(actor)s: %(action)s", {actor: who, action: label(line.slice(i + 1))});
  }

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

  // What the game waits for, as this viewer may see it: "Pompeius: battle turn in Roma, round 1 (7.2)".
  function waitingLine(state) {
    const p = state.pending || [];
    if (!p.length) return t("waiting for %(who)s", {who: sides(state.waiting_for || [])});
    return t("waiting for %(who)s", {who: p.map((d) => d.text).join("; ")});
  }

  function status(state) {
    const v = state.view || {};
    const parts = [];
    if (v.year) parts.push(t("%(year)s · turn %(turn)s · %(phase)s", {year: v.year, turn: num(v.turn), phase: phase(v.phase)}));
    if (state.result) {
      parts.push(state.result.winner ? t("Game over: %(winner)s wins", {winner: side(state.result.winner)})
        : t("Game over: a draw"));
    } else if (state.problem) {
      parts.push(t("The table cannot go on: %(problem)s", {problem: state.problem}));
    } else {
      parts.push(state.table && state.table.waiting_text ? state.table.waiting_text : waitingLine(state));
    }
    $("status").textContent = parts.join(" — ");
  }

  function renderTable(v) {
    const box = $("table");
    box.replaceChildren();
    if (!v.vp) return;
    box.append(el("p", t("VP: %(caesar)s %(cvp)s · %(pompeius)s %(pvp)s", {caesar: side("Caesar"), cvp: num(v.vp.Caesar),
      pompeius: side("Pompeius"), pvp: num(v.vp.Pompeius)})));
    if (v.player1) box.append(el("p", t("Player 1: %(side)s", {side: side(v.player1)})));
    (v.revealed || []).forEach((r) => {
      const p = {turn: num(r.turn), caesar: side("Caesar"), ccard: card(r.Caesar), pompeius: side("Pompeius"), pcard: card(r.Pompeius)};
      box.append(el("p", r.cancelled ? t("Turn %(turn)s: %(caesar)s %(ccard)s, %(pompeius)s %(pcard)s (cancelled)", p)
        : t("Turn %(turn)s: %(caesar)s %(ccard)s, %(pompeius)s %(pcard)s", p)));
    });
    if (v.fight) {
      const f = v.fight;
      box.append(el("p", t("Battle in %(location)s, round %(round)s (attacker %(attacker)s)", {location: f.location,
        round: num(f.round), attacker: side(f.attacker)}), "battle"));
      if (f.last_roll) box.append(el("p", t("Dice: %(faces)s — hits %(hits)s", {faces: f.last_roll.faces.join(" "), hits: num(f.last_roll.hits)})));
    }
    const list = el("ul", undefined, "locations");
    Object.keys(v.locations || {}).sort().forEach((name) => {
      const entry = v.locations[name];
      const blocks = Object.keys(entry).map((s) => t("%(side)s %(blocks)s", {side: side(s), blocks: num(entry[s].blocks)})).join(", ");
      list.append(el("li", t("%(location)s: %(blocks)s", {location: name, blocks: blocks})));
    });
    box.append(list);
  }

  // The table's part: what to put right on the board (first is current) and its latest messages.
  function renderBoard(part) {
    if (!part) return;
    const box = $("table");
    const items = (part.instructions || []).map((i, n) => el("li", i.text, n === 0 ? "current" : undefined));
    if (items.length) box.prepend(el("h3", t("On the board")), Object.assign(el("ol", undefined, "board"), {}));
    const list = box.querySelector("ol.board");
    if (list) list.replaceChildren(...items);
    (part.messages || []).forEach((m) => box.prepend(el("p", m.text, "message bad")));
  }

  function renderPlayer(state) {
    const v = state.view;
    const hand = $("hand");
    hand.replaceChildren(...(v.hand || []).map((c) => el("li", card(c), "card")));
    $("chosen").textContent = v.chosen ? t("Chosen (not yet revealed): %(card)s", {card: card(v.chosen)}) : "";
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
      actions.append(el("p", state.result ? t("The game is over.") : t("Nothing to do: waiting for %(who)s.",
        {who: sides(state.waiting_for || [])})));
    }
    const groups = {};
    legal.forEach((line) => {
      const verb = line.split(" ")[1];
      (groups[verb] = groups[verb] || []).push(line);
    });
    Object.keys(groups).forEach((verb) => {
      const box = el("div", undefined, "choices");
      groups[verb].forEach((line) => {
        const b = el("button", label(line.split(" ").slice(1).join(" ")), "choice");
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
    Object.keys(state.pairing || {}).forEach((name) => {
      const box = el("div", undefined, "pair-code");
      box.append(el("h2", t("Pair %(side)s", {side: side(name)})));
      const img = el("img");
      img.src = state.pairing[name].qr;
      img.alt = t("QR code to pair %(side)s", {side: side(name)});
      box.append(img);
      const a = el("a", state.pairing[name].link);
      a.href = state.pairing[name].link;
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
    renderBoard(state.table);
    if (mode === "player") renderPlayer(state); else renderPublic(state);
  }

  // The log as this viewer saw it, newest first.
  function renderLog(state) {
    const log = $("log");
    if (!log) return;
    log.replaceChildren(...(state.log || []).slice().reverse().map((e) => {
      const said = (e.said || []).join("; ");
      const li = el("li", said ? t("%(action)s — %(effects)s", {action: describe(e.text), effects: said}) : describe(e.text));
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
      showMessage(t("Not sent: the connection to the table is down. Try again."), true);
    } finally {
      busy = false;
    }
  }

  function connect() {
    const source = new EventSource(main.dataset.stream);
    source.addEventListener("open", () => setConn(t("live"), true));
    source.addEventListener("snapshot", (e) => render(JSON.parse(e.data)));
    source.addEventListener("unpaired", () => { source.close(); window.location.reload(); });
    source.addEventListener("error", () => setConn(t("reconnecting…"), false));
  }

  const undoButton = $("undo");
  if (undoButton) undoButton.addEventListener("click", () => act("", undoButton.dataset.url));

  fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => r.json()).then(render)
    .finally(connect);
})();

// Rubicon's phone and TV pages: render the JSON state this viewer may see, live over SSE.
// No library, no external request. Everything shown comes from the server's per-viewer state.
// Every text a person reads goes through t() (a catalog delivered to the page replaces it).
"use strict";
(function () {
  const main = document.querySelector("main");
  const mode = main.dataset.mode;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  // t("Fire %(block)s", {block: "Legio 8"}): the one door for texts (catalog: window.RUBICON_CATALOG).
  const catalog = window.RUBICON_CATALOG || {};
  function t(text, params) {
    const s = catalog[text] || text;
    return params ? s.replace(/%\((\w+)\)s/g, (m, k) => (params[k] === undefined || params[k] === null ? "" : String(params[k]))) : s;
  }
  let version = -1;
  let busy = false;
  let picked = null;        // the block chosen in the move prompt: {block, from}
  let pickedDest = null;    // its destination when several paths lead there
  let pickedLevy = null;    // the block from the levy pool chosen before its city

  const KIND_TITLE = {
    "discard": "Discard one card for the year", "play": "Play a card for this turn",
    "command": "Your command", "jupiter-target": "Jupiter: pick a city", "jupiter-send": "Jupiter: send the defector",
    "vulcan-city": "Vulcan: pick a city", "choose-battle": "Pick the next battle", "main-attack": "Main attack",
    "battle-turn": "Battle turn", "take-hit": "Which block takes the hit?", "regroup": "Regroup",
    "navis-to-port": "Navis to port", "supply": "Supply: disband blocks", "disband": "Disband blocks (optional)",
  };
  const VERB_LABEL = {
    "discard": "Discard %(card)s", "play": "Play %(card)s", "levy": "Levy %(block)s in %(place)s",
    "step": "Add a step to %(block)s", "jupiter": "Jupiter on %(place)s", "vulcan": "Vulcan on %(place)s",
    "send": "Send %(block)s to %(place)s", "fight": "Fight in %(place)s", "main": "Main attack from %(origin)s",
    "hit": "Hit %(block)s", "regroup": "Regroup %(block)s to %(place)s", "winter": "%(block)s to %(place)s",
    "disband": "Disband %(block)s", "other": "%(text)s",
  };
  const VERB_GROUP = {
    "levy": "Levies", "step": "Add steps", "jupiter": "Events", "vulcan": "Events", "main": "Main attack",
  };
  const DONE_LABEL = {
    "command": "Done: end my command", "regroup": "Done: end regroup", "disband": "Done: end disbanding",
    "jupiter-target": "Do not use Jupiter", "vulcan-city": "Do not use Vulcan",
  };

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

  function button(label, line, cls) {
    const b = el("button", label, cls || "choice");
    b.type = "button";
    if (line) {
      b.dataset.line = line;
      b.addEventListener("click", () => act(line));
    }
    return b;
  }

  // What the game waits for: the table's own words when it gives them, else from `pending`.
  function waitingLine(state) {
    if (state.table && state.table.waiting) return state.table.waiting;
    const p = state.pending || [];
    if (!p.length) {
      return t("Waiting for %(who)s", {who: (state.waiting_for || []).join(t(" and ")) || t("nobody")});
    }
    return t("Waiting for %(who)s", {who: p.map((d) => d.actor + ": " + t(KIND_TITLE[d.kind] || d.kind)).join("; ")});
  }

  function status(state) {
    const v = state.view || {};
    const parts = [];
    if (v.year) parts.push(t("%(year)s · turn %(turn)s · %(phase)s", {year: v.year, turn: v.turn, phase: t(v.phase)}));
    if (state.result) {
      parts.push(t("Game over: %(winner)s (%(reason)s)", {winner: state.result.winner || t("draw"), reason: state.result.reason}));
    } else if (state.problem) {
      parts.push(state.problem);
    } else {
      parts.push(waitingLine(state));
    }
    $("status").textContent = parts.join(" — ");
    const log = state.log || [];
    const last = $("last");
    if (last) last.textContent = log.length ? t("Last: %(text)s", {text: log[log.length - 1].text}) : "";
  }

  // The table's instructions (what to put right on the board) and messages (refusals, feedback).
  function renderBanner(state) {
    const box = $("banner");
    if (!box) return;
    box.replaceChildren();
    const tb = state.table || {};
    const ins = tb.instructions || [];
    if (ins.length) {
      box.append(el("p", ins[0].text, "instruction current"));
      if (ins.length > 1) box.append(el("p", t("then %(n)s more", {n: ins.length - 1}), "instruction more"));
    }
    (tb.messages || []).forEach((m) => box.append(el("p", m.text + (m.rule ? " (" + m.rule + ")" : ""), "message bad")));
    if (tb.dice) box.append(el("p", t("Roll %(count)s dice in the tray for %(block)s", {count: tb.dice.count, block: tb.dice.block || t("a block")}), "instruction"));
    if (mode === "player" && ins.length && main.dataset.confirm) {
      const b = button(t("The board is right: confirm it as sensed"), null, "choice confirm");
      b.addEventListener("click", () => act("", main.dataset.confirm, {}));
      box.append(b);
    }
    box.hidden = !box.childElementCount;
  }

  // A question from the table (e.g. which of two paths). Answered through the ask endpoint when
  // the page names one; until then it is shown, its options disabled.
  function renderAsk(state) {
    const box = $("ask");
    if (!box) return;
    box.replaceChildren();
    const ask = (state.table || {}).ask;
    box.hidden = !ask;
    if (!ask) return;
    box.append(el("h2", ask.prompt));
    const row = el("div", undefined, "choices");
    (ask.options || []).forEach((o) => {
      const label = typeof o === "string" ? o : (o.text || o.label || o.line);
      const value = typeof o === "string" ? o : (o.value || o.line || label);
      const b = button(label, null);
      if (main.dataset.ask) b.addEventListener("click", () => act(value, main.dataset.ask, {option: value}));
      else b.disabled = true;
      row.append(b);
    });
    box.append(row);
  }

  function renderTable(v) {
    const tb = $("table");
    tb.replaceChildren();
    if (!v.vp) return;
    tb.append(el("p", t("VP: Caesar %(c)s · Pompeius %(p)s", {c: v.vp.Caesar, p: v.vp.Pompeius}) +
      (v.player1 ? " · " + t("Player 1: %(side)s", {side: v.player1}) : ""), "vp"));
    (v.revealed || []).forEach((r) => tb.append(el("p", t("Turn %(turn)s: Caesar %(c)s, Pompeius %(p)s", {turn: r.turn, c: r.Caesar, p: r.Pompeius}) +
      (r.cancelled ? " " + t("(cancelled)") : ""), "revealed")));
    if (v.command) {
      const c = v.command;
      tb.append(el("p", t("%(side)s commands with %(card)s: moves %(mp)s/%(mpmax)s, levies %(lp)s/%(lpmax)s",
        {side: c.side, card: c.card, mp: c.mp_used, mpmax: c.mp, lp: c.lp_used, lpmax: c.lp})));
    }
    if ((v.battles || []).length) {
      const bl = el("ul", undefined, "battles");
      v.battles.forEach((b) => bl.append(el("li", t("Battle in %(loc)s (attacker %(side)s)", {loc: b.location, side: b.attacker}))));
      tb.append(bl);
    }
    const list = el("ul", undefined, "locations");
    Object.keys(v.locations || {}).sort().forEach((name) => {
      const entry = v.locations[name];
      const sides = Object.keys(entry).map((s) => s + " " + entry[s].blocks +
        (entry[s].moved ? " " + t("(%(n)s moved)", {n: entry[s].moved}) : "")).join(", ");
      list.append(el("li", name + ": " + sides));
    });
    tb.append(list);
  }

  // The battle as it is fought: columns A B C D, defender above attacker, reserves apart, every die.
  function renderBattle(state) {
    const box = $("battle");
    if (!box) return;
    box.replaceChildren();
    const b = state.battle;
    box.hidden = !b;
    if (!b) return;
    box.append(el("h2", t("Battle in %(loc)s — round %(round)s", {loc: b.location, round: b.round})));
    const grid = el("div", undefined, "battle-grid");
    grid.append(el("div", "", "corner"));
    b.columns.forEach((c) => grid.append(el("div", c.letter, "letter")));
    [["defender", b.defender], ["attacker", b.attacker]].forEach(([role, side]) => {
      grid.append(el("div", t(role === "attacker" ? "Attacker %(side)s" : "Defender %(side)s", {side: side}), "role side-" + side.toLowerCase()));
      b.columns.forEach((c) => {
        const cell = el("div", undefined, "cell");
        c[role].forEach((x) => {
          const blk = el("div", x.name + " " + x.strength, "blk side-" + x.side.toLowerCase() + (x.firing ? " firing" : ""));
          blk.title = t("fires %(n)s dice, hits on %(f)s or less", {n: x.strength, f: x.firepower});
          cell.append(blk);
        });
        grid.append(cell);
      });
    });
    box.append(grid);
    const res = b.reserves || {};
    box.append(el("p", t("Reserves: Caesar %(c)s · Pompeius %(p)s", {c: res.Caesar || 0, p: res.Pompeius || 0}), "reserves"));
    if ((b.own_reserves || []).length) {
      box.append(el("p", t("My reserves: %(list)s", {list: b.own_reserves.map((r) => r.name + " " + r.strength).join(", ")}), "reserves own"));
    }
    if (b.pending_hits) box.append(el("p", t("Hits to take: %(n)s", {n: b.pending_hits}), "hits"));
    const dice = el("ol", undefined, "dice-log");
    b.dice.slice().reverse().forEach((r) => {
      const li = el("li");
      li.append(el("span", t("Round %(round)s, %(who)s: ", {round: r.round, who: r.block || t("a %(side)s block", {side: r.side})})));
      r.faces.forEach((f) => li.append(el("span", String(f), "die" + (r.hits_on && f <= r.hits_on ? " hit" : ""))));
      li.append(el("span", " " + t("hits: %(n)s", {n: r.hits})));
      dice.append(li);
    });
    box.append(dice);
  }

  function contextLine(p) {
    const q = p.params || {};
    switch (p.kind) {
      case "command":
        return t("Card %(card)s: %(mp)s moves and %(lp)s levies left", {card: q.card || "", mp: q.mp_left, lp: q.lp_left}) +
          (q.last ? " · " + t("Last: %(text)s", {text: q.last}) : "");
      case "battle-turn":
        return t("%(loc)s, round %(round)s, initiative %(letter)s", {loc: q.location, round: q.round, letter: q.letter}) +
          (q.must_retreat ? " · " + t("must retreat") : "");
      case "take-hit": return t("%(n)s hits from %(by)s: pick among your blocks at strength %(s)s", {n: q.hits, by: q.firing, s: q.strength});
      case "regroup": return t("You won in %(loc)s: regroup or press Done", {loc: q.location});
      case "supply": return (q.cities || []).map((c) => t("%(city)s: %(over)s over the limit", {city: c.city, over: c.over})).join("; ");
      case "jupiter-send": return t("A block from %(loc)s defects: where does it go?", {loc: q.location});
      default: return "";
    }
  }

  // Moves: tap a block, then its destination, then the path when several lead there.
  function renderMoves(p, box) {
    if (!p.moves.length) return;
    box.append(el("h3", t("Move a block")));
    const current = picked && p.moves.find((m) => m.block === picked.block && m.from === picked.from);
    if (!current) {
      picked = null;
      const row = el("div", undefined, "choices blocks");
      p.moves.forEach((m) => {
        const b = button(t("%(block)s (in %(from)s)", {block: m.block, from: m.from}), null, "choice block");
        b.dataset.block = m.block;
        b.addEventListener("click", () => { picked = {block: m.block, from: m.from}; pickedDest = null; rerender(); });
        row.append(b);
      });
      box.append(row);
      return;
    }
    box.append(el("p", t("%(block)s from %(from)s to:", {block: current.block, from: current.from}), "picked"));
    const dest = pickedDest && current.to.find((d) => d.place === pickedDest);
    const row = el("div", undefined, "choices destinations");
    if (!dest) {
      current.to.forEach((d) => {
        if (d.paths.length === 1) {
          row.append(button(d.place, d.paths[0].line, "choice dest"));
        } else {
          const b = button(d.place + " …", null, "choice dest");
          b.addEventListener("click", () => { pickedDest = d.place; rerender(); });
          row.append(b);
        }
      });
    } else {
      dest.paths.forEach((path) => row.append(button(t("via %(via)s", {via: path.via.join(" – ")}), path.line, "choice path")));
    }
    const back = button(t("Back"), null, "choice back");
    back.addEventListener("click", () => { if (pickedDest) pickedDest = null; else picked = null; rerender(); });
    row.append(back);
    box.append(row);
  }

  function renderRows(p, box) {
    p.rows.forEach((r) => {
      const row = el("div", undefined, "choices battle-row");
      row.append(el("strong", r.block + (r.strength ? " " + r.strength : ""), "row-block"));
      if (r.fire) row.append(button(t("Fire"), r.fire, "choice fire"));
      if (r.pass) row.append(button(t("Pass"), r.pass, "choice pass"));
      r.retreat.forEach((x) => row.append(button(x.place ? t(x.by_sea ? "Retreat by sea to %(place)s" : "Retreat to %(place)s", {place: x.place})
        : t("Cannot retreat: eliminated"), x.line, "choice retreat")));
      box.append(row);
    });
  }

  // Levies: the block from the pool first, then the city (one tap when only one city is open).
  function renderLevies(levies, box) {
    if (!levies.length) return;
    box.append(el("h3", t("Levy a block")));
    const byBlock = {};
    levies.forEach((c) => { (byBlock[c.block] = byBlock[c.block] || []).push(c); });
    const row = el("div", undefined, "choices levies");
    if (pickedLevy && byBlock[pickedLevy]) {
      box.append(el("p", t("Levy %(block)s in:", {block: pickedLevy}), "picked"));
      byBlock[pickedLevy].forEach((c) => row.append(button(c.place, c.line, "choice levy-city")));
      const back = button(t("Back"), null, "choice back");
      back.addEventListener("click", () => { pickedLevy = null; rerender(); });
      row.append(back);
    } else {
      pickedLevy = null;
      Object.keys(byBlock).forEach((blk) => {
        const only = byBlock[blk].length === 1 ? byBlock[blk][0] : null;
        const b = button(only ? t("Levy %(block)s in %(place)s", only) : blk + " …", only ? only.line : null, "choice levy");
        if (!only) b.addEventListener("click", () => { pickedLevy = blk; rerender(); });
        row.append(b);
      });
    }
    box.append(row);
  }

  function renderChoices(p, box) {
    const groups = {};
    renderLevies(p.choices.filter((c) => c.verb === "levy"), box);
    p.choices.filter((c) => c.verb !== "levy").forEach((c) => { const g = VERB_GROUP[c.verb] || ""; (groups[g] = groups[g] || []).push(c); });
    Object.keys(groups).forEach((g) => {
      if (g) box.append(el("h3", t(g)));
      const row = el("div", undefined, "choices");
      groups[g].forEach((c) => {
        let label = t(VERB_LABEL[c.verb] || "%(text)s", c);
        if (c.verb === "fight" && c.card) label += " " + t("with %(card)s", {card: c.card});
        if (c.verb === "main") label = t("Main attack on %(place)s from %(origin)s", c);
        row.append(button(label, c.line, "choice " + c.verb));
      });
      box.append(row);
    });
  }

  let lastState = null;
  function rerender() { if (lastState) renderPrompts(lastState); }

  function renderPrompts(state) {
    const box = $("actions");
    box.replaceChildren();
    const list = state.prompts || [];
    if (!list.length) {
      box.append(el("p", state.result ? t("The game is over.") : t("Nothing to do now.") + " " + waitingLine(state), "idle"));
      return;
    }
    list.forEach((p) => {
      const sec = el("div", undefined, "prompt kind-" + p.kind);
      sec.append(el("h3", t(KIND_TITLE[p.kind] || p.kind) + " (" + p.rule + ")", "prompt-title"));
      const ctx = contextLine(p);
      if (ctx) sec.append(el("p", ctx, "context"));
      renderRows(p, sec);
      renderMoves(p, sec);
      renderChoices(p, sec);
      const end = el("div", undefined, "choices end");
      if (p.take_back) end.append(button(t("Take back my last move"), p.take_back, "choice takeback"));
      if (p.done) end.append(button(t(DONE_LABEL[p.kind] || "Done"), p.done, "choice done big"));
      if (p.kind === "command" && Object.keys((state.table || {}).devices || {}).length && main.dataset.done) {
        // At a physical table the blocks set down are the moves: Done turns them into lines.
        const b = button(t("Done: my blocks on the board are my moves"), null, "choice done-board big");
        b.addEventListener("click", () => act("", main.dataset.done, {}));
        end.append(b);
      }
      if (end.childElementCount) sec.append(end);
      box.append(sec);
    });
  }

  function renderPlayer(state) {
    const v = state.view;
    const hand = $("hand");
    hand.replaceChildren(...(v.hand || []).map((c) => el("li", c, "card")));
    $("chosen").textContent = v.chosen ? t("Chosen (not yet revealed): %(card)s", {card: v.chosen}) : "";
    const byLoc = {};
    (v.own_blocks || []).forEach((b) => { (byLoc[b.location] = byLoc[b.location] || []).push(b); });
    const blocks = $("blocks");
    blocks.replaceChildren();
    Object.keys(byLoc).sort().forEach((loc) => {
      const p = el("p");
      p.append(el("strong", loc + ": "));
      p.append(byLoc[loc].map((b) => b.block.replace(/^[CP] /, "") + " " + b.strength + (b.moved ? "*" : "")).join(", "));
      blocks.append(p);
    });
    $("pool").textContent = (v.own_levy_pool || []).map((k) => k.replace(/^[CP] /, "")).join(", ");
    renderPrompts(state);
  }

  function renderPublic(state) {
    const p = $("pairing");
    p.replaceChildren();
    Object.keys(state.pairing || {}).forEach((side) => {
      const box = el("div", undefined, "pair-code");
      box.append(el("h2", t("Pair %(side)s", {side: side})));
      const img = el("img");
      img.src = state.pairing[side].qr;
      img.alt = t("QR code to pair %(side)s", {side: side});
      box.append(img);
      const a = el("a", state.pairing[side].link);
      a.href = state.pairing[side].link;
      box.append(a);
      p.append(box);
    });
    const fin = $("final");
    fin.replaceChildren();
    fin.hidden = !state.final;
    if (!state.final) return;
    fin.append(el("h2", t("Game over: every block revealed")));
    Object.keys(state.final).forEach((side) => {
      const byLoc = {};
      state.final[side].forEach((b) => { (byLoc[b.location] = byLoc[b.location] || []).push(b); });
      const list = el("ul", undefined, "locations final-" + side.toLowerCase());
      Object.keys(byLoc).sort().forEach((loc) => list.append(el("li", loc + ": " + byLoc[loc].map((b) => b.block + " " + b.strength).join(", "))));
      fin.append(el("h3", side), list);
    });
    const links = el("p", undefined, "downloads");
    [["record.txt", t("Download the record (text)")], ["record.json", t("Download the save (JSON)")]].forEach(([href, label]) => {
      const a = el("a", label, "big");
      a.href = href;
      a.setAttribute("download", "");
      links.append(a, " ");
    });
    fin.append(links);
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
    if (version >= 0 && state.version !== version) { picked = null; pickedDest = null; pickedLevy = null; }
    version = state.version;
    lastState = state;
    status(state);
    renderBanner(state);
    renderAsk(state);
    renderMap(state);
    renderLog(state);
    renderBattle(state);
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

  async function act(line, url, body) {
    if (busy) return;             // a second tap while the first is on its way is not a second answer
    busy = true;
    try {
      const resp = await fetch(url || main.dataset.act, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
        body: JSON.stringify(body || {line: line, version: version}),
      });
      const answer = await resp.json();
      showMessage(answer.ok ? "" : answer.refusal.text, !answer.ok);
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

  // The TV's large-text mode: kept in the URL (?large=1) and in localStorage.
  function setupLarge() {
    const toggle = $("large");
    if (!toggle) return;
    const url = new URL(window.location.href);
    let on = url.searchParams.has("large") ? url.searchParams.get("large") === "1" : localStorage.getItem("rubicon.large") === "1";
    const apply = () => {
      document.body.classList.toggle("large", on);
      document.documentElement.classList.toggle("large", on);
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      toggle.textContent = on ? t("Normal text") : t("Large text");
    };
    toggle.addEventListener("click", () => {
      on = !on;
      localStorage.setItem("rubicon.large", on ? "1" : "0");
      url.searchParams.set("large", on ? "1" : "0");
      window.history.replaceState(null, "", url.toString());
      apply();
    });
    apply();
  }

  const undoButton = $("undo");
  if (undoButton) undoButton.addEventListener("click", () => act("", undoButton.dataset.url));
  setupLarge();

  fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => r.json()).then(render)
    .finally(connect);
})();

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
    if (text !== undefined && text !== null) e.textContent = text;
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

  // Hide a placeholder-less param: main's t() leaves a missing one visible as %(name)s.
  const orBlank = (x) => (x === undefined || x === null ? "" : x);

  let version = -1;
  let busy = false;
  let picked = null;        // the block chosen in the move prompt: {block, from}
  let pickedDest = null;    // its destination when several paths lead there
  let pickedLevy = null;    // the block from the levy pool chosen before its city

  // The prompts' groups (the buttons' texts are made by the server, web_ui/i18n/actions.py).
  const TYPE_GROUP = {
    "levy": t("Levies"), "add-step": t("Add steps"), "invoke-jupiter": t("Events"), "invoke-vulcan": t("Events"),
    "declare-main": t("Main attack"),
  };
  const DONE_LABEL = {
    "command": t("Done: end my command"), "regroup": t("Done: end regroup"), "disband": t("Done: end disbanding"),
    "jupiter-target": t("Do not use Jupiter"), "vulcan-city": t("Do not use Vulcan"),
  };

  function setConn(text, ok) {
    const c = $("conn");
    c.textContent = text;
    c.className = "conn " + (ok ? "ok" : "down");
  }

  // The answer to this page's own request: said until the table's state moves past the version it
  // answered at (a refusal the table keeps as a live message is shown with the others instead).
  let messageUntil = null;
  function showMessage(text, bad, version) {
    const m = $("message");
    if (!m) return;
    messageUntil = text && version !== undefined ? version : null;
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

  // What the game waits for: the table's words in the reader's language (web_ui/i18n/localize.py)
  // when it gives them, else from `pending`: "Pompeius: battle turn in Roma, round 1 (7.2)".
  function waitingLine(state) {
    if (state.table && state.table.waiting_text) return state.table.waiting_text;
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
      parts.push(waitingLine(state));
    }
    $("status").textContent = parts.join(" — ");
    const log = state.log || [];
    const last = $("last");
    if (last) last.textContent = log.length ? t("Last: %(text)s", {text: log[log.length - 1].line_text}) : "";
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
      if (ins.length > 1) box.append(el("p", t("then %(n)s more", {n: num(ins.length - 1)}), "instruction more"));
    }
    // The live messages this viewer is concerned by (rubicon/table/feedback.py): gone once resolved.
    (tb.messages || []).forEach((m) => {
      const p = el("p", m.text, "message bad");   // the text names its rule
      p.dataset.id = m.id || "";
      box.append(p);
    });
    // What Done would play now: every block set down counts, whoever's hand it was (the readers
    // cannot tell), so the player sees them all before pressing Done.
    const planned = tb.placements || [];
    if (planned.length) box.append(el("p", t("Done will play: %(lines)s", {lines: planned.map((x) => x.text).join("; ")}), "instruction planned"));
    if (tb.dice) {
      box.append(el("p", tb.dice.block ? t("Roll %(count)s dice in the tray for %(block)s", {count: num(tb.dice.count), block: tb.dice.block})
        : t("Roll %(count)s dice in the tray", {count: num(tb.dice.count)}), "instruction"));
    }
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
      const text = typeof o === "string" ? o : (o.text || o.label || o.line);
      const value = typeof o === "string" ? o : (o.value || o.line || text);
      const b = button(text, null, "choice printed");   // the candidates are block labels, as printed
      if (main.dataset.ask) b.addEventListener("click", () => act(value, main.dataset.ask, {option: value}));
      else b.disabled = true;
      row.append(b);
    });
    box.append(row);
  }

  function renderTable(v) {
    const box = $("table");
    box.replaceChildren();
    if (!v.vp) return;
    box.append(el("p", t("VP: %(caesar)s %(cvp)s · %(pompeius)s %(pvp)s", {caesar: side("Caesar"), cvp: num(v.vp.Caesar),
      pompeius: side("Pompeius"), pvp: num(v.vp.Pompeius)}), "vp"));
    if (v.player1) box.append(el("p", t("Player 1: %(side)s", {side: side(v.player1)})));
    (v.revealed || []).forEach((r) => {
      const p = {turn: num(r.turn), caesar: side("Caesar"), ccard: card(r.Caesar), pompeius: side("Pompeius"), pcard: card(r.Pompeius)};
      box.append(el("p", r.cancelled ? t("Turn %(turn)s: %(caesar)s %(ccard)s, %(pompeius)s %(pcard)s (cancelled)", p)
        : t("Turn %(turn)s: %(caesar)s %(ccard)s, %(pompeius)s %(pcard)s", p), "revealed"));
    });
    if (v.command) {
      const c = v.command;
      box.append(el("p", t("%(side)s commands with %(card)s: moves %(mp)s/%(mpmax)s, levies %(lp)s/%(lpmax)s",
        {side: side(c.side), card: card(c.card), mp: num(c.mp_used), mpmax: num(c.mp), lp: num(c.lp_used), lpmax: num(c.lp)})));
    }
    if ((v.battles || []).length) {
      const bl = el("ul", undefined, "battles");
      v.battles.forEach((b) => bl.append(el("li", t("Battle in %(location)s (attacker %(side)s)", {location: b.location, side: side(b.attacker)}))));
      box.append(bl);
    }
    const list = el("ul", undefined, "locations");
    Object.keys(v.locations || {}).sort().forEach((name) => {
      const entry = v.locations[name];
      const blocks = Object.keys(entry).map((s) => (entry[s].moved
        ? t("%(side)s %(blocks)s (%(moved)s moved)", {side: side(s), blocks: num(entry[s].blocks), moved: num(entry[s].moved)})
        : t("%(side)s %(blocks)s", {side: side(s), blocks: num(entry[s].blocks)}))).join(", ");
      list.append(el("li", t("%(location)s: %(blocks)s", {location: name, blocks: blocks})));
    });
    box.append(list);
  }

  // The battle as it is fought: columns A B C D, defender above attacker, reserves apart, every die.
  function renderBattle(state) {
    const box = $("battle");
    if (!box) return;
    box.replaceChildren();
    const b = state.battle;
    box.hidden = !b;
    if (!b) return;
    box.append(el("h2", t("Battle in %(location)s — round %(round)s", {location: b.location, round: num(b.round)})));
    const grid = el("div", undefined, "battle-grid");
    grid.append(el("div", "", "corner"));
    b.columns.forEach((c) => grid.append(el("div", c.letter, "letter printed")));
    [["defender", b.defender], ["attacker", b.attacker]].forEach(([role, who]) => {
      const title = role === "attacker" ? t("Attacker %(side)s", {side: side(who)}) : t("Defender %(side)s", {side: side(who)});
      grid.append(el("div", title, "role side-" + who.toLowerCase()));
      b.columns.forEach((c) => {
        const cell = el("div", undefined, "cell");
        c[role].forEach((x) => {
          const blk = el("div", x.name + " " + x.strength, "blk printed side-" + x.side.toLowerCase() + (x.firing ? " firing" : ""));
          blk.title = t("fires %(n)s dice, hits on %(f)s or less", {n: num(x.strength), f: num(x.firepower)});
          cell.append(blk);
        });
        grid.append(cell);
      });
    });
    box.append(grid);
    const res = b.reserves || {};
    box.append(el("p", t("Reserves: %(caesar)s %(c)s · %(pompeius)s %(p)s", {caesar: side("Caesar"), c: num(res.Caesar || 0),
      pompeius: side("Pompeius"), p: num(res.Pompeius || 0)}), "reserves"));
    if ((b.own_reserves || []).length) {
      box.append(el("p", t("My reserves: %(list)s", {list: b.own_reserves.map((r) => r.name + " " + r.strength).join(", ")}), "reserves own"));
    }
    if (b.pending_hits) box.append(el("p", t("Hits to take: %(n)s", {n: num(b.pending_hits)}), "hits"));
    const dice = el("ol", undefined, "dice-log");
    b.dice.slice().reverse().forEach((r) => {
      const li = el("li");
      li.append(el("span", r.block ? t("Round %(round)s, %(block)s: ", {round: num(r.round), block: r.block})
        : t("Round %(round)s, a block of %(side)s: ", {round: num(r.round), side: side(r.side)})));
      r.faces.forEach((f) => li.append(el("span", String(f), "die printed" + (r.hits_on && f <= r.hits_on ? " hit" : ""))));
      li.append(el("span", " " + t("hits: %(n)s", {n: num(r.hits)})));
      dice.append(li);
    });
    box.append(dice);
  }

  function contextLine(p) {
    const q = p.params || {};
    switch (p.kind) {
      case "command":
      case "command": {
        const left = t("Card %(card)s: %(mp)s moves and %(lp)s levies left", {card: card(orBlank(q.card)), mp: num(q.mp_left), lp: num(q.lp_left)});
        return q.last_text ? t("%(left)s · last: %(text)s", {left: left, text: q.last_text}) : left;
      }
      case "battle-turn": {
        const where = t("%(location)s, round %(round)s, initiative %(letter)s", {location: q.location, round: num(q.round), letter: q.letter});
        return q.must_retreat ? t("%(where)s · must retreat", {where: where}) : where;
      }
      case "take-hit": return t("%(n)s hits from %(by)s: pick among your blocks at strength %(s)s",
        {n: num(q.hits), by: orBlank(q.firing), s: num(q.strength)});
      case "regroup": return t("You won in %(location)s: regroup or press Done", {location: q.location});
      case "supply": return (q.cities || []).map((c) => t("%(city)s: %(over)s over the limit", {city: c.city, over: num(c.over)})).join("; ");
      case "jupiter-send": return t("A block from %(location)s defects: where does it go?", {location: q.location});
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
          row.append(button(t("to %(place)s", {place: d.place}), d.paths[0].line, "choice dest"));
        } else {
          const b = button(t("to %(place)s …", {place: d.place}), null, "choice dest");
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
      row.append(el("strong", r.block + (r.strength ? " " + r.strength : ""), "row-block printed"));
      if (r.fire) row.append(button(t("Fire"), r.fire, "choice fire"));
      if (r.pass) row.append(button(t("Pass"), r.pass, "choice pass"));
      r.retreat.forEach((x) => {
        const text = !x.place ? t("Cannot retreat: eliminated")
          : x.by_sea ? t("Retreat by sea to %(place)s", {place: x.place}) : t("Retreat to %(place)s", {place: x.place});
        row.append(button(text, x.line, "choice retreat"));
      });
      box.append(row);
    });
  }

  // Levies: the block from the pool first, then the city (one tap when only one city is open).
  function renderLevies(levies, box) {
    if (!levies.length) return;
    box.append(el("h3", t("Levy a block")));
    const byBlock = {};
    levies.forEach((c) => { (byBlock[c.params.block] = byBlock[c.params.block] || []).push(c); });
    const row = el("div", undefined, "choices levies");
    if (pickedLevy && byBlock[pickedLevy]) {
      box.append(el("p", t("Levy %(block)s in:", {block: pickedLevy}), "picked"));
      byBlock[pickedLevy].forEach((c) => row.append(button(t("in %(place)s", {place: c.params.location}), c.line, "choice levy-city")));
      const back = button(t("Back"), null, "choice back");
      back.addEventListener("click", () => { pickedLevy = null; rerender(); });
      row.append(back);
    } else {
      pickedLevy = null;
      Object.keys(byBlock).forEach((blk) => {
        const only = byBlock[blk].length === 1 ? byBlock[blk][0] : null;
        const b = button(only ? only.text : t("Levy %(block)s …", {block: blk}), only ? only.line : null, "choice levy");
        if (!only) b.addEventListener("click", () => { pickedLevy = blk; rerender(); });
        row.append(b);
      });
    }
    box.append(row);
  }

  function renderChoices(p, box) {
    const groups = {};
    renderLevies(p.choices.filter((c) => c.type === "levy"), box);
    p.choices.filter((c) => c.type !== "levy").forEach((c) => { const g = TYPE_GROUP[c.type] || ""; (groups[g] = groups[g] || []).push(c); });
    Object.keys(groups).forEach((g) => {
      if (g) box.append(el("h3", g));
      const row = el("div", undefined, "choices");
      groups[g].forEach((c) => row.append(button(c.text, c.line, "choice " + c.type)));
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
      box.append(el("p", state.result ? t("The game is over.") : t("Nothing to do now: %(waiting)s", {waiting: waitingLine(state)}), "idle"));
      return;
    }
    list.forEach((p) => {
      const sec = el("div", undefined, "prompt kind-" + p.kind);
      sec.append(el("h3", t("%(title)s (%(rule)s)", {title: p.title, rule: p.rule}), "prompt-title"));
      const ctx = contextLine(p);
      if (ctx) sec.append(el("p", ctx, "context"));
      renderRows(p, sec);
      renderMoves(p, sec);
      renderChoices(p, sec);
      const end = el("div", undefined, "choices end");
      if (p.take_back) end.append(button(t("Take back my last move"), p.take_back, "choice takeback"));
      if (p.done) end.append(button(DONE_LABEL[p.kind] || t("Done"), p.done, "choice done big"));
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
    hand.replaceChildren(...(v.hand || []).map((c) => el("li", card(c), "card")));
    $("chosen").textContent = v.chosen ? t("Chosen (not yet revealed): %(card)s", {card: card(v.chosen)}) : "";
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
    renderDevices(state);
    renderPrompts(state);
  }

  // A one-time pairing code: its QR code and its link (on the TV, or on a phone inviting a device).
  function pairCode(name, code, title) {
    const box = el("div", undefined, "pair-code");
    box.append(el("h2", title));
    const img = el("img");
    img.src = code.qr;
    img.alt = t("QR code to pair %(side)s", {side: side(name)});
    box.append(img);
    const a = el("a", code.link);
    a.href = code.link;
    box.append(a);
    return box;
  }

  // The TV: a code for each side waiting for a device (fetched anew when it expires, though the game
  // did not change), and for a paired side the way to ask for a new one, which that side consents to.
  let pairingTimer = null;
  function renderPairing(state) {
    const p = $("pairing");
    p.replaceChildren();
    const codes = state.pairing || {};
    Object.keys(codes).forEach((name) => p.append(pairCode(name, codes[name], t("Pair %(side)s", {side: side(name)}))));
    Object.keys(state.renewal || {}).forEach((name) => {
      if (state.renewal[name] === "requested") {
        p.append(el("p", t("A new pairing code for %(side)s is shown here once %(side)s agrees: Done on that side's panel or virtual table, or on its phone.", {side: side(name)}), "renewal"));
      } else {
        const b = button(t("New pairing code for %(side)s", {side: side(name)}), null, "choice renewal");
        b.addEventListener("click", () => act("", main.dataset.pairRequest.replace("SIDE", encodeURIComponent(name)), {}));
        p.append(b);
      }
    });
    const left = Object.keys(codes).map((n) => codes[n].expires_in);
    clearTimeout(pairingTimer);
    if (left.length) {
      pairingTimer = setTimeout(() => fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => r.json())
        .then(renderPairing).catch(() => {}), (Math.min(...left) + 1) * 1000);
    }
  }

  // A phone: its side's devices, one more invited from here, a new code asked for at the table.
  function renderDevices(state) {
    const box = $("devices");
    if (!box) return;
    const pairing = state.pairing || {};
    const ask = $("pair-ask");
    ask.replaceChildren();
    ask.hidden = !pairing.requested;
    if (pairing.requested) {
      ask.append(el("p", t("Someone at the table asked for a new pairing code for your side. Show it on the table?")));
      ask.append(button(t("Yes, show the code"), null, "choice consent"), button(t("No"), null, "choice decline"));
      ask.querySelector(".consent").addEventListener("click", () => act("", main.dataset.pairConsent, {}));
      ask.querySelector(".decline").addEventListener("click", () => act("", main.dataset.pairDecline, {}));
    }
    $("device-count").textContent = t("Devices paired with your side: %(n)s", {n: num(pairing.devices || 0)});
  }

  async function invite() {
    const shown = $("invite");
    try {
      const resp = await fetch(main.dataset.pairInvite, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}, body: "{}"});
      const answer = await resp.json();
      if (!answer.ok) { showMessage(answer.refusal.text, true); return; }
      shown.replaceChildren(pairCode(answer.side, answer, t("Pair another device for %(side)s", {side: side(answer.side)})),
        el("p", t("Scan it with the other device: it works once, for %(n)s minutes.", {n: num(Math.round(answer.expires_in / 60))})));
      shown.hidden = false;
    } catch (e) {
      showMessage(t("Not sent: the connection to the table is down. Try again."), true);
    }
  }

  async function forget() {
    await act("", main.dataset.pairForget, {});
    window.location.reload();
  }

  function renderPublic(state) {
    renderPairing(state);
    const fin = $("final");
    fin.replaceChildren();
    fin.hidden = !state.final;
    if (!state.final) return;
    fin.append(el("h2", t("Game over: every block revealed")));
    Object.keys(state.final).forEach((name) => {
      const byLoc = {};
      state.final[name].forEach((b) => { (byLoc[b.location] = byLoc[b.location] || []).push(b); });
      const list = el("ul", undefined, "locations final-" + name.toLowerCase());
      Object.keys(byLoc).sort().forEach((loc) => list.append(el("li", t("%(location)s: %(blocks)s",
        {location: loc, blocks: byLoc[loc].map((b) => b.block + " " + b.strength).join(", ")}))));
      fin.append(el("h3", side(name)), list);
    });
    fin.append(downloadLinks("record"));
  }

  // A game's record as text and as a save: `base` + ".txt" / ".json" (web_ui/public.py).
  function downloadLinks(base) {
    const links = el("p", undefined, "downloads");
    [["txt", t("Download the record (text)")], ["json", t("Download the save (JSON)")]].forEach(([ext, text]) => {
      const a = el("a", text, "big");
      a.href = base + "." + ext;
      a.setAttribute("download", "");
      links.append(a, " ");
    });
    return links;
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

  let epoch = null;
  function render(state) {
    // A new epoch: the server restarted (a power cut) and counts its versions from the start again.
    if (state.epoch !== epoch) { epoch = state.epoch; version = -1; }
    if (state.version <= version) return;
    if (version >= 0 && state.version !== version) { picked = null; pickedDest = null; pickedLevy = null; }
    version = state.version;
    lastState = state;
    if (messageUntil !== null && version > messageUntil) showMessage("");
    status(state);
    renderBanner(state);
    renderAsk(state);
    renderMap(state);
    renderLog(state);
    renderBot(state);
    renderNewGame(state);
    renderBattle(state);
    const undo = $("undo");
    if (undo) undo.hidden = !state.can_undo;
    renderTable(state.view || {});
    if (mode === "player") renderPlayer(state); else renderPublic(state);
  }

  // A new game: offered on a phone, accepted on the other (the Pi's side has no say); the TV says
  // who asked and who is awaited. The game being played stays in the journal; a finished one's
  // record stays downloadable after the new game started.
  function renderNewGame(state) {
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

  // What the Pi did in its last turn (issue 12, explained moves): rubicon/table/bot_explain.py's
  // items, built from the public log only, each said in the reader's language.
  function renderBot(state) {
    const box = $("bot");
    if (!box) return;
    const note = (state.notes || {}).bot;
    box.hidden = !note;
    if (!note) return;
    const said = (note.items || []).map((i) => i.text);   // made by the server (web_ui/i18n/localize.py)
    box.replaceChildren(el("h2", t("%(side)s (the Pi), its last turn", {side: side(note.side)})),
      said.length ? el("ul", undefined, "bot-items") : el("p", t("nothing to do")));
    const list = box.querySelector("ul");
    if (list) said.forEach((s) => list.append(el("li", s)));
  }

  // The log as this viewer saw it, newest first.
  function renderLog(state) {
    const log = $("log");
    if (!log) return;
    log.replaceChildren(...(state.log || []).slice().reverse().map((e) => {
      const said = (e.said || []).join("; ");
      const li = el("li", said ? t("%(action)s — %(effects)s", {action: e.line_text, effects: said}) : e.line_text);
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
      // A refusal the table keeps as a live message (answer.message) is in the banner already.
      showMessage(answer.ok || answer.message ? "" : answer.refusal.text, !answer.ok, answer.version);
    } catch (e) {
      showMessage(t("Not sent: the connection to the table is down. Try again."), true);
    } finally {
      busy = false;
    }
  }

  // The live stream. On an error the page opens a new one itself instead of the browser's own retry:
  // that retry sends the last version seen, which a restarted server has not reached yet (it would
  // wait for it), and it gives up for good at a refusal. The state is fetched first: a phone that
  // was unpaired meanwhile reloads (and says so), any other answer is rendered, then streamed.
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

  if ($("invite-button")) $("invite-button").addEventListener("click", invite);
  if ($("forget-button")) $("forget-button").addEventListener("click", forget);
  const undoButton = $("undo");
  if (undoButton) undoButton.addEventListener("click", () => act("", undoButton.dataset.url));
  setupLarge();

  fetch(main.dataset.state, {credentials: "same-origin"}).then((r) => r.json()).then(render)
    .finally(connect);
})();
